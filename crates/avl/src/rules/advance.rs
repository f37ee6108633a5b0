//! Rule 9.6: advance after combat; HQs advance with their stack (12.4).

use hexmap::Hex;

use crate::error::{RuleError, refuse};
use crate::event::Event;
use crate::rules::{hq, pocket, stacking};
use crate::state::{Advancing, Avl, BattleStage, Location, PieceId};

fn advanced_hexes(s: &Avl, p: PieceId) -> Vec<Hex> {
    s.pos
        .battle
        .as_ref()
        .and_then(|b| {
            b.advanced
                .iter()
                .find(|(q, _)| *q == p)
                .map(|(_, h)| h.clone())
        })
        .unwrap_or_default()
}

/// Rule 12.4: the attacking units a HQ was stacked with when the combat began.
fn hq_stack(s: &Avl, q: PieceId) -> Vec<PieceId> {
    s.pos
        .battle
        .as_ref()
        .and_then(|b| {
            b.hq_stacks
                .iter()
                .find(|(h, _)| *h == q)
                .map(|(_, u)| u.clone())
        })
        .unwrap_or_default()
        .into_iter()
        .filter(|u| {
            s.pos
                .battle
                .as_ref()
                .is_some_and(|b| b.attackers.contains(u))
        })
        .collect()
}

/// The hexes `p` may advance into next (ignoring stacking).
fn targets(s: &Avl, p: PieceId) -> Vec<Hex> {
    let Some(b) = &s.pos.battle else {
        return Vec::new();
    };
    if b.stage != BattleStage::Advance {
        return Vec::new();
    }
    let current = b.advancing.filter(|a| a.piece == p);
    if current.is_none() && b.advanced.iter().any(|(q, _)| *q == p) {
        return Vec::new();
    }
    let done = current.map_or(0, |a| a.hexes);
    if current.is_some_and(|a| a.stopped) {
        return Vec::new();
    }
    let Some(at) = s.hex_of(p) else {
        return Vec::new();
    };
    let map = s.map();
    if s.is_hq(p) {
        // Rule 12.4: with its stack: into the attacked hex once one of them has, then
        // on with a mechanized unit of the stack that advanced two hexes.
        let stack = hq_stack(s, p);
        let followed = |h: Hex, i: usize| {
            stack.iter().any(|&u| {
                let mut hexes = advanced_hexes(s, u);
                if let Some(a) = b.advancing.filter(|a| a.piece == u)
                    && let Some(now) = s.hex_of(u)
                    && a.hexes as usize > hexes.len()
                {
                    hexes.push(now);
                }
                hexes.get(i) == Some(&h)
            })
        };
        return match done {
            0 if followed(b.target, 0) && at.is_adjacent(b.target) => vec![b.target],
            1 => map
                .neighbors(at)
                .map(|(_, n)| n)
                .filter(|&n| followed(n, 1))
                .collect(),
            _ => Vec::new(),
        };
    }
    if !b.attackers.contains(&p) || !matches!(s.location(p), Location::Map(_)) {
        return Vec::new();
    }
    match done {
        // Rule 9.6.3: the first hex is the attacked hex.
        0 => vec![b.target],
        // Rule 9.6.1, 9.6.3, 9.6.5: mechanized units may go one more hex.
        1 if s.mechanized(p) => map
            .neighbors(at)
            .map(|(_, n)| n)
            .filter(|&n| {
                let f = map.side(at, n);
                map.is_land(n)
                    && !f.impassable
                    && !f.unbridged_major()
                    && !pocket::closed(s, n)
                    && !s.units_at(n).any(|u| s.side(u) != s.side(p))
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Rule 9.6: the hexes `p` may advance into now, with the stacking limit (5.0.4, H-100: a
/// mechanized unit may pass through a full attacked hex if it can go on).
pub fn options(s: &Avl, p: PieceId) -> Vec<Hex> {
    let mut out: Vec<Hex> = targets(s, p)
        .into_iter()
        .filter(|&h| {
            if stacking::can_stop(s, p, h) {
                return true;
            }
            // Only a first hex can be passed through: the second ends the advance.
            if !advanced_hexes(s, p).is_empty() {
                return false;
            }
            // Passing through needs going on: a first hex entered across an unbridged
            // major river stops the unit there (9.6.5), as `apply_advance` rules.
            let crossed = s
                .hex_of(p)
                .is_some_and(|start| s.map().side(start, h).unbridged_major());
            let mut t = s.clone();
            t.set_location(p, Location::Map(h));
            if let Some(b) = t.pos.battle.as_mut() {
                b.advancing = Some(Advancing {
                    piece: p,
                    hexes: 1,
                    stopped: crossed,
                });
            }
            targets(&t, p).iter().any(|&n| stacking::can_stop(&t, p, n))
        })
        .collect();
    out.sort();
    out
}

/// Rule 9.6: check advancing `p` into `to`.
pub fn check_advance(s: &Avl, p: PieceId, to: Hex) -> Result<(), RuleError> {
    let Some(b) = &s.pos.battle else {
        return refuse(
            "no_advance",
            "9.6.1",
            "no advance after combat is possible now",
        );
    };
    if b.stage != BattleStage::Advance {
        return refuse(
            "no_advance",
            "9.6.1",
            "no advance after combat is possible now",
        );
    }
    if let Some(a) = b.advancing
        && a.piece != p
        && !stacking::ok_where_it_is(s, a.piece)
    {
        return refuse(
            "overstacked",
            "5.0.4",
            "the advancing unit must end within the stacking limit",
        );
    }
    if !options(s, p).contains(&to) {
        return refuse(
            "advance_hex",
            "9.6.3",
            "advancing units enter the attacked hex first; only mechanized units (and HQs with them) go a second hex",
        );
    }
    Ok(())
}

/// Rule 9.6: advance one hex.
pub fn apply_advance(s: &mut Avl, p: PieceId, to: Hex, ev: &mut Vec<Event>) {
    let from = s.hex_of(p);
    let crossed = from.is_some_and(|start| s.map().side(start, to).unbridged_major());
    let Some(b) = s.pos.battle.as_mut() else {
        return;
    };
    if let Some(adv) = b.advancing
        && adv.piece != p
    {
        b.advancing = None;
    }
    let adv = b.advancing.get_or_insert(Advancing {
        piece: p,
        hexes: 0,
        stopped: false,
    });
    adv.hexes += 1;
    // Rule 9.6.5: across an unbridged major river on the first hex: stop.
    adv.stopped |= crossed;
    let hexes = adv.hexes;
    match b.advanced.iter_mut().find(|(q, _)| *q == p) {
        Some((_, v)) => v.push(to),
        None => b.advanced.push((p, vec![to])),
    }
    if hexes >= 2 {
        b.advancing = None;
    }
    s.set_location(p, Location::Map(to));
    ev.push(Event::Advanced { piece: p, to });
    hq::entered(s, p, to, ev);
}

/// Rule 9.6.2: check ending the advance.
pub fn check_end(s: &Avl) -> Result<(), RuleError> {
    match &s.pos.battle {
        Some(b) if b.stage == BattleStage::Advance => {
            if let Some(a) = b.advancing
                && !stacking::ok_where_it_is(s, a.piece)
            {
                return refuse(
                    "overstacked",
                    "5.0.4",
                    "the advancing unit must end within the stacking limit",
                );
            }
            Ok(())
        }
        _ => refuse("no_advance", "9.6.1", "no advance is under way"),
    }
}

/// Whether any piece could still advance.
pub fn any(s: &Avl) -> bool {
    s.piece_ids().any(|p| !options(s, p).is_empty())
}
