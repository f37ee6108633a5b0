//! Bots for hexwar, generic over the engine contract ([`engine::Game`]): they play
//! VIKTORY II ([`viktory`]) and A Victory Lost ([`avl`]).
//!
//! A bot reads only its seat's view and the legal actions (which, for the seat to move,
//! depend only on that view: the engine harness checks it), never the true state, so it
//! cannot cheat. To search, it rebuilds full states from the view with
//! [`AiGame::determinize`], sampling the facts the seat cannot see.
//!
//! - [`RandomBot`]: a uniform choice.
//! - [`Greedy`]: Wesnoth-style scored candidate actions: every legal action is tried on
//!   a determinized state, chance after it is sampled, and the resulting positions are
//!   scored by the game's evaluation ([`AiGame::evaluate`]); the best one is played.
//!   Because battles are scored by their odds, it fights on while a battle goes well
//!   and retreats when it turns bad.
//! - [`Mcts`]: information-set Monte Carlo tree search over single decisions, with
//!   progressive widening ordered by greedy priors, open-loop chance, rollouts cut
//!   after a few player turns and scored by the evaluation, vector rewards for 2–8
//!   players, and root parallelism over several independent trees.
//!
//! [`Level`] maps the levels people choose (easy, normal, hard) to a bot and a budget.
//! [`arena::play_game`] plays one seeded game between bots.
//!
//! Determinism: every choice depends only on the view, the legal actions and the
//! [`engine::GameRng`] handed to [`Bot::choose`]. With an iteration budget, MCTS gives
//! the same answer whatever the number of threads; a time budget cannot be repeatable.

#![forbid(unsafe_code)]

pub mod arena;
pub mod avl;
mod bot;
mod game;
pub mod greedy;
mod level;
pub mod mcts;
mod random;
pub mod tune;
pub mod viktory;

pub use bot::{Bot, Budget, TurnMemory};
pub use game::{AiGame, Pace, settle};
pub use greedy::Greedy;
pub use level::{Level, LevelError};
pub use mcts::{Mcts, MctsConfig, SearchStats};
pub use random::RandomBot;
