//! 7.0 Building and 8.0 Simple Economics: one town or one upgrade per turn, where
//! towns may stand, and the unit each build adds to the reserve.

use hexmap::Hex;

use crate::error::{RuleError, refuse};
use crate::event::Event;
use crate::rules::{exploration, fog, sequence};
use crate::state::{Town, Viktory};

/// Whether the active player may build for want of his capital: classic 7.1 asks that
/// he held it at the start of his turn (`can_build`); the online rules, that he controls
/// it when he builds, after the move/battle phase ("Building"; losing it blocks building
/// "immediately", and nothing keeps the block once it is retaken).
pub fn capital_allows_building(s: &Viktory) -> bool {
    if s.rules.build_needs_capital_now {
        s.holds_capital(s.turn.active)
    } else {
        s.turn.can_build
    }
}

/// Rule 7.1 (online: Building): building needs the capital.
fn check_capital_held(s: &Viktory) -> Result<(), RuleError> {
    if capital_allows_building(s) {
        Ok(())
    } else if s.rules.build_needs_capital_now {
        refuse(
            "no_capital",
            "online",
            "a player must control his capital to build",
        )
    } else {
        refuse(
            "no_capital",
            "7.1",
            "a player must hold his capital at the start of his turn to build",
        )
    }
}

/// Rule 7.2 (Expansion: Building Phase Accelerator): the turn's build actions are not
/// all spent. The Building Phase ends when they are; the online rules' one phase for
/// building and placement goes on, so this is checked.
fn check_actions_left(s: &Viktory) -> Result<(), RuleError> {
    if actions_left(s) == 0 {
        refuse(
            "build_actions",
            "7.2",
            "this turn's build actions are spent",
        )
    } else {
        Ok(())
    }
}

/// `hex` is 2 or 3 hexes from one of `seat`'s towns or cities along a path of at
/// most 3 steps through revealed hexes ("contiguously revealed", 7.21).
pub fn within_reach_of_own_town(s: &Viktory, hex: Hex) -> bool {
    let seat = s.turn.active;
    s.towns()
        .filter(|(h, t)| t.owner == seat && (2..=3).contains(&h.distance(hex)))
        .any(|(h, _)| crate::rules::movement::short_path(h, hex, |x| fog::explored(s, seat, x)))
}

/// Rule 7.21, 7.22, R-7: where a new town may be built.
pub fn check_town(s: &Viktory, hex: Hex) -> Result<(), RuleError> {
    check_capital_held(s)?;
    check_actions_left(s)?;
    if !fog::sees(s, s.turn.active, hex) {
        return refuse(
            "not_in_sight",
            "Dark",
            format!("in the dark, towns are built only where you can see; you cannot see {hex}"),
        );
    }
    check_site(s, hex, None)?;
    check_no_enemy_adjacent(s, hex)?;
    check_pillage(s, hex, false)?;
    if !within_reach_of_own_town(s, hex) {
        return refuse(
            "too_far",
            "7.21",
            format!("{hex} is not two or three revealed hexes from one of your towns or cities"),
        );
    }
    Ok(())
}

/// Rule 7.21, 7.22: a town may stand on `hex`: explored land, free of towns on and
/// around it (but for the town being moved from `moving_from`, 15.5) and of other
/// players' units. In the dark, by what the builder sees and remembers (H-24).
pub(crate) fn check_site(s: &Viktory, hex: Hex, moving_from: Option<Hex>) -> Result<(), RuleError> {
    let seat = s.turn.active;
    match fog::known_terrain(s, seat, hex) {
        None => {
            return refuse(
                "not_explored",
                "7.21",
                format!("towns are built on explored land; {hex} is not explored"),
            );
        }
        Some(t) if !t.is_land() => return refuse("not_land", "7.21", format!("{hex} is water")),
        Some(_) => {}
    }
    if s.town(hex).is_some() {
        return refuse(
            "town_there",
            "7.21",
            format!("{hex} already holds a town or city"),
        );
    }
    if hex
        .neighbors()
        .iter()
        .any(|&n| Some(n) != moving_from && fog::known_town(s, seat, n).is_some())
    {
        return refuse(
            "town_adjacent",
            "7.21",
            format!("{hex} is next to a town or city"),
        );
    }
    if fog::sees_enemy_units(s, seat, hex) {
        return refuse(
            "enemy_units",
            "7.22",
            format!("{hex} holds another player's units"),
        );
    }
    Ok(())
}

