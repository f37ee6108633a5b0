//! Bots sit in seats like people: when a bot's seat (or a resigned seat) must decide,
//! a task of the game asks the bot for a choice on a blocking thread (never on the
//! runtime's workers), within the per-move time budget, and submits it through the
//! same checked path as a person's action.
//!
//! A bot sees only its seat's view and its legal actions (both unchanged by hidden
//! facts, which the engine harness checks), so it cannot cheat.
//!
//! A bot that goes round in circles (a rule that lets a player undo and redo a step
//! without end, as H-20 once did) would write to the game's log for ever. So a bot
//! seat decides on its own judgement at most
//! [`bot_turn_decisions`](crate::config::Config::bot_turn_decisions) times in a game
//! turn; past that it ends every phase it can ([`pass_choice`]), and the server logs a
//! warning naming the game.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::error::ApiError;
use crate::hub::{Hub, Slot, Submitter};

/// A bot: picks one of the legal actions from what its seat sees.
pub trait Bot: Send + Sync {
    /// The index of the chosen action in `legal` (never empty), decided before
    /// `deadline`.
    fn choose(&self, view: &Value, legal: &[Value], deadline: Instant) -> usize;
}

/// Picks uniformly among the legal actions, with randomness from the OS.
pub struct RandomBot;

impl Bot for RandomBot {
    fn choose(&self, _view: &Value, legal: &[Value], _deadline: Instant) -> usize {
        let mut bytes = [0u8; 8];
        // Without OS randomness, the first legal action is still a legal choice.
        if getrandom::fill(&mut bytes).is_err() {
            return 0;
        }
        (u64::from_le_bytes(bytes) % legal.len() as u64) as usize
    }
}

/// How a game family's bot reads the JSON it is given: the seat's view, and the game's
/// public setup (the session's setup without its position: the scenario and options,
/// which every seat knows).
pub trait ReadView: ai::AiGame {
    /// The typed view, or `None` if the JSON does not read as one.
    fn read_view(view: &Value, public_setup: Option<&Value>) -> Option<Self::View>;
}

impl ReadView for viktory::Viktory {
    fn read_view(view: &Value, _public_setup: Option<&Value>) -> Option<viktory::View> {
        serde_json::from_value(view.clone()).ok()
    }
}

impl ReadView for avl::Avl {
    /// The view's position alone cannot be played on: the bot rebuilds states with the
    /// game's rules, compiled here from the public setup (a view read from JSON carries
    /// none, and without them the bot would fall back on the first legal action).
    fn read_view(view: &Value, public_setup: Option<&Value>) -> Option<avl::View> {
        let mut typed: avl::View = serde_json::from_value(view.clone()).ok()?;
        if let Some(setup) = public_setup {
            let mut setup: avl::Setup = serde_json::from_value(setup.clone()).ok()?;
            setup.position = None;
            let start = avl::Avl::from_setup(&setup).ok()?;
            typed.set_rules(std::sync::Arc::clone(start.shared_rules()));
        }
        Some(typed)
    }
}

/// Plays a game family's typed bot for a level: the JSON view and actions are read
/// back into the game's own types, and the level's bot from the `ai` crate chooses,
/// thinking until shortly before the deadline.
pub struct LevelBot<G> {
    level: ai::Level,
    public_setup: Option<Value>,
    memory: ai::TurnMemory,
    game: std::marker::PhantomData<fn() -> G>,
}

impl<G> LevelBot<G> {
    /// The bot of `level`, for a game with this public setup ([`ReadView`]), counting
    /// the player turn in the seat's `memory` (its thinking time against
    /// [`ai::AiGame::turn_cap`], and its search tree).
    pub fn new(level: ai::Level, public_setup: Option<Value>, memory: ai::TurnMemory) -> Self {
        LevelBot {
            level,
            public_setup,
            memory,
            game: std::marker::PhantomData,
        }
    }
}

impl<G: ReadView> Bot for LevelBot<G> {
    fn choose(&self, view: &Value, legal: &[Value], deadline: Instant) -> usize {
        let Some(view) = G::read_view(view, self.public_setup.as_ref()) else {
            return 0;
        };
        let Ok(actions) = legal
            .iter()
            .map(|a| serde_json::from_value::<G::Action>(a.clone()))
            .collect::<Result<Vec<_>, _>>()
        else {
            return 0;
        };
        if actions.is_empty() {
            return 0;
        }
        // A forced decision too is the bot's (it returns at once), so that a search
        // tree it keeps for the player turn follows the game.
        // Keep a margin for reading the answer back and submitting it.
        let time = deadline
            .saturating_duration_since(Instant::now())
            .saturating_sub(Duration::from_millis(150));
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
        let mut bot = self
            .level
            .bot_with_memory::<G>(time, threads, None, self.memory.clone());
        let mut seed = [0u8; 8];
        // Without OS randomness a fixed stream still gives a fair choice.
        let _ = getrandom::fill(&mut seed);
        let mut rng = engine::GameRng::from_u64(u64::from_le_bytes(seed));
        bot.choose(&view, &actions, &mut rng).min(actions.len() - 1)
    }
}

