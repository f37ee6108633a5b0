//! The game state, and the setup that describes any position.

use std::sync::Arc;

use engine::{Outcome, Problem, Seat, SetupErrors};
use hexmap::{Board, Grid, Hex, HexagonBoard};
use serde::{Deserialize, Serialize};

use crate::board::{Terrain, TileBank, board};
use crate::options::Rules;
use crate::rules::subjugation::bit;
use crate::unit::{Reserve, Unit, UnitId, UnitKind};

/// A town or city on the map (7.2), with the capital marker if one lies there (4.0, 14.0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Town {
    /// Current owner.
    pub owner: Seat,
    /// A city (upgraded town).
    pub city: bool,
    /// Whose capital marker lies here; it stays when the town is captured (14.0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capital_of: Option<Seat>,
    /// Expansion, Metropolis: this city is a Metropolis supporting one more unit of
    /// this kind (two for infantry).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metropolis: Option<UnitKind>,
}

impl Town {
    /// The units this town, city or Metropolis supports on `terrain` (8.0; Expansion,
    /// Metropolis); `as_city: false` counts a city as a town (14.0).
    pub fn units(&self, rules: &Rules, terrain: Terrain, as_city: bool) -> Vec<UnitKind> {
        let city = self.city && as_city;
        let mut v: Vec<UnitKind> = rules
            .supported(city, terrain)
            .into_iter()
            .flatten()
            .collect();
        if let (true, Some(k)) = (city, self.metropolis) {
            v.extend(crate::rules::metropolis::extra_units(k));
        }
        v
    }

    /// How many of [`Town::units`] are `kind`, without listing them (the legal
    /// placements ask it of every town for every kind in reserve).
    pub fn supports(
        &self,
        rules: &Rules,
        terrain: Terrain,
        as_city: bool,
        kind: UnitKind,
    ) -> usize {
        let city = self.city && as_city;
        let listed = rules
            .supported(city, terrain)
            .into_iter()
            .filter(|&k| k == Some(kind))
            .count();
        let extra = match (city, self.metropolis) {
            (true, Some(k)) => crate::rules::metropolis::extra_units(k)
                .into_iter()
                .filter(|&k| k == kind)
                .count(),
            _ => 0,
        };
        listed + extra
    }
}

/// What one hex holds besides units and towns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    /// The terrain, once revealed; `None` while the tile is face down.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terrain: Option<Terrain>,
}

/// A revealed tile in a setup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TileSetup {
    /// Where.
    pub hex: Hex,
    /// Its terrain.
    pub terrain: Terrain,
}

/// A town or city in a setup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TownSetup {
    /// Where.
    pub hex: Hex,
    /// The town.
    #[serde(flatten)]
    pub town: Town,
}

/// Per-player bookkeeping.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The Reserve box (13.0).
    #[serde(default)]
    pub reserve: Reserve,
    /// Out of the game.
    #[serde(default)]
    pub eliminated: bool,
    /// A coin lies by this player's capital (5.5).
    #[serde(default)]
    pub doomsday_marked: bool,
    /// 15.61: this player is a Vassal of that Ruler.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruler: Option<Seat>,
    /// 15.63: this player lost his capital and may not attack on his next turn.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reorganizing: bool,
    /// Expansion subjugation victory: the players (as seat bits) this player made his
    /// Vassals since he last lost his capital.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub subjugated: u8,
}

/// Where a player turn stands (4.0, 6.0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// The first player is drawn (4.0 step 1).
    #[default]
    FirstPlayer,
    /// The active player reveals his start group and builds his capital (4.0 steps 2–4).
    Opening,
    /// The start of a player turn: victory checks, the doomsday die (5.4, 5.5).
    Start,
    /// Building phase (7.0).
    Build,
    /// Movement and combat phase (9.0–12.0).
    Move,
    /// Reserve placement phase (13.0).
    Place,
    /// Online rules, Building and Placing reserves: after the move/battle phase, building
    /// (7.0) and reserve placement (13.0) in one phase, in any order.
    BuildAndPlace,
    /// Frigate placement naval battles (13.5), then the turn ends.
    PlacementBattles,
    /// Expansion, Optional Quicker Game Setup: a player's build in the setup rounds.
    SetupBuild,
    /// Expansion, Optional Quicker Game Setup: a player places his units before play.
    SetupPlace,
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// The online rules' first-turn second town.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SecondTown {
    /// The player may build a town two or three hexes from his capital.
    Build,
    /// He built it: its infantry goes into it or into the capital.
    Place,
}

/// A unit placed this phase, against the placement capacity of a town or city (13.11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placed {
    /// The town or city it was placed through.
    pub town: Hex,
    /// Its type.
    pub kind: UnitKind,
    /// The unit it became: not to be redeployed in the phase it was placed in (H-20).
    /// `None` in a setup written without it, or in a view that does not show the unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<UnitId>,
}

/// The turn: whose, which phase, and what has happened in it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// Game turn: 0 while capitals are being built, then 1, 2, ...
    #[serde(default)]
    pub number: u16,
    /// The player whose turn it is.
    #[serde(default)]
    pub active: Seat,
    /// The first player (4.0 step 1).
    #[serde(default)]
    pub first: Seat,
    /// The phase.
    #[serde(default)]
    pub stage: Stage,
    /// Opening: how many players have built their capital.
    #[serde(default)]
    pub openings_done: u8,
    /// Opening, online rules: the optional second town (then its infantry) is pending.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub second_town: Option<SecondTown>,
    /// Opening: the revealed hexes the capital may be chosen from (4.0 step 2, R-6).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub capital_candidates: Vec<Hex>,
    /// 7.1: the player held his capital at the start of the turn.
    #[serde(default)]
    pub can_build: bool,
    /// Build actions spent this turn (Expansion, Building Phase Accelerator).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub build_actions_used: u8,
    /// The doomsday die was rolled this turn (5.5).
    #[serde(default)]
    pub doomsday_rolled: bool,
    /// hexes where the active player's land units began the turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub started_here: Vec<Hex>,
    /// 9.13, 9.32: the town built this turn (not yet a road end or a port).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub built: Option<Hex>,
    /// Quicker Game Setup: players in a row who built nothing.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub setup_passes: u8,
    /// Expansion, Pillage Attack: units that repaired a hex this turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub repairs: Vec<UnitId>,
    /// Expansion, battle dice factors: the active player's frigates and the hexes they
    /// bombarded this turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub frigate_bombards: Vec<(UnitId, Hex)>,
    /// 12.2, R-16: hexes where a battle was fought this turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub battle_hexes: Vec<Hex>,
    /// Hexes the active player has entered to fight, battles not yet started (12.0).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending_battles: Vec<Hex>,
    /// the unit now moving (moving or embarking another ends its move).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moving: Option<UnitId>,
    /// 13.11: units placed this phase.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub placed: Vec<Placed>,
    /// 13.5: water hexes where a placed frigate met an enemy frigate.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub placement_battles: Vec<Hex>,
}

/// Hits to be assigned as casualties (10.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Hits {
    /// Rolls of 1: the firing player chooses the casualty.
    pub tactical: u8,
    /// Other hits: the owner chooses.
    pub regular: u8,
}

