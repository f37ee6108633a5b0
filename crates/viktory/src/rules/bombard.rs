//! 11.0 Bombard Attacks: artillery and frigates, range one or two (11.0), line of sight
//! (11.2, R-12), frigates with cargo (11.3), one attack per turn (10.6), the attack ends
//! movement (10.7), a single die with no return fire (11.1).

use hexmap::Hex;

use crate::board::Terrain;
use crate::error::RuleError;
use crate::event::Event;
use crate::rules::{casualties, fog, movement, subjugation};
use crate::state::{Bombardment, Viktory};
use crate::unit::{Unit, UnitId, UnitKind};

/// Rule 11.2: forest, mountain and any town or city block line of sight; so does a
/// face-down hex, whose terrain nobody knows (H-10).
/// Under 15.1 (terrain leveling) forests and mountains no longer block; towns and
/// cities still do.
fn blocks(s: &Viktory, hex: Hex) -> bool {
    let seat = s.turn.active;
    fog::known_town(s, seat, hex).is_some()
        || match fog::known_terrain(s, seat, hex) {
            None => true,
            Some(t) => t.is_slow() && !s.rules.terrain_leveling,
        }
}

/// Rule 11.2, R-12: line of sight from `from` to `target`. Range 1 is never blocked; at
/// range 2 at least one hex adjacent to both must not block; longer ranges (custom
/// rules) need the hexes of the straight line free.
pub fn line_of_sight(s: &Viktory, from: Hex, target: Hex) -> bool {
    if !s.rules.line_of_sight {
        return true;
    }
    match from.distance(target) {
        0 | 1 => true,
        // The hexes next to both (`Hex::common_neighbors`), without collecting them.
        2 => from
            .neighbors()
            .into_iter()
            .any(|h| h.distance(target) == 1 && !blocks(s, h)),
        _ => {
            let line = from.line_to(target);
            line[1..line.len() - 1].iter().all(|&h| !blocks(s, h))
        }
    }
}

/// The enemy owner of bombardable units in `target`: frigates on water, land units on
/// land; cargo is hit only with its frigate.
/// Alliance partners are no targets, except a Ruler's own Vassals (15.64).
pub fn target_owner(s: &Viktory, target: Hex, attacker: engine::Seat) -> Option<engine::Seat> {
    let water = s.terrain(target).is_some_and(|t| !t.is_land());
    s.units
        .iter()
        .find(|u| {
            u.hex == target
                && u.owner != attacker
                && u.aboard.is_none()
                && (u.kind == UnitKind::Frigate) == water
                && (!subjugation::allied(s, attacker, u.owner)
                    || subjugation::ruler_of(s, u.owner) == Some(attacker))
        })
        .map(|u| u.owner)
}

/// Rule 11.0: may `unit` bombard `target` now?
pub fn check(s: &Viktory, unit: UnitId, target: Hex) -> Result<(), RuleError> {
    let u = movement::own_unit(s, unit)?;
    match refusal(s, u, target, &movement::Switch::now(s)) {
        None => Ok(()),
        Some(why) => Err(why.error(s, u, target)),
    }
}

/// Whether [`check`] lets the active player's unit `u` bombard `target`: the same rules,
/// without writing a refusal, the position's [`movement::Switch`] worked out once (for
/// legal actions, which try every unit at every target in range).
pub(crate) fn allows(s: &Viktory, u: &Unit, target: Hex, switch: &movement::Switch) -> bool {
    refusal(s, u, target, switch).is_none()
}

/// Why [`check`] refuses a bombardment, before the message is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refusal {
    Transported,
    InPort,
    CannotBombard,
    Switch(movement::Wait),
    Ashore,
    Reorganizing,
    Attacked,
    BattlePending,
    Range,
    NotInSight,
    NoTarget,
    LineOfSight,
}

