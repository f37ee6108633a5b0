//! Wire types of hexwar and the JSON-lines referee protocol.
//!
//! Games are reached through a [`Catalog`] of type-erased [`GameEntry`]s, so the
//! referee, the `hexwar replay`/`verify` commands and the server handle every game
//! family the same way, as JSON. The protocol is documented for other programs'
//! authors in `docs/protocol.md`.

#![forbid(unsafe_code)]

mod catalog;
mod referee;
mod reject;

pub use catalog::{Catalog, Entry, GameEntry, ReplaySummary, Session, SessionConfig, Step};
pub use referee::{Referee, Request};
pub use reject::{ErrorBody, RejectReason};

/// The version of the referee protocol, reported by `{"cmd":"hello"}`.
pub const PROTOCOL_VERSION: u32 = 1;
