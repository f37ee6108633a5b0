//! Rules 8.1–8.3, 5.0.4: where a piece, or a stack moving as one, can go in this
//! Movement Segment: every hex reachable by a sequence of legal single steps, found by
//! searching over positions with the engine's own [`crate::legal::moves_of`] (which is
//! [`crate::check`]) and [`crate::apply`], so the search and the referee cannot disagree.
//!
//! A piece's move is the state of its [`Mover`] (MPs spent, strategic movement, stopped
//! by a major river, the administrative MP) and its hex; two ways into one hex with the
//! same state differ only in the MPs spent, and the cheaper one can do all the dearer
//! one can (every rule asks for MPs left, or for none spent yet). So a search cheapest
//! first over (hex, strategic, stopped, administrative) finds every reachable hex with
//! its cheapest path. It stops at a hex where an enemy HQ is overrun: its owner must
//! relocate it first (12.7), a decision of the other player.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

use hexmap::Hex;

use crate::action::Action;
use crate::check::check_in;
use crate::derived::Derived;
use crate::rules::zoc::ZoneOfControl;
use crate::rules::{movement, sequence, stacking};
use crate::state::{Avl, Location, Mover, PieceId};

/// One hex a piece (or a stack) can reach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reached {
    /// The hex.
    pub to: Hex,
    /// Half MPs spent from the position now (the mover's MPs already spent not counted).
    pub cost: u16,
    /// Half MPs left there (the least of the stack's pieces).
    pub left: u16,
    /// The hexes entered, in order; the last is `to`.
    pub path: Vec<Hex>,
    /// Rule 8.3: every step is strategic movement (`RoadMove`), else none is (`Move`).
    pub road: bool,
    /// Rule 6.0: `to` is in an enemy ZOC.
    pub zoc: bool,
    /// Rule 5.0.4: the move may end there (the stacking limit); otherwise it only
    /// passes through.
    pub stop: bool,
}

/// Rules 8.1, 8.3: the action that moves `p` one hex into `to`.
pub fn step_action(p: PieceId, to: Hex, road: bool) -> Action {
    if road {
        Action::RoadMove { piece: p, to }
    } else {
        Action::Move { piece: p, to }
    }
}

/// What tells two ways into one hex apart, besides the MPs spent.
type Key = (Hex, Vec<(bool, bool, bool)>);

struct Node {
    /// The position after the moves so far, one per piece of the stack: piece `i` has
    /// moved along the path, the others have not (each is checked as it would move).
    states: Vec<Avl>,
    at: Hex,
    spent: u16,
    prev: Option<usize>,
    road: bool,
}

fn mover_now(s: &Avl, p: PieceId) -> Option<Mover> {
    s.pos
        .activation
        .as_ref()
        .and_then(|a| a.mover)
        .filter(|m| m.piece == p)
}

fn flags(m: &Mover) -> (bool, bool, bool) {
    (m.strategic, m.stopped, m.administrative)
}