impl Refusal {
    /// The refusal as [`check`] reports it for `u` bombarding `target`.
    fn error(self, s: &Viktory, u: &Unit, target: Hex) -> RuleError {
        let unit = u.id;
        let (code, rule, message) = match self {
            Self::Transported => (
                "transported",
                "9.44",
                format!("artillery {unit} is transported this turn and cannot bombard"),
            ),
            Self::InPort => (
                "in_port",
                "9.32",
                "a frigate cannot bombard from a port".into(),
            ),
            Self::CannotBombard => (
                "cannot_bombard",
                "11.0",
                "only artillery and frigates bombard".into(),
            ),
            Self::Switch(wait) => return wait.error(),
            Self::Ashore => return movement::ashore_refusal(u.id),
            Self::Reorganizing => return subjugation::check_may_attack_refusal(),
            Self::Attacked => (
                "attacked",
                "10.6",
                format!("unit {unit} has already attacked this turn"),
            ),
            // H-9: a unit that entered a battle hex is committed to that battle.
            Self::BattlePending => (
                "battle_pending",
                "10.6",
                format!("unit {unit} is committed to the battle in its hex"),
            ),
            Self::Range => (
                "range",
                "11.0",
                format!("{target} is not 1 to {} hexes away", s.rules.bombard_range),
            ),
            Self::NotInSight => (
                "not_in_sight",
                "Dark",
                format!("you cannot see into {target}"),
            ),
            Self::NoTarget => (
                "no_target",
                "11.0",
                format!("{target} holds no enemy units a bombardment can hit"),
            ),
            Self::LineOfSight => (
                "line_of_sight",
                "11.2",
                format!("blocking terrain lies between {} and {target}", u.hex),
            ),
        };
        RuleError::new(code, rule, message)
    }
}

/// The rules of [`check`] for the active player's unit `u`, in its order: the first
/// that refuses the bombardment.
fn refusal(s: &Viktory, u: &Unit, target: Hex, switch: &movement::Switch) -> Option<Refusal> {
    use Refusal as R;
    match u.kind {
        UnitKind::Artillery => {
            // Artillery Characteristics: it may bombard after being transported.
            if u.is_cargo() || (u.transported && !s.rules.artillery_characteristics) {
                return Some(R::Transported);
            }
        }
        UnitKind::Frigate => {
            if s.terrain(u.hex).is_some_and(Terrain::is_land) {
                return Some(R::InPort);
            }
        }
        _ => return Some(R::CannotBombard),
    }
    if let Some(wait) = switch.wait_for(u.id) {
        return Some(R::Switch(wait));
    }
    if movement::afloat_on_ferry(s, u) {
        return Some(R::Ashore);
    }
    if !subjugation::may_attack(s, u.owner) {
        return Some(R::Reorganizing);
    }
    if u.attacked {
        return Some(R::Attacked);
    }
    if s.turn.pending_battles.contains(&u.hex) {
        return Some(R::BattlePending);
    }
    let d = u.hex.distance(target);
    if d == 0 || d > u32::from(s.rules.bombard_range) {
        return Some(R::Range);
    }
    if !fog::sees(s, u.owner, target) {
        return Some(R::NotInSight);
    }
    if target_owner(s, target, u.owner).is_none() {
        return Some(R::NoTarget);
    }
    if !line_of_sight(s, u.hex, target) {
        return Some(R::LineOfSight);
    }
    None
}

/// Declares the bombardment; the die is rolled next (a chance node).
pub fn apply(s: &mut Viktory, unit: UnitId, target: Hex, ev: &mut Vec<Event>) {
    movement::switch_to(s, unit, ev);
    let frigate_characteristics = s.rules.frigate_characteristics;
    let attacker = s.turn.active;
    let defender = target_owner(s, target, attacker).expect("checked");
    let u = s.unit_mut(unit);
    u.attacked = true;
    if u.kind == UnitKind::Frigate && s.rules.battle_dice_factors {
        s.turn.frigate_bombards.push((unit, target));
    }
    let u = s.unit_mut(unit);
    // Frigate Characteristics: a frigate may move on after its bombardment.
    let goes_on = frigate_characteristics && u.kind == UnitKind::Frigate;
    if !goes_on {
        u.done = true;
        u.mp = 0;
    }
    s.bombard = Some(Bombardment {
        unit,
        attacker,
        target,
        defender,
        roll: None,
    });
    ev.push(Event::Bombarded { unit, target });
    subjugation::attacked(s, attacker, defender, ev);
}

/// The die of a bombardment.
pub fn roll(s: &mut Viktory, value: u8, ev: &mut Vec<Event>) {
    if let Some(b) = s.bombard.as_mut() {
        b.roll = Some(value);
        ev.push(Event::DieRolled {
            seat: b.attacker,
            purpose: crate::event::DiePurpose::Bombard,
            value,
        });
    }
}

