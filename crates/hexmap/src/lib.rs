//! Hex geometry for hexwar: axial coordinates, directions, hexagon and rectangular
//! (offset, `XXYY`-numbered) boards, dense per-hex storage, hexsides and deterministic
//! searches.
//!
//! Everything here is pure and deterministic: no I/O, no randomness, no hash-order
//! iteration; every list this crate returns is in a documented order, usually reading
//! order ([`Hex`]'s `Ord`: by row `r`, then `q`).
//!
//! # Coordinates
//!
//! A [`Hex`] is an axial `(q, r)` pair (cube `s = -q - r`), drawn pointy-top with the
//! origin at the centre and `r` growing downward; the six [`Direction`]s run clockwise
//! from north-east. Rectangular maps in the column ("q") offset layouts are drawn
//! flat-top instead, with the same axial coordinates (see [`Orientation`]).
//!
//! ```
//! use hexmap::{Board, Direction, Hex, HexagonBoard};
//!
//! let board = HexagonBoard::new(5); // 61 hexes
//! let a = Hex::new(1, -2);
//! assert_eq!(a.neighbor(Direction::E), Hex::new(2, -2));
//! assert_eq!(a.distance(Hex::new(-1, 1)), 3);
//! assert_eq!(a.line_to(Hex::new(-1, 1)).len(), 4);
//! let around: Vec<Hex> = Hex::ORIGIN.ring(4);
//! assert!(around.iter().all(|&h| board.is_perimeter(h)));
//! assert_eq!(board.hexes().count(), 61);
//! ```
//!
//! # Boards, grids and searches
//!
//! A [`Board`] numbers its hexes densely, so per-hex data lives in a [`Grid`]. Movement
//! and range use [`search`]:
//!
//! ```
//! use hexmap::{search, Board, Grid, Hex, OffsetBoard, OffsetLayout};
//!
//! let map = OffsetBoard::new(10, 8, OffsetLayout::OddQ);
//! let mut cost = Grid::from_board(&map, 1u32);
//! let woods = map.hex_of("0302".parse().unwrap()).unwrap();
//! cost[map.index(woods).unwrap()] = 2;
//!
//! let start = map.to_hex(2, 2).unwrap();
//! let reached = search::reach(start, 1, |_, to| cost.get_hex(&map, to).copied());
//! // Six neighbours, minus the woods (too dear for 1 point).
//! assert_eq!(reached.len(), 6);
//! assert!(!reached.iter().any(|&(h, _)| h == woods));
//! ```
#![forbid(unsafe_code)]

mod board;
mod coord;
mod direction;
mod error;
mod grid;
mod hexside;
mod offset;
mod orientation;
pub mod search;

pub use board::{Board, HexagonBoard, Hexes, RangeRuns};
pub use coord::Hex;
pub use direction::Direction;
pub use error::ParseError;
pub use grid::Grid;
pub use hexside::Hexside;
pub use offset::{HexNumber, OffsetBoard, OffsetLayout};
pub use orientation::Orientation;
pub use search::{bfs_within, reach, shortest_path};
