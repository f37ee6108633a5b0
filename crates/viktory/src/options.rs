//! Every rule parameter and option of the VIKTORY family in one value.
//!
//! A game is created from a preset plus overrides: the overrides are fields of
//! [`Rules`] by name, so every option is one JSON field away. Nothing in the rules
//! modules hard-codes a number that a ruleset or option can change.

use engine::{NewGame, OptionInfo, OptionKind, Preset, Problem, SetupErrors};
use serde::{Deserialize, Serialize};

use crate::board::{TileBank, default_side};
use crate::unit::{PerKind, UnitKind};

/// A victory condition of 5.0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Victory {
    /// 5.1: the last player standing wins.
    StandardConquest,
    /// 5.2: win when all others are subjugated (needs the subjugation variant).
    SubjugationConquest,
    /// 5.3: the game ends when the first capital is captured; largest empire wins.
    ShorterConquest,
    /// 5.4: an empire worth `race_points` at the start of its owner's turn wins.
    RaceForDominance,
    /// 5.5: after the first city is captured, capitals are marked on a die roll of 1;
    /// the game ends when all are marked.
    DoomsdayClock,
    /// Expansion, Optional Quicker Victory Condition: the first player holding his capital
    /// and worth `quick_victory_points` wins at once.
    QuickerVictory,
    /// Expansion, Optional Subjugation Victory Condition: the first player to make
    /// Vassals of two different players without losing his own capital in between wins
    /// (needs the subjugation option).
    TwoVassals,
}

/// How defender suppression (12.31) is applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Suppression {
    /// No suppression (original VIKTORY).
    None,
    /// 12.31 as printed: only the defender's military-unit dice can be suppressed.
    Classic,
    /// The Expansion's clarification.
    Clarified,
}

/// How the attacker retreats (12.3 step 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Retreat {
    /// VIKTORY II: each unit to any hex an attacking unit entered from, land units onto
    /// frigates there too.
    Split,
    /// Original VIKTORY: all units into one hex an attacking unit came from, never onto a
    /// frigate.
    OneHexNoFrigate,
}

/// What losing the capital costs besides building (14.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LostCapital {
    /// VIKTORY II: cities act as towns for defence and placement; only infantry is placed.
    CitiesAsTowns,
    /// Original VIKTORY: no reserve units are placed at all.
    NoPlacement,
}

/// Dice per unit type present (12.3 steps 1 and 2).
pub type DicePerKind = PerKind;

/// Movement allowances (9.11, 9.31).
pub type Allowances = PerKind;

/// The second unit a city supports, by the city's terrain (8.2, the Terrain and Units
/// Supported chart).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CityUnits {
    /// Plains city.
    pub plains: UnitKind,
    /// Grassland city.
    pub grassland: UnitKind,
    /// Forest city.
    pub forest: UnitKind,
    /// Mountain city.
    pub mountain: UnitKind,
}

/// The options that are not plain yes/no or number options: their kind and, for
/// choices, every value allowed (for the lobby's form).
fn option_kind(name: &str) -> Option<(OptionKind, Vec<serde_json::Value>)> {
    fn values<T: Serialize>(all: &[T]) -> Vec<serde_json::Value> {
        all.iter()
            .map(|v| serde_json::to_value(v).expect("options serialise"))
            .collect()
    }
    Some(match name {
        "suppression" => (
            OptionKind::Choice,
            values(&[
                Suppression::None,
                Suppression::Classic,
                Suppression::Clarified,
            ]),
        ),
        "retreat" => (
            OptionKind::Choice,
            values(&[Retreat::Split, Retreat::OneHexNoFrigate]),
        ),
        "lost_capital" => (
            OptionKind::Choice,
            values(&[LostCapital::CitiesAsTowns, LostCapital::NoPlacement]),
        ),
        "victory" => (
            OptionKind::Choices,
            values(&[
                Victory::StandardConquest,
                Victory::SubjugationConquest,
                Victory::ShorterConquest,
                Victory::RaceForDominance,
                Victory::DoomsdayClock,
                Victory::QuickerVictory,
                Victory::TwoVassals,
            ]),
        ),
        "max_turns" | "quick_victory_points" => (OptionKind::NumberOrNone, vec![]),
        _ => return None,
    })
}

