//! The hexwar game server (issue #5, being built): so far the store of games, seats and
//! action logs, and the secrets (dice seeds, seat tokens) that the HTTP and WebSocket
//! layers will stand on.

#![forbid(unsafe_code)]

pub mod secrets;
pub mod store;

pub use secrets::{SeatToken, hash_token, new_seed, new_token, token_matches};
pub use store::{Backend, GameRow, SeatRow, Store, StoreError};