impl Hits {
    /// Hits from a set of dice (10.1): `hit_max` or less hits, 1 is tactical.
    pub fn from_rolls(rolls: &[u8], hit_max: u8) -> Hits {
        let tactical = rolls.iter().filter(|&&r| r == 1).count();
        let regular = rolls.iter().filter(|&&r| r > 1 && r <= hit_max).count();
        Hits {
            tactical: saturating_u8(tactical),
            regular: saturating_u8(regular),
        }
    }

    /// All hits (at most 255: more could not take more units than a hex holds of a
    /// kind, and a fire step rolls at most 255 dice).
    pub const fn total(&self) -> u8 {
        self.tactical.saturating_add(self.regular)
    }
}

/// A count as a `u8`, 255 for anything larger (dice, hits and units counted in bytes).
pub(crate) fn saturating_u8(n: usize) -> u8 {
    u8::try_from(n).unwrap_or(u8::MAX)
}

/// The steps of a battle (12.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BattleStep {
    /// Step 0: attacking artillery fires.
    PreBattleFire,
    /// Step 0 (Expansion, Artillery Pre-Battle Fire Enhancement): defending artillery
    /// fires too.
    PreBattleDefense,
    /// Step 0: its casualties are chosen and removed at once.
    PreBattleCasualties,
    /// Step 1: the attacker's fire round.
    AttackerFire,
    /// Step 2: the defender's fire round.
    DefenderFire,
    /// Casualties of both sides are chosen, then removed together.
    Casualties,
    /// Step 3: the attacker may retreat or fight on.
    RetreatOption,
    /// Step 3: the attacker is retreating every unit.
    Retreating,
    /// Expansion, Artillery Characteristics: the defender's artillery fires Overwatch
    /// before anything else.
    Overwatch,
    /// Its casualties are chosen and go to the attacker's reserve at once.
    OverwatchCasualties,
}

/// A battle in progress (12.0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Battle {
    /// The battle hex.
    pub hex: Hex,
    /// The player whose turn it is.
    pub attacker: Seat,
    /// The other side.
    pub defender: Seat,
    /// Frigate against frigate in a water hex.
    pub naval: bool,
    /// A frigate placement naval battle (13.5): no retreat.
    #[serde(default)]
    pub placement: bool,
    /// Battle round, from 1 (0 during pre-battle fire).
    pub round: u8,
    /// The step.
    pub step: BattleStep,
    /// Dice still to roll in this fire step.
    pub to_roll: u8,
    /// Dice rolled so far in this fire step.
    #[serde(default)]
    pub rolls: Vec<u8>,
    /// Hits on the defender still to assign.
    #[serde(default)]
    pub defender_hits: Hits,
    /// Hits on the attacker still to assign.
    #[serde(default)]
    pub attacker_hits: Hits,
    /// Dice the defender's military units lose this round (12.31).
    #[serde(default)]
    pub suppressed: u8,
    /// Casualties noted this round, removed together (12.3 step 2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub marked: Vec<UnitId>,
    /// Hexes that attacking units entered the battle hex from: the only retreat hexes.
    #[serde(default)]
    pub entries: Vec<Hex>,
    /// The one hex the retreat goes to, once chosen (original VIKTORY).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retreat_to: Option<Hex>,
    /// 15.4: the roller has yet to say how many pairs of dice he trades for sure hits.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub averaging: bool,
    /// 15.4: sure hits from dice pairs not rolled, added to this fire step's hits.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub sure_hits: u8,
}

/// A bombardment in progress (11.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bombardment {
    /// The bombarding unit.
    pub unit: UnitId,
    /// Its owner.
    pub attacker: Seat,
    /// The target hex.
    pub target: Hex,
    /// The owner of the units there.
    pub defender: Seat,
    /// The die, once rolled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roll: Option<u8>,
}

/// An exploration act that exploration balancing may adjust (15.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Balance {
    /// The player whose act revealed the hexes.
    pub seat: Seat,
    /// The hexes the act revealed.
    pub hexes: Vec<Hex>,
    /// A water hex was given back; its land tile is being drawn.
    #[serde(default)]
    pub land_only: bool,
}

/// Units a player owes after losing a town or city (10.2, R-17).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capture {
    /// The captured hex.
    pub hex: Hex,
    /// The player who lost it and must give up units.
    pub loser: Seat,
    /// The kinds still owed, in order.
    pub owed: Vec<UnitKind>,
    /// A lost Metropolis's extra kind, still owed at the end of `owed` (its owner may
    /// switch it with another Metropolis's, Expansion).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra: Option<UnitKind>,
    /// The owner moved his own town or city (15.5): no victory or elimination follows.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub relocation: bool,
}

/// Any VIKTORY position, valid or not: the wire and file form of a game state.
///
/// Only `rules` is required. Perimeter hexes are water and revealed; interior hexes not
/// listed in `tiles` are face down. `bank` defaults to the rules' tile bank minus the
/// revealed interior tiles.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// The rules in force (missing options take their preset's value).
    #[serde(
        serialize_with = "crate::options::serialize_compact",
        deserialize_with = "crate::options::deserialize_lenient"
    )]
    pub rules: Rules,
    /// Revealed interior tiles.
    #[serde(default)]
    pub tiles: Vec<TileSetup>,
    /// Face-down tiles left, by terrain.
    #[serde(default)]
    pub bank: Option<TileBank>,
    /// Towns and cities.
    #[serde(default)]
    pub towns: Vec<TownSetup>,
    /// Units on the map.
    #[serde(default)]
    pub units: Vec<Unit>,
    /// Per-player state, index = seat; missing players start empty.
    #[serde(default)]
    pub players: Vec<Player>,
    /// The turn.
    #[serde(default)]
    pub turn: Turn,
    /// Hexes waiting to be revealed, in order.
    #[serde(default)]
    pub reveals: Vec<Hex>,
    /// A battle in progress.
    #[serde(default)]
    pub battle: Option<Battle>,
    /// A bombardment in progress.
    #[serde(default)]
    pub bombard: Option<Bombardment>,
    /// Units owed after a capture.
    #[serde(default)]
    pub capture: Option<Capture>,
    /// An exploration act open to balancing (15.3). Like every field added after the
    /// first release, it is left out when empty, so existing records keep their hashes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub balance: Option<Balance>,
    /// Map customization (Expansion): tiles drawn for the waiting hexes, not yet laid.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub drawn: Vec<Terrain>,
    /// Map customization: the all-water choice was made for this act.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub redraw_offered: bool,
    /// Map customization: the next draw replaces a water tile and is land.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub land_only: bool,
    /// The doomsday clock has started (5.5).
    #[serde(default)]
    pub doomsday: bool,
    /// The id the next unit placed on the map gets (default: one past the largest).
    #[serde(default)]
    pub next_unit: Option<u16>,
    /// How the game ended.
    #[serde(default)]
    pub outcome: Option<Outcome>,
    /// Independent exploration: the interior hexes each seat has explored (index =
    /// seat); empty in a hand-made position: every revealed tile is known to all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub explored: Vec<Vec<Hex>>,
    /// Dark: the other players' towns and cities each seat remembers, as last seen
    /// (index = seat); empty: what each seat sees now.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remembered: Vec<Vec<TownSetup>>,
    /// Dark, Independent exploration: the latest battle or bombardment, whose sides hear
    /// of its dice wherever it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_fight: Option<crate::rules::fog::Fight>,
    /// 15.62: a captured capital being handed back to its owner, now a Vassal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handover: Option<crate::rules::subjugation::Handover>,
    /// Expansion, Pillage Attack: hexes with a damage marker.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pillaged: Vec<Hex>,
    /// A position made by hand (a puzzle, a test): each player's units on the map and
    /// in reserve are taken as given even where they differ from what his towns and
    /// cities support (8.0). Off (the default), loading refuses such a position, which
    /// no game can reach.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub units_as_given: bool,
}