/// Every rule parameter and option. Field names are the option names on the wire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// The preset this game started from.
    pub preset: String,
    /// Number of players.
    pub players: u8,
    /// Board side S; 0 means the default for the player count. Range: 0, or 4
    /// to 12: the rulebooks use 5 to 8 (Expansion, Optional Map Size: larger); a side
    /// below 4 leaves no interior ring for the start groups, and 12 (331 interior
    /// hexes) keeps a board's searches and views small.
    pub board_side: u8,
    /// The face-down tile bank; `None` means R-4's default for the board. Each count
    /// 0 to 331 (the interior of the largest board), and the counts add up to the
    /// board's interior hexes (R-4: one tile for each).
    pub tile_bank: Option<TileBank>,
    /// Hexes in each start group: 3 classic, 5 with the Expansion's accelerator.
    /// Range 1 to 7: R-5 lays a group out as a hex and its ring at most.
    pub start_group: u8,
    /// Movement allowances (9.11, 9.31): 2, 3, 2 and 5. Range 1 to 12 for each type:
    /// the rulebooks go up to 8 (Expansion, Frigate Characteristics); a unit that
    /// cannot move has no place in any ruleset, and 12 keeps movement searches small.
    pub movement: Allowances,
    /// A die roll at or below this hits (10.1): 3 (4 in combat supply, added by the
    /// rules). Range 1 to 6, the faces of a die: a 1 always hits (tactical hit).
    pub hit_max: u8,
    /// Longest bombardment range in hexes (11.0): 2; 1 with the Expansion's Bombard
    /// Range Limitation. Range 0 (no bombardment) to 5.
    pub bombard_range: u8,
    /// Line of sight limits bombardment at range 2 (11.2, R-12).
    pub line_of_sight: bool,
    /// Forest and mountain stop movement (9.12).
    pub slow_terrain: bool,
    /// Road movement between own towns and cities (9.13).
    pub roads: bool,
    /// Land units a frigate carries at a time (9.41): 3 in every ruleset. Range 1 to
    /// 10: a frigate that carries nothing is no frigate.
    pub frigate_capacity: u8,
    /// Land units a frigate may carry in one turn (9.41): 3. Range 1 to 30 (ten full
    /// loads of the largest frigate).
    pub frigate_loads_per_turn: u8,
    /// Attacker's dice per unit type present (12.3 step 1): 1, 2 for cavalry (1 in the
    /// Expansion). Range 1 to 6 for each type: every type present rolls at least one
    /// die, so a round can always score a hit and a battle cannot stall; six (a die's
    /// faces) is three times the most any rulebook gives.
    pub attack_dice: DicePerKind,
    /// Defender's dice per unit type present (12.3 step 2): 1 each. Range 1 to 6 for
    /// each type, as for `attack_dice`.
    pub defense_dice: DicePerKind,
    /// Dice each attacking artillery rolls before the first round (12.3 step 0): 1.
    /// Range 0 (no pre-battle fire) to 6.
    pub pre_battle_fire: u8,
    /// The naval support die (12.3 step 2, 12.32): 1. Range 0 to 6.
    pub naval_support_dice: u8,
    /// Defensive terrain dice for a mountain hex or a city (12.3 step 2): 2 (a
    /// Metropolis has 3 of its own). Range 0 to 6.
    pub strong_terrain_dice: u8,
    /// Defensive terrain dice for a forest hex or a town (12.3 step 2): 1. Range 0 to 6.
    pub weak_terrain_dice: u8,
    /// How defender suppression works (12.31, R-15).
    pub suppression: Suppression,
    /// Mountain and forest hexes add defensive dice (12.3 step 2); the original VIKTORY
    /// counts only towns and cities.
    pub terrain_defense: bool,
    /// How the attacker retreats (12.3 step 3).
    pub retreat: Retreat,
    /// Enemy units next to a town or city stop placement there (13.2).
    pub adjacent_enemy_restriction: bool,
    /// What losing the capital costs (14.0).
    pub lost_capital: LostCapital,
    /// Expansion, Turn Sequence Reordered: move and fight, then build, then place.
    pub build_after_moving: bool,
    /// Expansion, Building Phase Accelerator: build actions per turn (a town costs one,
    /// an upgrade two when there are two): 1 classic, 2 Expansion. Range 1 to 4.
    pub build_actions: u8,
    /// Expansion, Combat Supply: a city on each of the four land terrains makes every
    /// die of that player hit on one more (4 or less), bombardments included.
    pub combat_supply: bool,
    /// Expansion, Redeployment: during reserve placement, units on the map may be taken
    /// back into the reserve.
    pub redeployment: bool,
    /// Expansion, Plains Cities Enhancement: a plains city supports three infantry.
    pub plains_city_bonus: bool,
    /// Expansion, Road/Ferry Movement Enhancement: roads run across water hexes too.
    pub road_ferries: bool,
    /// Expansion, Adjacent Enemy Units Restriction Enhancement: no town built, and no
    /// upgrade, next to enemy units.
    pub build_adjacent_enemy_restriction: bool,
    /// Expansion, Cavalry Changes: cavalry ignores slow terrain.
    pub cavalry_ignores_slow_terrain: bool,
    /// Expansion, Attacking Bonuses for Additional Hex Sides: one more attack die for each
    /// hex side beyond the first that attacking land units entered from (at most 5).
    pub hexside_bonus: bool,
    /// Expansion, Artillery Pre-Battle Fire Enhancement: defending artillery fires in the
    /// pre-battle segment too.
    pub defender_pre_battle_fire: bool,
    /// Expansion, Map Exploration & Customization: revealed hexes are filled with tiles
    /// drawn from the pile, arranged by the player who revealed them.
    pub map_customization: bool,
    /// Online rules: the hex-side attack bonus counts in naval battles too.
    pub hexside_bonus_naval: bool,
    /// Online rules: combat supply also needs the player's own capital.
    pub combat_supply_needs_capital: bool,
    /// Online rules, Building: a player builds if he controls his capital when he builds
    /// (after the move/battle phase); classic 7.1 asks for it at the start of his turn.
    pub build_needs_capital_now: bool,
    /// Online rules, Movement: a hex that was difficult terrain when the turn began stays
    /// difficult for the turn, so a town taken this turn does not ease it (9.12 A).
    pub slow_terrain_fixed_for_the_turn: bool,
    /// Online rules, Building and Placing reserves: both happen "after the move/battle
    /// phase" in one window, in any order, until the first reserve naval battle starts
    /// (needs `build_after_moving`); the Expansion builds first, then places.
    pub build_and_place_together: bool,
    /// Online rules: frigates placed through the capital go to the nearest water, like a
    /// forest city's, not only next to it.
    pub capital_frigates_nearest_water: bool,
    /// Online rules, Colorblind: views tell the seat that all enemies look alike (a
    /// display option).
    pub colorblind: bool,
    /// Online rules: on his first turn a player may build a second town two or three
    /// hexes from his capital (not the first player with 2–6 players).
    pub opening_second_town: bool,
    /// Online rules, Dark: a seat sees enemy units only near its own units, towns and
    /// cities (and, on its turn, where its units could move and one hex beyond), and
    /// remembers enemy towns and cities as it last saw them.
    pub dark: bool,
    /// Online rules, Independent exploration: each seat sees only the tiles it has
    /// explored itself, and no units on the others (H-23).
    pub independent_exploration: bool,
    /// Expansion, Optional Quicker Victory Condition: the points that win at once (with
    /// the own capital held): 1 per town, 2 per city, +2 per enemy capital; `None` uses
    /// the rulebook's table by player count (13 to 18). Range 1 to 200: more than the
    /// points a player could hold on the largest board.
    pub quick_victory_points: Option<u16>,
    /// The second unit supported by a city on each terrain (8.2).
    pub city_units: CityUnits,
    /// Empire points that win the race for dominance (5.4): 20. Range 1 to 200, as for
    /// `quick_victory_points`.
    pub race_points: u16,
    /// Victory conditions in force (5.0, R-19); at least one.
    pub victory: Vec<Victory>,
    /// Game turns after which empires are scored; `None`: no limit. Range 1 to
    /// 1000: a whole game takes some tens of turns.
    pub max_turns: Option<u16>,
    /// The engine makes the owner's casualty choices by a fixed policy.
    pub auto_casualties: bool,
    /// 15.1 Terrain Leveling.
    pub terrain_leveling: bool,
    /// 15.2 No Exploration.
    pub no_exploration: bool,
    /// 15.3 Exploration Balancing.
    pub exploration_balancing: bool,
    /// 15.4 Luck Averaging.
    pub luck_averaging: bool,
    /// 15.5 Town/City Relocation.
    pub relocation: bool,
    /// 15.6 Subjugation.
    pub subjugation: bool,
    /// Expansion, Optional Quicker Game Setup: a face-up map, then capitals, then rounds
    /// of building and a placement before the first turn (H-28).
    pub quicker_game_setup: bool,
    /// Expansion, Building Phase Accelerator Enhancement: an upgrade takes one build
    /// action, and a new city reveals nothing two hexes away.
    pub accelerator_enhancement: bool,
    /// Expansion, Metropolis City Upgrade: a city with all five terrains on and around
    /// it may become a Metropolis (one more supported unit of choice, 3 defence dice).
    pub metropolis: bool,
    /// Expansion, Metropolis: the capital may always become a Metropolis.
    pub metropolis_capital: bool,
    /// Expansion, Battle Attacks: Dice Determining Factors: a frigate that bombarded the
    /// battle hex this turn adds its die and hex side, the defender gets a die for two or
    /// more defending units, naval battles count hex sides and a second frigate.
    pub battle_dice_factors: bool,
    /// Expansion, Frigate Characteristics: frigates have 8 movement points and pay one
    /// for each land unit loaded or unloaded (three aboard at a time), unload into
    /// several hexes, and need not stop after attacking or unloading; land units pay one
    /// to board or land and may move before and after.
    pub frigate_characteristics: bool,
    /// Expansion, Artillery Characteristics: defending artillery fires Overwatch at
    /// units moving in to attack its own or an adjacent friendly hex, and artillery may
    /// bombard after being transported.
    pub artillery_characteristics: bool,
    /// Expansion, Pillage Attack: units damage hexes next to towns and cities; a
    /// damaged hex blocks roads, building, upgrades and placement nearby until repaired.
    pub pillage: bool,
    /// Expansion, Cavalry Characteristics: cavalry have 4 movement points, pay one more
    /// to go through slow terrain or past enemy units, towns and cities, and pillage
    /// for free.
    pub cavalry_characteristics: bool,
    /// Expansion, Road/Ferry Network: every town and city has roads and ferries in its
    /// own and every adjacent hex; land units go up to three network hexes for one
    /// movement point; a hex next to an enemy town is contested (H-35).
    pub road_ferry_network: bool,
}

