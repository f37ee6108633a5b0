//! Property tests for hexmap's geometry, boards and searches.

use std::collections::BTreeSet;

use hexmap::{
    Board, Direction, Hex, HexNumber, HexagonBoard, Hexside, OffsetBoard, OffsetLayout, search,
};
use proptest::prelude::*;

fn hex() -> impl Strategy<Value = Hex> {
    (-1000i32..=1000, -1000i32..=1000).prop_map(|(q, r)| Hex::new(q, r))
}

fn near_hex() -> impl Strategy<Value = Hex> {
    (-12i32..=12, -12i32..=12).prop_map(|(q, r)| Hex::new(q, r))
}

fn direction() -> impl Strategy<Value = Direction> {
    (0usize..6).prop_map(Direction::from_index)
}

fn layout() -> impl Strategy<Value = OffsetLayout> {
    (0usize..4).prop_map(|i| OffsetLayout::ALL[i])
}

/// A hexagon board, a per-index step cost (`None` = impassable) and a start hex on it.
fn terrain(
    costs: std::ops::RangeInclusive<u32>,
) -> impl Strategy<Value = (HexagonBoard, Vec<Option<u32>>, Hex)> {
    (2u32..=7).prop_flat_map(move |side| {
        let board = HexagonBoard::new(side);
        let cells =
            proptest::collection::vec(proptest::option::weighted(0.8, costs.clone()), board.len());
        (Just(board), cells, 0..board.len())
            .prop_map(|(board, cells, i)| (board, cells, board.hex_at(i).unwrap()))
    })
}

fn is_path(path: &[Hex]) -> bool {
    path.windows(2).all(|w| w[0].distance(w[1]) == 1)
}

