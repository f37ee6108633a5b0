//! The scenario file format: the map, the TEC, the CRT, the units and HQs, the
//! turn track. Written by hand in TOML (see `docs/avl-scenario.md`); [`Scenario::check`]
//! reports every problem at once, each with its location in the file.

use std::collections::{BTreeMap, BTreeSet};

use engine::Problem;
use hexmap::{Board, Direction, Hex, HexNumber, OffsetBoard, OffsetLayout};
use serde::{Deserialize, Serialize};

use crate::crt::{Crt, CrtResult, Ratio};
use crate::map::{HexInfo, Map, Settlement, Side as Hexside};
use crate::unit::{Box as ReinforcementBox, HqInfo, Nationality, Side, Strengths, UnitInfo};

/// A whole scenario as written in its file. Every field is plain data; nothing is
/// validated until [`Scenario::check`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Title.
    pub name: String,
    /// Where the data comes from, said plainly.
    #[serde(default)]
    pub description: String,
    /// Rule 4.0: the last turn (9 in the campaign).
    pub turns: u8,
    /// Rule 14.0.2: the VP lead that wins at once (30).
    #[serde(default = "default_margin")]
    pub sudden_death_margin: u16,
    /// Rule 13.0: the Stalingrad Pocket exists until the end of this turn (4).
    #[serde(default)]
    pub pocket_until_turn: u8,
    /// Rule 3.0: the Soviet player secretly chooses this many HQ chits (5).
    #[serde(default = "default_chosen")]
    pub soviet_chosen_chits: u8,
    /// Rule 7.1.2: the Soviet player puts STAVKA and this many other chits in the cup (3).
    #[serde(default = "default_per_turn")]
    pub soviet_chits_per_turn: u8,
    /// Rule 7.1.2, the turn track's "Axis Com": Axis chits per turn, one entry per turn.
    pub axis_chits: Vec<u8>,
    /// Rules 7.2.2, 11.1.2: the turn on which each Manstein chit arrives (one entry each).
    #[serde(default)]
    pub manstein_turns: Vec<u8>,
    /// Rule 14.0.1: victory point values.
    #[serde(default)]
    pub victory: VictoryPoints,
    /// The map sheet.
    pub map: MapSpec,
    /// The Terrain Effects Chart.
    pub tec: Tec,
    /// The Combat Results Table.
    pub crt: CrtSpec,
    /// Rule 11.2: the reinforcement boxes.
    #[serde(default)]
    pub boxes: Vec<BoxSpec>,
    /// Combat units (2.2).
    #[serde(default)]
    pub units: Vec<UnitSpec>,
    /// Headquarters (2.3).
    #[serde(default)]
    pub hqs: Vec<HqSpec>,
}

fn default_margin() -> u16 {
    30
}
fn default_chosen() -> u8 {
    5
}
fn default_per_turn() -> u8 {
    3
}

/// Rule 14.0.1: what each thing is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VictoryPoints {
    /// Each Victory City (5).
    #[serde(default = "five")]
    pub city: u16,
    /// Each eliminated German mechanized unit, to the Soviet player (3).
    #[serde(default = "three")]
    pub german_mechanized: u16,
    /// Each eliminated German non-mechanized unit, to the Soviet player (1).
    #[serde(default = "one")]
    pub german_other: u16,
    /// Each eliminated Soviet mechanized unit, to the Axis player (1).
    #[serde(default = "one")]
    pub soviet_mechanized: u16,
    /// Rule 15.0.1 (option "soviet help"): each eliminated German mechanized unit (5).
    #[serde(default = "five")]
    pub german_mechanized_soviet_help: u16,
}

fn five() -> u16 {
    5
}
fn three() -> u16 {
    3
}
fn one() -> u16 {
    1
}

impl Default for VictoryPoints {
    fn default() -> Self {
        VictoryPoints {
            city: 5,
            german_mechanized: 3,
            german_other: 1,
            soviet_mechanized: 1,
            german_mechanized_soviet_help: 5,
        }
    }
}

