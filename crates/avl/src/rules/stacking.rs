//! Rule 5.0: stacking.

use hexmap::Hex;

use crate::state::{Avl, PieceId};
use crate::unit::Nationality;

/// Rules 5.0.1–5.0.3: whether these pieces (`(is_hq, nationality)`) may share a hex: at
/// most two combat units and one HQ, one side only, and an Axis minor only with its
/// own nationality or Germans.
pub fn stack_ok(items: impl Iterator<Item = (bool, Nationality)>) -> Result<(), String> {
    let items: Vec<(bool, Nationality)> = items.collect();
    let units = items.iter().filter(|(hq, _)| !hq).count();
    let hqs = items.len() - units;
    if units > 2 {
        return Err(format!(
            "{units} combat units in one hex; at most two (5.0.1)"
        ));
    }
    if hqs > 1 {
        return Err("two HQs in one hex (5.0.1)".into());
    }
    for (i, a) in items.iter().enumerate() {
        for b in &items[i + 1..] {
            if a.1.side() != b.1.side() {
                return Err("Axis and Soviet units in one hex (5.0.2)".into());
            }
            if !a.1.compatible(b.1) {
                return Err(format!(
                    "{:?} and {:?} units cannot stack (5.0.3)",
                    a.1, b.1
                ));
            }
        }
    }
    Ok(())
}

/// Rule 5.0.4: whether `piece` may end its movement, retreat, advance or placement in
/// `hex` with the pieces already there (the piece itself not counted twice). Enemy
/// pieces there make it impossible (5.0.2).
pub fn can_stop(s: &Avl, piece: PieceId, hex: Hex) -> bool {
    // A lone enemy HQ there is overrun on entry (12.1), so it does not count.
    let here = s
        .pieces_at(hex)
        .filter(|&p| p != piece && !(s.is_hq(p) && s.side(p) != s.side(piece)))
        .map(|p| (s.is_hq(p), s.nationality(p)))
        .chain(std::iter::once((s.is_hq(piece), s.nationality(piece))));
    stack_ok(here).is_ok()
}

/// Rule 5.0.4: whether the piece may stop where it is now.
pub fn ok_where_it_is(s: &Avl, piece: PieceId) -> bool {
    s.hex_of(piece).is_none_or(|h| can_stop(s, piece, h))
}