/// Every hex the `pieces` (all in one place, in the order they will move) can reach
/// along one common path, cheapest first, each with its path; sorted by hex. One piece:
/// exact (every hex reachable by legal steps, and only those). Several: each step is
/// one the engine allows every piece, and each hex listed is confirmed by playing the
/// whole stack's move (piece after piece, each along the whole path) through check and
/// apply, the last piece able to stop there.
pub fn reach(d: &Derived<'_>, pieces: &[PieceId]) -> Vec<Reached> {
    let s = d.state();
    let Some(&first) = pieces.first() else {
        return Vec::new();
    };
    let side = s.side(first);
    let zoc = d.zoc(side.enemy());
    let start_spent: Vec<u16> = pieces
        .iter()
        .map(|&p| movement::mover_of(s, p, zoc).spent.0)
        .collect();
    let start = s.hex_of(first);
    let mut nodes = vec![Node {
        states: vec![s.clone(); pieces.len()],
        at: start.unwrap_or_default(),
        spent: 0,
        prev: None,
        road: false,
    }];
    let mut best: BTreeMap<Key, u16> = BTreeMap::new();
    let mut heap = BinaryHeap::from([Reverse((0u16, 0usize))]);
    let mut settled: BTreeMap<Hex, usize> = BTreeMap::new();
    while let Some(Reverse((spent, i))) = heap.pop() {
        if i > 0 {
            let key = key_of(&nodes[i], pieces);
            if best.get(&key).is_some_and(|&b| b < spent) {
                continue;
            }
            if Some(nodes[i].at) != start {
                settled.entry(nodes[i].at).or_insert(i);
            }
        }
        // The steps every piece may take from here: the candidates of
        // `legal::moves_of`, through `check` (with the enemy ZOC, which the moves of
        // this side leave as it is, worked out once).
        let mut steps: Option<Vec<(Hex, bool)>> = None;
        for (k, &p) in pieces.iter().enumerate() {
            let t = &nodes[i].states[k];
            let here = Derived::with_zoc(t, side.enemy(), zoc.clone());
            let mine: Vec<(Hex, bool)> = targets(t, p)
                .into_iter()
                .flat_map(|to| [(to, false), (to, true)])
                .filter(|&(to, road)| check_in(&here, &step_action(p, to, road)).is_ok())
                .collect();
            steps = Some(match steps {
                None => mine,
                Some(v) => v.into_iter().filter(|x| mine.contains(x)).collect(),
            });
        }
        for (to, road) in steps.unwrap_or_default() {
            let mut states = nodes[i].states.clone();
            let mut total = 0;
            for (k, &p) in pieces.iter().enumerate() {
                // What `apply` does for a move, with the ZOC known.
                let mut ev = Vec::new();
                movement::apply_move_with(&mut states[k], p, to, road, zoc, &mut ev);
                sequence::run(&mut states[k], &mut ev);
                total += mover_now(&states[k], p).map_or(0, |m| m.spent.0) - start_spent[k];
            }
            let cost = total / u16::try_from(pieces.len()).unwrap_or(1);
            let node = Node {
                states,
                at: to,
                spent: cost,
                prev: Some(i),
                road,
            };
            let key = key_of(&node, pieces);
            if best.get(&key).is_none_or(|&b| cost < b) {
                best.insert(key, cost);
                nodes.push(node);
                heap.push(Reverse((cost, nodes.len() - 1)));
            }
        }
    }
    settled
        .into_iter()
        .filter_map(|(to, i)| {
            let mut path = Vec::new();
            let mut road = false;
            let mut at = Some(i);
            while let Some(j) = at.filter(|&j| j > 0) {
                path.push(nodes[j].at);
                road = nodes[j].road;
                at = nodes[j].prev;
            }
            path.reverse();
            let n = &nodes[i];
            let left = pieces
                .iter()
                .enumerate()
                .map(|(k, &p)| {
                    let m = mover_now(&n.states[k], p);
                    let admin = m.is_some_and(|m| m.administrative);
                    movement::allowance(s, p, admin)
                        .0
                        .saturating_sub(m.map_or(0, |m| m.spent.0))
                })
                .min()
                .unwrap_or(0);
            let stop = if pieces.len() == 1 {
                stacking::can_stop(&n.states[0], first, to)
            } else {
                plays(s, zoc, pieces, &path, road)
            };
            if pieces.len() > 1 && !stop {
                return None;
            }
            Some(Reached {
                to,
                cost: n.spent,
                left,
                path,
                road,
                zoc: zoc.contains(to),
                stop,
            })
        })
        .collect()
}

fn key_of(n: &Node, pieces: &[PieceId]) -> Key {
    let f = pieces
        .iter()
        .enumerate()
        .map(|(k, &p)| mover_now(&n.states[k], p).map_or((false, false, false), |m| flags(&m)))
        .collect();
    (n.at, f)
}

/// Whether the stack's move along `path` plays through check and apply, piece after
/// piece, and leaves the last piece where it may stop (5.0.4).
fn plays(s: &Avl, zoc: &ZoneOfControl, pieces: &[PieceId], path: &[Hex], road: bool) -> bool {
    let mut t = s.clone();
    let Some(&first) = pieces.first() else {
        return false;
    };
    let enemy = s.side(first).enemy();
    for &p in pieces {
        for &to in path {
            let a = step_action(p, to, road);
            if check_in(&Derived::with_zoc(&t, enemy, zoc.clone()), &a).is_err() {
                return false;
            }
            let mut ev = Vec::new();
            movement::apply_move_with(&mut t, p, to, road, zoc, &mut ev);
            sequence::run(&mut t, &mut ev);
        }
    }
    pieces
        .last()
        .is_some_and(|&p| stacking::ok_where_it_is(&t, p))
}

/// Rules 8.1, 11.2.2: the hexes `p` might step into: those next to it, or to its box.
pub fn targets(s: &Avl, p: PieceId) -> Vec<Hex> {
    let mut out = Vec::with_capacity(6);
    each_target(s, p, |h| out.push(h));
    out
}

/// [`targets`] one by one, in the same order, without collecting them.
pub(crate) fn each_target(s: &Avl, p: PieceId, mut visit: impl FnMut(Hex)) {
    match s.location(p) {
        Location::Map(h) => {
            let map = s.map();
            match map.index(h) {
                // `Map::neighbors` by index.
                Some(i) => map.linked(i).for_each(|(_, n)| visit(map.hex_at(n))),
                None => map.neighbors(h).for_each(|(_, n)| visit(n)),
            }
        }
        Location::Box(b) => {
            if let Some(x) = s.rules().data.boxes.get(usize::from(b)) {
                x.adjacent.iter().copied().for_each(visit);
            }
        }
        _ => {}
    }
}