/// The map sheet: a rectangle of hexes numbered `XXYY`, its terrain and hexsides.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapSpec {
    /// Number of columns.
    pub columns: u32,
    /// Number of rows.
    pub rows: u32,
    /// Which columns or rows are shifted (`"odd-q"`: the usual wargame map).
    #[serde(default = "default_layout")]
    pub layout: OffsetLayout,
    /// The terrain of every hex not listed in `terrain`.
    pub default_terrain: String,
    /// Terrain name (a key of `tec.terrain`) → the hexes of that terrain.
    #[serde(default)]
    pub terrain: BTreeMap<String, Vec<String>>,
    /// Town hexes (a ratio shift, 9.3.3).
    #[serde(default)]
    pub towns: Vec<String>,
    /// City hexes.
    #[serde(default)]
    pub cities: Vec<String>,
    /// Place names by hex, for people.
    #[serde(default)]
    pub names: BTreeMap<String, String>,
    /// Unbridged unless a road or railroad crosses them (2.1.3): pairs of adjacent hexes.
    #[serde(default)]
    pub minor_rivers: Vec<[String; 2]>,
    /// Major river hexsides, pairs of adjacent hexes.
    #[serde(default)]
    pub major_rivers: Vec<[String; 2]>,
    /// Impassable hexsides, pairs of adjacent hexes.
    #[serde(default)]
    pub impassable: Vec<[String; 2]>,
    /// Roads, each a line of adjacent hexes.
    #[serde(default)]
    pub roads: Vec<Vec<String>>,
    /// Railroads, each a line of adjacent hexes.
    #[serde(default)]
    pub railroads: Vec<Vec<String>>,
    /// Rule 13.0: the Stalingrad Pocket hexes.
    #[serde(default)]
    pub pocket: Vec<String>,
    /// Rule 2.1.2: supply source hexes per side.
    #[serde(default)]
    pub supply: SupplySpec,
    /// Rule 14.0: Victory Cities.
    #[serde(default)]
    pub victory_cities: Vec<VictoryCitySpec>,
}

fn default_layout() -> OffsetLayout {
    OffsetLayout::OddQ
}

/// Rule 2.1.2: supply sources.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SupplySpec {
    /// Black symbols.
    #[serde(default)]
    pub axis: Vec<String>,
    /// Red symbols.
    #[serde(default)]
    pub soviet: Vec<String>,
}

/// Rule 14.0: a Victory City and who controls it at the start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VictoryCitySpec {
    /// Where.
    pub hex: String,
    /// Its name.
    pub name: String,
    /// Controlling side at the start (3.0: the Axis controls all five).
    pub control: Side,
}

/// The Terrain Effects Chart.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tec {
    /// Terrain types by name.
    pub terrain: BTreeMap<String, TerrainSpec>,
    /// Rule 9.3.3: ratio shifts for a town in the defender's hex (1).
    #[serde(default = "one_u8")]
    pub town_shifts: u8,
    /// Rule 9.3.3: ratio shifts for a city (2).
    #[serde(default = "two_u8")]
    pub city_shifts: u8,
}

fn one_u8() -> u8 {
    1
}
fn two_u8() -> u8 {
    2
}

/// One terrain type of the TEC.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainSpec {
    /// Rule 8.1.2: MPs to enter (ignored for water).
    #[serde(default = "one_u8")]
    pub move_cost: u8,
    /// Rule 9.3.3: ratio shifts in the defender's favour.
    #[serde(default)]
    pub shifts: u8,
    /// Water: no entry, no ZOC, no supply line, no command range (6.0, 7.3.4, 8.1.5).
    #[serde(default)]
    pub water: bool,
    /// Colour for `hexwar scenario render`, e.g. `"#cfe3a6"`.
    #[serde(default)]
    pub color: Option<String>,
}

/// The Combat Results Table: columns of odds, six die rows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrtSpec {
    /// Column headings, lowest first: `"1-1"`, `"1.5-1"`, `"2-1"` … the last a whole
    /// ratio (`"10-1"`, read as 10-1+).
    pub columns: Vec<String>,
    /// Six rows (die 1 to 6), each with one result per column: `"-"`, `"A1"`, `"1"`,
    /// `"DR"`, `"2DR2"`, `"A1/1"`, `"A1/1DR"` …
    pub rows: Vec<Vec<String>>,
}