proptest! {
    #[test]
    fn distance_is_a_metric(a in hex(), b in hex(), c in hex()) {
        prop_assert_eq!(a.distance(b), b.distance(a));
        prop_assert_eq!(a.distance(a), 0);
        prop_assert!(a.distance(c) <= a.distance(b) + b.distance(c));
        prop_assert_eq!(a.distance(b) == 0, a == b);
        // Agrees with hexx.
        let (ha, hb) = (hexx::Hex::new(a.q, a.r), hexx::Hex::new(b.q, b.r));
        prop_assert_eq!(a.distance(b), ha.unsigned_distance_to(hb));
    }

    #[test]
    fn neighbours_are_one_step_away(a in hex(), d in direction(), b in hex()) {
        let n = a.neighbor(d);
        prop_assert_eq!(a.distance(n), 1);
        prop_assert_eq!(a.direction_to(n), Some(d));
        prop_assert_eq!(n.direction_to(a), Some(d.opposite()));
        prop_assert_eq!(a.neighbors()[d.index()], n);
        prop_assert_eq!(a.direction_to(b).is_some(), a.distance(b) == 1);
        if let Some(dir) = a.direction_to(b) {
            prop_assert_eq!(a.neighbor(dir), b);
        }
    }

    #[test]
    fn reading_order_is_row_then_column(a in hex(), b in hex()) {
        prop_assert_eq!(a.cmp(&b), (a.r, a.q).cmp(&(b.r, b.q)));
    }

    #[test]
    fn rings_are_closed_loops_at_the_radius(c in hex(), radius in 0u32..25) {
        let ring = c.ring(radius);
        let expected = if radius == 0 { 1 } else { 6 * radius as usize };
        prop_assert_eq!(ring.len(), expected);
        prop_assert!(ring.iter().all(|h| h.distance(c) == radius));
        prop_assert!(is_path(&ring));
        if radius > 0 {
            prop_assert_eq!(ring[0].distance(ring[ring.len() - 1]), 1);
            prop_assert_eq!(ring[0], c + Direction::NE.offset() * radius as i32);
            for i in 0..6 {
                prop_assert_eq!(ring[i * radius as usize], c.ring_corner(radius, i));
            }
        }
        let unique: BTreeSet<Hex> = ring.iter().copied().collect();
        prop_assert_eq!(unique.len(), ring.len());
    }

    #[test]
    fn spirals_cover_the_range_once(c in hex(), radius in 0u32..15) {
        let spiral = c.spiral(radius);
        prop_assert_eq!(spiral.len(), 3 * radius as usize * (radius as usize + 1) + 1);
        prop_assert_eq!(spiral[0], c);
        let unique: BTreeSet<Hex> = spiral.iter().copied().collect();
        prop_assert_eq!(unique.len(), spiral.len());
        let range = c.range(radius);
        prop_assert!(range.windows(2).all(|w| w[0] < w[1]));
        prop_assert_eq!(unique.into_iter().collect::<Vec<_>>(), range);
        // The same set as hexx's range.
        let mut theirs: Vec<Hex> = hexx::Hex::new(c.q, c.r)
            .range(radius)
            .map(|h| Hex::new(h.x, h.y))
            .collect();
        theirs.sort();
        prop_assert_eq!(theirs, c.range(radius));
    }

    #[test]
    fn lines_step_from_end_to_end(a in hex(), b in hex()) {
        let line = a.line_to(b);
        prop_assert_eq!(line.len(), a.distance(b) as usize + 1);
        prop_assert_eq!(line[0], a);
        prop_assert_eq!(*line.last().unwrap(), b);
        prop_assert!(is_path(&line));
        // The nudge is the same at both ends, so a line and its reverse agree.
        let mut back = b.line_to(a);
        back.reverse();
        prop_assert_eq!(&back, &line);
        // Its first step, without the line.
        prop_assert_eq!(a.step_towards(b), line.get(1).copied().unwrap_or(a));
    }

    #[test]
    fn lines_are_translation_invariant(a in near_hex(), b in near_hex(), t in near_hex()) {
        let moved: Vec<Hex> = a.line_to(b).into_iter().map(|h| h + t).collect();
        prop_assert_eq!(moved, (a + t).line_to(b + t));
    }

    #[test]
    fn common_neighbours_touch_both(a in near_hex(), b in near_hex()) {
        let common = a.common_neighbors(b);
        prop_assert!(common.windows(2).all(|w| w[0] < w[1]));
        prop_assert!(common.iter().all(|h| h.distance(a) == 1 && h.distance(b) == 1));
        let expected = match a.distance(b) {
            0 => 6..=6,
            1 => 2..=2,
            2 => 1..=2,
            _ => 0..=0,
        };
        prop_assert!(expected.contains(&common.len()));
        prop_assert_eq!(common, b.common_neighbors(a));
    }

    #[test]
    fn rotation_is_a_symmetry(a in hex(), b in hex(), n in 0u32..12, d in direction()) {
        prop_assert_eq!(a.rotate_cw(6), a);
        prop_assert_eq!(a.rotate_cw(n).rotate_ccw(n), a);
        prop_assert_eq!(a.rotate_cw(n).distance(b.rotate_cw(n)), a.distance(b));
        prop_assert_eq!(
            a.neighbor(d).rotate_cw(1),
            a.rotate_cw(1).neighbor(d.clockwise())
        );
        prop_assert_eq!(a.rotate_cw_around(b, n).distance(b), a.distance(b));
    }

    #[test]
    fn hexsides_are_canonical(a in hex(), d in direction()) {
        let b = a.neighbor(d);
        let side = Hexside::between(a, b).unwrap();
        prop_assert_eq!(Some(side), Hexside::between(b, a));
        prop_assert_eq!(side, Hexside::new(a, d));
        prop_assert_eq!(side.hexes(), (a.min(b), a.max(b)));
        prop_assert_eq!(side.other(a), Some(b));
    }

    #[test]
    fn serde_and_text_round_trips(a in hex(), d in direction()) {
        let json = serde_json::to_string(&a).unwrap();
        prop_assert_eq!(&json, &format!("[{},{}]", a.q, a.r));
        prop_assert_eq!(serde_json::from_str::<Hex>(&json).unwrap(), a);
        prop_assert_eq!(a.to_string().parse::<Hex>().unwrap(), a);
        let side = Hexside::new(a, d);
        let json = serde_json::to_string(&side).unwrap();
        prop_assert_eq!(serde_json::from_str::<Hexside>(&json).unwrap(), side);
        let json = serde_json::to_string(&d).unwrap();
        prop_assert_eq!(serde_json::from_str::<Direction>(&json).unwrap(), d);
    }

    #[test]
    fn hexagon_board_index_is_a_bijection(side in 1u32..=14, probe in near_hex()) {
        let board = HexagonBoard::new(side);
        let r = side as usize;
        prop_assert_eq!(board.len(), 3 * r * (r - 1) + 1);
        let hexes: Vec<Hex> = board.hexes().collect();
        prop_assert_eq!(&hexes, &Hex::ORIGIN.range(board.radius()));
        for (i, &h) in hexes.iter().enumerate() {
            prop_assert_eq!(board.index(h), Some(i));
            prop_assert_eq!(board.hex_at(i), Some(h));
        }
        prop_assert_eq!(board.hex_at(board.len()), None);
        prop_assert_eq!(board.contains(probe), probe.distance(Hex::ORIGIN) <= board.radius());
        prop_assert_eq!(board.index(probe).is_some(), board.contains(probe));
        prop_assert_eq!(
            board.is_perimeter(probe),
            probe.distance(Hex::ORIGIN) == board.radius()
        );
    }

    #[test]
    fn offset_board_index_is_a_bijection(
        columns in 0u32..=24,
        rows in 0u32..=24,
        layout in layout(),
        probe in near_hex(),
    ) {
        let board = OffsetBoard::new(columns, rows, layout);
        prop_assert_eq!(board.len(), (columns * rows) as usize);
        let mut seen = BTreeSet::new();
        for (i, h) in board.hexes().enumerate() {
            prop_assert!(seen.insert(h));
            prop_assert_eq!(board.index(h), Some(i));
            prop_assert_eq!(board.hex_at(i), Some(h));
            prop_assert!(board.contains(h));
        }
        prop_assert_eq!(seen.len(), board.len());
        prop_assert_eq!(board.hex_at(board.len()), None);
        prop_assert_eq!(board.contains(probe), seen.contains(&probe));
        // Each offset row (q layouts: column) is a connected line of hexes.
        let lines: Vec<Vec<Hex>> = match layout.orientation() {
            hexmap::Orientation::PointyTop => (1..=rows)
                .map(|r| (1..=columns).filter_map(|c| board.to_hex(c, r)).collect())
                .collect(),
            hexmap::Orientation::FlatTop => (1..=columns)
                .map(|c| (1..=rows).filter_map(|r| board.to_hex(c, r)).collect())
                .collect(),
        };
        for line in &lines {
            prop_assert!(is_path(line));
        }
    }

    #[test]
    fn offset_coordinates_round_trip(
        columns in 1u32..=150,
        rows in 1u32..=150,
        layout in layout(),
        col_frac in 0.0f64..1.0,
        row_frac in 0.0f64..1.0,
        probe in hex(),
    ) {
        let board = OffsetBoard::new(columns, rows, layout);
        let col = 1 + (col_frac * f64::from(columns)) as u32;
        let row = 1 + (row_frac * f64::from(rows)) as u32;
        let h = board.to_hex(col, row).unwrap();
        prop_assert_eq!(board.to_offset(h), Some((col, row)));
        let n = board.number(h).unwrap();
        prop_assert_eq!(board.hex_of(n), Some(h));
        let label = board.label(h).unwrap();
        prop_assert_eq!(board.hex_of(HexNumber::parse(&label).unwrap()), Some(h));
        prop_assert_eq!(n.to_string().parse::<HexNumber>().unwrap(), n);
        if let Some((c, r)) = board.to_offset(probe) {
            prop_assert_eq!(board.to_hex(c, r), Some(probe));
        } else {
            prop_assert!(!board.contains(probe));
        }
    }

    #[test]
    fn reach_with_unit_costs_is_bfs((board, cells, start) in terrain(1..=1), max in 0u32..12) {
        let open = |h: Hex| board.index(h).is_some_and(|i| cells[i].is_some());
        let by_reach = search::reach(start, max, |_, to| open(to).then_some(1));
        let by_bfs = search::bfs_within(start, max, open);
        prop_assert_eq!(&by_reach, &by_bfs);
        prop_assert!(by_reach.windows(2).all(|w| w[0].0 < w[1].0));
        prop_assert!(by_reach.iter().all(|&(h, c)| c <= max && h.distance(start) <= c));
    }

    #[test]
    fn shortest_path_agrees_with_reach(
        (board, cells, start) in terrain(1..=4),
        max in 0u32..20,
        goal_index in any::<prop::sample::Index>(),
    ) {
        let cost = |h: Hex| board.index(h).and_then(|i| cells[i]);
        let reached = search::reach(start, max, |_, to| cost(to));
        let goal = board.hex_at(goal_index.index(board.len())).unwrap();
        let found = search::shortest_path(start, goal, max, |_, to| cost(to));
        let expected = reached.iter().find(|(h, _)| *h == goal).map(|&(_, c)| c);
        prop_assert_eq!(found.as_ref().map(|(c, _)| *c), expected);
        if let Some((c, path)) = found {
            prop_assert_eq!(path[0], start);
            prop_assert_eq!(*path.last().unwrap(), goal);
            prop_assert!(is_path(&path));
            let total: u32 = path[1..].iter().map(|&h| cost(h).unwrap()).sum();
            prop_assert_eq!(total, c);
            // Every step of a cheapest path is itself cheapest, and each hex's
            // predecessor is the smallest neighbour reaching it at that cost.
            let best = |h: Hex| reached.iter().find(|(x, _)| *x == h).map(|&(_, c)| c);
            let mut spent = 0;
            for w in path.windows(2) {
                let (prev, h) = (w[0], w[1]);
                spent += cost(h).unwrap();
                prop_assert_eq!(Some(spent), best(h));
                let smallest = h
                    .neighbors()
                    .into_iter()
                    .filter(|&p| best(p).is_some_and(|c| Some(c + cost(h).unwrap()) == best(h)))
                    .min();
                prop_assert_eq!(smallest, Some(prev));
            }
        }
        // Same inputs, same answer.
        prop_assert_eq!(
            search::shortest_path(start, goal, max, |_, to| cost(to)),
            search::shortest_path(start, goal, max, |_, to| cost(to))
        );
    }

    #[test]
    fn zero_cost_steps_still_give_valid_paths(
        (board, cells, start) in terrain(0..=2),
        max in 0u32..8,
        goal_index in any::<prop::sample::Index>(),
    ) {
        let cost = |h: Hex| board.index(h).and_then(|i| cells[i]);
        let reached = search::reach(start, max, |_, to| cost(to));
        let goal = board.hex_at(goal_index.index(board.len())).unwrap();
        let found = search::shortest_path(start, goal, max, |_, to| cost(to));
        let expected = reached.iter().find(|(h, _)| *h == goal).map(|&(_, c)| c);
        prop_assert_eq!(found.as_ref().map(|(c, _)| *c), expected);
        if let Some((c, path)) = found {
            prop_assert!(is_path(&path));
            let total: u32 = path[1..].iter().map(|&h| cost(h).unwrap()).sum();
            prop_assert_eq!(total, c);
            let unique: BTreeSet<Hex> = path.iter().copied().collect();
            prop_assert_eq!(unique.len(), path.len());
        }
    }
}
