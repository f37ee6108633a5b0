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
    stack_fits(here)
}

/// [`stack_ok`] without the reason: whether these pieces may share a hex. Four pieces
/// or more never may (three combat units, or two HQs), so at most four are looked at
/// and nothing is allocated.
fn stack_fits(items: impl Iterator<Item = (bool, Nationality)>) -> bool {
    let mut seen = [(false, Nationality::German); 3];
    let mut n = 0;
    for item in items {
        if n == seen.len() {
            return false;
        }
        seen[n] = item;
        n += 1;
    }
    let seen = &seen[..n];
    let units = seen.iter().filter(|(hq, _)| !hq).count();
    units <= 2
        && n - units <= 1
        && seen.iter().enumerate().all(|(i, a)| {
            seen[i + 1..]
                .iter()
                .all(|b| a.1.side() == b.1.side() && a.1.compatible(b.1))
        })
}

/// Rule 5.0.4: whether the piece may stop where it is now.
pub fn ok_where_it_is(s: &Avl, piece: PieceId) -> bool {
    s.hex_of(piece).is_none_or(|h| can_stop(s, piece, h))
}

#[cfg(test)]
mod tests {
    use super::{stack_fits, stack_ok};
    use crate::unit::Nationality;

    /// `stack_fits` says what `stack_ok` says, for every stack of up to four pieces of
    /// every kind (four never may share one).
    #[test]
    fn stack_fits_agrees_with_stack_ok() {
        use Nationality::{German, Hungarian, Italian, Romanian, Soviet};
        let kinds: Vec<(bool, Nationality)> = [German, Italian, Romanian, Hungarian, Soviet]
            .into_iter()
            .flat_map(|n| [(false, n), (true, n)])
            .collect();
        let mut stacks: Vec<Vec<(bool, Nationality)>> = vec![vec![]];
        for _ in 0..4 {
            let longer: Vec<_> = stacks
                .iter()
                .filter(|s| s.len() < 4)
                .flat_map(|s| {
                    kinds.iter().map(move |&k| {
                        let mut t = s.clone();
                        t.push(k);
                        t
                    })
                })
                .collect();
            stacks.extend(longer);
            stacks.sort();
            stacks.dedup();
        }
        for st in &stacks {
            assert_eq!(
                stack_fits(st.iter().copied()),
                stack_ok(st.iter().copied()).is_ok(),
                "{st:?}"
            );
        }
    }
}