/// Expansion, Adjacent Enemy Units Restriction Enhancement: nothing is built or upgraded
/// next to enemy units.
fn check_no_enemy_adjacent(s: &Viktory, hex: Hex) -> Result<(), RuleError> {
    if s.rules.build_adjacent_enemy_restriction
        && hex
            .neighbors()
            .iter()
            .any(|&n| fog::sees_enemy_units(s, s.turn.active, n))
    {
        return refuse(
            "enemy_adjacent",
            "Expansion",
            format!("enemy units are next to {hex}"),
        );
    }
    Ok(())
}

/// What every upgrade needs (a city, or a Metropolis): the capital (7.1), the build
/// actions for it (Expansion), no enemy units next to it (Expansion).
pub fn check_upgrade(s: &Viktory, hex: Hex) -> Result<(), RuleError> {
    check_capital_held(s)?;
    check_actions_left(s)?;
    if actions_left(s) < city_cost(s) {
        return refuse(
            "build_actions",
            "Expansion",
            "an upgrade takes two build actions; one is left",
        );
    }
    check_no_enemy_adjacent(s, hex)?;
    check_pillage(s, hex, true)
}

/// Pillage Attack: nothing is built on or next to a pillaged hex, and no town or city
/// next to one is upgraded (the capital excepted).
fn check_pillage(s: &Viktory, hex: Hex, upgrade: bool) -> Result<(), RuleError> {
    let capital = s.town(hex).is_some_and(|t| t.capital_of == Some(t.owner));
    let blocked = crate::rules::pillage::next_to_pillage(s, hex)
        || (!upgrade && crate::rules::pillage::pillaged(s, hex));
    if blocked && !(upgrade && capital) {
        return refuse(
            "pillaged",
            "Expansion",
            format!("a pillaged hex is next to {hex}"),
        );
    }
    Ok(())
}

/// Rule 7.23: upgrading an own town into a city.
pub fn check_city(s: &Viktory, hex: Hex) -> Result<(), RuleError> {
    check_upgrade(s, hex)?;
    match s.town(hex) {
        Some(t) if t.owner == s.turn.active && !t.city => Ok(()),
        Some(t) if t.owner == s.turn.active => {
            refuse("already_city", "7.23", format!("{hex} is already a city"))
        }
        _ => refuse(
            "not_your_town",
            "7.23",
            format!("{hex} holds none of your towns"),
        ),
    }
}

/// Builds a town (7.2), reveals its neighbours (7.3), adds its infantry (7.4).
pub fn apply_town(s: &mut Viktory, hex: Hex, ev: &mut Vec<Event>) {
    found_town(s, hex, false, ev);
    s.turn.built = Some(hex);
    spend(s, 1, ev);
}

/// A new town of the active player, his capital if `capital`: it reveals its neighbours
/// (7.3) and adds its infantry to the reserve (7.4, 4.0 step 3).
pub fn found_town(s: &mut Viktory, hex: Hex, capital: bool, ev: &mut Vec<Event>) {
    let seat = s.turn.active;
    s.add_town(
        hex,
        Town {
            owner: seat,
            city: false,
            capital_of: capital.then_some(seat),
            metropolis: None,
        },
    );
    ev.push(if capital {
        Event::CapitalFounded { seat, hex }
    } else {
        Event::TownBuilt { seat, hex }
    });
    exploration::town_built(s, hex, ev);
    gain(s, seat, hex, false, ev);
}

/// Upgrades a town (7.23), reveals the hexes two away (7.3), adds the city's unit (7.4).
pub fn apply_city(s: &mut Viktory, hex: Hex, ev: &mut Vec<Event>) {
    let seat = s.turn.active;
    if let Some(t) = s.town_mut(hex) {
        t.city = true;
    }
    ev.push(Event::CityBuilt { seat, hex });
    // Building Phase Accelerator Enhancement: a new city reveals nothing more.
    if !s.rules.accelerator_enhancement {
        exploration::city_built(s, hex, ev);
    }
    gain(s, seat, hex, true, ev);
    spend_upgrade(s, ev);
}

/// Spends the build actions of an upgrade.
pub fn spend_upgrade(s: &mut Viktory, ev: &mut Vec<Event>) {
    spend(s, city_cost(s), ev);
}

