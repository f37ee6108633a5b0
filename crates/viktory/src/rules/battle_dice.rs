//! 12.3 steps 0–2: how many dice each side of a battle rolls, as pure functions of the
//! units still fighting and of the battle's fixed surroundings ([`Field`]). The battle
//! itself ([`super::battle`]) and the exact odds ([`crate::odds`]) count dice with these
//! same functions, so the dice rules have one truth.

use engine::Seat;
use hexmap::Hex;

use crate::board::Terrain;
use crate::options::{DicePerKind, LostCapital, Rules, Suppression};
use crate::state::{Viktory, saturating_u8};
use crate::unit::{PerKind, UnitKind};

/// What a battle's dice depend on besides the units fighting in it. None of it changes
/// while the battle is fought: no unit enters or leaves a neighbouring hex, and towns
/// change hands only when the battle ends.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Field {
    /// Frigate against frigate (10.5): no naval support or defensive terrain dice.
    pub(crate) naval: bool,
    /// The battle hex is water (the hex-side bonus and the dice factors ask this).
    pub(crate) water: bool,
    /// The battle hex holds the defender's town or city (12.3 step 2, Note; 12.33).
    pub(crate) town_held: bool,
    /// The defender's frigates next to the battle hex (12.32; battle dice factors).
    pub(crate) adjacent_frigates: u8,
    /// Defensive terrain dice of the hex: the best of mountain or city, forest or town,
    /// or a Metropolis (12.3 step 2; 14.0; Expansion, Metropolis).
    pub(crate) terrain_dice: u8,
    /// Battle dice factors (Expansion): the hexes of the attacker's frigates next to the
    /// battle hex that bombarded it this turn (none in a naval battle).
    pub(crate) bombard_sides: Vec<Hex>,
}

/// The fixed surroundings of a battle at `hex` between `attacker` and `defender`;
/// `naval`: a naval battle (always so in a water hex, but the battle says).
pub(crate) fn field(s: &Viktory, hex: Hex, attacker: Seat, defender: Seat, naval: bool) -> Field {
    let water = s.terrain(hex).is_some_and(|t| !t.is_land());
    let town = s.town(hex).filter(|t| t.owner == defender);
    let adjacent_frigates = saturating_u8(
        s.units
            .iter()
            .filter(|u| {
                u.kind == UnitKind::Frigate
                    && u.owner == defender
                    && u.aboard.is_none()
                    && u.hex.distance(hex) == 1
            })
            .count(),
    );
    // Mountains and forests count unless the rules give terrain no defence (original
    // VIKTORY) or level it (15.1); a city counts as a town while its owner lacks his
    // capital (14.0, classic only).
    let terrain = s
        .terrain(hex)
        .filter(|_| s.rules.terrain_defense && !s.rules.terrain_leveling);
    let capital_penalty =
        s.rules.lost_capital == LostCapital::CitiesAsTowns && !s.holds_capital(defender);
    let city = town.is_some_and(|t| t.city) && !capital_penalty;
    let metropolis = city && town.is_some_and(|t| t.metropolis.is_some());
    let terrain_dice = if naval {
        0
    } else if metropolis {
        crate::rules::metropolis::DEFENCE_DICE
    } else if terrain == Some(Terrain::Mountain) || city {
        s.rules.strong_terrain_dice
    } else if terrain == Some(Terrain::Forest) || town.is_some() {
        s.rules.weak_terrain_dice
    } else {
        0
    };
    let bombard_sides = if water {
        vec![]
    } else {
        s.turn
            .frigate_bombards
            .iter()
            .filter(|&&(_, target)| target == hex)
            .filter_map(|&(id, _)| s.unit(id))
            .filter(|f| f.owner == attacker && f.hex.distance(hex) == 1)
            .map(|f| f.hex)
            .collect()
    };
    Field {
        naval,
        water,
        town_held: town.is_some(),
        adjacent_frigates,
        terrain_dice,
        bombard_sides,
    }
}

/// The units of `seat` fighting in `hex`, by kind (cargo never fights, 9.45).
pub(crate) fn composition(s: &Viktory, hex: Hex, seat: Seat) -> PerKind {
    let mut present = PerKind::default();
    for u in s
        .units
        .iter()
        .filter(|u| u.hex == hex && u.owner == seat && u.aboard.is_none())
    {
        let n = present.get_mut(u.kind);
        *n = n.saturating_add(1);
    }
    present
}

/// Rule 12.3 steps 1–2, "combined arms": the dice for the unit types present, however
/// many units of each type there are.
///
/// The dice counts of this module are bytes: with the option ranges (at most 6 dice a
/// type or factor, [`crate::OPTION_RANGES`]) a fire step rolls at most 4 × 6 + 6 + 5
/// dice, far below 255; the sums saturate all the same, so no rules value can wrap them.
pub(crate) fn kind_dice(dice: DicePerKind, present: PerKind) -> u8 {
    UnitKind::ALL
        .iter()
        .filter(|&&k| present.get(k) > 0)
        .fold(0u8, |sum, &k| sum.saturating_add(dice.get(k)))
}

