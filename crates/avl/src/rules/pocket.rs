//! Rule 13.0: the Stalingrad Pocket.

use hexmap::Hex;

use crate::state::Avl;

/// Rule 13.0: whether `hex` is in the Stalingrad Pocket while it still exists (until
/// the end of the scenario's pocket turn): no unit may use it for any purpose except
/// tracing Command Range.
pub fn closed(s: &Avl, hex: Hex) -> bool {
    exists(s) && s.map().at(hex).is_some_and(|i| i.pocket)
}

/// Rule 13.0: whether the Stalingrad Pocket still exists (until the end of the
/// scenario's pocket turn).
pub fn exists(s: &Avl) -> bool {
    s.turn().0 <= s.rules().scenario.pocket_until_turn
}
