//! The hexwar game server (issue #5, being built): so far the store of games, seats and
//! action logs that the HTTP and WebSocket layers will stand on.

#![forbid(unsafe_code)]

pub mod store;

pub use store::{Backend, GameRow, SeatRow, Store, StoreError};
