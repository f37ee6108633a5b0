//! The game's fixed public facts for a display ([`engine::Game::board`]): the map sheet
//! (terrain, towns and cities, hexside features, supply sources, Victory Cities, the
//! Stalingrad Pocket, the reinforcement boxes) and each piece's printed counter. Views
//! leave these out; a client fetches them once and draws the pieces of each view on
//! them. Nothing here is hidden from either side: the rules have no fog.

use hexmap::{Board as _, Direction, Hex, Orientation};
use serde::Serialize;

use crate::map::Settlement;
use crate::scenario::{CrtSpec, Start, Tec, VictoryPoints};
use crate::state::Rules;
use crate::unit::{Nationality, Side, Strengths};

/// The board of a game: everything a display needs that never changes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Board {
    /// The scenario's title.
    pub name: String,
    /// Where its data comes from, said plainly.
    pub description: String,
    /// The last game turn (4.0).
    pub turns: u8,
    /// How hexes sit: `flat_top` (columns) or `pointy_top` (rows); a hex's centre is
    /// `(1.5 q, √3 (r + q/2))` flat-topped, `(√3 (q + r/2), 1.5 r)` pointy-topped.
    pub orientation: &'static str,
    /// Every hex of the map.
    pub hexes: Vec<BoardHex>,
    /// The hexsides with a feature, each once.
    pub sides: Vec<BoardSide>,
    /// Rule 11.2: the reinforcement boxes (index = `Location::Box`).
    pub boxes: Vec<BoardBox>,
    /// Every piece's counter (index = [`crate::PieceId`]): combat units, then HQs.
    pub pieces: Vec<Counter>,
    /// The Terrain Effects Chart (8.1.2, 9.3.3), as the scenario gives it.
    pub tec: Tec,
    /// The Combat Results Table (9.4): its columns and six die rows.
    pub crt: CrtSpec,
    /// The turn track and the victory rules' figures.
    pub track: Track,
}

/// The turn track (4.0, 7.1.2, 11.0, 13.0) and the victory figures (14.0), for the
/// charts beside the map; each piece's arrival is on its [`Counter`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Track {
    /// Rule 7.1.2: Axis chits put in the cup each turn (index 0: turn 1).
    pub axis_chits: Vec<u8>,
    /// Rule 7.1.2: Soviet chits besides STAVKA each turn.
    pub soviet_chits_per_turn: u8,
    /// Rules 7.2.2, 11.1.2: the turn each Manstein chit arrives.
    pub manstein_turns: Vec<u8>,
    /// Rule 13.0: the Stalingrad Pocket holds until the end of this turn (0: none).
    pub pocket_until_turn: u8,
    /// Rule 14.0.2: the VP lead that wins at once.
    pub sudden_death_margin: u16,
    /// Rule 14.0.1: what each thing is worth.
    pub victory: VictoryPoints,
}

/// One hex of the map.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoardHex {
    /// Axial coordinates, as actions and views name hexes.
    pub hex: Hex,
    /// The printed number (XXYY).
    pub label: String,
    /// The terrain's name in the TEC.
    pub terrain: String,
    /// The terrain's colour from the scenario, if it gives one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// Water (8.1.5).
    pub water: bool,
    /// `town`, `city` or absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub settlement: Option<&'static str>,
    /// The place's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Rule 14.0: a Victory City (its index in the view's `control`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub victory_city: Option<u8>,
    /// Rule 13.0: in the Stalingrad Pocket.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub pocket: bool,
    /// Rule 2.1.2: a supply source of this side.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<Side>,
}

/// A hexside with a feature (2.1.3).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoardSide {
    /// The hexes on either side of it.
    pub hexes: [Hex; 2],
    /// `major_river`, `minor_river` or `impassable`, if one of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub barrier: Option<&'static str>,
    /// A road crosses it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub road: bool,
    /// A railroad crosses it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub railroad: bool,
}

/// Rule 11.2: a reinforcement box.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoardBox {
    /// Its name.
    pub id: String,
    /// Whose.
    pub side: Side,
    /// The map hexes next to it.
    pub adjacent: Vec<Hex>,
}

