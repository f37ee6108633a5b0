//! What the two players are shown beside the map (`Game::advice`): the costs of the
//! moves open to the moving side (8.1–8.3) with the enemy ZOC (6.0), the odds of every
//! attack it may declare (9.3) before it names a unit, and the odds and CRT row of the
//! combat being fought. Everything here follows from the position on the table (the
//! rules have no fog), so both seats are shown the same.

use std::collections::{BTreeMap, BTreeSet};

use hexmap::Hex;
use serde_json::{Value, json};

use crate::action::Action;
use crate::check::check_in;
use crate::derived::Derived;
use crate::reach::{self, Reached};
use crate::rules::combat::{self, CombatOdds};
use crate::rules::movement;
use crate::state::{Avl, BattleStage, Location, Phase, PieceId};
use crate::unit::Side;

/// The advice for `side`'s player (`None`: an onlooker, who is shown nothing).
pub fn advice(s: &Avl, side: Option<Side>) -> Value {
    if side.is_none() || s.pos.result.is_some() {
        return Value::Null;
    }
    let mut out = serde_json::Map::new();
    let derived = Derived::new(s);
    let legal = crate::legal::legal_actions_in(&derived);
    if let Some(c) = fight(s, &legal) {
        out.insert("combat".into(), c);
    }
    if s.pos.phase == Phase::Movement && s.pos.battle.is_none() {
        out.insert("movement".into(), moves(&derived, &legal));
    }
    if s.pos.phase == Phase::Combat && s.pos.battle.is_none() {
        out.insert("attacks".into(), attacks(s, &legal));
    }
    if out.is_empty() {
        Value::Null
    } else {
        Value::Object(out)
    }
}

/// Rule 9.3: strengths, odds (`null`: impossible, 9.3.4) and the CRT result of each
/// die roll at those odds.
fn odds_json(s: &Avl, target: Hex, now: &CombatOdds, odds: Option<crate::crt::Odds>) -> Value {
    let crt = &s.rules().data.crt;
    let results: Vec<String> = odds
        .map(|o| {
            let column = crt.column(o);
            (1..=crt.rows.len() as u8)
                .map(|die| crate::result_text(crt.result(die, column)))
                .collect()
        })
        .unwrap_or_default();
    json!({
        "target": target,
        "attack": now.attack,
        "defense": now.defense,
        "odds": odds.map(|o| crt.ratio_name(o)),
        "results": results,
    })
}

/// The combat being fought, once an attacker is named: its odds now (the roll's once
/// resolved, 9.2 (3)) and, while attackers are still being named, the odds with every
/// unit that may still join (`all`).
fn fight(s: &Avl, legal: &[Action]) -> Option<Value> {
    let b = s.pos.battle.as_ref()?;
    if b.attackers.is_empty() {
        return None;
    }
    let now = combat::odds(s, &b.attackers, b.target);
    let declaring = b.stage == BattleStage::Declaring;
    let mut out = odds_json(s, b.target, &now, if declaring { now.odds } else { b.odds });
    if declaring {
        let mut all = b.attackers.clone();
        all.extend(legal.iter().filter_map(|a| match *a {
            Action::Attack { unit, .. } => Some(unit),
            _ => None,
        }));
        if all.len() > b.attackers.len() {
            let most = combat::odds(s, &all, b.target);
            out["all"] = odds_json(s, b.target, &most, most.odds);
        }
    }
    Some(out)
}

/// Rules 9.1, 9.3: each hex the active player may attack now, with the units that may
/// attack it and the odds if they all do.
fn attacks(s: &Avl, legal: &[Action]) -> Value {
    let mut by_target: BTreeMap<Hex, Vec<PieceId>> = BTreeMap::new();
    for a in legal {
        if let Action::Attack { unit, target } = *a {
            by_target.entry(target).or_default().push(unit);
        }
    }
    by_target
        .into_iter()
        .map(|(target, units)| {
            let most = combat::odds(s, &units, target);
            let mut v = odds_json(s, target, &most, most.odds);
            v["units"] = json!(units);
            v
        })
        .collect()
}