/// One-line descriptions of the options, for `presets`.
const OPTION_TEXTS: &[(&str, &str)] = &[
    ("players", "Number of players."),
    (
        "board_side",
        "Hexes on each side of the board; 0 picks 5, 6, 7 or 8 by the number of players.",
    ),
    (
        "tile_bank",
        "Counts of face-down tiles by terrain; null: a quarter water, the rest equal land.",
    ),
    (
        "start_group",
        "Starting hexes revealed by each player on the first turn.",
    ),
    (
        "movement",
        "Movement points of infantry, cavalry, artillery and frigates.",
    ),
    ("hit_max", "A die at or below this number scores a hit."),
    ("bombard_range", "Longest bombardment range, in hexes."),
    (
        "line_of_sight",
        "Forests, mountains, towns and cities block two-hex bombardment.",
    ),
    (
        "slow_terrain",
        "Entering a forest or mountain ends a unit's move.",
    ),
    (
        "roads",
        "Land units move between own towns and cities two or three hexes apart for one point.",
    ),
    (
        "frigate_capacity",
        "Land units a frigate carries at a time.",
    ),
    (
        "frigate_loads_per_turn",
        "Land units a frigate may carry in one turn.",
    ),
    (
        "attack_dice",
        "Attacker's dice for each unit type present in a battle.",
    ),
    (
        "defense_dice",
        "Defender's dice for each unit type present in a battle.",
    ),
    (
        "pre_battle_fire",
        "Dice each attacking artillery rolls before the first battle round.",
    ),
    (
        "naval_support_dice",
        "Dice added to a land defence by adjacent friendly frigates.",
    ),
    (
        "strong_terrain_dice",
        "Defence dice of a mountain hex or a city.",
    ),
    (
        "weak_terrain_dice",
        "Defence dice of a forest hex or a town.",
    ),
    (
        "suppression",
        "Defender suppression: none, classic, or clarified (Expansion).",
    ),
    (
        "terrain_defense",
        "Mountains and forests add defensive dice in battle.",
    ),
    (
        "retreat",
        "Retreats: split (each unit to any entry hex, onto frigates too) or one_hex_no_frigate.",
    ),
    (
        "adjacent_enemy_restriction",
        "Enemy units next to a town or city stop reserve placement there.",
    ),
    (
        "lost_capital",
        "Without the capital: cities_as_towns (only infantry placed) or no_placement.",
    ),
    (
        "build_after_moving",
        "Expansion: move and fight first, then build, then place reserves.",
    ),
    (
        "build_actions",
        "Expansion: build actions per turn; a town costs one, an upgrade two.",
    ),
    (
        "combat_supply",
        "Expansion: a city on all four land terrains makes that player's dice hit on 4 or less.",
    ),
    (
        "redeployment",
        "Expansion: units on the map may return to the reserve during placement.",
    ),
    (
        "plains_city_bonus",
        "Expansion: a plains city supports three infantry.",
    ),
    (
        "road_ferries",
        "Expansion: roads between towns may cross water.",
    ),
    (
        "build_adjacent_enemy_restriction",
        "Expansion: no town built or upgraded next to enemy units.",
    ),
    (
        "cavalry_ignores_slow_terrain",
        "Expansion: cavalry is not stopped by forests and mountains.",
    ),
    (
        "hexside_bonus",
        "Expansion: an extra attack die for each additional hex side attacked from (at most 5).",
    ),
    (
        "defender_pre_battle_fire",
        "Expansion: defending artillery also fires before the first battle round.",
    ),
    (
        "map_customization",
        "Expansion: tiles are drawn as hexes are revealed and the revealing player arranges them.",
    ),
    (
        "hexside_bonus_naval",
        "Online: the extra attack die per additional hex side counts in naval battles too.",
    ),
    (
        "combat_supply_needs_capital",
        "Online: combat supply also needs the player's own capital.",
    ),
    (
        "build_needs_capital_now",
        "Online: building needs the capital held when building, not at the start of the turn (7.1).",
    ),
    (
        "slow_terrain_fixed_for_the_turn",
        "Online: a hex difficult when the turn began stays difficult for the turn, even a town taken meanwhile (9.12).",
    ),
    (
        "build_and_place_together",
        "Online: after moving, build and place reserves in one phase, in any order.",
    ),
    (
        "capital_frigates_nearest_water",
        "Online: frigates placed through the capital go to the nearest water.",
    ),
    (
        "colorblind",
        "Online: all enemies look alike to each player (display).",
    ),
    (
        "opening_second_town",
        "Online: a second town on the first turn (not for the first player with 2-6 players).",
    ),
    (
        "dark",
        "Online: fog of war; enemy units are seen only near your own, enemy towns as last seen.",
    ),
    (
        "independent_exploration",
        "Online: each player explores the map for himself and sees only the tiles he explored.",
    ),
    (
        "quick_victory_points",
        "Expansion quicker victory: points that win at once (null: 16, 17, 18, 18, 16, 14, 13 for 2-8 players).",
    ),
    (
        "city_units",
        "The second unit a city supports on each terrain.",
    ),
    (
        "race_points",
        "Empire points that win the race for dominance.",
    ),
    (
        "victory",
        "The victory conditions in force (5.0; the Expansion adds two); at least one.",
    ),
    (
        "max_turns",
        "Score the empires after this many game turns (null: no limit).",
    ),
    (
        "auto_casualties",
        "The engine chooses the owner's own casualties (infantry first, frigates last).",
    ),
    (
        "terrain_leveling",
        "15.1: terrain does not slow, block or defend.",
    ),
    ("no_exploration", "15.2: all tiles start face up."),
    (
        "exploration_balancing",
        "15.3: a reveal of two or more water hexes may swap one for a land tile.",
    ),
    (
        "luck_averaging",
        "15.4: trade a pair of battle dice for one sure hit.",
    ),
    (
        "relocation",
        "15.5: move a town or city to an adjacent hex instead of building.",
    ),
    (
        "subjugation",
        "15.6: a captured capital makes its owner a vassal instead of a loser.",
    ),
    (
        "accelerator_enhancement",
        "Expansion (extremely optional): an upgrade takes one build action; new cities reveal nothing two hexes away.",
    ),
    (
        "metropolis",
        "Expansion (extremely optional): cities among all five terrains may become Metropolises.",
    ),
    (
        "metropolis_capital",
        "Expansion (extremely optional): the capital may always become a Metropolis.",
    ),
    (
        "battle_dice_factors",
        "Expansion (extremely optional): frigates that bombarded join the attack, two defenders add a die, naval battles count hex sides.",
    ),
    (
        "frigate_characteristics",
        "Expansion (extremely optional): frigates move 8 and pay 1 per unit loaded or unloaded; transported units may move on.",
    ),
    (
        "artillery_characteristics",
        "Expansion (extremely optional): artillery Overwatch against attacks nearby; bombarding after transport.",
    ),
    (
        "pillage",
        "Expansion (extremely optional): pillage hexes next to towns; damage blocks roads, building and placement until repaired.",
    ),
    (
        "cavalry_characteristics",
        "Expansion (extremely optional): cavalry move 4, pay 1 more to cross slow terrain or pass enemies, pillage for free.",
    ),
    (
        "road_ferry_network",
        "Expansion (extremely optional): roads and ferries around every town; three network hexes for one movement point.",
    ),
    (
        "quicker_game_setup",
        "Expansion: a face-up map; capitals, then rounds of building and a placement before the first turn.",
    ),
];

