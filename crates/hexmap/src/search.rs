//! Deterministic searches over hexes: movement reach, step-count reach and shortest
//! paths.
//!
//! The searches know nothing about boards: a caller's closure says which steps are
//! possible and what they cost, and must refuse hexes that are off the board. Outputs
//! are sorted by [`Hex`] (reading order), neighbours are always tried in
//! [`Direction::ALL`](crate::Direction::ALL) order, and the frontier is ordered by
//! `(cost, hex)`, so the same inputs always give the same outputs.
//!
//! Termination: every hex explored costs at most `max_cost` to reach, so with step
//! costs of at least 1 the explored area is bounded. A closure that returns
//! `Some(0)` for endless hexes (say, every hex of the unbounded plane) makes the
//! search run forever; zero-cost steps are otherwise fine.

use std::cmp::Reverse;
use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, VecDeque};

use crate::coord::Hex;

/// Every hex reachable from `start` with total cost at most `max_cost`, with its minimum
/// cost, sorted by hex (reading order). `start` is included with cost 0.
///
/// `step(from, to)` is the cost of entering `to` from its neighbour `from`, or `None`
/// when that step is impossible (impassable terrain, off the board, an enemy zone of
/// control that must stop movement, …). It may be called several times for the same
/// pair. This is uniform-cost search (Dijkstra) with a heap keyed on `(cost, hex)`.
///
/// ```
/// use hexmap::{search, Board, Hex, HexagonBoard};
///
/// let board = HexagonBoard::new(5);
/// let rough = Hex::new(1, 0);
/// let reached = search::reach(Hex::ORIGIN, 2, |_, to| {
///     if !board.contains(to) { None } else if to == rough { Some(2) } else { Some(1) }
/// });
/// assert!(reached.contains(&(rough, 2)));
/// assert!(reached.contains(&(Hex::new(2, -1), 2)));
/// // (2,0) is two steps away, but only through the rough hex: 3 points.
/// assert!(!reached.iter().any(|&(hex, _)| hex == Hex::new(2, 0)));
/// assert_eq!(reached.len(), 18);
/// ```
pub fn reach(
    start: Hex,
    max_cost: u32,
    mut step: impl FnMut(Hex, Hex) -> Option<u32>,
) -> Vec<(Hex, u32)> {
    uniform_cost(start, max_cost, &mut step, None)
        .into_iter()
        .map(|(hex, node)| (hex, node.cost))
        .collect()
}

/// Every hex reachable from `start` in at most `max_steps` steps through hexes for
/// which `passable` is true, with its step count, sorted by hex (reading order).
///
/// `start` is included with 0 steps whatever `passable` says of it. `passable` is asked
/// at most once per hex. Breadth-first search.
///
/// ```
/// use hexmap::{search, Hex};
///
/// let within = search::bfs_within(Hex::ORIGIN, 1, |h| h != Hex::new(1, 0));
/// assert_eq!(within.len(), 6);
/// assert_eq!(within[0], (Hex::new(0, -1), 1));
/// ```
pub fn bfs_within(
    start: Hex,
    max_steps: u32,
    mut passable: impl FnMut(Hex) -> bool,
) -> Vec<(Hex, u32)> {
    let mut steps = BTreeMap::from([(start, 0u32)]);
    let mut blocked = BTreeSet::new();
    let mut queue = VecDeque::from([(start, 0u32)]);
    while let Some((hex, n)) = queue.pop_front() {
        if n >= max_steps {
            continue;
        }
        for next in hex.neighbors() {
            if steps.contains_key(&next) || blocked.contains(&next) {
                continue;
            }
            if passable(next) {
                steps.insert(next, n + 1);
                queue.push_back((next, n + 1));
            } else {
                blocked.insert(next);
            }
        }
    }
    steps.into_iter().collect()
}

