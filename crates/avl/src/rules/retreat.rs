//! Rule 9.5: retreats: the priority rules (9.5.2), ZOC losses (9.5.3), the stacking
//! push-on (9.5.4, 9.5.5), major rivers (9.5.6), overruns (9.5.7), elimination (9.5.8);
//! HQs retreat with their stack (12.3).

use hexmap::Hex;

use crate::error::{RuleError, refuse};
use crate::event::Event;
use crate::rules::zoc::ZoneOfControl;
use crate::rules::{combat, hq, pocket, stacking};
use crate::state::{Avl, BattleStage, Location, PieceId, Retreating};

/// Rule 9.5.2: how good a retreat path is; smaller is better: fewest hexes in enemy ZOCs,
/// then (1) every hex entered closer to a friendly supply source, then (2) the stacking
/// limit kept in the last hex (H-102).
type Score = (u8, bool, bool);

struct Ctx<'a> {
    s: &'a Avl,
    piece: PieceId,
    zoc: ZoneOfControl,
    sources: Vec<Hex>,
    start: Hex,
}

impl Ctx<'_> {
    /// Rule 9.5.6, 9.5.8, 5.0.2: may the unit retreat from `a` into `b`?
    fn step_ok(&self, a: Hex, b: Hex, visited: &[Hex]) -> bool {
        let map = self.s.map();
        if !map.is_land(b) || visited.contains(&b) || pocket::closed(self.s, b) {
            return false;
        }
        let f = map.side(a, b);
        if f.impassable {
            return false;
        }
        if f.unbridged_major() && a != self.start {
            return false;
        }
        if f.major_river && self.zoc.contains(a) && self.zoc.contains(b) {
            return false;
        }
        let side = self.s.side(self.piece);
        !self.s.units_at(b).any(|u| self.s.side(u) != side)
    }

    fn closer(&self, a: Hex, b: Hex) -> bool {
        self.sources
            .iter()
            .any(|&src| b.distance(src) < a.distance(src))
    }

    /// Best score of full-length paths from `at`, and the first hexes achieving it.
    fn best(&self, at: Hex, remaining: u8, visited: &mut Vec<Hex>) -> Option<(Score, Vec<Hex>)> {
        let mut best: Option<(Score, Vec<Hex>)> = None;
        for (_, n) in self.s.map().neighbors(at) {
            if !self.step_ok(at, n, visited) {
                continue;
            }
            let here: Score = (u8::from(self.zoc.contains(n)), !self.closer(at, n), false);
            let score = if remaining <= 1 {
                Some((here.0, here.1, !stacking::can_stop(self.s, self.piece, n)))
            } else {
                visited.push(n);
                let rest = self.best(n, remaining - 1, visited);
                visited.pop();
                rest.map(|(r, _)| (here.0 + r.0, here.1 || r.1, r.2))
            };
            let Some(score) = score else { continue };
            match &mut best {
                Some((b, hexes)) if *b == score => hexes.push(n),
                Some((b, _)) if *b < score => {}
                _ => best = Some((score, vec![n])),
            }
        }
        best
    }
}

/// Where `piece` is in its retreat: its hex, hexes already used, hexes to go.
fn progress(s: &Avl, piece: PieceId) -> Option<(Hex, Vec<Hex>, u8)> {
    let b = s.pos.battle.as_ref()?;
    if b.stage != BattleStage::Retreat {
        return None;
    }
    match &b.retreating {
        Some(r) if r.piece == piece => {
            let mut visited = vec![b.target];
            visited.extend(r.path.iter().copied());
            Some((s.hex_of(piece)?, visited, r.remaining))
        }
        None if b.to_retreat.contains(&piece) => {
            Some((s.hex_of(piece)?, vec![b.target], b.result?.retreat))
        }
        _ => None,
    }
}