/// The rulebook an option comes from, which decides the presets that offer it: a
/// preset offers the options of its own rulebook and of those it builds on (the
/// Expansion builds on VIKTORY II, the online rules on the Expansion).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OptionSource {
    /// VIKTORY II's own rules, its parameters and its optional rules (chapter 15), and
    /// this program's settings (players, turn limit, automatic casualties): every preset.
    Base,
    /// The Expansion Rules 1.0: `expansion` and `online`.
    Expansion,
    /// The online rules (gamesbyemail): `online` only.
    Online,
}

impl OptionSource {
    /// Whether preset `preset` offers options from this source.
    pub(crate) fn applies_to(self, preset: &str) -> bool {
        match self {
            OptionSource::Base => true,
            OptionSource::Expansion => matches!(preset, "expansion" | "online"),
            OptionSource::Online => preset == "online",
        }
    }
}

/// The rulebook option `name` comes from ([`OptionSource`]).
pub(crate) fn option_source(name: &str) -> OptionSource {
    match name {
        "build_after_moving"
        | "build_actions"
        | "combat_supply"
        | "redeployment"
        | "plains_city_bonus"
        | "road_ferries"
        | "build_adjacent_enemy_restriction"
        | "cavalry_ignores_slow_terrain"
        | "hexside_bonus"
        | "defender_pre_battle_fire"
        | "map_customization"
        | "quick_victory_points"
        | "quicker_game_setup"
        | "accelerator_enhancement"
        | "metropolis"
        | "metropolis_capital"
        | "battle_dice_factors"
        | "frigate_characteristics"
        | "artillery_characteristics"
        | "pillage"
        | "cavalry_characteristics"
        | "road_ferry_network" => OptionSource::Expansion,
        "hexside_bonus_naval"
        | "combat_supply_needs_capital"
        | "build_needs_capital_now"
        | "slow_terrain_fixed_for_the_turn"
        | "build_and_place_together"
        | "capital_frigates_nearest_water"
        | "colorblind"
        | "opening_second_town"
        | "dark"
        | "independent_exploration" => OptionSource::Online,
        _ => OptionSource::Base,
    }
}

/// The rulebook a victory condition comes from: 5.0's own, or the Expansion's optional
/// ones.
pub(crate) fn victory_source(victory: Victory) -> OptionSource {
    match victory {
        Victory::QuickerVictory | Victory::TwoVassals => OptionSource::Expansion,
        _ => OptionSource::Base,
    }
}

