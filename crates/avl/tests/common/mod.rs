//! Helpers for scenario tests: the test scenario, positions, scripted actions.
#![allow(dead_code, unreachable_pub)]

pub mod invariants;

use avl::{Avl, Scenario, Setup};
use engine::Game;

/// The test scenario file.
pub fn scenario() -> Scenario {
    Scenario::from_toml(include_str!("../data/test.toml")).expect("test scenario parses")
}

/// The start of a game on the test scenario.
pub fn start() -> Avl {
    <Avl as Game>::from_setup(&Setup {
        scenario: scenario(),
        options: avl::Options::default(),
        position: None,
    })
    .expect("test scenario is valid")
}

use avl::scenario::{CrtSpec, HqSpec, MapSpec, SupplySpec, UnitSpec, VictoryCitySpec};
use avl::state::{Activation, Position};
use avl::{Action, Event, Nationality, Phase, PieceId, Side};
use hexmap::{Board, Hex, HexNumber};

/// A scenario on a small clear map with a simple CRT, for examples that need their own
/// terrain: die 1 "DR", 2 "DR2", 3 "1", 4 "2", 5 "A1", 6 "A1/1DR" in every column.
pub fn mini(columns: u32, rows: u32) -> Scenario {
    let mut sc = scenario();
    sc.map = MapSpec {
        columns,
        rows,
        layout: hexmap::OffsetLayout::OddQ,
        default_terrain: "clear".into(),
        terrain: std::collections::BTreeMap::default(),
        towns: vec![],
        cities: vec![],
        names: std::collections::BTreeMap::default(),
        minor_rivers: vec![],
        major_rivers: vec![],
        impassable: vec![],
        roads: vec![],
        railroads: vec![],
        pocket: vec![],
        supply: SupplySpec::default(),
        victory_cities: vec![],
    };
    sc.crt = CrtSpec {
        columns: vec!["1-1".into(), "2-1".into(), "3-1".into()],
        rows: ["DR", "DR2", "1", "2", "A1", "A1/1DR"]
            .iter()
            .map(|r| vec![(*r).to_string(); 3])
            .collect(),
    };
    sc.boxes.clear();
    sc.units.clear();
    sc.hqs.clear();
    sc.soviet_chosen_chits = 0;
    sc.manstein_turns.clear();
    sc
}

/// A non-mechanized unit spec.
pub fn foot(
    id: &str,
    nat: Nationality,
    strength: u16,
    reduced: Option<u16>,
    hex: &str,
) -> UnitSpec {
    UnitSpec {
        id: id.into(),
        nationality: nat,
        mechanized: false,
        strength: Some(strength),
        reduced,
        attack: None,
        defense: None,
        reduced_attack: None,
        reduced_defense: None,
        movement: 4,
        hex: Some(hex.into()),
        arrival: None,
        in_box: None,
    }
}

/// A mechanized unit spec with a reduced side of half strength.
pub fn mech(id: &str, nat: Nationality, attack: u16, defense: u16, hex: &str) -> UnitSpec {
    UnitSpec {
        id: id.into(),
        nationality: nat,
        mechanized: true,
        strength: None,
        reduced: None,
        attack: Some(attack),
        defense: Some(defense),
        reduced_attack: Some(attack / 2),
        reduced_defense: Some(defense / 2),
        movement: 8,
        hex: Some(hex.into()),
        arrival: None,
        in_box: None,
    }
}

/// A HQ spec.
pub fn hq(id: &str, nat: Nationality, range: u8, hex: &str) -> HqSpec {
    HqSpec {
        id: id.into(),
        nationality: nat,
        range,
        movement: 6,
        hex: Some(hex.into()),
        arrival: None,
        in_box: None,
    }
}

/// A Victory City spec.
pub fn city(hex: &str, name: &str, control: Side) -> VictoryCitySpec {
    VictoryCitySpec {
        hex: hex.into(),
        name: name.into(),
        control,
    }
}

/// A game under test.
pub struct T {
    pub s: Avl,
}

impl T {
    /// The scenario's start, before any decision is taken (position not run on).
    pub fn new(sc: Scenario) -> T {
        T::with_options(sc, avl::Options::default())
    }

    /// The same with options.
    pub fn with_options(sc: Scenario, options: avl::Options) -> T {
        let s = Avl::from_setup(&Setup {
            scenario: sc,
            options,
            position: None,
        })
        .unwrap_or_else(|e| panic!("{e}"));
        T { s }
    }

    /// The game's start run on to the first decision (as a new game does).
    pub fn started(sc: Scenario, options: avl::Options) -> T {
        let s = <Avl as Game>::from_setup(&Setup {
            scenario: sc,
            options,
            position: None,
        })
        .unwrap_or_else(|e| panic!("{e}"));
        T { s }
    }

    /// A hex by its printed number.
    pub fn hex(&self, label: &str) -> Hex {
        let n: HexNumber = label.parse().unwrap();
        self.s.map().board.hex_of(n).unwrap()
    }

    /// A piece by its printed id.
    pub fn id(&self, name: &str) -> PieceId {
        self.s
            .piece_named(name)
            .unwrap_or_else(|| panic!("no piece {name}"))
    }

