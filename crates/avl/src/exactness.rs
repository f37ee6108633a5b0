//! The faster derivations against the ones they replace: over seeded random playouts
//! of the bundled campaign and of the test scenario, every position's zones of
//! control, supply lines, railroad nets, Command Ranges and the units HQs activate
//! must be the same as those
//! of the first (hex by hex) versions kept under `reference` in their modules, and its
//! legal actions (and each piece's moves) those of every candidate through `check`;
//! in the Reinforcement Phase, each piece's places and the dropping of those that have
//! none must be those found one piece at a time; and the pieces the hex index finds on
//! each hex those standing there, in id order.

use engine::{Game, GameRng, ToMove};

use crate::legal;
use crate::rules::{command, reinforcements, supply, zoc};
use crate::state::{Avl, Location, Setup};
use crate::unit::Side;

const CAMPAIGN: &str = include_str!("../../../data/avl/campaign.toml");
const TEST: &str = include_str!("../tests/data/test.toml");

fn start(toml: &str) -> Avl {
    let scenario = crate::Scenario::from_toml(toml).expect("the scenario parses");
    Avl::from_setup(&Setup {
        scenario,
        options: crate::Options::default(),
        position: None,
    })
    .expect("the scenario starts")
}

/// Plays `games` seeded random playouts from `s` and calls `each` on every `every`-th
/// position (and the last).
fn positions(s: &Avl, games: u64, every: usize, mut each: impl FnMut(&Avl)) {
    for seed in 0..games {
        let mut rng = GameRng::from_u64(seed);
        let mut s = s.clone();
        for n in 0.. {
            if n % every == 0 {
                each(&s);
            }
            let a = match s.to_move() {
                ToMove::Over(_) => {
                    each(&s);
                    break;
                }
                ToMove::Chance => s.sample_chance(&mut rng),
                ToMove::Seat(_) => {
                    let legal = s.legal_actions();
                    legal[rng.below(legal.len() as u32) as usize]
                }
            };
            s.apply(a).expect("a legal action");
        }
    }
}

/// Zones of control, supply lines, railroad nets and Command Ranges against the
/// references.
fn same_maps(s: &Avl) {
    for side in Side::BOTH {
        assert_eq!(
            zoc::ZoneOfControl::of(s, side),
            zoc::reference::of(s, side),
            "ZOC of {side:?}"
        );
        assert_eq!(
            zoc::ZoneOfControl::around(s, side),
            zoc::reference::of(s, side),
            "ZOC of {side:?}, found around the hexes asked about"
        );
        assert_eq!(
            supply::supplied(s, side),
            supply::reference::supplied(s, side),
            "supply of {side:?}"
        );
        assert_eq!(
            reinforcements::rail_net(s, side),
            reinforcements::reference::rail_net(s, side),
            "railroad net of {side:?}"
        );
    }
    for p in s.piece_ids() {
        assert_eq!(
            command::units_activated_by(s, p),
            command::reference::units_activated_by(s, p),
            "units activated by {p}"
        );
        if let (Some(info), Location::Map(h)) = (s.hq_info(p), s.location(p)) {
            for range in [info.range, 0, 1, 6] {
                assert_eq!(
                    command::command_range(s, h, range),
                    command::reference::command_range(s, h, range),
                    "Command Range {range} from {h}"
                );
            }
        }
    }
}

#[test]
fn maps_match_the_references_on_the_campaign() {
    positions(&start(CAMPAIGN), 2, 25, same_maps);
}

#[test]
fn maps_match_the_references_on_the_test_scenario() {
    positions(&start(TEST), 20, 1, same_maps);
}

/// The legal actions, and each piece's moves, against the references.
fn same_actions(s: &Avl) {
    assert_eq!(
        legal::legal_actions(s),
        legal::reference::legal_actions(s),
        "legal actions"
    );
    // One action's check (zones of control found around the hexes asked about) says
    // what the check of many against one position says (zones marked on the map).
    let d = crate::derived::Derived::new(s);
    for a in legal::candidates(s) {
        assert_eq!(
            crate::check::check(s, &a),
            crate::check::check_in(&d, &a),
            "check of {a:?}"
        );
    }
    for p in s.piece_ids() {
        assert_eq!(
            legal::moves_of(s, p),
            legal::reference::moves_of(s, p),
            "moves of {p}"
        );
    }
}