/// Where a form shows an option, given its preset's default: `victory` (how the game
/// is won and when it ends), `variants` (rules switched on or off, or chosen among
/// their versions) or `advanced` (the numbers and tables of the rules: board, dice,
/// movement).
pub(crate) fn option_group(name: &str, default: &serde_json::Value) -> &'static str {
    match name {
        "victory" | "max_turns" | "race_points" | "quick_victory_points" => "victory",
        "suppression" | "retreat" | "lost_capital" => "variants",
        _ if default.is_boolean() => "variants",
        _ => "advanced",
    }
}

/// The values a numeric option allows: `min..=max` for each of its numbers (the four of
/// a per-unit-type option, the five of a tile bank). [`Rules::validate`] refuses a value
/// outside its range, and the presets show the ranges to clients
/// ([`engine::OptionInfo::min`]). Each [`Rules`] field's documentation says why its
/// bounds are where they are: they hold every value of every ruleset, variant and
/// optional rule, and keep battles, searches and sums far from their types' limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionRange {
    /// The option's name.
    pub name: &'static str,
    /// The least value allowed.
    pub min: u16,
    /// The greatest value allowed.
    pub max: u16,
    /// The rule section the option belongs to.
    pub rule: &'static str,
}

const fn range(name: &'static str, min: u16, max: u16, rule: &'static str) -> OptionRange {
    OptionRange {
        name,
        min,
        max,
        rule,
    }
}

/// Every numeric option's range (`players` is the preset's, [`Rules::player_range`];
/// `board_side` also allows 0, the default for the player count, but not 1 to 3).
pub const OPTION_RANGES: &[OptionRange] = &[
    range("board_side", 0, 12, "R-3"),
    range("tile_bank", 0, 331, "R-4"),
    range("start_group", 1, 7, "R-5"),
    range("movement", 1, 12, "9.11"),
    range("hit_max", 1, 6, "10.1"),
    range("bombard_range", 0, 5, "11.0"),
    range("frigate_capacity", 1, 10, "9.41"),
    range("frigate_loads_per_turn", 1, 30, "9.41"),
    range("attack_dice", 1, 6, "12.3"),
    range("defense_dice", 1, 6, "12.3"),
    range("pre_battle_fire", 0, 6, "12.3"),
    range("naval_support_dice", 0, 6, "12.32"),
    range("strong_terrain_dice", 0, 6, "12.3"),
    range("weak_terrain_dice", 0, 6, "12.3"),
    range("build_actions", 1, 4, "Expansion"),
    range("quick_victory_points", 1, 200, "Expansion"),
    range("race_points", 1, 200, "5.4"),
    range("max_turns", 1, 1000, "R-19"),
];

/// The presets this crate implements now.
pub(crate) const PRESETS: &[&str] = &["classic", "expansion", "online", "viktory1"];

impl Rules {
    /// The classic VIKTORY II v1.1 rules for `players` players.
    pub fn classic(players: u8) -> Rules {
        Rules {
            preset: "classic".into(),
            players,
            board_side: 0,
            tile_bank: None,
            start_group: 3,
            movement: Allowances {
                infantry: 2,
                cavalry: 3,
                artillery: 2,
                frigate: 5,
            },
            hit_max: 3,
            bombard_range: 2,
            line_of_sight: true,
            slow_terrain: true,
            roads: true,
            frigate_capacity: 3,
            frigate_loads_per_turn: 3,
            attack_dice: DicePerKind {
                infantry: 1,
                cavalry: 2,
                artillery: 1,
                frigate: 1,
            },
            defense_dice: DicePerKind {
                infantry: 1,
                cavalry: 1,
                artillery: 1,
                frigate: 1,
            },
            pre_battle_fire: 1,
            naval_support_dice: 1,
            strong_terrain_dice: 2,
            weak_terrain_dice: 1,
            suppression: Suppression::Classic,
            terrain_defense: true,
            retreat: Retreat::Split,
            adjacent_enemy_restriction: true,
            lost_capital: LostCapital::CitiesAsTowns,
            build_after_moving: false,
            build_actions: 1,
            combat_supply: false,
            redeployment: false,
            plains_city_bonus: false,
            road_ferries: false,
            build_adjacent_enemy_restriction: false,
            cavalry_ignores_slow_terrain: false,
            hexside_bonus: false,
            defender_pre_battle_fire: false,
            map_customization: false,
            hexside_bonus_naval: false,
            combat_supply_needs_capital: false,
            build_needs_capital_now: false,
            slow_terrain_fixed_for_the_turn: false,
            build_and_place_together: false,
            capital_frigates_nearest_water: false,
            colorblind: false,
            opening_second_town: false,
            dark: false,
            independent_exploration: false,
            quick_victory_points: None,
            city_units: CityUnits {
                plains: UnitKind::Infantry,
                grassland: UnitKind::Cavalry,
                forest: UnitKind::Frigate,
                mountain: UnitKind::Artillery,
            },
            race_points: 20,
            victory: vec![Victory::StandardConquest],
            max_turns: None,
            auto_casualties: false,
            terrain_leveling: false,
            no_exploration: false,
            exploration_balancing: false,
            luck_averaging: false,
            relocation: false,
            subjugation: false,
            quicker_game_setup: false,
            accelerator_enhancement: false,
            metropolis: false,
            metropolis_capital: false,
            battle_dice_factors: false,
            frigate_characteristics: false,
            artillery_characteristics: false,
            pillage: false,
            cavalry_characteristics: false,
            road_ferry_network: false,
        }
    }

    /// The original VIKTORY rules v1.1 for `players` players: the map is face up,
    /// no slow terrain, no roads, bombardment without line of sight, "special defense"
    /// dice for towns (1), cities (2) and adjacent frigates (1) but none for terrain, no
    /// suppression, retreats into one hex and never onto a frigate, no placement
    /// restriction by adjacent enemies, and no placement at all without the capital.
    pub fn viktory1(players: u8) -> Rules {
        Rules {
            preset: "viktory1".into(),
            no_exploration: true,
            slow_terrain: false,
            roads: false,
            line_of_sight: false,
            terrain_defense: false,
            suppression: Suppression::None,
            retreat: Retreat::OneHexNoFrigate,
            adjacent_enemy_restriction: false,
            lost_capital: LostCapital::NoPlacement,
            ..Rules::classic(players)
        }
    }