/// A per-kind count for people: "2 infantry, 1 cavalry, 0 artillery, 0 frigates".
fn count(r: Reserve) -> String {
    format!(
        "{} infantry, {} cavalry, {} artillery, {} frigates",
        r.infantry, r.cavalry, r.artillery, r.frigate
    )
}

impl Setup {
    /// A game at its very start: the first player is about to be drawn.
    /// With no exploration (15.2, the original VIKTORY) every interior tile is turned
    /// face up first, one chance action per hex, before the first player is drawn.
    pub fn new(rules: Rules) -> Setup {
        let reveals = if rules.no_exploration || rules.quicker_game_setup {
            let board = board(rules.side());
            board.hexes().filter(|&h| !board.is_perimeter(h)).collect()
        } else {
            vec![]
        };
        Setup {
            rules,
            tiles: vec![],
            bank: None,
            towns: vec![],
            units: vec![],
            players: vec![],
            turn: Turn::default(),
            reveals,
            battle: None,
            bombard: None,
            capture: None,
            balance: None,
            drawn: vec![],
            redraw_offered: false,
            land_only: false,
            doomsday: false,
            next_unit: None,
            outcome: None,
            explored: vec![],
            remembered: vec![],
            last_fight: None,
            handover: None,
            pillaged: vec![],
            units_as_given: false,
        }
    }
}

/// A VIKTORY game state. Private fields, read accessors; cheap to clone.
///
/// Its serde form is its [`Setup`]: a state is written as the setup that reproduces it
/// and read back through [`Viktory::from_setup`], so a state read from anywhere is
/// validated and its caches are rebuilt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Setup", into = "Setup")]
pub struct Viktory {
    pub(crate) rules: Rules,
    pub(crate) board: HexagonBoard,
    /// The hexes' terrain, shared as the towns are: revealed tiles are few, and the move
    /// and build memos that keep what the terrain was tell it unchanged by its address.
    pub(crate) cells: Arc<Grid<Cell>>,
    /// Towns and cities, sorted by hex (few, and iterated often). Shared (issue 28): a
    /// clone of the state and the memos that keep what the towns were hold the same
    /// list until a change copies it (`Arc::make_mut`), and `==` on two `Arc`s of
    /// the same list is true at its address, without comparing town by town.
    pub(crate) towns: Arc<Vec<(Hex, Town)>>,
    pub(crate) bank: TileBank,
    pub(crate) units: Vec<Unit>,
    pub(crate) players: Vec<Player>,
    pub(crate) turn: Turn,
    pub(crate) reveals: Vec<Hex>,
    pub(crate) battle: Option<Battle>,
    pub(crate) bombard: Option<Bombardment>,
    pub(crate) capture: Option<Capture>,
    pub(crate) balance: Option<Balance>,
    pub(crate) drawn: Vec<Terrain>,
    pub(crate) redraw_offered: bool,
    pub(crate) land_only: bool,
    pub(crate) doomsday: bool,
    pub(crate) next_unit: u16,
    pub(crate) outcome: Option<Outcome>,
    /// Cache: per hex, a bit per seat with units there (cargo excluded). Rebuilt by
    /// [`Viktory::refresh_occupancy`] whenever units move, appear or leave.
    pub(crate) occupancy: Grid<u8>,
    /// Cache: per hex, one more than the index in `towns` of the town or city there, or
    /// 0. Rebuilt by [`Viktory::refresh_town_index`] whenever a town comes or goes.
    pub(crate) town_index: Grid<u16>,
    /// Dark and Independent exploration: what each seat knows and sees.
    pub(crate) fog: Option<Box<crate::rules::fog::Fog>>,
    /// 15.62: a returned capital's hand-over.
    pub(crate) handover: Option<crate::rules::subjugation::Handover>,
    /// Expansion, Pillage Attack: damaged hexes, sorted.
    pub(crate) pillaged: Vec<Hex>,
    /// [`Setup::units_as_given`], kept so the position saves as it was loaded.
    pub(crate) units_as_given: bool,
    /// Cache: the movement phase's destinations as the last legal actions listed them.
    pub(crate) move_memo: crate::legal::MoveMemo,
    /// Cache (issue 28): the last build candidates, not part of the position.
    pub(crate) build_memo: crate::legal::BuildMemo,
    /// Cache (issue 28): the last placements' answers to 13.2, not part of the position.
    pub(crate) near_memo: crate::rules::reserve::NearMemo,
}

/// Most units a setup may hold (a game holds some hundreds at most).
const MAX_UNITS: usize = 2000;

/// The lists of a setup longer than a game can make them: hexes beyond the board's, units
/// beyond [`MAX_UNITS`], dice beyond a byte.
fn oversized(setup: &Setup, hexes: usize) -> Vec<Problem> {
    let t = &setup.turn;
    let mut lists: Vec<(&str, usize, usize)> = vec![
        ("tiles", setup.tiles.len(), hexes),
        ("towns", setup.towns.len(), hexes),
        ("units", setup.units.len(), MAX_UNITS),
        ("reveals", setup.reveals.len(), hexes),
        ("drawn", setup.drawn.len(), hexes),
        ("pillaged", setup.pillaged.len(), hexes),
        ("turn.started_here", t.started_here.len(), MAX_UNITS),
        ("turn.battle_hexes", t.battle_hexes.len(), hexes),
        ("turn.pending_battles", t.pending_battles.len(), hexes),
        ("turn.capital_candidates", t.capital_candidates.len(), hexes),
        ("turn.placement_battles", t.placement_battles.len(), hexes),
        ("turn.placed", t.placed.len(), MAX_UNITS),
        ("turn.repairs", t.repairs.len(), MAX_UNITS),
        ("turn.frigate_bombards", t.frigate_bombards.len(), MAX_UNITS),
    ];
    for v in &setup.explored {
        lists.push(("explored", v.len(), hexes));
    }
    for v in &setup.remembered {
        lists.push(("remembered", v.len(), hexes));
    }
    if let Some(b) = &setup.battle {
        lists.push(("battle.rolls", b.rolls.len(), usize::from(u8::MAX)));
        lists.push(("battle.marked", b.marked.len(), MAX_UNITS));
        lists.push(("battle.entries", b.entries.len(), hexes));
    }
    if let Some(c) = &setup.capture {
        // A Metropolis supports at most five units, its extra ones included.
        lists.push(("capture.owed", c.owed.len(), 8));
    }
    if let Some(b) = &setup.balance {
        lists.push(("balance.hexes", b.hexes.len(), hexes));
    }
    if let Some(h) = &setup.handover {
        lists.push(("handover.battles", h.battles.len(), hexes));
        lists.push((
            "handover.placement_battles",
            h.placement_battles.len(),
            hexes,
        ));
    }
    let mut p = Vec::new();
    for (name, len, most) in lists {
        if len > most && !p.iter().any(|q: &Problem| q.code == name) {
            p.push(Problem::new(
                name,
                format!("{name} holds {len} entries, more than the {most} a game can have"),
            ));
        }
    }
    p
}

