//! The AVL invariants the conformance harness checks after every action, on the test
//! scenario (`tests/harness.rs`) and on the campaign (`tests/campaign.rs`), and the
//! hidden-facts variant of a position for the view-stability check.

use avl::rules::stacking;
use avl::rules::zoc::ZoneOfControl;
use avl::{Avl, Chit, Location, Side};
use engine::harness::Invariant;
use engine::{GameRng, Seat};
use hexmap::{Board, Hex};

/// Every invariant below, named.
pub fn all() -> Vec<Invariant<Avl>> {
    vec![
        Invariant {
            name: "stacking",
            check: stacking_limits,
        },
        Invariant {
            name: "no unit in an enemy hex",
            check: no_enemy_hex,
        },
        Invariant {
            name: "zones of control",
            check: zones_of_control,
        },
        Invariant {
            name: "supply markers",
            check: supply_markers,
        },
        Invariant {
            name: "chits",
            check: chits,
        },
    ]
}

/// Rule 5.0: stacking limits and nationality restrictions outside moves in progress.
pub fn stacking_limits(s: &Avl) -> Result<(), String> {
    let moving: Vec<_> = s
        .position()
        .activation
        .as_ref()
        .and_then(|a| a.mover)
        .map(|m| m.piece)
        .into_iter()
        .chain(s.position().battle.iter().flat_map(|b| {
            b.retreating
                .iter()
                .map(|r| r.piece)
                .chain(b.advancing.map(|a| a.piece))
        }))
        .collect();
    let mut hexes: Vec<Hex> = s.piece_ids().filter_map(|p| s.hex_of(p)).collect();
    hexes.sort();
    hexes.dedup();
    for h in hexes {
        let here: Vec<_> = s.pieces_at(h).collect();
        if here.iter().any(|p| moving.contains(p)) {
            continue;
        }
        stacking::stack_ok(here.iter().map(|&p| (s.is_hq(p), s.nationality(p))))
            .map_err(|e| format!("{}: {e}", s.map().label(h)))?;
    }
    Ok(())
}

/// Rule 5.0.2: no unit in an enemy-occupied hex.
pub fn no_enemy_hex(s: &Avl) -> Result<(), String> {
    for p in s.piece_ids() {
        if let Some(h) = s.hex_of(p)
            && s.pieces_at(h).any(|q| s.side(q) != s.side(p))
        {
            return Err(format!(
                "{} shares {} with the enemy",
                s.name(p),
                s.map().label(h)
            ));
        }
    }
    Ok(())
}

/// Rule 10.3: HQs never keep an Out of Supply marker once relocations are done; pieces
/// off the map carry no marker but the ones they were eliminated or removed with.
pub fn supply_markers(s: &Avl) -> Result<(), String> {
    for p in s.piece_ids() {
        let marked = s.piece(p).supply != avl::Supply::InSupply;
        match s.location(p) {
            Location::Map(_) if s.is_hq(p) && marked && s.position().relocations.is_empty() => {
                return Err(format!("HQ {} keeps a supply marker", s.name(p)));
            }
            Location::Box(_) | Location::Arriving(_) if marked => {
                return Err(format!("{} off the map has a supply marker", s.name(p)));
            }
            _ => {}
        }
    }
    Ok(())
}

/// Chits: each in one place; STAVKA always Soviet.
pub fn chits(s: &Avl) -> Result<(), String> {
    let p = s.position();
    let mut all: Vec<Chit> = p
        .inactive
        .iter()
        .chain(p.played.iter())
        .flatten()
        .chain(&p.cup)
        .chain(&p.drawn)
        .copied()
        .collect();
    all.sort();
    if all.windows(2).any(|w| w[0] == w[1]) {
        return Err("a chit in two places".into());
    }
    Ok(())
}

/// Facts hidden from `seat`: the other side's chits in its pool and the cup.
pub fn hidden_variant(s: &Avl, seat: Seat, rng: &mut GameRng) -> Option<Avl> {
    let other = Side::of_seat(seat)?.enemy();
    let mut setup = s.to_setup();
    let pos = setup.position.as_mut()?;
    let pool = &pos.inactive[other.index()];
    let in_cup: Vec<usize> = pos
        .cup
        .iter()
        .enumerate()
        .filter(|(_, c)| {
            **c != Chit::Stavka && avl::rules::command::chit_side(s, **c) == Some(other)
        })
        .map(|(i, _)| i)
        .collect();
    if pool.is_empty() || in_cup.is_empty() {
        return None;
    }
    let i = rng.below(pool.len() as u32) as usize;
    let j = in_cup[rng.below(in_cup.len() as u32) as usize];
    if pos.inactive[other.index()][i] == Chit::Stavka {
        return None;
    }
    std::mem::swap(&mut pos.inactive[other.index()][i], &mut pos.cup[j]);
    pos.inactive[other.index()].sort();
    pos.cup.sort();
    Avl::from_setup(&setup).ok()
}

/// Rule 6.0.1: the ZOC the rules use is exactly the land hexes next to a combat unit of
/// the side, not across an impassable hexside (a definition written out again here).
pub fn zones_of_control(s: &Avl) -> Result<(), String> {
    let map = s.map();
    for side in Side::BOTH {
        let zoc = ZoneOfControl::of(s, side);
        for h in map.board.hexes() {
            let exerted = map.is_land(h)
                && h.neighbors().into_iter().any(|n| {
                    s.units_at(n).any(|u| s.side(u) == side) && !map.side(n, h).impassable
                });
            if exerted != zoc.contains(h) {
                return Err(format!(
                    "{}: in the {side:?} ZOC by 6.0.1: {exerted}, by the rules: {}",
                    map.label(h),
                    zoc.contains(h)
                ));
            }
        }
    }
    Ok(())
}