    /// VIKTORY II with the recommended part of the Expansion Rules 1.0, 2 to 8
    /// players: Building Phase Accelerator (two build actions, five start hexes), Map
    /// Exploration & Customization, Turn Sequence Reordered, Combat Supply, Redeployment,
    /// Bombard Range Limitation, Plains Cities, Road/Ferry Movement, Artillery Pre-Battle
    /// Fire, the Adjacent Enemy Units building restriction, Defender Suppression
    /// Clarification, Cavalry Changes with the hex-side bonus. Optional Map Size is the
    /// `board_side` option; the optional victory conditions are `victory` choices.
    pub fn expansion(players: u8) -> Rules {
        let classic = Rules::classic(players);
        Rules {
            preset: "expansion".into(),
            build_actions: 2,
            start_group: 5,
            map_customization: true,
            build_after_moving: true,
            combat_supply: true,
            redeployment: true,
            bombard_range: 1,
            plains_city_bonus: true,
            road_ferries: true,
            defender_pre_battle_fire: true,
            build_adjacent_enemy_restriction: true,
            suppression: Suppression::Clarified,
            cavalry_ignores_slow_terrain: true,
            hexside_bonus: true,
            attack_dice: DicePerKind {
                cavalry: 1,
                ..classic.attack_dice
            },
            ..classic
        }
    }

    /// The online rules (`viktory2-gamesbyemail-rules.txt`), 2 to 8 players: the
    /// Expansion's recommended rules as the online game plays them, plus the online
    /// game's own: the hex-side die in naval battles, combat supply only with the own
    /// capital, capital frigates in the nearest water, the first-turn second town, and the
    /// defender's casualties chosen by the program. Dark, Independent exploration
    /// and Colorblind are options, off by default.
    pub fn online(players: u8) -> Rules {
        Rules {
            preset: "online".into(),
            hexside_bonus_naval: true,
            combat_supply_needs_capital: true,
            build_needs_capital_now: true,
            slow_terrain_fixed_for_the_turn: true,
            build_and_place_together: true,
            capital_frigates_nearest_water: true,
            opening_second_town: true,
            auto_casualties: true,
            ..Rules::expansion(players)
        }
    }

    /// The rules of a preset, or `None` for a name this crate does not implement.
    pub fn preset(name: &str, players: u8) -> Option<Rules> {
        match name {
            "classic" => Some(Rules::classic(players)),
            "viktory1" => Some(Rules::viktory1(players)),
            "expansion" => Some(Rules::expansion(players)),
            "online" => Some(Rules::online(players)),
            _ => None,
        }
    }

    /// The player counts a preset's rulebook allows.
    pub fn player_range(preset: &str) -> (u8, u8) {
        match preset {
            "viktory1" => (2, 4),
            "expansion" | "online" => (2, 8),
            _ => (2, 6),
        }
    }

    /// A unit's movement allowance this turn (9.11; 8 for frigates with the Expansion's
    /// Frigate Characteristics).
    pub fn allowance(&self, kind: UnitKind) -> u8 {
        if kind == UnitKind::Frigate && self.frigate_characteristics {
            8
        } else if kind == UnitKind::Cavalry && self.cavalry_characteristics {
            4
        } else {
            self.movement.get(kind)
        }
    }

    /// The board side in use.
    pub fn side(&self) -> u8 {
        if self.board_side == 0 {
            default_side(self.players)
        } else {
            self.board_side
        }
    }

    /// The presets offered, with their options and defaults.
    pub fn presets() -> Vec<Preset> {
        let describe = |name: &str, description: &str| {
            let (min_players, max_players) = Rules::player_range(name);
            let rules = Rules::preset(name, min_players).expect("implemented preset");
            let json = serde_json::to_value(&rules).expect("rules serialise");
            let options = OPTION_TEXTS
                .iter()
                .filter(|&&(option, _)| option_source(option).applies_to(name))
                .map(|&(option, text)| {
                    let mut info = OptionInfo::new(option, text, json[option].clone())
                        .with_group(option_group(option, &json[option]));
                    if let Some((kind, mut choices)) = option_kind(option) {
                        if option == "victory" {
                            // The Expansion's victory conditions only where it applies.
                            choices.retain(|c| {
                                serde_json::from_value::<Victory>(c.clone())
                                    .is_ok_and(|v| victory_source(v).applies_to(name))
                            });
                        }
                        info = info.with_kind(kind, choices);
                    }
                    match rules.option_range(option) {
                        Some((min, max)) => info.with_range(i64::from(min), i64::from(max)),
                        None => info,
                    }
                })
                .collect();
            Preset {
                name: name.into(),
                description: description.into(),
                min_players,
                max_players,
                options,
            }
        };
        vec![
            describe(
                "classic",
                "VIKTORY II rules v1.1 for 2 to 6 players, standard conquest.",
            ),
            describe(
                "expansion",
                "VIKTORY II with the Expansion Rules 1.0 (recommended part), 2 to 8 players.",
            ),
            describe(
                "online",
                "VIKTORY II as played online (gamesbyemail rules), 2 to 8 players; Dark, Independent exploration and Colorblind are options.",
            ),
            describe(
                "viktory1",
                "The original VIKTORY rules v1.1 for 2 to 4 players, on a face-up map.",
            ),
        ]
    }

    /// Builds the rules of a new game from a preset, a player count and overrides,
    /// reporting every problem at once.
    pub fn from_request(request: &NewGame) -> Result<Rules, SetupErrors> {
        let preset = request.preset.clone().unwrap_or_else(|| "classic".into());
        if !PRESETS.contains(&preset.as_str()) {
            let message = format!("no preset {preset:?}; available: {PRESETS:?}");
            return Err(SetupErrors::one(Problem::with_rule(
                "unknown_preset",
                "R-1",
                message,
            )));
        }
        let players = request.players.unwrap_or(Rules::player_range(&preset).0);
        let base = Rules::preset(&preset, players).expect("checked above");
        let mut json = serde_json::to_value(&base).expect("rules serialise");
        let mut problems = Vec::new();
        for (name, value) in &request.options {
            if name == "preset" || name == "players" {
                problems.push(Problem::new(
                    "bad_option",
                    format!("{name:?} is not an option; give it as its own field"),
                ));
            } else if json.get(name).is_none() {
                problems.push(Problem::new(
                    "unknown_option",
                    format!("VIKTORY has no option {name:?}"),
                ));
            } else {
                json[name] = value.clone();
            }
        }
        if !problems.is_empty() {
            return Err(SetupErrors(problems));
        }
        let rules: Rules = serde_json::from_value(json).map_err(|e| {
            SetupErrors::one(Problem::new(
                "bad_option",
                format!("an option has the wrong type: {e}"),
            ))
        })?;
        rules.validate().map(|()| rules)
    }