impl TryFrom<Setup> for Viktory {
    type Error = SetupErrors;

    fn try_from(setup: Setup) -> Result<Self, SetupErrors> {
        Viktory::from_setup(&setup)
    }
}

impl From<Viktory> for Setup {
    fn from(state: Viktory) -> Setup {
        state.to_setup()
    }
}

impl Viktory {
    /// Validates a setup, reporting every problem at once.
    pub fn from_setup(setup: &Setup) -> Result<Viktory, SetupErrors> {
        setup.rules.validate()?;
        let rules = setup.rules.clone();
        let n = rules.players;
        let board = board(rules.side());
        // Lists longer than anything a game can hold are refused before any check
        // that compares their entries with each other.
        let mut p = oversized(setup, board.len());
        if !p.is_empty() {
            return Err(SetupErrors(p));
        }
        let mut cells: Grid<Cell> = Grid::from_board(&board, Cell::default());
        for hex in board.perimeter() {
            cells.get_hex_mut(&board, hex).expect("on board").terrain = Some(Terrain::Water);
        }
        let mut revealed_interior = TileBank::default();
        for t in &setup.tiles {
            match cells.get_hex_mut(&board, t.hex) {
                None => p.push(Problem::new(
                    "tile",
                    format!("tile {} is off the board", t.hex),
                )),
                Some(_) if board.is_perimeter(t.hex) => {
                    if t.terrain != Terrain::Water {
                        p.push(Problem::with_rule(
                            "tile",
                            "3.2",
                            format!("perimeter hex {} is water", t.hex),
                        ));
                    }
                }
                Some(c) if c.terrain.is_some() => p.push(Problem::new(
                    "tile",
                    format!("tile {} is listed twice", t.hex),
                )),
                Some(c) => {
                    c.terrain = Some(t.terrain);
                    let n = revealed_interior.get_mut(t.terrain);
                    *n = n.saturating_add(1);
                }
            }
        }
        let hidden = board
            .hexes()
            .filter(|&h| {
                cells
                    .get_hex(&board, h)
                    .is_some_and(|c| c.terrain.is_none())
            })
            .count();
        let bank = if let Some(b) = setup.bank {
            b
        } else {
            let mut b = rules.bank();
            for t in Terrain::ALL {
                let (have, used) = (b.get(t), revealed_interior.get(t));
                if used > have {
                    p.push(Problem::with_rule(
                        "bank",
                        "R-4",
                        format!("{used} {t} tiles are revealed but the bank holds only {have}"),
                    ));
                }
                *b.get_mut(t) = have.saturating_sub(used);
            }
            b
        };
        if bank.total() + setup.drawn.len() as u32 != hidden as u32 {
            p.push(Problem::with_rule(
                "bank",
                "R-4",
                format!(
                    "{hidden} hexes are face down but the bank holds {} tiles",
                    bank.total()
                ),
            ));
        }
        let seat_ok = |s: Seat| s.0 < n;
        let mut towns: Vec<(Hex, Town)> = Vec::with_capacity(setup.towns.len());
        for t in &setup.towns {
            let town = t.town;
            if !seat_ok(town.owner) || town.capital_of.is_some_and(|c| !seat_ok(c)) {
                p.push(Problem::new(
                    "seat",
                    format!("the town at {} names a seat beyond {n} players", t.hex),
                ));
                continue;
            }
            match cells.get_hex(&board, t.hex) {
                None => p.push(Problem::new(
                    "town",
                    format!("town {} is off the board", t.hex),
                )),
                Some(c) if !c.terrain.is_some_and(Terrain::is_land) => {
                    p.push(Problem::with_rule(
                        "town",
                        "7.21",
                        format!("the town at {} is not on a revealed land hex", t.hex),
                    ));
                }
                Some(_) if towns.iter().any(|(h, _)| *h == t.hex) => {
                    p.push(Problem::new("town", format!("two towns at {}", t.hex)));
                }
                Some(_) => towns.push((t.hex, town)),
            }
        }
        // H-23, H-24: with fog a town can be built next to one its builder could not see.
        let fog = setup.rules.dark || setup.rules.independent_exploration;
        for t in setup.towns.iter().filter(|_| !fog) {
            for nb in t.hex.neighbors() {
                if setup.towns.iter().any(|o| o.hex == nb) && nb < t.hex {
                    p.push(Problem::with_rule(
                        "town",
                        "7.21",
                        format!("towns at {} and {nb} are adjacent", t.hex),
                    ));
                }
            }
        }
        for s in 0..n {
            let capitals = setup
                .towns
                .iter()
                .filter(|t| t.town.capital_of == Some(Seat(s)))
                .count();
            if capitals > 1 {
                p.push(Problem::with_rule(
                    "capital",
                    "4.0",
                    format!("{} has {capitals} capitals", Seat(s)),
                ));
            }
        }
        let mut units = setup.units.clone();
        towns.sort_by_key(|(h, _)| *h);
        units.sort_by_key(|u| u.id);
        for w in units.windows(2) {
            if w[0].id == w[1].id {
                p.push(Problem::new(
                    "unit",
                    format!("unit id {} is used twice", w[0].id),
                ));
            }
        }
        for u in &units {
            if !seat_ok(u.owner) {
                p.push(Problem::new(
                    "seat",
                    format!("unit {} belongs to a seat beyond {n} players", u.id),
                ));
                continue;
            }
            let Some(cell) = cells.get_hex(&board, u.hex) else {
                p.push(Problem::new(
                    "unit",
                    format!("unit {} is off the board at {}", u.id, u.hex),
                ));
                continue;
            };
            let Some(terrain) = cell.terrain else {
                p.push(Problem::new(
                    "unit",
                    format!("unit {} stands on a face-down hex {}", u.id, u.hex),
                ));
                continue;
            };
            if let Some(f) = u.aboard {
                match units.iter().find(|x| x.id == f) {
                    Some(fr)
                        if fr.kind == UnitKind::Frigate
                            && fr.owner == u.owner
                            && fr.hex == u.hex
                            && fr.aboard.is_none() => {}
                    _ => p.push(Problem::with_rule(
                        "cargo",
                        "9.45",
                        format!("unit {} is aboard {f}, not an own frigate in its hex", u.id),
                    )),
                }
                if !u.kind.is_land() {
                    p.push(Problem::with_rule(
                        "cargo",
                        "9.41",
                        format!("frigate {} cannot be cargo", u.id),
                    ));
                }
            } else if u.kind.is_land()
                && !terrain.is_land()
                && !(setup.rules.road_ferry_network
                    && setup.turn.moving == Some(u.id)
                    && (u.mp > 0 || u.road_run > 0))
            {
                p.push(Problem::with_rule(
                    "terrain",
                    "9.1",
                    format!("land unit {} is on water at {}", u.id, u.hex),
                ));
            } else if !u.kind.is_land() && terrain.is_land() {
                let port = towns.iter().any(|(h, t)| *h == u.hex && t.owner == u.owner)
                    && setup.turn.moving == Some(u.id);
                if !port {
                    p.push(Problem::with_rule(
                        "terrain",
                        "9.3",
                        format!("frigate {} is on land at {}", u.id, u.hex),
                    ));
                }
            }
        }
        for f in units.iter().filter(|u| u.kind == UnitKind::Frigate) {
            let cargo = units.iter().filter(|u| u.aboard == Some(f.id)).count();
            if cargo > usize::from(rules.frigate_capacity) {
                p.push(Problem::with_rule(
                    "cargo",
                    "9.41",
                    format!("frigate {} carries {cargo} units", f.id),
                ));
            }
        }
        if setup.players.len() > usize::from(n) {
            p.push(Problem::new(
                "players",
                format!("{} player entries for {n} players", setup.players.len()),
            ));
        }
        let mut players = setup.players.clone();
        players.resize(usize::from(n), Player::default());
        let turn = setup.turn.clone();
        // 7.1: `can_build` says the active player held his capital when his turn began,
        // and nobody loses his capital during his own turn: a turn that may build while
        // the active player holds no capital cannot be reached (docs/protocol.md).
        let in_play = matches!(
            turn.stage,
            Stage::Start
                | Stage::Build
                | Stage::Move
                | Stage::Place
                | Stage::BuildAndPlace
                | Stage::PlacementBattles
        );
        let holds_capital = setup
            .towns
            .iter()
            .any(|t| t.town.capital_of == Some(turn.active) && t.town.owner == turn.active);
        if in_play && turn.can_build && !holds_capital {
            p.push(Problem::with_rule(
                "turn",
                "7.1",
                format!(
                    "the turn lets {} build, but he does not hold his capital",
                    turn.active
                ),
            ));
        }
        // The phases after moving are the ruleset's: the online rules' one phase for
        // building and placement, or the separate Building and Reserve Placement phases.
        let together = rules.build_and_place_together;
        if together && matches!(turn.stage, Stage::Build | Stage::Place) {
            p.push(Problem::with_rule(
                "turn",
                "online",
                "these rules build and place reserves in one phase: the stage is build_and_place",
            ));
        }
        if !together && turn.stage == Stage::BuildAndPlace {
            p.push(Problem::with_rule(
                "turn",
                "online",
                "the build_and_place stage needs the build_and_place_together rule",
            ));
        }
        if !seat_ok(turn.active) || !seat_ok(turn.first) {
            p.push(Problem::new(
                "seat",
                "the turn names a seat beyond the players",
            ));
        }
        for &h in turn
            .started_here
            .iter()
            .chain(&turn.battle_hexes)
            .chain(&turn.pending_battles)
            .chain(&turn.capital_candidates)
            .chain(&turn.placement_battles)
            .chain(&setup.reveals)
            .chain(turn.built.iter())
        {
            if !board.contains(h) {
                p.push(Problem::new(
                    "turn",
                    format!("the turn names hex {h}, off the board"),
                ));
            }
        }
        for &h in &setup.reveals {
            if cells
                .get_hex(&board, h)
                .is_some_and(|c| c.terrain.is_some())
            {
                p.push(Problem::new(
                    "reveals",
                    format!("hex {h} is queued for reveal but already revealed"),
                ));
            }
        }
        // Each queued hex takes one tile from the pile: a hex queued twice would
        // draw from a pile with nothing left for it.
        let mut queued = setup.reveals.clone();
        queued.sort_unstable();
        for w in queued.windows(2).filter(|w| w[0] == w[1]) {
            if !p
                .iter()
                .any(|q| q.code == "reveals" && q.message.contains(&w[0].to_string()))
            {
                p.push(Problem::with_rule(
                    "reveals",
                    "R-4",
                    format!("hex {} is queued for reveal more than once", w[0]),
                ));
            }
        }
        if !setup.drawn.is_empty()
            && (!setup.rules.map_customization || setup.drawn.len() > setup.reveals.len())
        {
            // Expansion, Map Exploration & Customization: one tile drawn per waiting hex.
            p.push(Problem::with_rule(
                "drawn",
                "Expansion",
                format!(
                    "{} tiles are drawn for {} hexes waiting to be revealed, or map customization is off",
                    setup.drawn.len(),
                    setup.reveals.len()
                ),
            ));
        }
        // 4.0: before the first player is drawn nobody has a capital; then the players
        // open in turn from the first player clockwise, each building his capital, so
        // only those whose opening has come (the one now opening included) have one.
        let setup_done = setup.rules.quicker_game_setup && turn.openings_done >= n;
        let opened = |seat: Seat| -> Option<u8> {
            seat_ok(seat).then(|| (seat.0 + n - turn.first.0 % n.max(1)) % n.max(1))
        };
        let capital_seats = setup.towns.iter().filter_map(|t| t.town.capital_of);
        let opening_ok = match turn.stage {
            Stage::FirstPlayer if !setup_done => {
                turn.openings_done == 0 && capital_seats.count() == 0
            }
            Stage::Opening => {
                let done = turn.openings_done;
                done < n
                    && opened(turn.active) == Some(done)
                    && capital_seats
                        .into_iter()
                        .all(|c| opened(c).is_some_and(|k| k <= done))
            }
            _ => true,
        };
        if !opening_ok {
            p.push(Problem::with_rule(
                "turn",
                "4.0",
                format!(
                    "the openings go from the first player clockwise: {} have opened, and only they and the player opening now may have capitals",
                    turn.openings_done
                ),
            ));
        }
        if matches!(turn.stage, Stage::SetupBuild | Stage::SetupPlace) && !setup_done {
            // Quicker Game Setup: the building rounds follow every player's opening.
            p.push(Problem::with_rule(
                "turn",
                "Expansion",
                "the setup rounds come after every opening, in games with quicker_game_setup",
            ));
        }
        // the moving unit is one of the acting player's, in his movement phase.
        let actor_ok = |owner: Seat| {
            owner == turn.active || setup.handover.as_ref().is_some_and(|h| h.vassal == owner)
        };
        if let Some(m) = turn.moving
            && !units
                .iter()
                .any(|u| u.id == m && actor_ok(u.owner) && turn.stage == Stage::Move)
        {
            p.push(Problem::with_rule(
                "turn",
                "R-9",
                format!("the moving unit {m} does not exist, is not the acting player's, or moves outside the movement phase"),
            ));
        }
        if let Some(b) = &setup.battle
            && (!seat_ok(b.attacker) || !seat_ok(b.defender) || !board.contains(b.hex))
        {
            p.push(Problem::new(
                "battle",
                "the battle names a seat or hex that does not exist",
            ));
        }
        if let Some(b) = &setup.bombard
            && (!seat_ok(b.attacker)
                || !seat_ok(b.defender)
                || !board.contains(b.target)
                || b.roll.is_some_and(|r| !(1..=6).contains(&r)))
        {
            p.push(Problem::new(
                "bombard",
                "the bombardment names a seat, hex or die that does not exist",
            ));
        }
        if let Some(b) = &setup.balance
            && (!seat_ok(b.seat) || b.hexes.iter().any(|&h| !board.contains(h)))
        {
            p.push(Problem::new(
                "balance",
                "the exploration balancing names a seat or hex that does not exist",
            ));
        }
        if let Some(c) = &setup.capture
            && (!seat_ok(c.loser) || !board.contains(c.hex))
        {
            p.push(Problem::new(
                "capture",
                "the capture names a seat or hex that does not exist",
            ));
        }
        if setup
            .pillaged
            .iter()
            .any(|&h| !board.contains(h) || !setup.rules.pillage)
        {
            p.push(Problem::with_rule(
                "pillaged",
                "Expansion",
                "a damage marker lies off the board, or pillaging is off",
            ));
        }
        if let Some(h) = &setup.handover
            && (!seat_ok(h.ruler)
                || !seat_ok(h.vassal)
                || !setup.rules.subjugation
                || !board.contains(h.hex)
                || h.battles
                    .iter()
                    .chain(&h.placement_battles)
                    .any(|&x| !board.contains(x)))
        {
            p.push(Problem::with_rule(
                "handover",
                "15.62",
                "the hand-over names a seat or hex that does not exist, or subjugation is off",
            ));
        }
        for (i, pl) in players.iter().enumerate() {
            if pl
                .ruler
                .is_some_and(|r| !seat_ok(r) || r.index() == i || !setup.rules.subjugation)
                || u16::from(pl.subjugated) >> n != 0
            {
                p.push(Problem::with_rule(
                    "ruler",
                    "15.61",
                    format!("{}'s Ruler or Vassals name impossible seats", Seat(i as u8)),
                ));
            }
            // Units are counted in bytes: at most 255 of a kind on hand, so that no
            // casualty or redeployment can overflow the Reserve box.
            let mut on_hand = [
                usize::from(pl.reserve.infantry),
                usize::from(pl.reserve.cavalry),
                usize::from(pl.reserve.artillery),
                usize::from(pl.reserve.frigate),
            ];
            for u in units.iter().filter(|u| u.owner.index() == i) {
                on_hand[u.kind.index()] += 1;
            }
            if let Some(k) = UnitKind::ALL
                .iter()
                .find(|k| on_hand[k.index()] > usize::from(u8::MAX))
            {
                p.push(Problem::new(
                    "reserve",
                    format!(
                        "{} has {} {k} units on the map and in reserve, more than 255",
                        Seat(i as u8),
                        on_hand[k.index()]
                    ),
                ));
            }
        }
        let largest = units.iter().map(|u| u.id.0).max();
        let next_unit = setup
            .next_unit
            .unwrap_or_else(|| largest.map_or(0, |m| m.saturating_add(1)));
        // 65535: the ids have run out, and new units take the lowest free one.
        if largest.is_some_and(|m| next_unit <= m) && next_unit != u16::MAX {
            p.push(Problem::new(
                "next_unit",
                "next_unit must be above every unit id",
            ));
        }
        if !p.is_empty() {
            return Err(SetupErrors(p));
        }
        let mut state = Viktory {
            rules,
            board,
            cells: Arc::new(cells),
            towns: Arc::new(towns),
            bank,
            units,
            players,
            turn,
            reveals: setup.reveals.clone(),
            battle: setup.battle.clone(),
            bombard: setup.bombard,
            capture: setup.capture.clone(),
            balance: setup.balance.clone(),
            drawn: setup.drawn.clone(),
            redraw_offered: setup.redraw_offered,
            land_only: setup.land_only,
            doomsday: setup.doomsday,
            next_unit,
            outcome: setup.outcome.clone(),
            occupancy: Grid::from_board(&board, 0),
            town_index: Grid::from_board(&board, 0),
            fog: None,
            handover: setup.handover.clone(),
            pillaged: {
                let mut v = setup.pillaged.clone();
                v.sort();
                v.dedup();
                v
            },
            units_as_given: setup.units_as_given,
            move_memo: crate::legal::MoveMemo::default(),
            build_memo: crate::legal::BuildMemo::default(),
            near_memo: crate::rules::reserve::NearMemo::default(),
        };
        if !state.units_as_given {
            for seat in (0..n).map(Seat) {
                if let Err(problem) = state.accounting(seat) {
                    p.push(Problem::with_rule("units", "8.0", problem));
                }
            }
        }
        crate::rules::fog::from_setup(&mut state, setup, &mut p);
        if !p.is_empty() {
            return Err(SetupErrors(p));
        }
        state.refresh_occupancy();
        state.refresh_town_index();
        crate::rules::fog::refresh(&mut state);
        // A hand-made position may stop where no decision is due (a battle step whose
        // casualties choose themselves, a phase with nothing to do): let the turn run on
        // to the next real decision, as after any action. Reachable states are settled
        // already, so this changes nothing for them.
        crate::rules::sequence::advance(&mut state, &mut Vec::new());
        crate::rules::fog::refresh(&mut state);
        state.check_playable()?;
        Ok(state)
    }

