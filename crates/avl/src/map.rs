//! The map sheet compiled from a scenario: terrain, towns and cities, hexside features
//! (2.1), supply sources, Victory Cities, the Stalingrad Pocket.

use std::collections::BTreeMap;

use hexmap::{Board, Direction, Grid, Hex, OffsetBoard};

use crate::unit::Side as PlayerSide;

/// A town or city in a hex (9.3.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Settlement {
    /// Neither.
    #[default]
    None,
    /// A town.
    Town,
    /// A city.
    City,
}

/// What the map says about one hex.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HexInfo {
    /// Index into [`Map::terrain`].
    pub terrain: u8,
    /// Water (8.1.5).
    pub water: bool,
    /// Town or city.
    pub settlement: Settlement,
    /// Rule 13.0: in the Stalingrad Pocket.
    pub pocket: bool,
    /// Rule 2.1.2: a supply source for this side.
    pub source: Option<PlayerSide>,
    /// Rule 14.0: the index of the Victory City here.
    pub city: Option<u8>,
}

/// The features of one hexside (2.1.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Side {
    /// A minor river.
    pub minor_river: bool,
    /// A major river.
    pub major_river: bool,
    /// Impassable.
    pub impassable: bool,
    /// A road crosses it.
    pub road: bool,
    /// A railroad crosses it.
    pub railroad: bool,
}

impl Side {
    /// Rule 2.1.3: a river hexside.
    pub const fn river(self) -> bool {
        self.minor_river || self.major_river
    }

    /// Rule 2.1.3: a river hexside crossed by a road or railroad.
    pub const fn bridged(self) -> bool {
        self.road || self.railroad
    }

    /// An unbridged major river hexside.
    pub const fn unbridged_major(self) -> bool {
        self.major_river && !self.bridged()
    }

    /// An unbridged minor river hexside.
    pub const fn unbridged_minor(self) -> bool {
        self.minor_river && !self.bridged()
    }
}

/// A terrain type of the TEC.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Terrain {
    /// Its name in the scenario.
    pub name: String,
    /// MPs to enter.
    pub move_cost: u8,
    /// Ratio shifts for the defender.
    pub shifts: u8,
    /// Water.
    pub water: bool,
}

/// The compiled map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    /// The rectangle of hexes.
    pub board: OffsetBoard,
    /// Per hex.
    pub info: Grid<HexInfo>,
    /// Per hex, its six sides in [`Direction::ALL`] order.
    pub sides: Grid<[Side; 6]>,
    /// The TEC's terrain types.
    pub terrain: Vec<Terrain>,
    /// Ratio shifts of a town.
    pub town_shifts: u8,
    /// Ratio shifts of a city.
    pub city_shifts: u8,
    /// Victory Cities: hex, name, initial control.
    pub cities: Vec<(Hex, String, PlayerSide)>,
    /// Place names.
    pub names: BTreeMap<Hex, String>,
    /// Rule 2.1.2: each side's supply sources in reading order, indexed by
    /// [`PlayerSide::index`] (compiled once from [`HexInfo::source`]).
    pub sources: [Vec<Hex>; 2],
    /// Per hex (by dense index), its neighbours' dense indices and the ways out of it
    /// that zones of control and supply lines take: compiled once ([`Links::of`]), so
    /// that searches over the map (supply lines, zones of control, railroad nets,
    /// Command Range) step from index to index.
    pub(crate) links: Links,
}

/// The map's hexes as a graph of dense indices ([`Map::links`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Links {
    /// Per hex, the dense indices of its six neighbours in [`Direction::ALL`] order,
    /// [`Map::OFF`] for those off the map.
    pub(crate) next: Grid<[u32; 6]>,
    /// Per hex, bit `d` set (`d` a [`Direction::index`]) when a combat unit there
    /// exerts a zone of control into that neighbour (6.0.1): on the map, land, not
    /// across an impassable hexside.
    pub(crate) zoc: Grid<u8>,
    /// Per hex, bit `d` set when a supply line may go from it into that neighbour
    /// (10.1.2): on the map, not across an impassable or unbridged major river
    /// hexside.
    pub(crate) supply: Grid<u8>,
    /// The hex of each dense index.
    pub(crate) hexes: Vec<Hex>,
    /// The dense indices in the order of their hexes ([`Hex`]'s `Ord`).
    pub(crate) sorted: Vec<u32>,
}

impl Links {
    /// The links of the hexes of `board`, with their terrain `info` and hexsides
    /// `sides`.
    pub(crate) fn of(board: &OffsetBoard, info: &Grid<HexInfo>, sides: &Grid<[Side; 6]>) -> Links {
        let next = Grid::from_board_fn(board, |h| {
            Direction::ALL.map(|d| {
                board
                    .index(h.neighbor(d))
                    .and_then(|i| u32::try_from(i).ok())
                    .unwrap_or(Map::OFF)
            })
        });
        let ways = |ok: &dyn Fn(usize, usize, Side) -> bool| -> Grid<u8> {
            (0..next.len())
                .map(|i| {
                    (0..6)
                        .filter(|&d| {
                            next[i][d] != Map::OFF && ok(i, next[i][d] as usize, sides[i][d])
                        })
                        .fold(0u8, |bits, d| bits | 1 << d)
                })
                .collect()
        };
        let zoc = ways(&|_, n, side| !info[n].water && !side.impassable);
        let supply = ways(&|_, _, side| !side.impassable && !side.unbridged_major());
        let hexes: Vec<Hex> = (0..next.len())
            .map(|i| board.hex_at(i).unwrap_or_default())
            .collect();
        let mut sorted: Vec<u32> = (0..next.len())
            .filter_map(|i| u32::try_from(i).ok())
            .collect();
        sorted.sort_by_key(|&i| hexes[i as usize]);
        Links {
            next,
            zoc,
            supply,
            hexes,
            sorted,
        }
    }
}