/// Rule 12.3 step 1: the attacker's dice in a fire round, for the attacking units
/// `present` that entered the battle hex from `sides` (one entry per unit, repeats
/// allowed). With the Expansion's Attacking Bonuses for Additional Hex Sides, one more
/// die for each hex side beyond the first (at most 5; naval battles only online). With
/// the Expansion's Battle Dice Determining Factors (H-30): the frigates that bombarded
/// the hex count as a unit type (at most 4 type dice) and add their hex sides.
/// The caller gives no dice when no defending unit is left (12.3 step 2, Note; H-5).
pub(crate) fn attacker_dice(rules: &Rules, field: &Field, present: PerKind, sides: &[Hex]) -> u8 {
    let mut types = kind_dice(rules.attack_dice, present);
    if rules.battle_dice_factors {
        if !field.bombard_sides.is_empty() && present.frigate == 0 {
            types = types.saturating_add(rules.attack_dice.get(UnitKind::Frigate));
        }
        let mut all: Vec<Hex> = sides.iter().chain(&field.bombard_sides).copied().collect();
        all.sort_unstable();
        all.dedup();
        return types.min(4) + saturating_u8(all.len().saturating_sub(1)).min(5);
    }
    if !rules.hexside_bonus || (field.water && !rules.hexside_bonus_naval) {
        return types;
    }
    let mut all = sides.to_vec();
    all.sort_unstable();
    all.dedup();
    types.saturating_add(saturating_u8(all.len().saturating_sub(1)).min(5))
}

/// Battle dice factors (Expansion, H-30): the defender's extra die for two or more
/// defending units, frigates next to the hex counting (in a naval battle, a second
/// frigate in or next to the hex).
fn defender_bonus(field: &Field, defenders: u8) -> u8 {
    let adjacent = field.adjacent_frigates;
    let total = if field.water {
        defenders.saturating_add(adjacent.min(1))
    } else {
        defenders.saturating_add(adjacent)
    };
    u8::from(defenders > 0 && total >= 2)
}

/// Rule 12.3 step 2: the defender's dice and how many of them are suppressed, for the
/// defending units `present` (`defenders` of them) after the attacker scored `hits` on
/// them this round. Naval support (12.32, 12.33) needs defending land units or the
/// defender's town or city in the hex; defender suppression (12.31, R-15) takes the
/// excess of hits over defending units from the military-unit dice (classic) or from
/// every die but those a town or city rolls on its own (the Expansion's clarification,
/// online); the original VIKTORY has none.
pub(crate) fn defender_dice(
    rules: &Rules,
    field: &Field,
    present: PerKind,
    defenders: u8,
    hits: u8,
) -> (u8, u8) {
    let mut units = kind_dice(rules.defense_dice, present);
    if rules.battle_dice_factors {
        units = units.saturating_add(defender_bonus(field, defenders));
    }
    let excess = hits.saturating_sub(defenders);
    let mut extra = 0u8;
    if !field.naval {
        if (defenders > 0 || field.town_held) && field.adjacent_frigates > 0 {
            extra = extra.saturating_add(rules.naval_support_dice);
        }
        extra = extra.saturating_add(field.terrain_dice);
    }
    let suppressed = match rules.suppression {
        Suppression::None => 0,
        Suppression::Classic => excess.min(units),
        Suppression::Clarified => {
            // the dice a town or city would roll with no defenders are protected.
            let protected = if field.town_held { extra } else { 0 };
            excess.min(units.saturating_add(extra) - protected)
        }
    };
    (units.saturating_add(extra) - suppressed, suppressed)
}

/// Rule 12.3 step 0: the attacker's pre-battle fire, `pre_battle_fire` dice per
/// attacking artillery (none in a naval battle).
pub(crate) fn attacker_pre_battle_dice(rules: &Rules, naval: bool, artillery: u8) -> u8 {
    if naval {
        0
    } else {
        artillery.saturating_mul(rules.pre_battle_fire)
    }
}

/// Expansion, Artillery Pre-Battle Fire Enhancement: the defending artillery's
/// pre-battle fire (none in a naval battle, none without the enhancement).
pub(crate) fn defender_pre_battle_dice(rules: &Rules, naval: bool, artillery: u8) -> u8 {
    if !rules.defender_pre_battle_fire || naval {
        0
    } else {
        artillery.saturating_mul(rules.pre_battle_fire)
    }
}

/// Expansion, Artillery Characteristics: the Overwatch dice, one per defending artillery
/// in the battle hex and next to it, against `attackers` moving in; none if only
/// cavalry attack, in naval or placement battles (`skip`), or against oneself.
pub(crate) fn overwatch_dice(
    s: &Viktory,
    hex: Hex,
    attacker: Seat,
    defender: Seat,
    attackers: PerKind,
    skip: bool,
) -> u8 {
    if !s.rules.artillery_characteristics || skip || attacker == defender {
        return 0;
    }
    if attackers.total() == u32::from(attackers.cavalry) {
        return 0;
    }
    saturating_u8(
        s.units
            .iter()
            .filter(|u| {
                u.owner == defender
                    && u.kind == UnitKind::Artillery
                    && u.aboard.is_none()
                    && u.hex.distance(hex) <= 1
            })
            .count(),
    )
}
