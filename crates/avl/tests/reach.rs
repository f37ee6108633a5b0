//! Rules 8.1–8.3, 5.0.4: the reach the advice shows (`advice.movement.pieces[].reach`,
//! `advice.movement.stacks[].reach`) is the engine's: over random positions of the
//! campaign and the demo, every hex listed is reached by playing its `path` through
//! `Game::apply` at the cost shown, every hex a piece can reach by legal single steps is
//! listed (at its cheapest cost), each stack's move plays whole, every hex a stack can
//! reach along one common path is listed, and each refused
//! neighbour carries the refusal `Game::check` gives.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use avl::state::Mover;
use avl::{Action, Avl, Phase, PieceId};
use engine::{Game, GameRng, NewGame, Seat};
use hexmap::Hex;
use serde_json::Value;

fn setup(preset: &str) -> avl::Setup {
    Avl::new_setup(&NewGame {
        preset: Some(preset.into()),
        ..NewGame::default()
    })
    .unwrap()
}

fn hex(v: &Value) -> Hex {
    serde_json::from_value(v.clone()).unwrap()
}

fn piece(v: &Value) -> PieceId {
    serde_json::from_value(v.clone()).unwrap()
}

fn mover(s: &Avl, p: PieceId) -> Option<Mover> {
    s.view(None)
        .position
        .activation
        .and_then(|a| a.mover)
        .filter(|m| m.piece == p)
}

/// The hexes of a reach entry's path: `steps` digits (`STEP_DIGITS` of the advice)
/// from `from`, or from `enter`.
fn path(from: Option<Hex>, r: &Value) -> Vec<Hex> {
    const D: [(i32, i32); 6] = [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)];
    let mut out = Vec::new();
    let mut at = from;
    if let Some(e) = r.get("enter") {
        at = Some(hex(e));
        out.push(hex(e));
    }
    for c in r["steps"].as_str().unwrap().chars() {
        let (dq, dr) = D[c.to_digit(10).unwrap() as usize];
        let a = at.unwrap();
        let h = Hex::new(a.q + dq, a.r + dr);
        out.push(h);
        at = Some(h);
    }
    out
}

fn flag(r: &Value, k: &str) -> bool {
    r.get(k).is_some_and(|v| v == true)
}

fn step(p: PieceId, to: Hex, road: bool) -> Action {
    if road {
        Action::RoadMove { piece: p, to }
    } else {
        Action::Move { piece: p, to }
    }
}

/// Every hex `p` reaches by legal single steps, with the least half MPs spent: a plain
/// search over every (hex, move state, MPs spent), with no pruning by cost.
fn brute_reach(s: &Avl, p: PieceId) -> BTreeMap<Hex, u16> {
    let spent0 = mover(s, p).map_or(0, |m| m.spent.0);
    let start = s.hex_of(p);
    let mut seen = BTreeSet::new();
    let mut out: BTreeMap<Hex, u16> = BTreeMap::new();
    let mut todo = vec![s.clone()];
    while let Some(t) = todo.pop() {
        for a in avl::legal::moves_of(&t, p) {
            let mut next = t.clone();
            next.apply(a).unwrap();
            let mv = mover(&next, p).unwrap();
            let at = next.hex_of(p).unwrap();
            if seen.insert((at, mv.spent.0, mv.strategic, mv.stopped, mv.administrative)) {
                if Some(at) != start {
                    let cost = mv.spent.0 - spent0;
                    out.entry(at)
                        .and_modify(|x| *x = (*x).min(cost))
                        .or_insert(cost);
                }
                todo.push(next);
            }
        }
    }
    out
}

/// Whether the stack's move along `path` plays through `Game::apply`, piece after
/// piece, each along the whole path, the last one able to stop at its end (5.0.4).
fn whole_move_plays(s: &Avl, group: &[PieceId], path: &[(Hex, bool)]) -> bool {
    let mut t = s.clone();
    for &p in group {
        for &(to, road) in path {
            if t.apply(step(p, to, road)).is_err() {
                return false;
            }
        }
    }
    avl::rules::stacking::ok_where_it_is(&t, *group.last().unwrap())
}