/// Rule 12.3: the hexes a defending HQ may retreat to: the last hexes of the units of
/// its stack that retreated (H-103).
fn hq_options(s: &Avl, hq_piece: PieceId) -> Vec<Hex> {
    let Some(b) = &s.pos.battle else {
        return Vec::new();
    };
    let stack: Vec<PieceId> = b
        .hq_stacks
        .iter()
        .find(|(q, _)| *q == hq_piece)
        .map(|(_, u)| u.clone())
        .unwrap_or_default();
    let mut out: Vec<Hex> = b
        .retreated
        .iter()
        .filter(|(u, h)| stack.contains(u) && s.location(*u) == Location::Map(*h))
        .map(|&(_, h)| h)
        .filter(|&h| stacking::can_stop(s, hq_piece, h))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Rule 9.5.2: the hexes `piece` may retreat into next (empty: it cannot retreat and is
/// eliminated, 9.5.8).
pub fn options(s: &Avl, piece: PieceId) -> Vec<Hex> {
    if s.is_hq(piece) {
        let waiting = s
            .pos
            .battle
            .as_ref()
            .is_some_and(|b| b.to_retreat.contains(&piece));
        return if waiting {
            hq_options(s, piece)
        } else {
            Vec::new()
        };
    }
    let Some((at, mut visited, remaining)) = progress(s, piece) else {
        return Vec::new();
    };
    let Some(b) = &s.pos.battle else {
        return Vec::new();
    };
    let side = s.side(piece);
    let ctx = Ctx {
        s,
        piece,
        zoc: ZoneOfControl::of(s, side.enemy()),
        sources: s.map().sources(side).to_vec(),
        start: b.target,
    };
    let mut out = ctx
        .best(at, remaining.max(1), &mut visited)
        .map(|(_, h)| h)
        .unwrap_or_default();
    out.sort();
    out.dedup();
    out
}

/// Rule 9.5: check retreating `piece` into `to`.
pub fn check_retreat(s: &Avl, piece: PieceId, to: Hex) -> Result<(), RuleError> {
    let Some(b) = &s.pos.battle else {
        return refuse("no_retreat", "9.5", "no retreat is due");
    };
    if b.stage != BattleStage::Retreat {
        return refuse("no_retreat", "9.5", "no retreat is due");
    }
    if let Some(r) = &b.retreating
        && r.piece != piece
    {
        return refuse(
            "one_at_a_time",
            "9.5",
            "finish the retreat of the unit retreating now",
        );
    }
    if b.retreating.is_none() && !b.to_retreat.contains(&piece) {
        return refuse("not_retreating", "9.5", "that piece does not retreat");
    }
    if !options(s, piece).contains(&to) {
        return refuse(
            "retreat_priority",
            "9.5.2",
            "a retreat enters the fewest enemy ZOC hexes, then moves closer to a friendly supply source, then keeps the stacking limit",
        );
    }
    Ok(())
}

/// Rule 9.5: retreat one hex.
pub fn apply_retreat(s: &mut Avl, piece: PieceId, to: Hex, ev: &mut Vec<Event>) {
    let zoc_here = ZoneOfControl::of(s, s.side(piece).enemy()).contains(to);
    let is_hq = s.is_hq(piece);
    let Some(b) = s.pos.battle.as_mut() else {
        return;
    };
    b.to_retreat.retain(|&p| p != piece);
    if is_hq {
        s.set_location(piece, Location::Map(to));
        ev.push(Event::Retreated { piece, to });
        return;
    }
    let hexes = b.result.map_or(1, |r| r.retreat);
    let r = b.retreating.get_or_insert(Retreating {
        piece,
        path: Vec::new(),
        remaining: hexes,
    });
    r.path.push(to);
    r.remaining = r.remaining.saturating_sub(1);
    s.set_location(piece, Location::Map(to));
    ev.push(Event::Retreated { piece, to });
    if zoc_here {
        // Rule 9.5.3: one step lost; an eliminated unit overruns nothing (9.5.7).
        combat::lose_step(s, piece, ev);
        if s.location(piece) == Location::Eliminated {
            if let Some(b) = s.pos.battle.as_mut() {
                b.retreating = None;
            }
            return;
        }
    }
    hq::entered(s, piece, to, ev);
    let can_stop = stacking::can_stop(s, piece, to);
    let Some(b) = s.pos.battle.as_mut() else {
        return;
    };
    if let Some(r) = b.retreating.as_mut()
        && r.remaining == 0
    {
        if can_stop {
            b.retreated.push((piece, to));
            b.retreating = None;
        } else {
            // Rules 9.5.4, 9.5.5: one more hex.
            r.remaining = 1;
        }
    }
}

/// Rule 9.5.8: a unit that cannot retreat (further) is eliminated.
pub fn eliminate(s: &mut Avl, piece: PieceId, ev: &mut Vec<Event>) {
    s.set_location(piece, Location::Eliminated);
    ev.push(Event::EliminatedInRetreat { unit: piece });
    if let Some(b) = s.pos.battle.as_mut() {
        b.to_retreat.retain(|&p| p != piece);
        if b.retreating.as_ref().is_some_and(|r| r.piece == piece) {
            b.retreating = None;
        }
    }
}