    /// Edits the position and revalidates it.
    pub fn edit(&mut self, f: impl FnOnce(&mut Position)) {
        let mut setup = self.s.to_setup();
        f(setup.position.as_mut().unwrap());
        self.s = Avl::from_setup(&setup).unwrap_or_else(|e| panic!("{e}"));
    }

    /// Puts a piece on a hex.
    pub fn put(&mut self, name: &str, label: &str) {
        let (p, h) = (self.id(name), self.hex(label));
        self.edit(|pos| pos.pieces[usize::from(p.0)].location = avl::Location::Map(h));
    }

    /// Jumps to `side`'s Movement Segment with these HQs and units activated (turn 2:
    /// no Turn 1 specials).
    pub fn activate(&mut self, side: Side, hqs: &[&str], units: &[&str], phase: Phase) {
        let hqs: Vec<PieceId> = hqs.iter().map(|n| self.id(n)).collect();
        let mut units: Vec<PieceId> = units.iter().map(|n| self.id(n)).collect();
        units.sort();
        self.edit(|pos| {
            pos.turn = avl::unit::Turn(2);
            pos.phase = phase;
            pos.active = Some(side);
            pos.activation = Some(Activation {
                chit: Some(avl::Chit::Stavka),
                hqs,
                units,
                ..Activation::default()
            });
        });
    }

    /// Applies an action that must be legal (and agree with `legal_actions`).
    pub fn play(&mut self, a: Action) -> Vec<Event> {
        let legal = self.s.legal_actions();
        match self.s.apply(a) {
            Ok(ev) => {
                assert!(legal.contains(&a), "{a:?} applied but not in legal_actions");
                ev
            }
            Err(e) => panic!("{a:?} refused: {e}\nlegal: {legal:?}"),
        }
    }

    /// The rule an illegal action breaks.
    pub fn refused(&self, a: Action) -> &'static str {
        let e = self.s.check(&a).expect_err("action should be refused");
        assert!(!self.s.legal_actions().contains(&a));
        e.rule
    }

    /// The labels of hexes.
    pub fn labels(&self, hexes: &[Hex]) -> Vec<String> {
        let mut v: Vec<String> = hexes.iter().map(|&h| self.s.map().label(h)).collect();
        v.sort();
        v
    }

    /// Every hex label of the map.
    pub fn all_hexes(&self) -> Vec<Hex> {
        self.s.map().board.hexes().collect()
    }
}

/// The label of the hex `dirs` steps away from `label` on a `columns` x `rows` odd-q map.
pub fn walk(columns: u32, rows: u32, label: &str, dirs: &[hexmap::Direction]) -> String {
    let b = hexmap::OffsetBoard::new(columns, rows, hexmap::OffsetLayout::OddQ);
    let mut h = b.hex_of(label.parse().unwrap()).unwrap();
    for &d in dirs {
        h = h.neighbor(d);
    }
    b.label(h)
        .unwrap_or_else(|| panic!("walked off the map from {label}"))
}

/// Every label of a `columns` x `rows` map except `keep`: for making the rest water.
pub fn all_but(columns: u32, rows: u32, keep: &[&str]) -> Vec<String> {
    let b = hexmap::OffsetBoard::new(columns, rows, hexmap::OffsetLayout::OddQ);
    b.hexes()
        .filter_map(|h| b.label(h))
        .filter(|l| !keep.contains(&l.as_str()))
        .collect()
}

impl T {
    /// Lets the game run on by itself (after an `edit` that left automatic steps due).
    pub fn run(&mut self) -> Vec<Event> {
        let mut ev = Vec::new();
        avl::rules::sequence::run(&mut self.s, &mut ev);
        ev
    }

    /// Jumps to the end of the Command Execution Phase of `turn`: the Supply Phase and
    /// the Reinforcement Segment follow by themselves.
    pub fn jump_to_supply_phase(&mut self, turn: u8) -> Vec<Event> {
        let sides: Vec<(avl::Chit, Option<Side>)> = self
            .s
            .position()
            .cup
            .iter()
            .map(|&c| (c, avl::rules::command::chit_side(&self.s, c)))
            .collect();
        self.edit(|p| {
            p.turn = avl::unit::Turn(turn);
            for (c, side) in sides {
                if let Some(side) = side {
                    p.inactive[side.index()].push(c);
                    p.inactive[side.index()].sort();
                }
            }
            p.cup.clear();
            // An activation that can do nothing: it ends by itself, then the cup is
            // empty.
            p.phase = Phase::Combat;
            p.active = Some(Side::Axis);
            p.activation = Some(Activation::default());
        });
        self.run()
    }
}

/// The next step of a seeded random game: a chance outcome drawn from `rng`, or a legal
/// action chosen uniformly; `None` once the game is over.
pub fn random_step(s: &Avl, rng: &mut engine::GameRng) -> Option<Action> {
    match s.to_move() {
        engine::ToMove::Over(_) => None,
        engine::ToMove::Chance => Some(s.sample_chance(rng)),
        engine::ToMove::Seat(_) => {
            let legal = s.legal_actions();
            Some(legal[rng.below(legal.len() as u32) as usize])
        }
    }
}