/// Every hex the stack `group` reaches along one common path whose whole move plays
/// (see `whole_move_plays`): a plain search over every (hex, each piece's move state
/// and MPs spent), each step one `legal::moves_of` lists for every piece (each in a
/// position where only it has moved), with no pruning by cost.
fn brute_stack_reach(s: &Avl, group: &[PieceId]) -> BTreeSet<Hex> {
    type Step = (Hex, bool);
    let start = s.hex_of(group[0]);
    let mut seen = BTreeSet::new();
    let mut out = BTreeSet::new();
    let mut todo: Vec<(Vec<Avl>, Vec<Step>)> = vec![(vec![s.clone(); group.len()], Vec::new())];
    while let Some((states, path)) = todo.pop() {
        let mut common: Option<Vec<Step>> = None;
        for (k, &p) in group.iter().enumerate() {
            let mine: Vec<Step> = avl::legal::moves_of(&states[k], p)
                .into_iter()
                .filter_map(|a| match a {
                    Action::Move { to, .. } => Some((to, false)),
                    Action::RoadMove { to, .. } => Some((to, true)),
                    _ => None,
                })
                .collect();
            common = Some(match common {
                None => mine,
                Some(v) => v.into_iter().filter(|x| mine.contains(x)).collect(),
            });
        }
        for (to, road) in common.unwrap_or_default() {
            let mut next = states.clone();
            let mut key = vec![(to.q, to.r, 0, false, false, false)];
            for (k, &p) in group.iter().enumerate() {
                next[k].apply(step(p, to, road)).unwrap();
                let m = mover(&next[k], p).unwrap();
                key.push((0, 0, m.spent.0, m.strategic, m.stopped, m.administrative));
            }
            if seen.insert(key) {
                let mut longer = path.clone();
                longer.push((to, road));
                if Some(to) != start && whole_move_plays(s, group, &longer) {
                    out.insert(to);
                }
                todo.push((next, longer));
            }
        }
    }
    out
}

#[derive(Default, Debug)]
struct Checked {
    positions: usize,
    hexes: usize,
    stack_hexes: usize,
    /// Stacks whose reach was compared with the plain search.
    brute_stacks: usize,
    refused: usize,
    road: usize,
}

/// `brute`: how many pieces' reach to compare with the plain search (it is slow).
fn check_position(s: &Avl, brute: usize, n: &mut Checked) {
    let advice = s.advice(Seat(0));
    let movement = &advice["movement"];
    n.positions += 1;
    for (i, entry) in movement["pieces"].as_array().unwrap().iter().enumerate() {
        let p = piece(&entry["piece"]);
        let spent0 = mover(s, p).map_or(0, |m| m.spent.0);
        let mut shown = BTreeMap::new();
        for r in entry["reach"].as_array().unwrap() {
            let to = hex(&r["to"]);
            let road = flag(r, "road");
            let mut t = s.clone();
            for h in path(s.hex_of(p), r) {
                t.apply(step(p, h, road))
                    .unwrap_or_else(|e| panic!("{r}: {e}"));
            }
            assert_eq!(t.hex_of(p), Some(to), "{r}");
            let after = mover(&t, p).unwrap();
            assert_eq!(u64::from(after.spent.0 - spent0), r["cost"], "{r}");
            assert_eq!(
                avl::rules::stacking::ok_where_it_is(&t, p),
                !flag(r, "pass"),
                "{r}"
            );
            n.road += usize::from(road);
            shown.insert(to, u16::try_from(r["cost"].as_u64().unwrap()).unwrap());
            n.hexes += 1;
        }
        if i < brute {
            assert_eq!(shown, brute_reach(s, p), "piece {p}: {entry}");
        }
        for x in entry["refused"].as_array().unwrap() {
            let to = hex(&x["to"]);
            let refusal = s.check(&Action::Move { piece: p, to }).unwrap_err();
            assert!(s.check(&Action::RoadMove { piece: p, to }).is_err());
            assert_eq!(x["code"], refusal.code);
            assert_eq!(x["rule"], refusal.rule);
            assert_eq!(x["message"], refusal.message.as_str());
            n.refused += 1;
        }
    }
    for st in movement["stacks"].as_array().unwrap() {
        let group: Vec<PieceId> = st["pieces"].as_array().unwrap().iter().map(piece).collect();
        for r in st["reach"].as_array().unwrap() {
            let to = hex(&r["to"]);
            let road = flag(r, "road");
            let mut t = s.clone();
            let from = s.hex_of(group[0]);
            for &p in &group {
                for h in path(from, r) {
                    t.apply(step(p, h, road))
                        .unwrap_or_else(|e| panic!("{st}: {r}: {e}"));
                }
                assert_eq!(t.hex_of(p), Some(to));
            }
            assert!(avl::rules::stacking::ok_where_it_is(
                &t,
                *group.last().unwrap()
            ));
            n.stack_hexes += 1;
        }
        if n.brute_stacks < brute {
            let shown: BTreeSet<Hex> = st["reach"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| hex(&r["to"]))
                .collect();
            assert_eq!(shown, brute_stack_reach(s, &group), "stack {st}");
            n.brute_stacks += 1;
        }
    }
}

