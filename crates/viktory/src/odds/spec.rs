//! A battle described in a few words (the units, the terrain, the town or city, naval
//! support, combat supply), turned into a real position so its odds come from the same
//! code as a game's.

use std::fmt;

use engine::Seat;
use hexmap::{Board, Hex};
use serde::{Deserialize, Serialize};

use super::{BattleOdds, BombardOdds, Policy, battle_odds_with, bombard_odds_with};
use crate::TileBank;
use crate::board::Terrain;
use crate::options::Rules;
use crate::state::{Player, Setup, Stage, TileSetup, Town, TownSetup, Turn, Viktory};
use crate::unit::{PerKind, Unit, UnitId, UnitKind};

/// Why a [`BattleSpec`] describes no battle that can be computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SpecError {}

fn fail<T>(message: impl Into<String>) -> Result<T, SpecError> {
    Err(SpecError(message.into()))
}

/// An attacking unit of a [`BattleSpec`]: its type and the hex side (0–5) it attacks
/// across (distinct sides give the Expansion's hex-side bonus dice).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpecUnit {
    /// The unit's type.
    pub kind: UnitKind,
    /// The hex side it comes from, 0 to 5.
    #[serde(default)]
    pub side: u8,
}

/// A battle (or bombardment) described without a game: the position is made up around
/// it. The battle hex is the centre of a small board; the defender (seat 1) holds it
/// with his units and, if asked, his town or city; the attacker (seat 0) has entered it
/// across the given hex sides this turn; supporting frigates wait in a water hex next
/// to it; the capitals and the cities for combat supply lie three hexes away.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BattleSpec {
    /// The rules (a preset plus options).
    pub rules: Rules,
    /// The attacking units.
    pub attackers: Vec<SpecUnit>,
    /// The defending units in the battle hex.
    pub defenders: PerKind,
    /// The battle hex's terrain; water makes a naval battle (frigates only).
    pub terrain: Terrain,
    /// The defender's town (`Some(false)`) or city (`Some(true)`) in the battle hex.
    pub town: Option<bool>,
    /// The defender's frigates next to the battle hex (12.32).
    pub naval_support: u8,
    /// The attacker has Combat Supply (Expansion: cities on all four land terrains).
    pub attacker_supply: bool,
    /// The defender has Combat Supply.
    pub defender_supply: bool,
    /// The defender holds his capital (without it his cities defend as towns, 14.0).
    pub defender_capital: bool,
    /// The players' decisions.
    pub policy: Policy,
}

impl BattleSpec {
    /// An open plains hex, no units yet, under `rules`.
    pub fn new(rules: Rules) -> BattleSpec {
        BattleSpec {
            rules,
            attackers: vec![],
            defenders: PerKind::default(),
            terrain: Terrain::Plains,
            town: None,
            naval_support: 0,
            attacker_supply: false,
            defender_supply: false,
            defender_capital: true,
            policy: Policy::default(),
        }
    }

    /// The battle hex of [`BattleSpec::position`].
    pub const HEX: Hex = Hex::new(0, 0);

    /// The odds of the battle: exact, or an estimate for a battle too costly to
    /// compute exactly (see [`super::battle_odds`]).
    pub fn odds(&self) -> Result<BattleOdds, SpecError> {
        let state = self.position()?;
        battle_odds_with(&state, Self::HEX, self.policy)
            .ok_or_else(|| SpecError("the battle is too large even to estimate".into()))
    }

    /// The exact odds of `shots` bombardments by the attacker of the defending units.
    pub fn bombard_odds(&self, shots: u8) -> Result<BombardOdds, SpecError> {
        let state = self.position()?;
        bombard_odds_with(&state, Self::HEX, shots, self.policy)
            .ok_or_else(|| SpecError("no defending unit there can be hit".into()))
    }

