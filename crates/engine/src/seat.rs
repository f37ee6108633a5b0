//! Seats and the "who decides now" answer.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A player's place at the table, numbered from 0 in seating order.
///
/// Serialised as a bare number. Shown to people 1-based ("Seat 1").
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat's 0-based index, for indexing per-seat arrays.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Seat {}", u32::from(self.0) + 1)
    }
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning seats: one, several for a shared victory, none for a draw.
    pub winners: Vec<Seat>,
    /// A final score per seat where the game scores (index = seat), else empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scores: Vec<i64>,
    /// Why the game ended, in a few words ("conquest", "turn limit", ...).
    pub reason: String,
}

/// Who must decide now.
///
/// On the wire: `{"seat":K}`, `"chance"` or `{"over":{...}}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ToMove {
    /// This seat must choose one of the legal actions. It need not be the player
    /// whose turn it is (a defender choosing casualties, for example).
    Seat(Seat),
    /// A chance event (die roll, tile draw, chit draw) must be resolved.
    Chance,
    /// The game is over.
    Over(Outcome),
}

impl ToMove {
    /// The deciding seat, if a seat decides now.
    pub const fn seat(&self) -> Option<Seat> {
        match self {
            ToMove::Seat(s) => Some(*s),
            _ => None,
        }
    }

    /// Whether the game has ended.
    pub const fn is_over(&self) -> bool {
        matches!(self, ToMove::Over(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn to_move_wire_shape() {
        assert_eq!(
            serde_json::to_string(&ToMove::Seat(Seat(1))).unwrap(),
            r#"{"seat":1}"#
        );
        assert_eq!(
            serde_json::to_string(&ToMove::Chance).unwrap(),
            r#""chance""#
        );
        let over = ToMove::Over(Outcome {
            winners: vec![Seat(0)],
            scores: vec![],
            reason: "race won".into(),
        });
        assert_eq!(
            serde_json::to_string(&over).unwrap(),
            r#"{"over":{"winners":[0],"reason":"race won"}}"#
        );
        let back: ToMove =
            serde_json::from_str(r#"{"over":{"winners":[0],"reason":"race won"}}"#).unwrap();
        assert_eq!(back, over);
    }

    #[test]
    fn seat_display_is_one_based() {
        assert_eq!(Seat(0).to_string(), "Seat 1");
    }
}
