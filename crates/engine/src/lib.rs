//! The game-agnostic kernel of hexwar.
//!
//! Every game family (VIKTORY, A Victory Lost) implements the [`Game`] contract:
//! a setup is validated into a state; the state says who must decide now
//! ([`ToMove`]: a seat, chance, or game over); it lists its legal actions, checks an
//! action against the rules, and applies it, returning events. Chance is explicit:
//! a die roll or a tile draw is an ordinary action chosen by [`Game::sample_chance`]
//! from a seeded [`GameRng`], so a [`GameRecord`] of actions replays a game bit for bit.
//!
//! The [`harness`] module holds the conformance tests that every game runs, and
//! [`toy`] a tiny two-player game that exercises all of it.

#![forbid(unsafe_code)]

mod game;
pub mod harness;
mod perft;
mod problem;
mod record;
mod rng;
mod seat;
pub mod toy;

pub use game::{Game, NewGame, OptionInfo, OptionKind, Preset};
pub use perft::{perft, playout};
pub use problem::{Problem, RuleViolation, SetupErrors};
pub use record::{
    Actor, GameRecord, RecordedAction, ReplayError, Replayed, VerifyError, replay, seeded_record,
    state_hash, verify,
};
pub use rng::{GameRng, Seed, SeedParseError};
pub use seat::{Outcome, Seat, ToMove};