#[test]
fn legal_actions_match_the_reference_on_the_campaign() {
    positions(&start(CAMPAIGN), 2, 1, same_actions);
}

#[test]
fn legal_actions_match_the_reference_on_the_test_scenario() {
    positions(&start(TEST), 20, 1, same_actions);
}

/// In the Reinforcement Phase: every piece's places, and dropping the unplaceable
/// pieces of either side, against the references.
fn same_reinforcements(s: &Avl) {
    if !matches!(s.phase(), crate::state::Phase::Reinforcement(_)) {
        return;
    }
    for p in s.piece_ids() {
        assert_eq!(
            reinforcements::places(s, p),
            reinforcements::reference::places(s, p),
            "places of {p}"
        );
    }
    for side in Side::BOTH {
        let (mut a, mut b) = (s.clone(), s.clone());
        let (mut ea, mut eb) = (Vec::new(), Vec::new());
        let ra = reinforcements::drop_unplaceable(&mut a, side, &mut ea);
        let rb = reinforcements::reference::drop_unplaceable(&mut b, side, &mut eb);
        assert_eq!((ra, ea, a), (rb, eb, b), "dropping {side:?} reinforcements");
    }
}

#[test]
fn reinforcements_match_the_references_on_the_campaign() {
    positions(&start(CAMPAIGN), 4, 1, same_reinforcements);
}

#[test]
fn reinforcements_match_the_references_on_the_test_scenario() {
    positions(&start(TEST), 20, 1, same_reinforcements);
}

/// On every hex of the map: the pieces the index finds are those whose location is that
/// hex, in id order.
fn same_occupants(s: &Avl) {
    let map = s.map();
    for i in 0..map.info.len() {
        let h = map.hex_at(i);
        let index: Vec<_> = s.pieces_at(h).collect();
        let scan: Vec<_> = s
            .piece_ids()
            .filter(|&p| s.location(p) == Location::Map(h))
            .collect();
        assert_eq!(index, scan, "pieces on {h}");
    }
}

#[test]
fn occupants_match_the_pieces_on_the_campaign() {
    positions(&start(CAMPAIGN), 2, 10, same_occupants);
}

#[test]
fn occupants_match_the_pieces_on_the_test_scenario() {
    positions(&start(TEST), 20, 1, same_occupants);
}

/// The map's compiled links against the board and the hexsides they were compiled
/// from: every hex's index, neighbours, ways out for zones of control and supply, and
/// the indices in hex order.
fn same_links(s: &Avl) {
    use hexmap::{Board, Direction};
    let map = s.map();
    let board = &map.board;
    let mut order: Vec<usize> = (0..board.len()).collect();
    order.sort_by_key(|&i| board.hex_at(i));
    let sorted: Vec<usize> = map.links.sorted.iter().map(|&i| i as usize).collect();
    assert_eq!(sorted, order, "indices in hex order");
    for i in 0..board.len() {
        let h = board.hex_at(i).expect("an index of the board");
        assert_eq!(map.hex_at(i), h, "hex of {i}");
        assert_eq!(map.index(h), Some(i), "index of {h}");
        let (mut zoc, mut supply) = (0u8, 0u8);
        for d in Direction::ALL {
            let n = h.neighbor(d);
            let next = map.links.next[i][d.index()];
            assert_eq!(
                board.index(n),
                (next != crate::map::Map::OFF).then_some(next as usize),
                "neighbour {d:?} of {h}"
            );
            let side = map.side(h, n);
            if map.is_land(n) && !side.impassable {
                zoc |= 1 << d.index();
            }
            if map.contains(n) && !side.impassable && !side.unbridged_major() {
                supply |= 1 << d.index();
            }
        }
        assert_eq!(map.links.zoc[i], zoc, "ZOC ways out of {h}");
        assert_eq!(map.links.supply[i], supply, "supply ways out of {h}");
        let road = map
            .sides
            .get_hex(board, h)
            .is_some_and(|s| s.iter().any(|x| x.road));
        assert_eq!(map.road_hex(h), road, "road at {h}");
        let cost = map
            .at(h)
            .and_then(|x| map.terrain.get(usize::from(x.terrain)))
            .map_or(1, |t| u16::from(t.move_cost));
        assert_eq!(map.move_cost(h), cost, "cost of {h}");
    }
}

#[test]
fn links_match_the_boards() {
    same_links(&start(CAMPAIGN));
    same_links(&start(TEST));
}
