//! The map: terrain, the tile bank and the starting hexes (3.0, 3.3, R-3, R-4, R-5).

use std::fmt;

use hexmap::{Hex, HexagonBoard};
use serde::{Deserialize, Serialize};

/// The five terrains of 3.1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    /// Plains: a city here supports a second infantry.
    Plains,
    /// Grassland: a city here supports a cavalry.
    Grassland,
    /// Forest: slow, defensive, blocks line of sight; a city supports a frigate.
    Forest,
    /// Mountain: slow, strongly defensive, blocks line of sight; a city supports an artillery.
    Mountain,
    /// Water (ocean, sea): frigates only.
    Water,
}

impl Terrain {
    /// All terrains, in tile-bank order.
    pub const ALL: [Terrain; 5] = [
        Terrain::Plains,
        Terrain::Grassland,
        Terrain::Forest,
        Terrain::Mountain,
        Terrain::Water,
    ];

    /// Land (everything but water).
    pub const fn is_land(self) -> bool {
        !matches!(self, Terrain::Water)
    }

    /// Rule 9.12: forest and mountain are slow terrain.
    pub const fn is_slow(self) -> bool {
        matches!(self, Terrain::Forest | Terrain::Mountain)
    }

    /// Index into [`Terrain::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The terrain's name.
    pub const fn name(self) -> &'static str {
        match self {
            Terrain::Plains => "plains",
            Terrain::Grassland => "grassland",
            Terrain::Forest => "forest",
            Terrain::Mountain => "mountain",
            Terrain::Water => "water",
        }
    }
}

impl fmt::Display for Terrain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Counts of tiles by terrain: the face-down interior tiles not yet revealed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TileBank {
    /// Plains tiles.
    pub plains: u16,
    /// Grassland tiles.
    pub grassland: u16,
    /// Forest tiles.
    pub forest: u16,
    /// Mountain tiles.
    pub mountain: u16,
    /// Water tiles.
    pub water: u16,
}

impl TileBank {
    /// R-4's default bank for `interior` tiles: 25 % water rounded to the nearest
    /// integer (halves up), the rest shared equally by plains, grassland, forest and
    /// mountain, the remainder going to plains, then grassland, then forest.
    pub fn default_for(interior: u16) -> TileBank {
        let water = (u32::from(interior) * 25 + 50) / 100;
        let water = water as u16;
        let land = interior - water;
        let (share, rest) = (land / 4, land % 4);
        TileBank {
            plains: share + u16::from(rest >= 1),
            grassland: share + u16::from(rest >= 2),
            forest: share + u16::from(rest >= 3),
            mountain: share,
            water,
        }
    }

    /// The count of one terrain.
    pub const fn get(&self, t: Terrain) -> u16 {
        match t {
            Terrain::Plains => self.plains,
            Terrain::Grassland => self.grassland,
            Terrain::Forest => self.forest,
            Terrain::Mountain => self.mountain,
            Terrain::Water => self.water,
        }
    }

    /// Mutable count of one terrain.
    pub fn get_mut(&mut self, t: Terrain) -> &mut u16 {
        match t {
            Terrain::Plains => &mut self.plains,
            Terrain::Grassland => &mut self.grassland,
            Terrain::Forest => &mut self.forest,
            Terrain::Mountain => &mut self.mountain,
            Terrain::Water => &mut self.water,
        }
    }

    /// Tiles in all.
    pub fn total(&self) -> u32 {
        Terrain::ALL.iter().map(|&t| u32::from(self.get(t))).sum()
    }
}

/// The board side S for a number of players: 5, 6, 7, 8 for 2, 3, 4, 5–8.
pub const fn default_side(players: u8) -> u8 {
    match players {
        0..=2 => 5,
        3 => 6,
        4 => 7,
        _ => 8,
    }
}

/// The hexagonal board of side `side`.
pub fn board(side: u8) -> HexagonBoard {
    HexagonBoard::new(u32::from(side))
}