    /// The id of a unit about to be placed: `next_unit`, which then moves on; once the
    /// ids have run out (65535, after some 65 000 placements), the lowest id no unit
    /// holds. Units are kept sorted by id, so the caller inserts the unit in its place.
    pub(crate) fn new_unit_id(&mut self) -> UnitId {
        if self.next_unit < u16::MAX {
            let id = UnitId(self.next_unit);
            self.next_unit += 1;
            return id;
        }
        let mut free = 0u16;
        for u in &self.units {
            if u.id.0 == free {
                free = free.saturating_add(1);
            } else if u.id.0 > free {
                break;
            }
        }
        UnitId(free)
    }

    /// A loaded position must let the game go on: whoever is to move has something to do.
    fn check_playable(&self) -> Result<(), SetupErrors> {
        use engine::Game;
        let stuck = match self.to_move() {
            engine::ToMove::Over(_) => false,
            engine::ToMove::Chance => self.chance_outcomes().is_empty(),
            engine::ToMove::Seat(seat) => {
                self.players[seat.index()].eliminated || self.legal_actions().is_empty()
            }
        };
        if stuck {
            return Err(SetupErrors::one(Problem::new(
                "stuck",
                "the position waits for a decision or chance event that cannot happen (check the battle, capture and turn fields)",
            )));
        }
        Ok(())
    }