    /// Every problem with these rules: bad numbers, options not implemented yet,
    /// conflicting options.
    pub fn validate(&self) -> Result<(), SetupErrors> {
        let mut p = Vec::new();
        let (min, max) = Rules::player_range(&self.preset);
        if !PRESETS.contains(&self.preset.as_str()) {
            p.push(Problem::with_rule(
                "preset",
                "R-1",
                format!("no preset {:?}", self.preset),
            ));
        } else if !(min..=max).contains(&self.players) {
            p.push(Problem::with_rule(
                "players",
                "R-1",
                format!(
                    "the {} rules are for {min} to {max} players, not {}",
                    self.preset, self.players
                ),
            ));
        }
        let layout_known =
            p.is_empty() && (4..=12).contains(&self.side()) && (1..=7).contains(&self.start_group);
        p.extend(self.range_problems());
        if layout_known {
            // every player needs start hexes of his own.
            let groups = crate::board::start_groups(self.side(), self.players, self.start_group);
            let mut all: Vec<hexmap::Hex> = groups.concat();
            let total = all.len();
            all.sort();
            all.dedup();
            if all.len() != total {
                p.push(Problem::with_rule(
                    "board_side",
                    "R-3",
                    format!(
                        "a board of side {} is too small for {} players' start hexes",
                        self.side(),
                        self.players
                    ),
                ));
            }
        }
        if self.victory.is_empty() {
            p.push(Problem::with_rule(
                "victory",
                "5.0",
                "choose at least one victory condition",
            ));
        }
        if self.city_units.plains == UnitKind::Frigate
            || self.city_units.grassland == UnitKind::Frigate
            || self.city_units.mountain == UnitKind::Frigate
        {
            // Frigates are placed beside forest cities only (13.3); other terrains
            // supporting a frigate have no placement rule.
            p.push(Problem::with_rule(
                "city_units",
                "13.3",
                "only a forest city can support a frigate",
            ));
        }
        if self.victory.contains(&Victory::SubjugationConquest) && !self.subjugation {
            p.push(Problem::with_rule(
                "victory",
                "5.2",
                "the subjugation_conquest victory needs the subjugation option",
            ));
        }
        if self.build_and_place_together && !self.build_after_moving {
            p.push(Problem::with_rule(
                "build_and_place_together",
                "online",
                "build_and_place_together needs build_after_moving (building after the move/battle phase)",
            ));
        }
        if self.metropolis_capital && !self.metropolis {
            p.push(Problem::with_rule(
                "metropolis_capital",
                "Expansion",
                "metropolis_capital needs the metropolis option",
            ));
        }
        if self.victory.contains(&Victory::TwoVassals) && !self.subjugation {
            p.push(Problem::with_rule(
                "victory",
                "Expansion",
                "the two_vassals victory needs the subjugation option",
            ));
        }
        for (name, on) in [
            ("no_exploration", self.no_exploration),
            ("exploration_balancing", self.exploration_balancing),
        ] {
            if on && self.map_customization {
                p.push(Problem::with_rule(
                    "conflicting_options",
                    "R-2",
                    format!("map_customization and {name} conflict: they explore the map in different ways"),
                ));
            }
        }
        for (name, on) in [
            ("map_customization", self.map_customization),
            ("exploration_balancing", self.exploration_balancing),
            ("independent_exploration", self.independent_exploration),
            ("opening_second_town", self.opening_second_town),
        ] {
            if on && self.quicker_game_setup {
                p.push(Problem::with_rule(
                    "conflicting_options",
                    "R-2",
                    format!("quicker_game_setup and {name} conflict: the quicker setup starts on a face-up map with its own building rounds"),
                ));
            }
        }
        if self.no_exploration && self.independent_exploration {
            p.push(Problem::with_rule(
                "conflicting_options",
                "R-2",
                "no_exploration and independent_exploration conflict: with every tile face up there is nothing to explore",
            ));
        }
        if self.no_exploration && self.exploration_balancing {
            p.push(Problem::with_rule(
                "conflicting_options",
                "R-2",
                "no_exploration and exploration_balancing conflict: with every tile face up there is nothing to balance",
            ));
        }
        if p.is_empty() {
            Ok(())
        } else {
            Err(SetupErrors(p))
        }
    }

    /// The range of the numeric option `name` ([`OPTION_RANGES`]; `players` by the
    /// preset), or `None` for an option that is not a number.
    pub fn option_range(&self, name: &str) -> Option<(u16, u16)> {
        if name == "players" {
            let (min, max) = Rules::player_range(&self.preset);
            return Some((u16::from(min), u16::from(max)));
        }
        OPTION_RANGES
            .iter()
            .find(|r| r.name == name)
            .map(|r| (r.min, r.max))
    }

    /// The numbers of the numeric option `name`, each with the part it is of (a unit
    /// type, a terrain) for the options that have several; none for `null`.
    fn numbers(&self, name: &str) -> Vec<(Option<&'static str>, u16)> {
        let one = |n: u8| vec![(None, u16::from(n))];
        let per_kind = |d: PerKind| -> Vec<(Option<&'static str>, u16)> {
            UnitKind::ALL
                .iter()
                .map(|&k| (Some(k.name()), u16::from(d.get(k))))
                .collect()
        };
        match name {
            "board_side" => one(self.board_side),
            "tile_bank" => self.tile_bank.map_or_else(Vec::new, |b| {
                crate::board::Terrain::ALL
                    .iter()
                    .map(|&t| (Some(t.name()), b.get(t)))
                    .collect()
            }),
            "start_group" => one(self.start_group),
            "movement" => per_kind(self.movement),
            "hit_max" => one(self.hit_max),
            "bombard_range" => one(self.bombard_range),
            "frigate_capacity" => one(self.frigate_capacity),
            "frigate_loads_per_turn" => one(self.frigate_loads_per_turn),
            "attack_dice" => per_kind(self.attack_dice),
            "defense_dice" => per_kind(self.defense_dice),
            "pre_battle_fire" => one(self.pre_battle_fire),
            "naval_support_dice" => one(self.naval_support_dice),
            "strong_terrain_dice" => one(self.strong_terrain_dice),
            "weak_terrain_dice" => one(self.weak_terrain_dice),
            "build_actions" => one(self.build_actions),
            "quick_victory_points" => self
                .quick_victory_points
                .map(|n| (None, n))
                .into_iter()
                .collect(),
            "race_points" => vec![(None, self.race_points)],
            "max_turns" => self.max_turns.map(|n| (None, n)).into_iter().collect(),
            _ => vec![],
        }
    }

