//! What the two players are shown beside the map (`Game::advice`): the costs of the
//! moves open to the moving side (8.1–8.3) with the enemy ZOC (6.0), the odds of every
//! attack it may declare (9.3) before it names a unit, and the odds and CRT row of the
//! combat being fought. Everything here follows from the position on the table (the
//! rules have no fog), so both seats are shown the same.

use std::collections::BTreeMap;

use hexmap::Hex;
use serde_json::{Value, json};

use crate::action::Action;
use crate::derived::Derived;
use crate::rules::combat::{self, CombatOdds};
use crate::rules::movement;
use crate::state::{Avl, BattleStage, Phase, PieceId};
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
    json!({ "enemy_zoc": zoc_hexes, "moves": list, "half_mp": true })
}