    /// The setup that reproduces this state.
    pub fn to_setup(&self) -> Setup {
        let mut tiles = Vec::new();
        let mut towns = Vec::new();
        for (i, cell) in self.cells.iter().enumerate() {
            let hex = self.board.hex_at(i).expect("dense grid");
            if let Some(t) = cell.terrain
                && !self.board.is_perimeter(hex)
            {
                tiles.push(TileSetup { hex, terrain: t });
            }
        }
        for &(hex, town) in self.towns.iter() {
            towns.push(TownSetup { hex, town });
        }
        let mut setup = Setup {
            rules: self.rules.clone(),
            tiles,
            bank: Some(self.bank),
            towns,
            units: self.units.clone(),
            players: self.players.clone(),
            turn: self.turn.clone(),
            reveals: self.reveals.clone(),
            battle: self.battle.clone(),
            bombard: self.bombard,
            capture: self.capture.clone(),
            balance: self.balance.clone(),
            drawn: self.drawn.clone(),
            redraw_offered: self.redraw_offered,
            land_only: self.land_only,
            doomsday: self.doomsday,
            next_unit: Some(self.next_unit),
            outcome: self.outcome.clone(),
            explored: vec![],
            remembered: vec![],
            last_fight: None,
            handover: self.handover.clone(),
            pillaged: self.pillaged.clone(),
            units_as_given: self.units_as_given,
        };
        crate::rules::fog::to_setup(self, &mut setup);
        setup
    }