/// Whether a family's bots need the game's public setup ([`ReadView`]).
pub fn needs_setup(game: &str) -> bool {
    game == <avl::Avl as engine::Game>::NAME
}

/// The public part of a session's setup: everything but the position, which may hold
/// hidden facts (the other side's chits).
pub fn public_setup(mut setup: Value) -> Value {
    if let Value::Object(m) = &mut setup {
        m.remove("position");
    }
    setup
}

/// The bot for a level of a game family; levels the family has no bot for play
/// randomly. `public_setup` is [`public_setup`] of the session's setup, for the families
/// that need it ([`needs_setup`]); `memory` is what the seat's bot keeps of the player
/// turn ([`ai::TurnMemory`]).
pub fn for_level(
    game: &str,
    level: &str,
    public_setup: Option<Value>,
    memory: ai::TurnMemory,
) -> Box<dyn Bot> {
    match (game, level.parse::<ai::Level>()) {
        (_, Ok(ai::Level::Random) | Err(_)) => Box::new(RandomBot),
        (<viktory::Viktory as engine::Game>::NAME, Ok(level)) => {
            Box::new(LevelBot::<viktory::Viktory>::new(level, None, memory))
        }
        (<avl::Avl as engine::Game>::NAME, Ok(level)) => {
            Box::new(LevelBot::<avl::Avl>::new(level, public_setup, memory))
        }
        _ => Box::new(RandomBot),
    }
}

/// Starts the game's bot task unless one is running.
pub(crate) fn kick(hub: &Arc<Hub>, slot: &Arc<Slot>) {
    if hub.shutting_down() || slot.bot_running.swap(true, Ordering::AcqRel) {
        return;
    }
    let hub = Arc::clone(hub);
    let slot = Arc::clone(slot);
    hub.bots_in_flight.fetch_add(1, Ordering::AcqRel);
    tokio::spawn(async move {
        loop {
            match play(&hub, &slot).await {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => {
                    tracing::warn!(game = %slot.id, error = ?e.parts().1.message, "bot stopped");
                    break;
                }
            }
        }
        slot.bot_running.store(false, Ordering::Release);
        hub.bots_in_flight.fetch_sub(1, Ordering::AcqRel);
        // A person's action may have handed the move to a bot while this task was
        // finishing: look once more.
        if !hub.shutting_down() && needs_bot(&hub, &slot).await {
            kick(&hub, &slot);
        }
    });
}

async fn needs_bot(hub: &Hub, slot: &Slot) -> bool {
    match hub.lock(slot).await {
        Ok(guard) => guard
            .as_ref()
            .and_then(crate::hub::Live::bot_to_move)
            .is_some(),
        Err(_) => false,
    }
}

/// Plays one bot decision if a bot must decide; returns whether it did.
async fn play(hub: &Arc<Hub>, slot: &Arc<Slot>) -> Result<bool, ApiError> {
    if hub.shutting_down() {
        return Ok(false);
    }
    let (seat, version, view, legal, level, game, setup, memory, decided) = {
        let mut guard = hub.lock(slot).await?;
        let Some(live) = guard.as_mut() else {
            return Ok(false);
        };
        let Some(seat) = live.bot_to_move() else {
            return Ok(false);
        };
        let turn = live.session.game_turn();
        let decided = live
            .bot_decisions
            .get_mut(usize::from(seat.0))
            .map_or(0, |count| count_decision(count, turn));
        let level = live.seats[usize::from(seat.0)]
            .bot_level
            .clone()
            .unwrap_or_else(|| "random".into());
        let game = live.session.game();
        (
            seat,
            live.session.version(),
            live.session.view(Some(seat)),
            live.session.legal(),
            level,
            game,
            needs_setup(game).then(|| public_setup(live.session.setup())),
            live.bot_memories
                .get(usize::from(seat.0))
                .cloned()
                .unwrap_or_default(),
            decided,
        )
    };
    if legal.is_empty() {
        return Ok(false);
    }
    if !hub.config.bot_delay.is_zero() {
        tokio::time::sleep(hub.config.bot_delay).await;
    }
    let choice = if decided > hub.config.bot_turn_decisions {
        if decided == hub.config.bot_turn_decisions + 1 {
            tracing::warn!(
                game = %slot.id,
                seat = seat.0,
                decisions = hub.config.bot_turn_decisions,
                "a bot reached its decisions in this game turn; it ends every phase it can"
            );
        }
        // Not the bot's choice: its kept tree no longer follows the game.
        memory.forget_tree();
        let i = pass_choice(game, &legal).unwrap_or(0);
        legal[i].clone()
    } else {
        let bot = for_level(game, &level, setup, memory.clone());
        choose(bot, view, legal, hub.config.bot_budget).await
    };
    match hub
        .submit(&slot.id, Submitter::Bot(seat), version, choice)
        .await
    {
        Ok(_) => Ok(true),
        // Someone else moved first (another process's bot): the choice was not played,
        // so the tree kept for it is of no use; look again.
        Err(ApiError::Reject(protocol::RejectReason::StaleVersion { .. })) => {
            memory.forget_tree();
            Ok(true)
        }
        Err(e) => {
            memory.forget_tree();
            Err(e)
        }
    }
}