/// The cheapest path from `start` to `goal` costing at most `max_cost`, as
/// `(cost, path)` with both ends in `path`; `None` when there is none. `step` is as in
/// [`reach`], and the cost always equals `goal`'s cost in `reach`.
///
/// `start == goal` gives `Some((0, vec![start]))`.
///
/// Among equally cheap paths the choice is deterministic: walking back from `goal`,
/// each hex's predecessor is the smallest hex (reading order) among its neighbours that
/// reach it at its minimum cost. (Strictly: among those settled before it by the
/// `(cost, hex)`-ordered search, which with step costs of at least 1 is all of them.)
///
/// ```
/// use hexmap::{search, Hex};
///
/// let (cost, path) = search::shortest_path(Hex::ORIGIN, Hex::new(2, -1), 10, |_, _| Some(1))
///     .unwrap();
/// assert_eq!(cost, 2);
/// // Two equally short paths, via (1,-1) or (1,0): the smaller predecessor wins.
/// assert_eq!(path, [Hex::ORIGIN, Hex::new(1, -1), Hex::new(2, -1)]);
/// ```
pub fn shortest_path(
    start: Hex,
    goal: Hex,
    max_cost: u32,
    mut step: impl FnMut(Hex, Hex) -> Option<u32>,
) -> Option<(u32, Vec<Hex>)> {
    let nodes = uniform_cost(start, max_cost, &mut step, Some(goal));
    let cost = nodes.get(&goal).filter(|n| n.settled)?.cost;
    let mut path = vec![goal];
    let mut hex = goal;
    while let Some(prev) = nodes[&hex].pred {
        path.push(prev);
        hex = prev;
    }
    path.reverse();
    Some((cost, path))
}

#[derive(Clone, Copy, Debug)]
struct Node {
    cost: u32,
    pred: Option<Hex>,
    settled: bool,
}