/// A piece's printed counter (2.2, 2.3).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Counter {
    /// The printed ID ("23Pz", "5 Tank"; a HQ's is its Command Chit's).
    pub id: String,
    /// Whose.
    pub side: Side,
    /// Nationality (5.0.3, 7.3.5).
    pub nationality: Nationality,
    /// `unit` or `hq`.
    pub kind: &'static str,
    /// Mechanized (a combat unit with separate attack and defense).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub mechanized: bool,
    /// A combat unit's full-strength side.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub full: Option<Strengths>,
    /// Its reduced-strength side, if it has one (2.2.3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reduced: Option<Strengths>,
    /// Movement allowance.
    pub movement: u8,
    /// A HQ's Command Range (7.3.3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<u8>,
    /// Rule 11.0: the turn it arrives as a reinforcement.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arrival: Option<u8>,
    /// Rule 11.2: the name of the box it arrives in.
    #[serde(rename = "box", skip_serializing_if = "Option::is_none")]
    pub in_box: Option<String>,
}

/// The board of a game played under `rules`.
pub fn board(rules: &Rules) -> Board {
    let map = &rules.data.map;
    let orientation = map.board.orientation();
    let hexes = map
        .board
        .hexes()
        .map(|h| {
            let info = map.at(h).copied().unwrap_or_default();
            let terrain = map.terrain_name(h).to_owned();
            BoardHex {
                hex: h,
                label: map.label(h),
                color: rules
                    .scenario
                    .tec
                    .terrain
                    .get(&terrain)
                    .and_then(|t| t.color.clone()),
                terrain,
                water: !map.is_land(h),
                settlement: match info.settlement {
                    Settlement::None => None,
                    Settlement::Town => Some("town"),
                    Settlement::City => Some("city"),
                },
                name: info
                    .city
                    .map(|i| map.cities[usize::from(i)].1.clone())
                    .or_else(|| map.names.get(&h).cloned()),
                victory_city: info.city,
                pocket: info.pocket,
                source: info.source,
            }
        })
        .collect();
    let mut sides = Vec::new();
    for h in map.board.hexes() {
        // Each side once: from the hex to its neighbours in three directions.
        for d in [Direction::E, Direction::SE, Direction::SW] {
            let n = h.neighbor(d);
            if !map.contains(n) {
                continue;
            }
            let f = map.side(h, n);
            let barrier = if f.impassable {
                Some("impassable")
            } else if f.major_river {
                Some("major_river")
            } else if f.minor_river {
                Some("minor_river")
            } else {
                None
            };
            if barrier.is_some() || f.road || f.railroad {
                sides.push(BoardSide {
                    hexes: [h, n],
                    barrier,
                    road: f.road,
                    railroad: f.railroad,
                });
            }
        }
    }
    let units = rules.data.units.iter().map(|u| Counter {
        id: u.id.clone(),
        side: u.nationality.side(),
        nationality: u.nationality,
        kind: "unit",
        mechanized: u.mechanized,
        full: Some(u.full),
        reduced: u.reduced,
        movement: u.movement,
        range: None,
        arrival: arrival(u.start),
        in_box: box_name(rules, u.start),
    });
    let hqs = rules.data.hqs.iter().map(|hq| Counter {
        id: hq.id.clone(),
        side: hq.nationality.side(),
        nationality: hq.nationality,
        kind: "hq",
        mechanized: false,
        full: None,
        reduced: None,
        movement: hq.movement,
        range: Some(hq.range),
        arrival: arrival(hq.start),
        in_box: box_name(rules, hq.start),
    });
    Board {
        name: rules.scenario.name.clone(),
        description: rules.scenario.description.clone(),
        turns: rules.scenario.turns,
        orientation: match orientation {
            Orientation::FlatTop => "flat_top",
            Orientation::PointyTop => "pointy_top",
        },
        hexes,
        sides,
        boxes: rules
            .data
            .boxes
            .iter()
            .map(|b| BoardBox {
                id: b.id.clone(),
                side: b.side,
                adjacent: b.adjacent.clone(),
            })
            .collect(),
        pieces: units.chain(hqs).collect(),
        tec: rules.scenario.tec.clone(),
        crt: rules.scenario.crt.clone(),
        track: Track {
            axis_chits: rules.scenario.axis_chits.clone(),
            soviet_chits_per_turn: rules.scenario.soviet_chits_per_turn,
            manstein_turns: rules.scenario.manstein_turns.clone(),
            pocket_until_turn: rules.scenario.pocket_until_turn,
            sudden_death_margin: rules.scenario.sudden_death_margin,
            victory: rules.scenario.victory,
        },
    }
}

fn arrival(start: Start) -> Option<u8> {
    match start {
        Start::Arrives { turn, .. } => Some(turn),
        Start::Hex(_) => None,
    }
}

fn box_name(rules: &Rules, start: Start) -> Option<String> {
    match start {
        Start::Arrives {
            in_box: Some(b), ..
        } => rules.data.boxes.get(usize::from(b)).map(|x| x.id.clone()),
        _ => None,
    }
}