/// Counts one decision in game turn `turn` on a seat's `(turn, decisions)` counter (a
/// new turn starts from zero); returns the decisions made in the turn, this one
/// included.
fn count_decision(count: &mut (Option<u32>, u32), turn: Option<u32>) -> u32 {
    if count.0 != turn {
        *count = (turn, 0);
    }
    count.1 = count.1.saturating_add(1);
    count.1
}

/// The legal action that ends a phase (the bots' pass: [`ai::AiGame::is_pass`]), for
/// a game family that has bots; `None` when none is legal or the actions do not read.
pub fn pass_choice(game: &str, legal: &[Value]) -> Option<usize> {
    fn typed<G: ai::AiGame>(legal: &[Value]) -> Option<usize> {
        legal.iter().position(|a| {
            serde_json::from_value::<G::Action>(a.clone()).is_ok_and(|a| G::is_pass(&a))
        })
    }
    match game {
        <viktory::Viktory as engine::Game>::NAME => typed::<viktory::Viktory>(legal),
        <avl::Avl as engine::Game>::NAME => typed::<avl::Avl>(legal),
        _ => None,
    }
}

/// Asks the level's bot on a blocking thread; past the budget (with a grace period) the
/// first legal action is played, so a slow bot never stalls a game.
async fn choose(bot: Box<dyn Bot>, view: Value, legal: Vec<Value>, budget: Duration) -> Value {
    let fallback = legal[0].clone();
    let deadline = Instant::now() + budget;
    let task = tokio::task::spawn_blocking(move || {
        let i = bot.choose(&view, &legal, deadline);
        legal.get(i).cloned().unwrap_or_else(|| legal[0].clone())
    });
    match tokio::time::timeout(budget + Duration::from_millis(500), task).await {
        Ok(Ok(action)) => action,
        _ => fallback,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::Game;

    /// Over the JSON of random playouts' legal actions, [`pass_choice`] names the first
    /// action the family's bots call a pass, and nothing where none is legal; a family
    /// without bots has none.
    fn pass_choices_agree<G: ai::AiGame>(mut state: G, decisions: usize) -> (usize, usize) {
        let mut rng = engine::GameRng::from_u64(5);
        let (mut some, mut none) = (0, 0);
        for _ in 0..decisions {
            match state.to_move() {
                engine::ToMove::Over(_) => break,
                engine::ToMove::Chance => {
                    let a = state.sample_chance(&mut rng);
                    state.apply_unchecked(a);
                }
                engine::ToMove::Seat(_) => {
                    let legal = state.legal_actions();
                    let json: Vec<Value> = legal
                        .iter()
                        .map(|a| serde_json::to_value(a).expect("json"))
                        .collect();
                    let want = legal.iter().position(G::is_pass);
                    assert_eq!(pass_choice(G::NAME, &json), want);
                    some += usize::from(want.is_some());
                    none += usize::from(want.is_none());
                    let i = rng.below(legal.len() as u32) as usize;
                    state.apply_unchecked(legal[i].clone());
                }
            }
        }
        (some, none)
    }

    #[test]
    fn the_pass_is_found_in_the_json_of_legal_actions() {
        let setup = avl::Avl::new_setup(&engine::NewGame::default()).expect("a setup");
        let avl = <avl::Avl as Game>::from_setup(&setup).expect("a game");
        let (some, none) = pass_choices_agree(avl, 3_000);
        assert!(
            some > 0 && none > 0,
            "A Victory Lost: {some} with a pass, {none} without"
        );
        let setup = viktory::Viktory::new_setup(&engine::NewGame::default()).expect("a setup");
        let viktory = <viktory::Viktory as Game>::from_setup(&setup).expect("a game");
        let (some, none) = pass_choices_agree(viktory, 3_000);
        assert!(
            some > 0 && none > 0,
            "VIKTORY: {some} with a pass, {none} without"
        );
        let end = serde_json::json!({"type": "end_phase"});
        assert_eq!(pass_choice("viktory", std::slice::from_ref(&end)), Some(0));
        assert_eq!(pass_choice("dice-race", &[end]), None);
    }

    /// A served `normal` bot keeps its search tree in the seat's memory from decision to
    /// decision of its player turn (issue 29), through the JSON the server hands it:
    /// VIKTORY classic, the bot in seat 0 against greedy for four game turns.
    #[test]
    fn a_served_bot_keeps_its_tree_through_the_turn() {
        let setup = viktory::Viktory::new_setup(&engine::NewGame {
            preset: Some("classic".into()),
            players: Some(2),
            options: serde_json::Map::new(),
        })
        .expect("a setup");
        let mut state = viktory::Viktory::from_setup(&setup).expect("a game");
        let memory = ai::TurnMemory::new();
        let mut rng = engine::GameRng::from_u64(3);
        let (mut searched, mut kept) = (0, 0);
        for _ in 0..3_000 {
            if state.turn().number > 4 {
                break;
            }
            let seat = match state.to_move() {
                engine::ToMove::Over(_) => break,
                engine::ToMove::Chance => {
                    let a = state.sample_chance(&mut rng);
                    state.apply_unchecked(a);
                    continue;
                }
                engine::ToMove::Seat(seat) => seat,
            };
            let legal = state.legal_actions();
            let view = state.view(Some(seat));
            let i = if seat == engine::Seat(0) {
                let bot = for_level("viktory", "normal", None, memory.clone());
                let json: Vec<Value> = legal.iter().map(|a| serde_json::json!(a)).collect();
                // The level's own budget (250 ms a decision, shared over the turn).
                let deadline = Instant::now() + Duration::from_secs(2);
                let i = bot.choose(&serde_json::json!(view), &json, deadline);
                let turn = ai::viktory::turn_marker(&state);
                if legal.len() > 1 {
                    searched += 1;
                    kept += usize::from(memory.holds_tree(turn));
                }
                i
            } else {
                ai::Bot::<viktory::Viktory>::choose(
                    &mut ai::Greedy::default(),
                    &view,
                    &legal,
                    &mut rng,
                )
            };
            state.apply_unchecked(legal[i]);
        }
        // A tree is kept where the action played was tried twice or more (its node
        // has children); not after every decision of a slow (debug) build.
        assert!(searched > 10, "{searched} decisions with a choice");
        assert!(kept > 0, "no tree kept after {searched} decisions");
        eprintln!("a tree kept after {kept} of {searched} decisions with a choice");
    }

    /// An A Victory Lost bot reads the rules from the public setup (never the position,
    /// which holds the other side's chits) and then plays as the `ai` crate's bot does.
    #[test]
    fn avl_bots_read_the_rules_from_the_public_setup() {
        let mut setup = avl::Avl::new_setup(&engine::NewGame::default()).expect("a setup");
        // HQs listed strongest last, so that greedy's choices are not the first ones.
        setup.scenario.hqs.reverse();
        let state = <avl::Avl as Game>::from_setup(&setup).expect("a game");
        let seat = state
            .to_move()
            .seat()
            .expect("the Soviet player chooses chits");
        let view = serde_json::to_value(state.view(Some(seat))).expect("json");
        let public = public_setup(serde_json::to_value(state.to_setup()).expect("json"));
        assert!(public.get("position").is_none());
        assert!(
            avl::Avl::read_view(&view, None)
                .expect("a view")
                .rules()
                .is_none()
        );
        let typed = avl::Avl::read_view(&view, Some(&public)).expect("a view");
        assert!(typed.rules().is_some());
        // Choosing the Soviet chits (3.0) involves no chance: greedy's choices are fixed.
        let bot = for_level("avl", "easy", Some(public), ai::TurnMemory::new());
        let deadline = Instant::now() + Duration::from_mins(1);
        let mut state = state;
        let mut not_first = 0;
        while state.phase() == avl::Phase::Preparation {
            let view = state.view(Some(seat));
            let legal = state.legal_actions();
            let want = ai::Bot::<avl::Avl>::choose(
                &mut ai::Greedy::default(),
                &view,
                &legal,
                &mut engine::GameRng::from_u64(1),
            );
            let legal_json: Vec<Value> = legal
                .iter()
                .map(|a| serde_json::to_value(a).expect("json"))
                .collect();
            let json = serde_json::to_value(&view).expect("json");
            assert_eq!(bot.choose(&json, &legal_json, deadline), want);
            not_first += usize::from(want != 0);
            state.apply(legal[want]).expect("legal");
        }
        assert!(
            not_first > 0,
            "the choices are not all the first legal action"
        );
    }
}