    /// The position: the attacker (seat 0) in his movement phase, his units in the
    /// battle hex [`BattleSpec::HEX`] waiting to fight.
    pub fn position(&self) -> Result<Viktory, SpecError> {
        let naval = !self.terrain.is_land();
        if self.attackers.is_empty() {
            return fail("the attacker needs at least one unit");
        }
        if self.defenders.total() == 0 && self.town.is_none() {
            return fail("the defender needs units or a town or city in the battle hex");
        }
        if let Some(u) = self.attackers.iter().find(|u| u.side > 5) {
            return fail(format!("hex side {} is not 0 to 5", u.side));
        }
        let wrong = |k: UnitKind| (k == UnitKind::Frigate) != naval;
        if self.attackers.iter().any(|u| wrong(u.kind))
            || UnitKind::ALL
                .iter()
                .any(|&k| wrong(k) && self.defenders.get(k) > 0)
        {
            return fail(if naval {
                "only frigates fight in a water hex (10.5)"
            } else {
                "frigates do not fight in a land hex (10.5); give them as naval support"
            });
        }
        if naval && (self.town.is_some() || self.naval_support > 0) {
            return fail("a naval battle has no town, city or naval support");
        }
        let count = self.attackers.len() + self.defenders.total() as usize;
        if count > 200 || self.naval_support > 50 {
            return fail("too many units");
        }
        let mut rules = self.rules.clone();
        rules.players = 2;
        rules.board_side = 5;
        let board = hexmap::HexagonBoard::new(5);
        let hex = Self::HEX;
        let neighbors = hex.neighbors();
        let mut terrain: Vec<(Hex, Terrain)> = board
            .hexes()
            .filter(|&h| !board.is_perimeter(h))
            .map(|h| (h, Terrain::Plains))
            .collect();
        let mut set = |h: Hex, t: Terrain| {
            if let Some(e) = terrain.iter_mut().find(|(x, _)| *x == h) {
                e.1 = t;
            }
        };
        set(hex, self.terrain);
        let mut sides: Vec<u8> = self.attackers.iter().map(|u| u.side).collect();
        sides.sort_unstable();
        sides.dedup();
        for &side in &sides {
            set(neighbors[usize::from(side)], self.terrain);
        }
        let mut units: Vec<Unit> = Vec::new();
        let mut add = |owner: u8, kind: UnitKind, at: Hex, from: Option<Hex>| {
            units.push(Unit {
                id: UnitId(units.len() as u16 + 1),
                owner: Seat(owner),
                kind,
                hex: at,
                aboard: None,
                mp: 0,
                done: true,
                attacked: false,
                transported: false,
                entered_from: from,
                loads: 0,
                drop: None,
                boarded: false,
                pillages: 0,
                road_run: 0,
            });
        };
        for u in &self.attackers {
            add(0, u.kind, hex, Some(neighbors[usize::from(u.side)]));
        }
        for k in UnitKind::ALL {
            for _ in 0..self.defenders.get(k) {
                add(1, k, hex, None);
            }
        }
        if self.naval_support > 0 {
            let Some(&water) = neighbors
                .iter()
                .enumerate()
                .find(|(i, _)| !sides.contains(&(*i as u8)))
                .map(|(_, h)| h)
            else {
                return fail("no hex side is left for the supporting frigates");
            };
            set(water, Terrain::Water);
            for _ in 0..self.naval_support {
                add(1, UnitKind::Frigate, water, None);
            }
        }
        // Capitals and supply cities: every other hex of the ring three hexes out.
        let ring = hex.ring(3);
        let lands = [
            Terrain::Plains,
            Terrain::Grassland,
            Terrain::Forest,
            Terrain::Mountain,
        ];
        let mut towns: Vec<TownSetup> = Vec::new();
        for (seat, first, capital, supply) in [
            (0u8, 0usize, true, self.attacker_supply),
            (1, 8, self.defender_capital, self.defender_supply),
        ] {
            let n = if supply { 4 } else { usize::from(capital) };
            for i in 0..n {
                let at = ring[first + 2 * i];
                set(at, lands[i]);
                towns.push(TownSetup {
                    hex: at,
                    town: Town {
                        owner: Seat(seat),
                        city: supply,
                        capital_of: (capital && i == 0).then_some(Seat(seat)),
                        metropolis: None,
                    },
                });
            }
        }
        if let Some(city) = self.town {
            towns.push(TownSetup {
                hex,
                town: Town {
                    owner: Seat(1),
                    city,
                    capital_of: None,
                    metropolis: None,
                },
            });
        }
        let mut setup = Setup::new(rules);
        setup.reveals.clear();
        setup.tiles = terrain
            .into_iter()
            .map(|(hex, terrain)| TileSetup { hex, terrain })
            .collect();
        setup.bank = Some(TileBank::default());
        setup.players = vec![Player::default(); 2];
        setup.towns = towns;
        setup.units = units;
        setup.turn = Turn {
            number: 1,
            stage: Stage::Move,
            can_build: true,
            pending_battles: vec![hex],
            ..Turn::default()
        };
        // A battle to price, with no economy behind its units (8.0 does not apply).
        setup.units_as_given = true;
        Viktory::from_setup(&setup).map_err(|e| SpecError(format!("not a valid position: {e}")))
    }
}