    /// Every numeric option outside its range ([`OPTION_RANGES`]), one problem per
    /// option naming the range, and a tile bank that does not fill the board.
    fn range_problems(&self) -> Vec<Problem> {
        let mut p = Vec::new();
        for r in OPTION_RANGES {
            let numbers = self.numbers(r.name);
            let Some(&(part, value)) = numbers.iter().find(|&&(_, n)| {
                !(r.min..=r.max).contains(&n) || (r.name == "board_side" && (1..4).contains(&n))
            }) else {
                continue;
            };
            let (min, max, name) = (r.min, r.max, r.name);
            let message = match (name, part) {
                ("board_side", _) => format!(
                    "board_side must be 0 (the default for the player count) or 4 to {max}, not {value}"
                ),
                ("tile_bank", Some(part)) => {
                    format!(
                        "tile_bank must hold {min} to {max} tiles of each terrain, not {value} ({part})"
                    )
                }
                (_, Some(part)) => {
                    format!(
                        "{name} must be {min} to {max} for each unit type, not {value} ({part})"
                    )
                }
                (_, None) => format!("{name} must be {min} to {max}, not {value}"),
            };
            p.push(Problem::with_rule(name, r.rule, message));
        }
        if let Some(bank) = self.tile_bank
            && (4..=12).contains(&self.side())
        {
            let side = u32::from(self.side());
            let interior = 3 * (side - 1) * (side - 2) + 1;
            if bank.total() != interior {
                p.push(Problem::with_rule(
                    "tile_bank",
                    "R-4",
                    format!(
                        "tile_bank holds {} tiles, but a board of side {side} has {interior} face-down hexes",
                        bank.total()
                    ),
                ));
            }
        }
        p
    }

    /// The units a town (`city = false`) or city on `terrain` supports (8.1, 8.2).
    pub fn supported(&self, city: bool, terrain: crate::board::Terrain) -> [Option<UnitKind>; 3] {
        use crate::board::Terrain as T;
        if !city {
            return [Some(UnitKind::Infantry), None, None];
        }
        if terrain == T::Plains && self.plains_city_bonus {
            return [Some(UnitKind::Infantry); 3];
        }
        let second = match terrain {
            T::Plains => self.city_units.plains,
            T::Grassland => self.city_units.grassland,
            T::Forest => self.city_units.forest,
            T::Mountain => self.city_units.mountain,
            T::Water => UnitKind::Infantry,
        };
        [Some(UnitKind::Infantry), Some(second), None]
    }

    /// The tile bank for this board.
    pub fn bank(&self) -> TileBank {
        self.tile_bank.unwrap_or_else(|| {
            let side = u32::from(self.side());
            let interior = 3 * (side - 1) * (side - 2) + 1;
            TileBank::default_for(interior as u16)
        })
    }
}

/// Reads rules written by any version of hexwar: fields missing from the input (options
/// added since it was written) take the values of its preset, so stored games and
/// records keep loading as the rules grow. Unknown fields are still refused.
pub(crate) fn deserialize_lenient<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Rules, D::Error> {
    use serde::de::Error;
    let value = serde_json::Value::deserialize(deserializer)?;
    let serde_json::Value::Object(given) = value else {
        return Err(D::Error::custom("the rules must be an object"));
    };
    let preset = given
        .get("preset")
        .and_then(serde_json::Value::as_str)
        .unwrap_or("classic");
    let players = given
        .get("players")
        .and_then(serde_json::Value::as_u64)
        .unwrap_or(2);
    let base = Rules::preset(preset, u8::try_from(players).unwrap_or(2))
        .ok_or_else(|| D::Error::custom(format!("no preset {preset:?}")))?;
    let mut merged = serde_json::to_value(&base).map_err(D::Error::custom)?;
    for (k, v) in given {
        merged[k.as_str()] = v;
    }
    serde_json::from_value(merged).map_err(D::Error::custom)
}

/// How many rule sets' compact forms each thread keeps (see [`serialize_compact`]).
const COMPACT_KEPT: usize = 8;

thread_local! {
    /// The compact forms of the rules written last on this thread, the latest first:
    /// the server writes a game's rules into every view it sends, and working one out
    /// builds two whole `Value` trees (a sixteenth of a busy server's time).
    static COMPACT: std::cell::RefCell<Vec<(Rules, serde_json::Map<String, serde_json::Value>)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Writes rules compactly: the preset, the player count, and only the options that
/// differ from the preset. Records stay small and readable, and adding an option to
/// hexwar does not change how existing games are written. The form of each rule set is
/// worked out once per thread and kept (keyed by the whole rules, so any option that
/// differs is a different entry).
pub(crate) fn serialize_compact<S: serde::Serializer>(
    rules: &Rules,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::Error;
    COMPACT.with_borrow_mut(|kept| {
        if let Some(i) = kept.iter().position(|(r, _)| r == rules) {
            kept[..=i].rotate_right(1);
        } else {
            let form = compact(rules).map_err(S::Error::custom)?;
            kept.truncate(COMPACT_KEPT - 1);
            kept.insert(0, (rules.clone(), form));
        }
        kept[0].1.serialize(serializer)
    })
}

/// The compact form of `rules` (see [`serialize_compact`]).
fn compact(rules: &Rules) -> serde_json::Result<serde_json::Map<String, serde_json::Value>> {
    let full = serde_json::to_value(rules)?;
    let base = Rules::preset(&rules.preset, rules.players)
        .map(|b| serde_json::to_value(&b))
        .transpose()?;
    let mut out = serde_json::Map::new();
    if let serde_json::Value::Object(fields) = full {
        for (k, v) in fields {
            let default = base.as_ref().and_then(|b| b.get(&k));
            if k == "preset" || k == "players" || default != Some(&v) {
                out.insert(k, v);
            }
        }
    }
    Ok(out)
}
