//! Plays whole games between bots: the loop behind `hexwar simulate` and the tests.

use std::time::{Duration, Instant};

use engine::{Game, GameRng, Outcome, Seat, Seed, ToMove};

use crate::Bot;

/// How one game went.
#[derive(Clone, Debug)]
pub struct Played<G: Game> {
    /// The final state.
    pub state: G,
    /// The outcome, or `None` when the decision limit stopped the game, or it got
    /// stuck.
    pub outcome: Option<Outcome>,
    /// The game stopped at a seat decision with no legal action (a broken position,
    /// a bug in the rules crate: the engine contract promises one).
    pub stuck: bool,
    /// Seat decisions taken (chance not counted).
    pub decisions: u64,
    /// Per seat: decisions taken and the time spent choosing them.
    pub thinking: Vec<(u64, Duration)>,
    /// Per seat: player turns played: turn markers under which it was the first to
    /// decide.
    pub turns: Vec<u64>,
    /// Per seat: the time spent choosing in each of its player turns, in order (as
    /// many as [`Played::turns`]).
    pub turn_thinking: Vec<Vec<Duration>>,
    /// Per seat: the decisions it took in other seats' turns (a defender's losses and
    /// retreats, say) and the time spent on them: in [`Played::thinking`], not in
    /// [`Played::turn_thinking`].
    pub out_of_turn: Vec<(u64, Duration)>,
}

/// The random stream for the chance action at `step` of game `seed` (as the server
/// resolves chance).
pub fn chance_rng(seed: u64, step: u64) -> GameRng {
    GameRng::for_step(&Seed::from_u64(seed), step)
}

/// The random stream a bot gets for its decision at `step` of game `seed`: separate
/// from the dice, so a bot's choices cannot learn the dice to come.
pub fn bot_rng(seed: u64, step: u64) -> GameRng {
    GameRng::for_step(&Seed::from_u64(seed ^ 0x5eed_b075_0000_0000), step)
}

/// Plays `state` to the end (or `max_decisions`), seat `k` played by `bots[k]`.
/// Each bot sees only its seat's view and the legal actions. `turn_of` tells which
/// player turn a state is in (for the per-seat turn counts). A seat decision with no
/// legal action stops the game ([`Played::stuck`]).
///
/// # Panics
/// If there are fewer bots than seats.
pub fn play_game<G: Game>(
    mut state: G,
    bots: &mut [Box<dyn Bot<G>>],
    seed: u64,
    max_decisions: u64,
    turn_of: impl Fn(&G) -> u64,
) -> Played<G> {
    let seats = usize::from(state.seats());
    assert!(bots.len() >= seats, "one bot per seat");
    let mut thinking = vec![(0u64, Duration::ZERO); seats];
    let mut turns = vec![0u64; seats];
    let mut turn_thinking = vec![Vec::new(); seats];
    let mut out_of_turn = vec![(0u64, Duration::ZERO); seats];
    // The turn marker last seen, and the seat that decided first under it: its owner.
    let mut last_turn: Option<(u64, Seat)> = None;
    let mut decisions = 0;
    let mut step = 0u64;
    loop {
        match state.to_move() {
            ToMove::Over(o) => {
                return Played {
                    state,
                    outcome: Some(o),
                    stuck: false,
                    decisions,
                    thinking,
                    turns,
                    turn_thinking,
                    out_of_turn,
                };
            }
            ToMove::Chance => {
                let a = state.sample_chance(&mut chance_rng(seed, step));
                state.apply_unchecked(a);
            }
            ToMove::Seat(seat) => {
                let legal = if decisions < max_decisions {
                    state.legal_actions()
                } else {
                    Vec::new()
                };
                if legal.is_empty() {
                    return Played {
                        state,
                        outcome: None,
                        stuck: decisions < max_decisions,
                        decisions,
                        thinking,
                        turns,
                        turn_thinking,
                        out_of_turn,
                    };
                }
                let t = turn_of(&state);
                if last_turn.is_none_or(|(last, _)| last != t) {
                    last_turn = Some((t, seat));
                    turns[seat.index()] += 1;
                    turn_thinking[seat.index()].push(Duration::ZERO);
                }
                let own_turn = last_turn.is_some_and(|(_, owner)| owner == seat);
                let bot = &mut bots[seat.index()];
                let mut rng = bot_rng(seed, step);
                // The view is built only for a bot that reads it (and is not counted
                // as the bot's thinking).
                let started = Instant::now();
                let blind = bot.choose_blind(&legal, &mut rng);
                let mut spent = started.elapsed();
                let i = blind.unwrap_or_else(|| {
                    let view = state.view(Some(seat));
                    let started = Instant::now();
                    let i = bot.choose(&view, &legal, &mut rng);
                    spent += started.elapsed();
                    i
                });
                thinking[seat.index()].0 += 1;
                thinking[seat.index()].1 += spent;
                if own_turn {
                    if let Some(turn) = turn_thinking[seat.index()].last_mut() {
                        *turn += spent;
                    }
                } else {
                    // Not added to the seat's last own turn, which ended before.
                    out_of_turn[seat.index()].0 += 1;
                    out_of_turn[seat.index()].1 += spent;
                }
                let action = legal.get(i).unwrap_or(&legal[0]).clone();
                state.apply_unchecked(action);
                decisions += 1;
            }
        }
        step += 1;
    }
}

/// The seats of an outcome's winners (empty when the game did not end).
pub fn winners<G: Game>(played: &Played<G>) -> Vec<Seat> {
    played
        .outcome
        .as_ref()
        .map(|o| o.winners.clone())
        .unwrap_or_default()
}