/// Build actions an upgrade costs: one in the classic game, two with the Expansion's
/// Building Phase Accelerator, one again with its Enhancement.
pub fn city_cost(s: &Viktory) -> u8 {
    if s.rules.accelerator_enhancement {
        1
    } else {
        s.rules.build_actions.min(2)
    }
}

/// Build actions left this turn.
pub fn actions_left(s: &Viktory) -> u8 {
    s.rules
        .build_actions
        .saturating_sub(s.turn.build_actions_used)
}

/// Spends build actions; the phase ends when none are left (7.2, Expansion).
fn spend(s: &mut Viktory, cost: u8, ev: &mut Vec<Event>) {
    s.turn.build_actions_used = s.turn.build_actions_used.saturating_add(cost);
    if s.turn.stage == crate::state::Stage::SetupBuild {
        // Quicker Game Setup: one build per player per round.
        crate::rules::quick_setup::built(s, ev);
    } else if actions_left(s) == 0 && s.turn.stage == crate::state::Stage::Build {
        // Online, one phase for building and placement: it goes on with the placements.
        sequence::building_done(s, ev);
    }
}

/// Rule 7.4, 8.1, 8.2: the unit a new town (infantry) or city (by terrain) adds.
fn gain(s: &mut Viktory, seat: engine::Seat, hex: Hex, city: bool, ev: &mut Vec<Event>) {
    let terrain = s.terrain(hex).unwrap_or(crate::board::Terrain::Plains);
    // A town gives its infantry; an upgrade gives the city's units beyond the town's.
    let kinds: Vec<crate::unit::UnitKind> = if city {
        s.rules
            .supported(true, terrain)
            .into_iter()
            .skip(1)
            .flatten()
            .collect()
    } else {
        vec![crate::unit::UnitKind::Infantry]
    };
    for kind in kinds {
        if s.gain(seat, kind) {
            ev.push(Event::UnitGained { seat, kind });
        }
    }
}

/// Rule 15.5, R-8: instead of building, a player may move one of his towns or cities to
/// an adjacent hex; it counts as the turn's build.
pub fn check_relocate(s: &Viktory, from: Hex, to: Hex) -> Result<(), RuleError> {
    if !s.rules.relocation {
        return refuse(
            "not_enabled",
            "15.5",
            "town and city relocation is not in these rules",
        );
    }
    check_capital_held(s)?;
    if s.turn.build_actions_used > 0 {
        // a relocation is the turn's build, all of it.
        return refuse(
            "build_actions",
            "R-8",
            "a relocation is the whole turn's build, and you have built this turn",
        );
    }
    if s.town(from).is_none_or(|t| t.owner != s.turn.active) {
        return refuse(
            "not_your_town",
            "15.5",
            format!("{from} holds none of your towns or cities"),
        );
    }
    if from.distance(to) != 1 {
        return refuse(
            "not_adjacent",
            "15.5",
            format!("{to} is not next to {from}"),
        );
    }
    check_site(s, to, Some(from))
}

/// Moves the town or city: its units are given up (the owner chooses, 10.2) and the
/// rebuilt one's units gained, by the terrain of its new hex; it explores as if newly
/// built (7.3) and, like a new town, is not a road end or port this turn.
pub fn apply_relocate(s: &mut Viktory, from: Hex, to: Hex, ev: &mut Vec<Event>) {
    let seat = s.turn.active;
    let Some(town) = s.remove_town(from) else {
        return;
    };
    let old_terrain = s.terrain(from).unwrap_or(crate::board::Terrain::Plains);
    let owed = town.units(&s.rules, old_terrain, true);
    s.add_town(to, town);
    s.turn.built = Some(to);
    ev.push(Event::TownRelocated { seat, from, to });
    if town.city {
        exploration::city_rebuilt(s, to, ev);
    } else {
        exploration::town_built(s, to, ev);
    }
    let new_terrain = s.terrain(to).unwrap_or(crate::board::Terrain::Plains);
    for kind in town.units(&s.rules, new_terrain, true) {
        if s.gain(seat, kind) {
            ev.push(Event::UnitGained { seat, kind });
        }
    }
    s.capture = Some(crate::state::Capture {
        hex: to,
        loser: seat,
        owed,
        extra: None,
        relocation: true,
    });
    // relocation is the turn's build, all of it.
    spend(s, s.rules.build_actions, ev);
}