/// the start groups, index = seat. With 7 players seat 0 is the centre player (the
/// centre hex, then ring 1 clockwise from corner 0: 3 hexes, or 7 when the start groups
/// have 5 or more, the accelerator); with 8, seats 0 and 1 hold the `n` consecutive
/// hexes of ring 2 centred on its corners 0 and 3 (Expansion: centre players first).
/// The perimeter players follow: `n` consecutive hexes of ring S−2 centred on anchor
/// `round(j · 6(S−2) / P)` counted clockwise from corner 0.
pub fn start_groups(side: u8, players: u8, group: u8) -> Vec<Vec<Hex>> {
    let centre: Vec<Vec<Hex>> = match players {
        7 => {
            let n = if group >= 5 { 7 } else { 3 };
            let hexes: Vec<Hex> = std::iter::once(Hex::ORIGIN)
                .chain(Hex::ORIGIN.ring(1))
                .take(n)
                .collect();
            vec![hexes]
        }
        8 => {
            let ring = Hex::ORIGIN.ring(2);
            let len = ring.len() as i64;
            [0i64, 6]
                .iter()
                .map(|&anchor| {
                    let half = i64::from(group) / 2;
                    (-half..i64::from(group) - half)
                        .map(|k| ring[(anchor + k).rem_euclid(len) as usize])
                        .collect()
                })
                .collect()
        }
        _ => vec![],
    };
    let mut groups = centre.clone();
    groups.extend(perimeter_groups(side, players - centre.len() as u8, group));
    groups
}

fn perimeter_groups(side: u8, players: u8, group: u8) -> Vec<Vec<Hex>> {
    let ring = Hex::ORIGIN.ring(u32::from(side) - 2);
    let len = ring.len() as i64;
    let p = i64::from(players);
    (0..p)
        .map(|j| {
            // round(j * len / p), halves up, in integers.
            let anchor = (2 * j * len + p) / (2 * p);
            let half = i64::from(group) / 2;
            (-half..i64::from(group) - half)
                .map(|k| ring[(anchor + k).rem_euclid(len) as usize])
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexmap::Board;

    #[test]
    fn default_banks_fill_the_interior() {
        for (side, interior) in [(5u8, 37u16), (6, 61), (7, 91), (8, 127)] {
            let b = board(side);
            assert_eq!(b.len() - b.perimeter().len(), usize::from(interior));
            assert_eq!(TileBank::default_for(interior).total(), u32::from(interior));
        }
        assert_eq!(
            TileBank::default_for(37),
            TileBank {
                plains: 7,
                grassland: 7,
                forest: 7,
                mountain: 7,
                water: 9
            }
        );
        assert_eq!(
            TileBank::default_for(61),
            TileBank {
                plains: 12,
                grassland: 12,
                forest: 11,
                mountain: 11,
                water: 15
            }
        );
    }

    #[test]
    fn start_groups_follow_r5() {
        // Two players: opposite corners of ring 3.
        let g = start_groups(5, 2, 3);
        assert_eq!(g[0][1], Hex::new(3, -3));
        assert_eq!(g[1][1], Hex::new(-3, 3));
        assert_eq!(
            g[0],
            vec![Hex::new(2, -3), Hex::new(3, -3), Hex::new(3, -2)]
        );
        // Six players: the six corners of ring 6.
        let g = start_groups(8, 6, 3);
        for (i, group) in g.iter().enumerate() {
            assert_eq!(group[1], Hex::ORIGIN.ring_corner(6, i));
            assert!(group.iter().all(|h| h.distance(Hex::ORIGIN) == 6));
        }
        // 7 players: the centre player first, then six perimeter corners.
        let g = start_groups(8, 7, 3);
        assert_eq!(g[0], vec![Hex::ORIGIN, Hex::new(1, -1), Hex::new(1, 0)]);
        assert_eq!(g[1][1], Hex::ORIGIN.ring_corner(6, 0));
        assert_eq!(start_groups(8, 7, 5)[0].len(), 7);
        // 8 players: two centre groups on ring 2's corners 0 and 3.
        let g = start_groups(8, 8, 3);
        assert_eq!(g[0][1], Hex::ORIGIN.ring_corner(2, 0));
        assert_eq!(g[1][1], Hex::ORIGIN.ring_corner(2, 3));
        assert_eq!(g.len(), 8);
        // Groups never overlap.
        for (side, players) in [(5, 2), (6, 3), (7, 4), (8, 5), (8, 6), (8, 7), (8, 8)] {
            let mut all: Vec<Hex> = start_groups(side, players, 3).concat();
            all.sort();
            all.dedup();
            assert_eq!(all.len(), 3 * usize::from(players), "{players} players");
        }
    }
}