/// Rules 6.0, 8.1–8.3: the enemy ZOC and, for each legal move, what it costs (in half
/// MPs), what it leaves, and whether it enters an enemy ZOC.
fn moves(derived: &Derived<'_>, legal: &[Action]) -> Value {
    let s = derived.state();
    let Some(side) = s.pos.active else {
        return Value::Null;
    };
    let zoc = derived.zoc(side.enemy());
    let zoc_hexes: Vec<Hex> = hexmap::Board::hexes(&s.map().board)
        .filter(|&h| zoc.contains(h))
        .collect();
    let list: Vec<Value> = legal
        .iter()
        .filter_map(|a| match *a {
            Action::Move { piece, to } => Some((piece, to, false)),
            Action::RoadMove { piece, to } => Some((piece, to, true)),
            _ => None,
        })
        .filter_map(|(piece, to, road)| {
            let m = movement::mover_of(s, piece, zoc);
            let next = movement::step(s, &m, to, road, zoc).ok()?;
            let allowance = movement::allowance(s, piece, next.administrative);
            Some(json!({
                "piece": piece,
                "to": to,
                "road": road,
                "cost": next.spent.0 - m.spent.0,
                "left": allowance.0.saturating_sub(next.spent.0),
                "zoc": zoc.contains(to),
            }))
        })
        .collect();
    let movable: Vec<PieceId> = legal
        .iter()
        .filter_map(|a| match *a {
            Action::Move { piece, .. } | Action::RoadMove { piece, .. } => Some(piece),
            _ => None,
        })
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let pieces: Vec<Value> = s
        .pos
        .activation
        .as_ref()
        .map(|a| {
            a.units
                .iter()
                .chain(&a.hqs)
                .copied()
                .filter(|p| !a.moved.contains(p))
                .collect::<BTreeSet<_>>()
        })
        .unwrap_or_default()
        .into_iter()
        .map(|p| {
            let reach = if movable.contains(&p) {
                reach::reach(derived, &[p])
            } else {
                Vec::new()
            };
            json!({
                "piece": p,
                "reach": reach
                    .iter()
                    .map(|r| reached_json(s.location(p), r))
                    .collect::<Vec<_>>(),
                "refused": refused(derived, p),
            })
        })
        .collect();
    json!({
        "enemy_zoc": zoc_hexes,
        "moves": list,
        "pieces": pieces,
        "stacks": stacks(derived, &movable),
        "half_mp": true,
    })
}

/// The axial offsets of the step digits of a reach's `steps`: 0 north-east, 1 east,
/// 2 south-east, 3 south-west, 4 west, 5 north-west (`hexmap::Direction::ALL`).
const STEP_DIGITS: [(i32, i32); 6] = [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)];

/// One reachable hex, compactly (the campaign's first move reaches thousands): the path
/// as one digit per step from the piece's hex (from `enter`, the first hex, for a piece
/// in a box); `road`, `zoc` and `pass` (it may not stop there, 5.0.4) only when true.
fn reached_json(from: Location, r: &Reached) -> Value {
    let mut at = match from {
        Location::Map(h) => Some(h),
        _ => None,
    };
    let mut steps = String::new();
    let mut out = serde_json::Map::new();
    out.insert("to".into(), json!(r.to));
    out.insert("cost".into(), json!(r.cost));
    out.insert("left".into(), json!(r.left));
    for &h in &r.path {
        match at {
            Some(a) => {
                let d = (h.q - a.q, h.r - a.r);
                let digit = STEP_DIGITS.iter().position(|&x| x == d).unwrap_or(0);
                steps.push(char::from(b'0' + u8::try_from(digit).unwrap_or(0)));
            }
            None => {
                out.insert("enter".into(), json!(h));
            }
        }
        at = Some(h);
    }
    out.insert("steps".into(), json!(steps));
    for (k, v) in [("road", r.road), ("zoc", r.zoc), ("pass", !r.stop)] {
        if v {
            out.insert(k.into(), json!(true));
        }
    }
    Value::Object(out)
}

/// Rules 8.1, 5.0: each hex next to `p` (or to its box) that it may not enter now, by
/// ordinary nor by strategic movement, with the engine's refusal of the ordinary step.
fn refused(derived: &Derived<'_>, p: PieceId) -> Vec<Value> {
    let s = derived.state();
    reach::targets(s, p)
        .into_iter()
        .filter_map(|to| {
            let plain = check_in(derived, &Action::Move { piece: p, to });
            let road = check_in(derived, &Action::RoadMove { piece: p, to });
            match (plain, road) {
                (Err(e), Err(_)) => Some(json!({
                    "to": to,
                    "code": e.code,
                    "rule": e.rule,
                    "message": e.message,
                })),
                _ => None,
            }
        })
        .collect()
}

/// Rules 8.1, 5.0.4: for each hex holding several pieces that may move now, and each
/// choice of two or more of them, where they can go together along one path (the
/// pieces in the order they are to move: the one moving now first, then by id).
fn stacks(derived: &Derived<'_>, movable: &[PieceId]) -> Vec<Value> {
    let s = derived.state();
    let moving = s
        .pos
        .activation
        .as_ref()
        .and_then(|a| a.mover)
        .map(|m| m.piece);
    let mut by_place: BTreeMap<Location, Vec<PieceId>> = BTreeMap::new();
    for &p in movable {
        by_place.entry(s.location(p)).or_default().push(p);
    }
    let mut out = Vec::new();
    for (place, mut list) in by_place {
        if list.len() < 2 {
            continue;
        }
        list.sort_by_key(|&p| (Some(p) != moving, p));
        // Every choice of two or more (a hex holds at most three pieces, 5.0.1).
        let n = list.len().min(4);
        for mask in 1u32..(1 << n) {
            if mask.count_ones() < 2 {
                continue;
            }
            let group: Vec<PieceId> = (0..n)
                .filter(|&i| mask & (1 << i) != 0)
                .map(|i| list[i])
                .collect();
            let reach = reach::reach(derived, &group);
            out.push(json!({
                "at": place,
                "pieces": group,
                "reach": reach
                    .iter()
                    .map(|r| reached_json(place, r))
                    .collect::<Vec<_>>(),
            }));
        }
    }
    out
}