/// Rule 11.2: a reinforcement box.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoxSpec {
    /// Its name (`"1PzA"`, `"28A"`).
    pub id: String,
    /// Whose box it is.
    pub side: Side,
    /// The map hexes adjacent to the box, entered from it (11.2.2).
    pub adjacent: Vec<String>,
}

/// A combat unit as written in the file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitSpec {
    /// Unit ID, unique among units and HQs (`"23Pz"`).
    pub id: String,
    /// Nationality (its side follows from it).
    pub nationality: Nationality,
    /// Mechanized (2.2.2, 9.6.1).
    #[serde(default)]
    pub mechanized: bool,
    /// A non-mechanized unit's combat strength (attack and defense).
    #[serde(default)]
    pub strength: Option<u16>,
    /// Its reduced combat strength; none: no reduced side.
    #[serde(default)]
    pub reduced: Option<u16>,
    /// A mechanized unit's attack strength.
    #[serde(default)]
    pub attack: Option<u16>,
    /// A mechanized unit's defense strength.
    #[serde(default)]
    pub defense: Option<u16>,
    /// Reduced attack strength.
    #[serde(default)]
    pub reduced_attack: Option<u16>,
    /// Reduced defense strength.
    #[serde(default)]
    pub reduced_defense: Option<u16>,
    /// Movement allowance in MPs.
    pub movement: u8,
    /// Setup hex; or `arrival` for a reinforcement.
    #[serde(default)]
    pub hex: Option<String>,
    /// Turn of arrival as a reinforcement (11.0).
    #[serde(default)]
    pub arrival: Option<u8>,
    /// The reinforcement box it arrives in (11.2), with `arrival`.
    #[serde(default, rename = "box")]
    pub in_box: Option<String>,
}

/// A HQ as written in the file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HqSpec {
    /// HQ ID, unique among units and HQs (`"4PzA"`); its Command Chit has the same ID.
    pub id: String,
    /// Nationality.
    pub nationality: Nationality,
    /// Rule 7.3.3: Command Range in hexes.
    pub range: u8,
    /// Movement allowance in MPs.
    pub movement: u8,
    /// Setup hex; or `arrival`.
    #[serde(default)]
    pub hex: Option<String>,
    /// Turn of arrival as a reinforcement.
    #[serde(default)]
    pub arrival: Option<u8>,
    /// The reinforcement box it arrives in, with `arrival`.
    #[serde(default, rename = "box")]
    pub in_box: Option<String>,
}

/// A problem found in a scenario file: where, and what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScenarioProblem {
    /// Path in the file, e.g. `units[3] (23Pz).hex`.
    pub location: String,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for ScenarioProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.location, self.message)
    }
}

impl ScenarioProblem {
    /// As an engine [`Problem`].
    pub fn to_problem(&self) -> Problem {
        Problem::with_rule("scenario", "R-20", self.to_string())
    }
}

/// Where a piece starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Start {
    /// On this hex.
    Hex(Hex),
    /// As a reinforcement on this turn, on a railroad (11.1) or in a box (11.2).
    Arrives {
        /// Turn.
        turn: u8,
        /// Box index, if any.
        in_box: Option<u8>,
    },
}

/// The scenario checked and compiled: what the engine plays on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compiled {
    /// The map with its terrain and hexsides.
    pub map: Map,
    /// The CRT.
    pub crt: Crt,
    /// Combat units, in file order (their [`crate::PieceId`]s come first).
    pub units: Vec<UnitInfo>,
    /// HQs, in file order (their ids follow the units').
    pub hqs: Vec<HqInfo>,
    /// Reinforcement boxes.
    pub boxes: Vec<ReinforcementBox>,
}

struct Checker<'a> {
    problems: Vec<ScenarioProblem>,
    board: Option<OffsetBoard>,
    s: &'a Scenario,
}