fn random_positions(
    preset: &str,
    seeds: std::ops::Range<u64>,
    every: usize,
    brute: usize,
    n: &mut Checked,
) {
    let setup = setup(preset);
    for seed in seeds {
        let mut s = Avl::from_setup(&setup).unwrap();
        let mut rng = GameRng::from_u64(seed);
        let mut k = 0;
        for _ in 0..3_000 {
            let pos = s.view(None).position;
            if pos.phase == Phase::Movement && pos.battle.is_none() && pos.result.is_none() {
                k += 1;
                if k % every == 0 {
                    check_position(&s, brute, n);
                }
            }
            let Some(action) = common::random_step(&s, &mut rng) else {
                break;
            };
            s.apply(action).unwrap();
        }
    }
}

#[test]
fn the_demos_reach_is_every_hex_legal_steps_reach() {
    let mut n = Checked::default();
    random_positions("demo", 0..6, 3, usize::MAX, &mut n);
    println!("checked: {n:?}");
    assert!(
        n.positions > 50
            && n.hexes > 500
            && n.stack_hexes > 20
            && n.brute_stacks > 10
            && n.refused > 100,
        "checked: {n:?}"
    );
}

#[test]
fn the_campaigns_reach_is_every_hex_legal_steps_reach() {
    let mut n = Checked::default();
    random_positions("campaign", 0..2, 12, 6, &mut n);
    println!("checked: {n:?}");
    assert!(
        n.positions > 20 && n.hexes > 500 && n.road > 0 && n.refused > 100,
        "checked: {n:?}"
    );
}

/// The time `Game::advice` takes (printed, not asserted): the campaign's first
/// Movement Segment and positions later in the game.
/// `cargo test -p avl --release --test reach -- --ignored --nocapture`
#[test]
#[ignore = "prints timings"]
fn advice_time() {
    let setup = setup("campaign");
    let mut s = Avl::from_setup(&setup).unwrap();
    let mut rng = GameRng::from_u64(1);
    let mut first = true;
    let mut times = Vec::new();
    for _ in 0..6_000 {
        let pos = s.view(None).position;
        if pos.phase == Phase::Movement && pos.battle.is_none() && pos.result.is_none() {
            let t0 = Instant::now();
            let a = s.advice(Seat(0));
            let dt = t0.elapsed();
            let reach: usize = a["movement"]["pieces"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["reach"].as_array().unwrap().len())
                .sum();
            if first {
                let t1 = Instant::now();
                let again = s.advice(Seat(0));
                let dt2 = t1.elapsed();
                let t2 = Instant::now();
                let legal = s.legal_actions().len();
                println!(
                    "  (advice again {dt2:?}, {} bytes of JSON; legal_actions alone {:?}, {legal} actions)",
                    again.to_string().len(),
                    t2.elapsed()
                );
                println!(
                    "first movement segment (turn {}): {dt:?}, {} pieces, {reach} reach entries",
                    pos.turn.0,
                    a["movement"]["pieces"].as_array().unwrap().len()
                );
                first = false;
            }
            times.push((dt, pos.turn.0, reach));
        }
        let Some(action) = common::random_step(&s, &mut rng) else {
            break;
        };
        s.apply(action).unwrap();
    }
    times.sort();
    let k = times.len();
    println!(
        "{k} movement positions: median {:?}, 90% {:?}, max {:?} (turn {}, {} reach entries)",
        times[k / 2].0,
        times[k * 9 / 10].0,
        times[k - 1].0,
        times[k - 1].1,
        times[k - 1].2
    );
}
