//! Sides, nationalities, combat units and HQs (2.2, 2.3), and the newtypes for
//! quantities.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::scenario::Start;

/// The two players. Seat 0 is the Axis, seat 1 the Soviet player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The Axis player (seat 0).
    Axis,
    /// The Soviet player (seat 1).
    Soviet,
}

impl Side {
    /// Both sides, Axis first.
    pub const BOTH: [Side; 2] = [Side::Axis, Side::Soviet];

    /// 0 for the Axis, 1 for the Soviet player: the seat and the index of per-side arrays.
    pub const fn index(self) -> usize {
        match self {
            Side::Axis => 0,
            Side::Soviet => 1,
        }
    }

    /// The other side.
    #[must_use]
    pub const fn enemy(self) -> Side {
        match self {
            Side::Axis => Side::Soviet,
            Side::Soviet => Side::Axis,
        }
    }

    /// The seat that plays this side.
    pub const fn seat(self) -> engine::Seat {
        engine::Seat(self.index() as u8)
    }

    /// The side a seat plays.
    pub const fn of_seat(seat: engine::Seat) -> Option<Side> {
        match seat.0 {
            0 => Some(Side::Axis),
            1 => Some(Side::Soviet),
            _ => None,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Axis => "axis",
            Side::Soviet => "soviet",
        })
    }
}

/// Rule 2.2.1: nationality; the Axis minors have stacking (5.0.3) and activation (7.3.5)
/// restrictions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Nationality {
    /// German (Axis).
    German,
    /// Italian (Axis minor).
    Italian,
    /// Romanian (Axis minor).
    Romanian,
    /// Hungarian (Axis minor).
    Hungarian,
    /// Soviet.
    Soviet,
}

impl Nationality {
    /// The side this nationality fights for.
    pub const fn side(self) -> Side {
        match self {
            Nationality::Soviet => Side::Soviet,
            _ => Side::Axis,
        }
    }

    /// Rules 5.0.3, 7.3.5, 11.3: whether two Axis nationalities work together (German
    /// with anyone, a minor with itself and the Germans). Soviet units only with Soviet.
    pub const fn compatible(self, other: Nationality) -> bool {
        match (self, other) {
            (Nationality::Soviet, Nationality::Soviet) => true,
            (Nationality::Soviet, _) | (_, Nationality::Soviet) => false,
            (Nationality::German, _) | (_, Nationality::German) => true,
            (a, b) => a as u8 == b as u8,
        }
    }
}

/// A combat strength (attack or defense), in strength points.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Strength(pub u16);

/// Movement points, counted in halves (strategic movement costs 1/2 MP, 8.3.1).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct HalfMp(pub u16);

impl HalfMp {
    /// Whole movement points.
    pub const fn whole(mp: u16) -> HalfMp {
        HalfMp(mp * 2)
    }
}

impl fmt::Display for HalfMp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_multiple_of(2) {
            write!(f, "{}", self.0 / 2)
        } else {
            write!(f, "{}.5", self.0 / 2)
        }
    }
}

/// A game turn, 1-based (4.0).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Turn(pub u8);

/// Attack and defense strengths of one side of a counter (2.2.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Strengths {
    /// Attack strength.
    pub attack: Strength,
    /// Defense strength.
    pub defense: Strength,
}

impl Strengths {
    /// Separate attack and defense (mechanized units).
    pub const fn new(attack: u16, defense: u16) -> Strengths {
        Strengths {
            attack: Strength(attack),
            defense: Strength(defense),
        }
    }

    /// One combat strength for both (non-mechanized units).
    pub const fn both(s: u16) -> Strengths {
        Strengths::new(s, s)
    }
}

/// A combat unit's printed data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitInfo {
    /// Unit ID.
    pub id: String,
    /// Nationality.
    pub nationality: Nationality,
    /// Mechanized.
    pub mechanized: bool,
    /// Full-strength side.
    pub full: Strengths,
    /// Reduced-strength side, if it has one (2.2.3).
    pub reduced: Option<Strengths>,
    /// Movement allowance.
    pub movement: u8,
    /// Setup hex or arrival.
    pub start: Start,
}

/// A HQ's printed data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HqInfo {
    /// HQ ID, also its Command Chit's.
    pub id: String,
    /// Nationality.
    pub nationality: Nationality,
    /// Command Range (7.3.3).
    pub range: u8,
    /// Movement allowance.
    pub movement: u8,
    /// Setup hex or arrival.
    pub start: Start,
}

/// Rule 11.2: a reinforcement box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Box {
    /// Its name.
    pub id: String,
    /// Whose.
    pub side: Side,
    /// The map hexes adjacent to it, sorted.
    pub adjacent: Vec<hexmap::Hex>,
}
