//! The scenario file format: the test scenario is valid, covers every feature,
//! and a broken file reports every problem at once with its location.

mod common;

use avl::Scenario;

#[test]
fn the_test_scenario_is_valid_and_covers_every_feature() {
    let sc = common::scenario();
    assert_eq!(sc.check(), Vec::new());
    let c = sc.compile().unwrap();
    let map = &c.map;
    let hex = |t: &str| map.board.hex_of(t.parse().unwrap()).unwrap();
    // Terrain, towns and cities, water.
    assert_eq!(map.terrain_name(hex("0404")), "rough");
    assert!(!map.is_land(hex("0801")));
    assert_eq!(map.shifts(hex("0306")), 2);
    assert_eq!(map.shifts(hex("0503")), 1);
    // Hexsides: rivers, bridges by road and railroad, impassable.
    let minor = map.side(hex("0302"), hex("0402"));
    assert!(minor.unbridged_minor());
    let bridged_minor = map.side(hex("0303"), hex("0403"));
    assert!(bridged_minor.minor_river && bridged_minor.bridged());
    assert!(map.side(hex("0604"), hex("0704")).unbridged_major());
    assert!(map.side(hex("0607"), hex("0707")).bridged());
    assert!(map.side(hex("0802"), hex("0902")).impassable);
    assert!(map.road_hex(hex("0505")) && map.rail_hex(hex("1204")));
    // Pocket, supply sources, Victory Cities, boxes, units, HQs.
    assert!(map.at(hex("0909")).unwrap().pocket);
    assert_eq!(map.sources(avl::Side::Soviet).len(), 2);
    assert_eq!(map.cities.len(), 3);
    assert_eq!(c.boxes.len(), 2);
    assert!(c.units.iter().any(|u| u.reduced.is_none()));
    assert!(c.hqs.iter().any(|h| matches!(
        h.start,
        avl::scenario::Start::Arrives {
            in_box: Some(_),
            ..
        }
    )));
    // The file survives a TOML round trip.
    let back = Scenario::from_toml(&sc.to_toml()).unwrap();
    assert_eq!(back, sc);
}

#[test]
fn r20_every_problem_is_reported_at_once() {
    let text = include_str!("data/test.toml")
        .replace("hex = \"0504\"", "hex = \"9999\"")
        .replace("[\"0802\", \"0902\"]", "[\"0802\", \"0905\"]")
        .replace("\"1-1\", \"1.5-1\"", "\"1-1\", \"x-1\"")
        .replace("axis_chits = [3, 3, 4, 4, 4, 3]", "axis_chits = [3, 3]")
        .replace("range = 5", "range = 0");
    let sc = Scenario::from_toml(&text).unwrap();
    let problems = sc.check();
    let text: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert!(problems.len() >= 5, "{text:#?}");
    for want in [
        "units[0] (23Pz).hex",
        "map.impassable[0]",
        "crt.columns[1]",
        "axis_chits",
        "hqs[8] (5TkA).range",
    ] {
        assert!(
            text.iter().any(|t| t.starts_with(want)),
            "no problem at {want}: {text:#?}"
        );
    }
}

#[test]
fn r20_syntax_errors_name_the_line() {
    let problems = Scenario::from_toml("name = \"x\"\nturns = \"nine\"\n").unwrap_err();
    assert_eq!(problems.len(), 1);
    assert!(problems[0].location.starts_with("line "), "{problems:?}");
}