/// Dijkstra from `start` up to `max_cost`, stopping early once `goal` is settled.
///
/// A hex's `pred` is the smallest of the already-settled neighbours that reach it at its
/// best cost; settled nodes never change, so `pred` links always point to hexes settled
/// earlier and can be followed back to `start` without cycles.
fn uniform_cost(
    start: Hex,
    max_cost: u32,
    step: &mut impl FnMut(Hex, Hex) -> Option<u32>,
    goal: Option<Hex>,
) -> BTreeMap<Hex, Node> {
    let mut nodes = BTreeMap::from([(
        start,
        Node {
            cost: 0,
            pred: None,
            settled: false,
        },
    )]);
    let mut frontier = BinaryHeap::from([Reverse((0u32, start))]);
    while let Some(Reverse((cost, hex))) = frontier.pop() {
        let node = nodes.get_mut(&hex).expect("queued hexes have nodes");
        if node.settled || cost > node.cost {
            continue; // a stale queue entry
        }
        node.settled = true;
        if goal == Some(hex) {
            break;
        }
        for next in hex.neighbors() {
            let Some(new_cost) = step(hex, next).and_then(|c| cost.checked_add(c)) else {
                continue;
            };
            if new_cost > max_cost {
                continue;
            }
            match nodes.entry(next) {
                Entry::Vacant(e) => {
                    e.insert(Node {
                        cost: new_cost,
                        pred: Some(hex),
                        settled: false,
                    });
                    frontier.push(Reverse((new_cost, next)));
                }
                Entry::Occupied(mut e) => {
                    let n = e.get_mut();
                    if n.settled {
                        continue;
                    }
                    if new_cost < n.cost {
                        *n = Node {
                            cost: new_cost,
                            pred: Some(hex),
                            settled: false,
                        };
                        frontier.push(Reverse((new_cost, next)));
                    } else if new_cost == n.cost && n.pred.is_some_and(|p| hex < p) {
                        n.pred = Some(hex);
                    }
                }
            }
        }
    }
    if goal.is_none() {
        // A full search settles everything it queued.
        debug_assert!(nodes.values().all(|n| n.settled));
    }
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Board, HexagonBoard};

    fn h(q: i32, r: i32) -> Hex {
        Hex::new(q, r)
    }

    fn on(board: HexagonBoard) -> impl FnMut(Hex, Hex) -> Option<u32> {
        move |_, to| board.contains(to).then_some(1)
    }

    #[test]
    fn reach_with_unit_costs_is_a_range() {
        let board = HexagonBoard::new(6);
        let got = reach(h(0, 0), 2, on(board));
        let want: Vec<(Hex, u32)> = h(0, 0)
            .range(2)
            .into_iter()
            .map(|x| (x, x.distance(h(0, 0))))
            .collect();
        assert_eq!(got, want);
        assert_eq!(reach(h(0, 0), 0, on(board)), [(h(0, 0), 0)]);
    }

    #[test]
    fn reach_stops_at_board_edge_and_obstacles() {
        let board = HexagonBoard::new(2);
        // From a corner of the 7-hex board, all of it is within 2.
        let got = reach(h(1, -1), 5, on(board));
        assert_eq!(got.len(), 7);
        assert!(got.contains(&(h(-1, 1), 2)));
        // Walls around the centre: only the centre.
        let got = reach(h(0, 0), 5, |_, _| None);
        assert_eq!(got, [(h(0, 0), 0)]);
    }

    #[test]
    fn reach_takes_the_cheaper_detour() {
        let board = HexagonBoard::new(4);
        let swamp = [h(1, 0), h(1, -1)];
        let got = reach(h(0, 0), 3, |_, to| {
            if !board.contains(to) {
                None
            } else if swamp.contains(&to) {
                Some(3)
            } else {
                Some(1)
            }
        });
        let cost = |x: Hex| got.iter().find(|(y, _)| *y == x).map(|&(_, c)| c);
        assert_eq!(cost(h(1, 0)), Some(3));
        assert_eq!(cost(h(1, -1)), Some(3));
        // (2,-1) is 2 away, but both short routes cross swamp (4) and going round
        // takes 4 steps: out of reach. (2,-2) round the north of the swamp is 3.
        assert_eq!(cost(h(2, -1)), None);
        assert_eq!(cost(h(2, -2)), Some(3));
        // (2,0): via (0,1),(1,1) = 3.
        assert_eq!(cost(h(2, 0)), Some(3));
        assert_eq!(cost(h(3, -1)), None);
        assert!(got.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn reach_passes_the_step_from_and_to() {
        // Entering a hex costs its distance from the centre, but only from the west.
        let got = reach(h(0, 0), 10, |from, to| {
            (to.q == from.q + 1 && to.r == from.r && to.q <= 3).then_some(to.q as u32)
        });
        assert_eq!(
            got,
            [(h(0, 0), 0), (h(1, 0), 1), (h(2, 0), 3), (h(3, 0), 6)]
        );
    }

    #[test]
    fn bfs_counts_steps() {
        let wall = [h(1, -1), h(1, 0), h(0, 1)];
        let got = bfs_within(h(0, 0), 2, |x| {
            !wall.contains(&x) && x.distance(h(0, 0)) <= 3
        });
        assert!(got.contains(&(h(0, 0), 0)));
        assert!(got.contains(&(h(-1, 0), 1)));
        assert!(!got.iter().any(|(x, _)| wall.contains(x)));
        // (2,-1) is behind the wall: W side round is more than two steps.
        assert!(!got.iter().any(|(x, _)| *x == h(2, -1)));
        assert!(got.contains(&(h(1, -2), 2)));
        assert!(got.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(bfs_within(h(4, 4), 0, |_| true), [(h(4, 4), 0)]);
        assert_eq!(bfs_within(h(0, 0), 3, |_| true).len(), 37);
    }

    #[test]
    fn bfs_asks_once_per_hex() {
        let mut asked = Vec::new();
        let _ = bfs_within(h(0, 0), 3, |x| {
            asked.push(x);
            x.q != 1
        });
        let n = asked.len();
        asked.sort();
        asked.dedup();
        assert_eq!(asked.len(), n);
    }

    #[test]
    fn shortest_paths() {
        let board = HexagonBoard::new(4);
        assert_eq!(
            shortest_path(h(0, 0), h(0, 0), 0, on(board)),
            Some((0, vec![h(0, 0)]))
        );
        assert_eq!(
            shortest_path(h(0, 0), h(3, 0), 10, on(board)),
            Some((3, vec![h(0, 0), h(1, 0), h(2, 0), h(3, 0)]))
        );
        assert_eq!(shortest_path(h(0, 0), h(3, 0), 2, on(board)), None);
        assert_eq!(shortest_path(h(0, 0), h(4, 0), 10, on(board)), None);
        // Tie-break: (0,0) -> (2,-1) via (1,-1) (smaller than (1,0)).
        assert_eq!(
            shortest_path(h(0, 0), h(2, -1), 10, on(board)),
            Some((2, vec![h(0, 0), h(1, -1), h(2, -1)]))
        );
        // And back the other way the predecessor of (0,0) is again the smaller one.
        assert_eq!(
            shortest_path(h(2, -1), h(0, 0), 10, on(board)),
            Some((2, vec![h(2, -1), h(1, -1), h(0, 0)]))
        );
        // (0,0) -> (-1,2): via (0,1) or (-1,1); (-1,1) comes first in reading order.
        assert_eq!(
            shortest_path(h(0, 0), h(-1, 2), 10, on(board)).unwrap().1,
            [h(0, 0), h(-1, 1), h(-1, 2)]
        );
    }

    #[test]
    fn shortest_path_detours() {
        let board = HexagonBoard::new(4);
        let wall = [h(1, -1), h(1, 0), h(1, 1)];
        let step = |_: Hex, to: Hex| (board.contains(to) && !wall.contains(&to)).then_some(1);
        let (cost, path) = shortest_path(h(0, 0), h(2, 0), 20, step).unwrap();
        assert!(path.windows(2).all(|w| w[0].is_adjacent(w[1])));
        assert!(path.iter().all(|x| !wall.contains(x)));
        // Both ways round take 5; the goal's predecessors (2,-1) and (2,1) tie and
        // the smaller, (2,-1), wins, and so on back to the start.
        assert_eq!(cost, 5);
        assert_eq!(
            path,
            [h(0, 0), h(0, -1), h(1, -2), h(2, -2), h(2, -1), h(2, 0)]
        );
    }

    #[test]
    fn zero_cost_steps_do_not_loop() {
        let board = HexagonBoard::new(3);
        let road = [h(0, 0), h(1, 0), h(2, 0), h(1, -1)];
        let step = |_: Hex, to: Hex| {
            if !board.contains(to) {
                None
            } else if road.contains(&to) {
                Some(0)
            } else {
                Some(1)
            }
        };
        let got = reach(h(0, 0), 0, step);
        assert_eq!(
            got,
            [(h(1, -1), 0), (h(0, 0), 0), (h(1, 0), 0), (h(2, 0), 0)]
        );
        let (cost, path) = shortest_path(h(0, 0), h(2, 0), 0, step).unwrap();
        assert_eq!(cost, 0);
        assert_eq!(path.first(), Some(&h(0, 0)));
        assert_eq!(path.last(), Some(&h(2, 0)));
        assert!(path.windows(2).all(|w| w[0].is_adjacent(w[1])));
    }

    #[test]
    fn huge_costs_do_not_overflow() {
        let got = reach(h(0, 0), u32::MAX, |_, to| {
            (to.distance(h(0, 0)) <= 2).then_some(u32::MAX - 1)
        });
        assert_eq!(got.len(), 7);
        assert!(got.iter().all(|&(x, c)| x == h(0, 0) || c == u32::MAX - 1));
    }
}