    // ----- read accessors -----

    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The board.
    pub fn board(&self) -> HexagonBoard {
        self.board
    }

    /// The cell at `hex` (`None` off the board).
    pub fn cell(&self, hex: Hex) -> Option<&Cell> {
        self.cells.get_hex(&self.board, hex)
    }

    pub(crate) fn cell_mut(&mut self, hex: Hex) -> &mut Cell {
        Arc::make_mut(&mut self.cells)
            .get_hex_mut(&self.board, hex)
            .expect("hex on the board")
    }

    /// Revealed terrain at `hex`.
    pub fn terrain(&self, hex: Hex) -> Option<Terrain> {
        self.cell(hex).and_then(|c| c.terrain)
    }

    /// Revealed terrain on the hex of board index `i` (below the board's length).
    pub(crate) fn terrain_at_index(&self, i: usize) -> Option<Terrain> {
        self.cells[i].terrain
    }

    /// The town or city at `hex`.
    pub fn town(&self, hex: Hex) -> Option<Town> {
        self.town_slot(hex).map(|i| self.towns[i].1)
    }

    /// Where the town at `hex` stands in `towns` (one grid lookup: most hexes hold none).
    fn town_slot(&self, hex: Hex) -> Option<usize> {
        let slot = *self.town_index.get_hex(&self.board, hex)?;
        slot.checked_sub(1).map(usize::from)
    }

    /// The town or city on the hex of board index `i` (below the board's length).
    pub(crate) fn town_at_index(&self, i: usize) -> Option<Town> {
        let slot = self.town_index[i].checked_sub(1)?;
        Some(self.towns[usize::from(slot)].1)
    }

    pub(crate) fn town_mut(&mut self, hex: Hex) -> Option<&mut Town> {
        let i = self.town_slot(hex)?;
        Some(&mut Arc::make_mut(&mut self.towns)[i].1)
    }

    /// Takes the town or city off `hex`.
    pub(crate) fn remove_town(&mut self, hex: Hex) -> Option<Town> {
        let i = self.town_slot(hex)?;
        let town = Arc::make_mut(&mut self.towns).remove(i).1;
        self.refresh_town_index();
        Some(town)
    }

    /// Places a new town or city (its hex holds none).
    pub(crate) fn add_town(&mut self, hex: Hex, town: Town) {
        if let Err(i) = self.towns.binary_search_by_key(&hex, |(h, _)| *h) {
            Arc::make_mut(&mut self.towns).insert(i, (hex, town));
            self.refresh_town_index();
        }
    }

    /// Rebuilds the town index from `towns` (towns stand only on the board's hexes, and
    /// a board holds at most 397 of them).
    pub(crate) fn refresh_town_index(&mut self) {
        for slot in &mut self.town_index {
            *slot = 0;
        }
        for (i, (hex, _)) in self.towns.iter().enumerate() {
            if let Some(slot) = self.town_index.get_hex_mut(&self.board, *hex) {
                // A board of side 12, the largest, holds 397 hexes.
                *slot = u16::try_from(i + 1).expect("fewer towns than hexes");
            }
        }
    }