impl Checker<'_> {
    fn err(&mut self, location: impl Into<String>, message: impl Into<String>) {
        self.problems.push(ScenarioProblem {
            location: location.into(),
            message: message.into(),
        });
    }

    fn hex(&mut self, location: &str, text: &str) -> Option<Hex> {
        let board = self.board?;
        if let Ok(n) = text.parse::<HexNumber>() {
            if let Some(h) = board.hex_of(n) {
                Some(h)
            } else {
                self.err(
                    location,
                    format!(
                        "hex {text} is not on the {}x{} map",
                        board.columns(),
                        board.rows()
                    ),
                );
                None
            }
        } else {
            self.err(
                location,
                format!("{text:?} is not a hex number like \"0304\""),
            );
            None
        }
    }

    fn hexside(&mut self, location: &str, pair: &[String; 2]) -> Option<(Hex, Direction)> {
        let a = self.hex(location, &pair[0]);
        let b = self.hex(location, &pair[1]);
        let (a, b) = (a?, b?);
        if let Some(d) = a.direction_to(b) {
            Some((a, d))
        } else {
            self.err(
                location,
                format!("hexes {} and {} are not adjacent", pair[0], pair[1]),
            );
            None
        }
    }
}

impl Scenario {
    /// Reads a scenario from TOML text. Syntax errors come back as one problem with the
    /// line; the content is not checked yet.
    pub fn from_toml(text: &str) -> Result<Scenario, Vec<ScenarioProblem>> {
        toml::from_str(text).map_err(|e| {
            vec![ScenarioProblem {
                location: e.span().map_or_else(
                    || "file".into(),
                    |sp| {
                        let line = text[..sp.start.min(text.len())].matches('\n').count() + 1;
                        format!("line {line}")
                    },
                ),
                message: e.message().to_owned(),
            }]
        })
    }

