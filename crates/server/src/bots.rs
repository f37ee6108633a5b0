//! Bots sit in seats like people: when a bot's seat (or a resigned seat) must decide,
//! a task of the game asks the bot for a choice on a blocking thread (never on the
//! runtime's workers), within the per-move time budget, and submits it through the
//! same checked path as a person's action.
//!
//! A bot sees only its seat's view and its legal actions (both unchanged by hidden
//! facts, which the engine harness checks), so it cannot cheat.

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

/// Plays a game family's typed bot for a level: the JSON view and actions are read
/// back into the game's own types, and the level's bot from the `ai` crate chooses,
/// thinking until shortly before the deadline.
pub struct LevelBot<G> {
    level: ai::Level,
    game: std::marker::PhantomData<fn() -> G>,
}

impl<G> LevelBot<G> {
    /// The bot of `level`.
    pub fn new(level: ai::Level) -> Self {
        LevelBot {
            level,
            game: std::marker::PhantomData,
        }
    }
}

impl<G: ai::AiGame> Bot for LevelBot<G> {
    fn choose(&self, view: &Value, legal: &[Value], deadline: Instant) -> usize {
        let Ok(view) = serde_json::from_value::<G::View>(view.clone()) else {
            return 0;
        };
        let Ok(actions) = legal
            .iter()
            .map(|a| serde_json::from_value::<G::Action>(a.clone()))
            .collect::<Result<Vec<_>, _>>()
        else {
            return 0;
        };
        if actions.len() <= 1 {
            return 0;
        }
        // Keep a margin for reading the answer back and submitting it.
        let time = deadline
            .saturating_duration_since(Instant::now())
            .saturating_sub(Duration::from_millis(150));
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
        let mut bot = self.level.bot::<G>(time, threads);
        let mut seed = [0u8; 8];
        // Without OS randomness a fixed stream still gives a fair choice.
        let _ = getrandom::fill(&mut seed);
        let mut rng = engine::GameRng::from_u64(u64::from_le_bytes(seed));
        bot.choose(&view, &actions, &mut rng).min(actions.len() - 1)
    }
}

/// The bot for a level of a game family; levels the family has no bot for play
/// randomly.
pub fn for_level(game: &str, level: &str) -> Box<dyn Bot> {
    match (game, level.parse::<ai::Level>()) {
        (_, Ok(ai::Level::Random) | Err(_)) => Box::new(RandomBot),
        (<viktory::Viktory as engine::Game>::NAME, Ok(level)) => {
            Box::new(LevelBot::<viktory::Viktory>::new(level))
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
    let (seat, version, view, legal, level, game) = {
        let guard = hub.lock(slot).await?;
        let Some(live) = guard.as_ref() else {
            return Ok(false);
        };
        let Some(seat) = live.bot_to_move() else {
            return Ok(false);
        };
        let level = live.seats[usize::from(seat.0)]
            .bot_level
            .clone()
            .unwrap_or_else(|| "random".into());
        (
            seat,
            live.session.version(),
            live.session.view(Some(seat)),
            live.session.legal(),
            level,
            live.session.game(),
        )
    };
    if legal.is_empty() {
        return Ok(false);
    }
    if !hub.config.bot_delay.is_zero() {
        tokio::time::sleep(hub.config.bot_delay).await;
    }
    let budget = hub.config.bot_budget;
    let choice = choose(game, &level, view, legal, budget).await;
    match hub
        .submit(&slot.id, Submitter::Bot(seat), version, choice)
        .await
    {
        // Someone else moved first (another process's bot): look again.
        Ok(_) | Err(ApiError::Reject(protocol::RejectReason::StaleVersion { .. })) => Ok(true),
        Err(e) => Err(e),
    }
}

/// Asks the level's bot on a blocking thread; past the budget (with a grace period) the
/// first legal action is played, so a slow bot never stalls a game.
async fn choose(
    game: &str,
    level: &str,
    view: Value,
    legal: Vec<Value>,
    budget: Duration,
) -> Value {
    let bot = for_level(game, level);
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