/// After the die: a miss ends it; a hit takes a casualty, chosen by the bombarding
/// player on a 1 and by the owner otherwise (10.1).
pub fn advance(s: &mut Viktory, ev: &mut Vec<Event>) -> bool {
    let Some(b) = s.bombard else { return false };
    if b.roll.is_none() {
        return false;
    }
    match casualties::pending(s) {
        None => {
            s.bombard = None;
            true
        }
        Some(choice) => match casualties::automatic(s, &choice) {
            Some(unit) => {
                casualties::choose(s, unit, ev);
                true
            }
            None => false,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::refuse;
    use engine::{Game, ToMove};

    /// [`check`] as it was written before its rules were listed in [`refusal`] (issue
    /// 28): each rule in turn, writing its refusal as it goes.
    fn check_reference(s: &Viktory, unit: UnitId, target: Hex) -> Result<(), RuleError> {
        let u = movement::own_unit(s, unit)?;
        match u.kind {
            UnitKind::Artillery => {
                if u.is_cargo() || (u.transported && !s.rules.artillery_characteristics) {
                    return refuse(
                        "transported",
                        "9.44",
                        format!("artillery {unit} is transported this turn and cannot bombard"),
                    );
                }
            }
            UnitKind::Frigate => {
                if s.terrain(u.hex).is_some_and(Terrain::is_land) {
                    return refuse("in_port", "9.32", "a frigate cannot bombard from a port");
                }
            }
            _ => {
                return refuse(
                    "cannot_bombard",
                    "11.0",
                    "only artillery and frigates bombard",
                );
            }
        }
        movement::tests::check_switch_reference(s, unit)?;
        movement::check_ashore(s, u)?;
        subjugation::check_may_attack(s, u.owner)?;
        if u.attacked {
            return refuse(
                "attacked",
                "10.6",
                format!("unit {unit} has already attacked this turn"),
            );
        }
        if s.turn.pending_battles.contains(&u.hex) {
            return refuse(
                "battle_pending",
                "10.6",
                format!("unit {unit} is committed to the battle in its hex"),
            );
        }
        let d = u.hex.distance(target);
        if d == 0 || d > u32::from(s.rules.bombard_range) {
            return refuse(
                "range",
                "11.0",
                format!("{target} is not 1 to {} hexes away", s.rules.bombard_range),
            );
        }
        if !fog::sees(s, u.owner, target) {
            return refuse(
                "not_in_sight",
                "Dark",
                format!("you cannot see into {target}"),
            );
        }
        if target_owner(s, target, u.owner).is_none() {
            return refuse(
                "no_target",
                "11.0",
                format!("{target} holds no enemy units a bombardment can hit"),
            );
        }
        if !line_of_sight(s, u.hex, target) {
            return refuse(
                "line_of_sight",
                "11.2",
                format!("blocking terrain lies between {} and {target}", u.hex),
            );
        }
        Ok(())
    }

    /// `check` refuses exactly as it did, word for word, and `allows` answers as
    /// `check`, for every unit (and a unit id no unit has) at every hex within three of
    /// it, at every decision of seeded random games whose rules touch bombardment:
    /// classic, Dark with independent exploration, the Expansion's frigates, artillery
    /// and ferries, and range 3 with line of sight along the line.
    #[test]
    fn bombard_checks_agree_with_the_reference() {
        let game = |preset: &str, on: &[&str]| crate::rules::fog::tests::game(preset, 3, on, 14);
        let mut long = game("classic", &[]);
        long.rules.bombard_range = 3;
        let games = [
            game("classic", &[]),
            game("online", &["dark", "independent_exploration"]),
            game(
                "expansion",
                &[
                    "frigate_characteristics",
                    "artillery_characteristics",
                    "road_ferry_network",
                    "subjugation",
                ],
            ),
            long,
        ];
        let (mut asked, mut allowed) = (0, 0);
        movement::tests::each_position(&games, 4, 17, |g, seed, s| {
            if matches!(s.to_move(), ToMove::Seat(_)) {
                let switch = movement::Switch::now(s);
                let ids = s.units.iter().map(|u| u.id).chain([UnitId(u16::MAX)]);
                for id in ids.collect::<Vec<_>>() {
                    let from = s.unit(id).map_or(Hex::ORIGIN, |u| u.hex);
                    for target in from.range(3) {
                        let at = format!("game {g}, seed {seed}, unit {id}, {target}");
                        let now = check(s, id, target);
                        assert_eq!(now, check_reference(s, id, target), "{at}");
                        if let Ok(u) = movement::own_unit(s, id) {
                            assert_eq!(allows(s, u, target, &switch), now.is_ok(), "{at}");
                        }
                        asked += 1;
                        allowed += usize::from(now.is_ok());
                    }
                }
            }
        });
        assert!(allowed > 200, "{allowed} of {asked} bombardments allowed");
    }
}