    /// The scenario as TOML text.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).unwrap_or_default()
    }

    /// Every problem in the scenario, at once; empty when it can be played.
    pub fn check(&self) -> Vec<ScenarioProblem> {
        match self.compile() {
            Ok(_) => Vec::new(),
            Err(p) => p,
        }
    }

    /// Checks and compiles the scenario, reporting every problem at once.
    #[allow(clippy::too_many_lines)]
    pub fn compile(&self) -> Result<Compiled, Vec<ScenarioProblem>> {
        let mut c = Checker {
            problems: Vec::new(),
            board: None,
            s: self,
        };
        let spec = &self.map;
        if spec.columns == 0 || spec.rows == 0 || spec.columns > 200 || spec.rows > 200 {
            c.err("map", "columns and rows must be between 1 and 200");
        } else {
            c.board = OffsetBoard::try_new(spec.columns, spec.rows, spec.layout);
        }
        if self.turns == 0 || self.turns > 50 {
            c.err("turns", "must be between 1 and 50");
        }
        if self.axis_chits.len() != usize::from(self.turns) {
            c.err(
                "axis_chits",
                format!(
                    "needs one entry per turn ({}), has {}",
                    self.turns,
                    self.axis_chits.len()
                ),
            );
        }
        for (i, &t) in self.manstein_turns.iter().enumerate() {
            if t == 0 || t > self.turns {
                c.err(
                    format!("manstein_turns[{i}]"),
                    format!("turn {t} is not a turn of the game"),
                );
            }
        }
        if self.manstein_turns.len() > 8 {
            c.err("manstein_turns", "at most 8 Manstein chits");
        }
        // TEC.
        let mut terrain_names: Vec<String> = Vec::new();
        for (name, t) in &self.tec.terrain {
            if !t.water && t.move_cost == 0 {
                c.err(
                    format!("tec.terrain.{name}.move_cost"),
                    "must be at least 1",
                );
            }
            if t.move_cost > 40 {
                c.err(
                    format!("tec.terrain.{name}.move_cost"),
                    "must be at most 40",
                );
            }
            terrain_names.push(name.clone());
        }
        let terrain_index = |name: &str| terrain_names.iter().position(|n| n == name);
        let default_terrain = terrain_index(&spec.default_terrain);
        if default_terrain.is_none() {
            c.err(
                "map.default_terrain",
                format!("{:?} is not a terrain of tec.terrain", spec.default_terrain),
            );
        }
        // CRT.
        let crt = compile_crt(&mut c, &self.crt);
        let Some(board) = c.board else {
            return Err(c.problems);
        };
        let mut info = hexmap::Grid::from_board(
            &board,
            HexInfo {
                terrain: default_terrain.unwrap_or(0) as u8,
                ..HexInfo::default()
            },
        );
        let mut terrain_of: BTreeMap<Hex, String> = BTreeMap::new();
        for (name, hexes) in &spec.terrain {
            let idx = terrain_index(name);
            if idx.is_none() {
                c.err(
                    format!("map.terrain.{name}"),
                    format!("{name:?} is not a terrain of tec.terrain"),
                );
            }
            for (i, text) in hexes.iter().enumerate() {
                let loc = format!("map.terrain.{name}[{i}]");
                if let Some(h) = c.hex(&loc, text) {
                    if let Some(prev) = terrain_of.insert(h, name.clone()) {
                        c.err(loc, format!("hex {text} is already {prev}"));
                    }
                    if let (Some(idx), Some(cell)) = (idx, info.get_hex_mut(&board, h)) {
                        cell.terrain = idx as u8;
                    }
                }
            }
        }
        let water = |info: &hexmap::Grid<HexInfo>, h: Hex| {
            info.get_hex(&board, h).is_some_and(|i| {
                self.tec
                    .terrain
                    .get(&terrain_names[usize::from(i.terrain)])
                    .is_some_and(|t| t.water)
            })
        };
        for (list, kind, what) in [
            (&spec.towns, Settlement::Town, "towns"),
            (&spec.cities, Settlement::City, "cities"),
        ] {
            for (i, text) in list.iter().enumerate() {
                let loc = format!("map.{what}[{i}]");
                if let Some(h) = c.hex(&loc, text) {
                    let cell = &mut info[board.index(h).unwrap_or(0)];
                    if cell.settlement != Settlement::None {
                        c.err(loc, format!("hex {text} already has a town or city"));
                    }
                    cell.settlement = kind;
                }
            }
        }
        let mut names = BTreeMap::new();
        for (text, name) in &spec.names {
            if let Some(h) = c.hex(&format!("map.names.{text}"), text) {
                names.insert(h, name.clone());
            }
        }
        let mut sides: BTreeMap<hexmap::Hexside, Hexside> = BTreeMap::new();
        for (list, what) in [
            (&spec.minor_rivers, "minor_rivers"),
            (&spec.major_rivers, "major_rivers"),
            (&spec.impassable, "impassable"),
        ] {
            for (i, pair) in list.iter().enumerate() {
                let loc = format!("map.{what}[{i}]");
                if let Some((a, d)) = c.hexside(&loc, pair) {
                    let side = sides.entry(hexmap::Hexside::new(a, d)).or_default();
                    let dup = match what {
                        "minor_rivers" => std::mem::replace(&mut side.minor_river, true),
                        "major_rivers" => std::mem::replace(&mut side.major_river, true),
                        _ => std::mem::replace(&mut side.impassable, true),
                    };
                    if dup {
                        c.err(&loc, "this hexside is listed twice");
                    }
                    if side.minor_river && side.major_river {
                        c.err(&loc, "a hexside cannot be both a minor and a major river");
                    }
                }
            }
        }
        for (list, what) in [(&spec.roads, "roads"), (&spec.railroads, "railroads")] {
            for (i, line) in list.iter().enumerate() {
                if line.len() < 2 {
                    c.err(
                        format!("map.{what}[{i}]"),
                        "a line needs at least two hexes",
                    );
                }
                for (j, pair) in line.windows(2).enumerate() {
                    let loc = format!("map.{what}[{i}][{j}..{}]", j + 1);
                    if let Some((a, d)) = c.hexside(&loc, &[pair[0].clone(), pair[1].clone()]) {
                        let side = sides.entry(hexmap::Hexside::new(a, d)).or_default();
                        if what == "roads" {
                            side.road = true;
                        } else {
                            side.railroad = true;
                        }
                        if side.impassable {
                            c.err(loc, "a road or railroad crosses an impassable hexside");
                        }
                    }
                }
            }
        }
        for (i, text) in spec.pocket.iter().enumerate() {
            if let Some(h) = c.hex(&format!("map.pocket[{i}]"), text) {
                info[board.index(h).unwrap_or(0)].pocket = true;
            }
        }
        let mut any_source = [false, false];
        for (side, list) in [
            (Side::Axis, &spec.supply.axis),
            (Side::Soviet, &spec.supply.soviet),
        ] {
            for (i, text) in list.iter().enumerate() {
                let loc = format!("map.supply.{side}[{i}]");
                if let Some(h) = c.hex(&loc, text) {
                    if water(&info, h) {
                        c.err(&loc, format!("supply source {text} is a water hex"));
                    }
                    let cell = &mut info[board.index(h).unwrap_or(0)];
                    if cell.source.is_some() {
                        c.err(loc, format!("hex {text} is already a supply source"));
                    }
                    cell.source = Some(side);
                    any_source[side.index()] = true;
                }
            }
        }
        for side in Side::BOTH {
            if !any_source[side.index()] {
                c.err(
                    format!("map.supply.{side}"),
                    "each side needs a supply source",
                );
            }
        }
        let mut cities = Vec::new();
        for (i, vc) in spec.victory_cities.iter().enumerate() {
            let loc = format!("map.victory_cities[{i}] ({})", vc.name);
            if let Some(h) = c.hex(&format!("{loc}.hex"), &vc.hex) {
                if water(&info, h) {
                    c.err(&loc, "a Victory City cannot be a water hex");
                }
                let cell = &mut info[board.index(h).unwrap_or(0)];
                if cell.city.is_some() {
                    c.err(&loc, format!("hex {} is already a Victory City", vc.hex));
                }
                cell.city = Some(cities.len() as u8);
                cities.push((h, vc.name.clone(), vc.control));
            }
        }
        if cities.len() > 64 {
            c.err("map.victory_cities", "at most 64 Victory Cities");
        }
        // Boxes.
        let mut boxes = Vec::new();
        for (i, b) in self.boxes.iter().enumerate() {
            let loc = format!("boxes[{i}] ({})", b.id);
            if self.boxes[..i].iter().any(|o| o.id == b.id) {
                c.err(&loc, format!("box id {:?} is used twice", b.id));
            }
            let mut adjacent = Vec::new();
            for (j, text) in b.adjacent.iter().enumerate() {
                if let Some(h) = c.hex(&format!("{loc}.adjacent[{j}]"), text) {
                    if water(&info, h) {
                        c.err(format!("{loc}.adjacent[{j}]"), "a water hex");
                    }
                    adjacent.push(h);
                }
            }
            if b.adjacent.is_empty() {
                c.err(&loc, "a box needs at least one adjacent hex");
            }
            adjacent.sort();
            adjacent.dedup();
            boxes.push(ReinforcementBox {
                id: b.id.clone(),
                side: b.side,
                adjacent,
            });
        }
        let box_index = |c: &mut Checker, loc: &str, name: &Option<String>, side: Side| {
            let name = name.as_ref()?;
            match c.s.boxes.iter().position(|b| &b.id == name) {
                Some(i) if c.s.boxes[i].side == side => Some(i as u8),
                Some(_) => {
                    c.err(loc, format!("box {name:?} belongs to the other side"));
                    None
                }
                None => {
                    c.err(loc, format!("there is no box {name:?}"));
                    None
                }
            }
        };
        let mut ids: BTreeSet<&str> = BTreeSet::new();
        let start_of = |c: &mut Checker,
                        loc: &str,
                        hex: &Option<String>,
                        arrival: Option<u8>,
                        in_box: &Option<String>,
                        side: Side|
         -> Start {
            match (hex, arrival) {
                (Some(text), None) => {
                    if in_box.is_some() {
                        c.err(loc, "a unit set up on a hex has no box (box needs arrival)");
                    }
                    match c.hex(&format!("{loc}.hex"), text) {
                        Some(h) => {
                            if water(&info, h) {
                                c.err(format!("{loc}.hex"), format!("{text} is a water hex"));
                            }
                            Start::Hex(h)
                        }
                        None => Start::Arrives {
                            turn: 1,
                            in_box: None,
                        },
                    }
                }
                (None, Some(turn)) => {
                    if turn == 0 || turn > self.turns {
                        c.err(
                            format!("{loc}.arrival"),
                            format!("turn {turn} is not a turn of the game"),
                        );
                    }
                    Start::Arrives {
                        turn,
                        in_box: box_index(c, &format!("{loc}.box"), in_box, side),
                    }
                }
                _ => {
                    c.err(
                        loc,
                        "give exactly one of hex (setup) and arrival (reinforcement)",
                    );
                    Start::Arrives {
                        turn: 1,
                        in_box: None,
                    }
                }
            }
        };
        let mut units = Vec::new();
        for (i, u) in self.units.iter().enumerate() {
            let loc = format!("units[{i}] ({})", u.id);
            if u.id.is_empty() || !ids.insert(&u.id) {
                c.err(&loc, format!("unit id {:?} is empty or used twice", u.id));
            }
            let side = u.nationality.side();
            let start = start_of(&mut c, &loc, &u.hex, u.arrival, &u.in_box, side);
            let (full, reduced) = match (u.strength, u.attack, u.defense) {
                (Some(s), None, None) => {
                    if u.reduced_attack.is_some() || u.reduced_defense.is_some() {
                        c.err(
                            &loc,
                            "a unit with one strength gives `reduced`, not reduced_attack/defense",
                        );
                    }
                    (Strengths::both(s), u.reduced.map(Strengths::both))
                }
                (None, Some(a), Some(d)) => {
                    if u.reduced.is_some() {
                        c.err(
                            &loc,
                            "a unit with attack/defense gives reduced_attack and reduced_defense",
                        );
                    }
                    let reduced = match (u.reduced_attack, u.reduced_defense) {
                        (Some(a), Some(d)) => Some(Strengths::new(a, d)),
                        (None, None) => None,
                        _ => {
                            c.err(
                                &loc,
                                "give both reduced_attack and reduced_defense, or neither",
                            );
                            None
                        }
                    };
                    (Strengths::new(a, d), reduced)
                }
                _ => {
                    c.err(&loc, "give `strength` (non-mechanized) or both `attack` and `defense` (mechanized)");
                    (Strengths::both(0), None)
                }
            };
            if u.mechanized && u.strength.is_some() {
                c.err(
                    &loc,
                    "a mechanized unit has separate attack and defense (2.2.2)",
                );
            }
            if !u.mechanized && u.attack.is_some() {
                c.err(
                    &loc,
                    "a non-mechanized unit has one combat strength (2.2.2)",
                );
            }
            if full.attack.0 > 999 || full.defense.0 > 999 {
                c.err(&loc, "strengths must be below 1000");
            }
            if u.movement == 0 || u.movement > 40 {
                c.err(format!("{loc}.movement"), "must be between 1 and 40");
            }
            units.push(UnitInfo {
                id: u.id.clone(),
                nationality: u.nationality,
                mechanized: u.mechanized,
                full,
                reduced,
                movement: u.movement,
                start,
            });
        }
        let mut hqs = Vec::new();
        for (i, hq) in self.hqs.iter().enumerate() {
            let loc = format!("hqs[{i}] ({})", hq.id);
            if hq.id.is_empty() || !ids.insert(&hq.id) {
                c.err(&loc, format!("HQ id {:?} is empty or used twice", hq.id));
            }
            if hq.id.eq_ignore_ascii_case("stavka")
                || hq.id.to_ascii_lowercase().starts_with("manstein")
            {
                c.err(&loc, "STAVKA and Manstein are chit names, not HQ ids");
            }
            let side = hq.nationality.side();
            let start = start_of(&mut c, &loc, &hq.hex, hq.arrival, &hq.in_box, side);
            if hq.range == 0 || hq.range > 30 {
                c.err(format!("{loc}.range"), "must be between 1 and 30");
            }
            if hq.movement > 40 {
                c.err(format!("{loc}.movement"), "must be at most 40");
            }
            hqs.push(HqInfo {
                id: hq.id.clone(),
                nationality: hq.nationality,
                range: hq.range,
                movement: hq.movement,
                start,
            });
        }
        if units.len() + hqs.len() > 2000 {
            c.err("units", "at most 2000 units and HQs");
        }
        // Setup stacking (5.0) and no mixing of sides.
        let mut at: BTreeMap<Hex, Vec<(bool, Nationality)>> = BTreeMap::new();
        for u in &units {
            if let Start::Hex(h) = u.start {
                at.entry(h).or_default().push((false, u.nationality));
            }
        }
        for hq in &hqs {
            if let Start::Hex(h) = hq.start {
                at.entry(h).or_default().push((true, hq.nationality));
            }
        }
        for (h, list) in &at {
            let label = board.label(*h).unwrap_or_default();
            if let Err(e) = crate::rules::stacking::stack_ok(list.iter().copied()) {
                c.err(format!("setup at {label}"), e);
            }
        }
        let soviet_hqs = hqs
            .iter()
            .filter(|h| h.nationality.side() == Side::Soviet)
            .count();
        if soviet_hqs < usize::from(self.soviet_chosen_chits) {
            c.err(
                "soviet_chosen_chits",
                format!(
                    "{} chits to choose but only {soviet_hqs} Soviet HQs",
                    self.soviet_chosen_chits
                ),
            );
        }
        if !c.problems.is_empty() {
            return Err(c.problems);
        }
        let mut side_grid = hexmap::Grid::from_board(&board, [Hexside::default(); 6]);
        for (hs, f) in &sides {
            let (a, b) = hs.hexes();
            let d = hs.direction();
            if let Some(cell) = side_grid.get_hex_mut(&board, a) {
                cell[d.index()] = *f;
            }
            if let Some(cell) = side_grid.get_hex_mut(&board, b) {
                cell[d.opposite().index()] = *f;
            }
        }
        for h in board.hexes() {
            let w = water(&info, h);
            if let Some(cell) = info.get_hex_mut(&board, h) {
                cell.water = w;
            }
        }
        let terrain = terrain_names
            .iter()
            .map(|n| {
                let t = &self.tec.terrain[n];
                crate::map::Terrain {
                    name: n.clone(),
                    move_cost: t.move_cost,
                    shifts: t.shifts,
                    water: t.water,
                }
            })
            .collect();
        let sources = Side::BOTH.map(|side| {
            board
                .hexes()
                .filter(|&h| {
                    info.get_hex(&board, h)
                        .is_some_and(|i| i.source == Some(side))
                })
                .collect()
        });
        Ok(Compiled {
            map: Map {
                sources,
                links: crate::map::Links::of(&board, &info, &side_grid),
                board,
                info,
                sides: side_grid,
                terrain,
                town_shifts: self.tec.town_shifts,
                city_shifts: self.tec.city_shifts,
                cities,
                names,
            },
            crt: crt.unwrap_or_default(),
            units,
            hqs,
            boxes,
        })
    }
}