    /// Every town and city with its hex, in hex order.
    pub fn towns(&self) -> impl Iterator<Item = (Hex, Town)> + '_ {
        self.towns.iter().copied()
    }

    /// The face-down tiles left.
    pub fn bank(&self) -> TileBank {
        self.bank
    }

    /// All units on the map, by id.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// The unit with this id.
    pub fn unit(&self, id: UnitId) -> Option<&Unit> {
        self.units
            .binary_search_by_key(&id, |u| u.id)
            .ok()
            .map(|i| &self.units[i])
    }

    pub(crate) fn unit_mut(&mut self, id: UnitId) -> &mut Unit {
        let i = self
            .units
            .binary_search_by_key(&id, |u| u.id)
            .expect("unit exists");
        &mut self.units[i]
    }

    /// Units in a hex (cargo included).
    pub fn units_at(&self, hex: Hex) -> impl Iterator<Item = &Unit> + '_ {
        self.units.iter().filter(move |u| u.hex == hex)
    }

    /// Per-player state.
    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[seat.index()]
    }

    /// The turn.
    pub fn turn(&self) -> &Turn {
        &self.turn
    }

    /// The battle in progress.
    pub fn battle(&self) -> Option<&Battle> {
        self.battle.as_ref()
    }

    /// The bombardment in progress.
    pub fn bombardment(&self) -> Option<&Bombardment> {
        self.bombard.as_ref()
    }

    /// The capture awaiting the loser's choices.
    pub fn capture(&self) -> Option<&Capture> {
        self.capture.as_ref()
    }

    /// Tiles drawn and not yet laid (map customization).
    pub fn drawn(&self) -> &[Terrain] {
        &self.drawn
    }

    /// Hexes waiting to be revealed.
    pub fn pending_reveals(&self) -> &[Hex] {
        &self.reveals
    }

    /// Whether the doomsday clock runs.
    pub fn doomsday(&self) -> bool {
        self.doomsday
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    // ----- derived facts used by many rules -----

    /// Whether `seat` holds its own capital (14.0).
    pub fn holds_capital(&self, seat: Seat) -> bool {
        self.towns()
            .any(|(_, t)| t.capital_of == Some(seat) && t.owner == seat)
    }

    /// Whether `hex` holds a military unit of a player other than `seat` (cargo counts
    /// through its frigate, so it is skipped).
    pub fn enemy_units_at(&self, hex: Hex, seat: Seat) -> bool {
        self.occupancy
            .get_hex(&self.board, hex)
            .is_some_and(|&bits| bits & !bit(seat) != 0)
    }

    /// Rebuilds the occupancy cache of `hexes` alone from the units: after a change
    /// that touched only units on those hexes (a move from one to the other).
    pub(crate) fn refresh_occupancy_at(&mut self, hexes: &[Hex]) {
        for &hex in hexes {
            let bits = self
                .units
                .iter()
                .filter(|u| u.aboard.is_none() && u.hex == hex)
                .fold(0u8, |bits, u| bits | bit(u.owner));
            if let Some(b) = self.occupancy.get_hex_mut(&self.board, hex) {
                *b = bits;
            }
        }
    }

    /// Marks `hex` in the occupancy cache as holding a unit of `seat` (not cargo) that
    /// just entered it: the cheap half of [`Self::refresh_occupancy_at`] for a hex that
    /// only gained units.
    pub(crate) fn occupy(&mut self, hex: Hex, seat: Seat) {
        if let Some(b) = self.occupancy.get_hex_mut(&self.board, hex) {
            *b |= bit(seat);
        }
    }

    /// Rebuilds the occupancy cache from the units. Every change to a unit's hex, its
    /// cargo status, or the set of units calls this (or [`Self::refresh_occupancy_at`]).
    pub(crate) fn refresh_occupancy(&mut self) {
        for bits in &mut self.occupancy {
            *bits = 0;
        }
        for u in self.units.iter().filter(|u| u.aboard.is_none()) {
            if let Some(bits) = self.occupancy.get_hex_mut(&self.board, u.hex) {
                *bits |= bit(u.owner);
            }
        }
    }

    /// Checks the caches against the data they are derived from (for tests).
    pub fn verify_caches(&self) -> Result<(), String> {
        let mut fresh = self.clone();
        fresh.refresh_occupancy();
        if fresh.occupancy != self.occupancy {
            return Err("the occupancy cache is stale".into());
        }
        fresh.refresh_town_index();
        if fresh.town_index != self.town_index {
            return Err("the town index is stale".into());
        }
        crate::rules::fog::refresh(&mut fresh);
        if fresh.fog != self.fog {
            return Err("the fog cache is stale".into());
        }
        Ok(())
    }

    /// Whether `hex` is an enemy hex for `seat`: enemy units, or an enemy town or city.
    pub fn is_enemy_hex(&self, hex: Hex, seat: Seat) -> bool {
        self.enemy_units_at(hex, seat) || self.town(hex).is_some_and(|t| t.owner != seat)
    }

    /// The units `kind`-wise that `seat`'s towns and cities support (8.0).
    pub fn supported(&self, seat: Seat) -> Reserve {
        let mut r = Reserve::default();
        for (hex, t) in self.towns().filter(|(_, t)| t.owner == seat) {
            let terrain = self.terrain(hex).unwrap_or(Terrain::Plains);
            for k in t.units(&self.rules, terrain, true) {
                r.gain(k);
            }
        }
        r
    }

    /// Rule 8.0, one-to-one: `seat`'s units on the map and in reserve are exactly what
    /// his towns and cities support, less the units he still owes after a capture
    /// (10.2); an eliminated player has none. Every action keeps this (the harness
    /// checks it after each one), so loading refuses a position without it unless the
    /// setup says `units_as_given`.
    pub fn accounting(&self, seat: Seat) -> Result<(), String> {
        let mut have = self.on_hand(seat);
        if let Some(c) = self.capture.as_ref().filter(|c| c.loser == seat) {
            for &k in &c.owed {
                let n = have.get_mut(k);
                *n = n
                    .checked_sub(1)
                    .ok_or_else(|| format!("{seat} owes a {k} he does not have"))?;
            }
        }
        if self.players[seat.index()].eliminated {
            if have != Reserve::default() || self.units.iter().any(|u| u.owner == seat) {
                return Err(format!("eliminated {seat} still has units"));
            }
            return Ok(());
        }
        let want = self.supported(seat);
        if have != want {
            return Err(format!(
                "{seat} has {} but his towns and cities support {}",
                count(have),
                count(want)
            ));
        }
        Ok(())
    }

    /// Units `seat` has on the map (cargo included) and in reserve, by kind.
    pub fn on_hand(&self, seat: Seat) -> Reserve {
        let mut r = self.players[seat.index()].reserve;
        for u in self.units.iter().filter(|u| u.owner == seat) {
            r.gain(u.kind);
        }
        r
    }

    /// One more `kind` in `seat`'s reserve (a town built, a city captured...), unless he
    /// has 255 of that kind on hand already (on the map and in reserve): the most a
    /// byte counts, which no ruleset comes near but a hand-made position may. Returns
    /// whether the unit was added.
    pub(crate) fn gain(&mut self, seat: Seat, kind: UnitKind) -> bool {
        if self.on_hand(seat).get(kind) == u8::MAX {
            return false;
        }
        self.players[seat.index()].reserve.gain(kind);
        true
    }

    /// The highest die that hits for `seat`: one more in combat supply (Expansion: a city
    /// on each of the four land terrains), judged at the moment of the roll.
    pub fn hit_max_for(&self, seat: Seat) -> u8 {
        let supplied = self.rules.combat_supply
            && (!self.rules.combat_supply_needs_capital || self.holds_capital(seat))
            && [
                Terrain::Plains,
                Terrain::Grassland,
                Terrain::Forest,
                Terrain::Mountain,
            ]
            .iter()
            .all(|&t| {
                self.towns()
                    .any(|(h, town)| town.owner == seat && town.city && self.terrain(h) == Some(t))
            });
        self.rules.hit_max + u8::from(supplied)
    }

    /// Empire points (5.3): 1 per town, 2 per city, 3 per Metropolis (Expansion, H-29).
    pub fn score(&self, seat: Seat) -> u16 {
        self.towns()
            .filter(|(_, t)| t.owner == seat)
            .map(|(_, t)| match (t.city, t.metropolis) {
                (true, Some(_)) => 3,
                (true, None) => 2,
                _ => 1,
            })
            .sum()
    }

    /// Whether `hex` is on the board and revealed.
    pub(crate) fn revealed(&self, hex: Hex) -> bool {
        self.terrain(hex).is_some()
    }

    /// The player acting now: the active player, or a Vassal reinforcing his returned
    /// capital out of turn (15.62); the explorer of what his units reveal.
    pub fn actor(&self) -> Seat {
        match &self.handover {
            Some(h) if h.step == crate::rules::subjugation::HandoverStep::Reinforce => h.vassal,
            _ => self.turn.active,
        }
    }

    /// The hand-over of a returned capital in progress (15.62).
    pub fn handover(&self) -> Option<&crate::rules::subjugation::Handover> {
        self.handover.as_ref()
    }

    /// Seats still in the game.
    pub fn live_seats(&self) -> impl Iterator<Item = Seat> + '_ {
        (0..self.rules.players)
            .map(Seat)
            .filter(|s| !self.players[s.index()].eliminated)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Town::supports` counts what `Town::units` lists, for every kind: towns, cities
    /// (as cities and as towns, 14.0) and Metropolises of each extra kind, on every
    /// terrain, under the presets and with the plains city bonus.
    #[test]
    fn supports_counts_the_units_listed() {
        let mut rulesets: Vec<Rules> = ["classic", "expansion", "online", "original"]
            .iter()
            .filter_map(|p| Rules::preset(p, 4))
            .collect();
        let mut bonus = Rules::classic(4);
        bonus.plains_city_bonus = true;
        rulesets.push(bonus);
        assert!(rulesets.len() >= 4);
        let metropolises = [None].into_iter().chain(UnitKind::ALL.map(Some));
        let mut compared = 0;
        for rules in &rulesets {
            for metropolis in metropolises.clone() {
                for city in [false, true] {
                    let town = Town {
                        owner: Seat(0),
                        city,
                        capital_of: None,
                        metropolis,
                    };
                    for terrain in Terrain::ALL {
                        for as_city in [false, true] {
                            let listed = town.units(rules, terrain, as_city);
                            for kind in UnitKind::ALL {
                                let want = listed.iter().filter(|&&k| k == kind).count();
                                assert_eq!(
                                    town.supports(rules, terrain, as_city, kind),
                                    want,
                                    "{town:?} on {terrain:?}, as city {as_city}, {kind:?}"
                                );
                                compared += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(compared > 1_000, "{compared}");
    }
}