/// The neighbours of hex `i` whose bits are set in `ways` (a mask of [`Links`]), as
/// dense indices.
pub(crate) fn ways_out(links: &Links, i: usize, ways: u8) -> impl Iterator<Item = usize> + '_ {
    (0..6)
        .filter(move |&d| ways & (1 << d) != 0)
        .map(move |d| links.next[i][d] as usize)
}

impl Map {
    /// In [`Map::links`]: no neighbour on the map that way.
    pub(crate) const OFF: u32 = u32::MAX;

    /// The on-map neighbours of the hex with dense index `i`: for each, its direction
    /// (as [`Direction::index`]) and dense index; the same hexes in the same order as
    /// [`Map::neighbors`].
    pub(crate) fn linked(&self, i: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.links.next[i]
            .into_iter()
            .enumerate()
            .filter(|&(_, n)| n != Map::OFF)
            .map(|(d, n)| (d, n as usize))
    }

    /// The hex with dense index `i` (an index of this map's board).
    pub(crate) fn hex_at(&self, i: usize) -> Hex {
        self.links.hexes.get(i).copied().unwrap_or_default()
    }

    /// Whether `hex` is on the map.
    pub fn contains(&self, hex: Hex) -> bool {
        self.board.contains(hex)
    }

    /// The hex's data; `None` off the map.
    pub fn at(&self, hex: Hex) -> Option<&HexInfo> {
        self.info.get_hex(&self.board, hex)
    }

    /// The dense index of `hex`, `None` off the map.
    pub fn index(&self, hex: Hex) -> Option<usize> {
        self.board.index(hex)
    }

    /// The dense index of an on-map hex (0 for hexes off the map: callers check first).
    pub fn board_index(&self, hex: Hex) -> usize {
        self.board.index(hex).unwrap_or(0)
    }

    /// Whether `hex` is on the map and not water.
    pub fn is_land(&self, hex: Hex) -> bool {
        self.at(hex).is_some_and(|i| !i.water)
    }

    /// The side between two adjacent hexes (default features if not adjacent or off map).
    pub fn side(&self, from: Hex, to: Hex) -> Side {
        match (from.direction_to(to), self.sides.get_hex(&self.board, from)) {
            (Some(d), Some(s)) => s[d.index()],
            _ => Side::default(),
        }
    }

    /// Whether the hex has a road (a road hexside touches it), 8.3.1.
    pub fn road_hex(&self, hex: Hex) -> bool {
        self.index(hex).is_some_and(|i| self.road_hex_at(i))
    }

    /// [`Map::road_hex`] of the hex with dense index `i`.
    pub(crate) fn road_hex_at(&self, i: usize) -> bool {
        self.sides[i].iter().any(|x| x.road)
    }

    /// Whether the hex has a railroad, 11.1.1.
    pub fn rail_hex(&self, hex: Hex) -> bool {
        self.sides
            .get_hex(&self.board, hex)
            .is_some_and(|s| s.iter().any(|x| x.railroad))
    }

    /// Rule 8.1.2: the TEC cost to enter `hex`, in whole MPs.
    pub fn move_cost(&self, hex: Hex) -> u16 {
        self.index(hex).map_or(1, |i| self.move_cost_at(i))
    }

    /// [`Map::move_cost`] of the hex with dense index `i`.
    pub(crate) fn move_cost_at(&self, i: usize) -> u16 {
        self.terrain
            .get(usize::from(self.info[i].terrain))
            .map_or(1, |t| u16::from(t.move_cost))
    }

    /// Rule 9.3.3: the ratio shifts the defender's hex gives.
    pub fn shifts(&self, hex: Hex) -> u8 {
        let Some(i) = self.at(hex) else { return 0 };
        let t = self
            .terrain
            .get(usize::from(i.terrain))
            .map_or(0, |t| t.shifts);
        t + match i.settlement {
            Settlement::None => 0,
            Settlement::Town => self.town_shifts,
            Settlement::City => self.city_shifts,
        }
    }

    /// The supply sources of a side, in reading order.
    pub fn sources(&self, side: PlayerSide) -> &[Hex] {
        &self.sources[side.index()]
    }

    /// The on-map neighbours of a hex with their directions.
    pub fn neighbors(&self, hex: Hex) -> impl Iterator<Item = (Direction, Hex)> + '_ {
        Direction::ALL
            .into_iter()
            .map(move |d| (d, hex.neighbor(d)))
            .filter(|&(_, h)| self.contains(h))
    }

    /// The `XXYY` label of a hex.
    pub fn label(&self, hex: Hex) -> String {
        self.board.label(hex).unwrap_or_else(|| hex.to_string())
    }

    /// Name of the terrain of a hex.
    pub fn terrain_name(&self, hex: Hex) -> &str {
        self.at(hex)
            .and_then(|i| self.terrain.get(usize::from(i.terrain)))
            .map_or("", |t| t.name.as_str())
    }
}