fn compile_crt(c: &mut Checker, spec: &CrtSpec) -> Option<Crt> {
    let mut columns = Vec::new();
    let mut ok = true;
    for (i, text) in spec.columns.iter().enumerate() {
        if let Some(r) = Ratio::parse(text) {
            if r.num < r.den {
                c.err(format!("crt.columns[{i}]"), "columns start at 1-1 (9.3.4)");
                ok = false;
            }
            if let Some(prev) = columns.last()
                && !r.above(*prev)
            {
                c.err(
                    format!("crt.columns[{i}]"),
                    "columns must grow from left to right",
                );
                ok = false;
            }
            columns.push(r);
        } else {
            c.err(
                format!("crt.columns[{i}]"),
                format!("{text:?} is not a ratio like \"1.5-1\" or \"3-1\""),
            );
            ok = false;
        }
    }
    if columns.is_empty() {
        c.err("crt.columns", "the CRT needs columns");
        return None;
    }
    if let Some(last) = columns.last()
        && last.den != 1
    {
        c.err(
            "crt.columns",
            "the last column must be a whole ratio (read as N-1+, 9.3.2)",
        );
        ok = false;
    }
    if spec.rows.len() != 6 {
        c.err(
            "crt.rows",
            format!("needs six rows (die 1 to 6), has {}", spec.rows.len()),
        );
        ok = false;
    }
    let mut rows = Vec::new();
    for (d, row) in spec.rows.iter().enumerate() {
        if row.len() != columns.len() {
            c.err(
                format!("crt.rows[{d}]"),
                format!("has {} results for {} columns", row.len(), columns.len()),
            );
            ok = false;
        }
        let mut parsed = Vec::new();
        for (k, text) in row.iter().enumerate() {
            if let Some(r) = CrtResult::parse(text) {
                parsed.push(r);
            } else {
                c.err(
                    format!("crt.rows[{d}][{k}]"),
                    format!("{text:?} is not a result like \"-\", \"A1\", \"2DR\", \"A1/1DR2\""),
                );
                ok = false;
            }
        }
        rows.push(parsed);
    }
    ok.then_some(Crt { columns, rows })
}
