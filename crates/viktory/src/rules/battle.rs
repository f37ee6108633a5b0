//! 12.0 Battle Attacks: starting a battle (12.0, 12.2, R-16), pre-battle artillery fire
//! (12.3 step 0), fire rounds with combined arms (steps 1–2), defender suppression
//! (12.31, R-15), naval support (12.32, 12.33), defensive terrain, simultaneous
//! casualties, the attacker's retreat option (step 3) and resolution (step 4).

use engine::Seat;
use hexmap::Hex;

use crate::board::Terrain;
use crate::error::{RuleError, refuse};
use crate::event::{DiePurpose, Event};
use crate::rules::Retreat;
use crate::rules::movement;
use crate::rules::{battle_dice, capital, casualties, naval, subjugation};
use crate::state::{Battle, BattleStep, Hits, Viktory, saturating_u8};
use crate::unit::{UnitId, UnitKind};

/// Units of `seat` fighting in `hex` (cargo never fights, 9.45).
fn fighters(s: &Viktory, hex: Hex, seat: Seat) -> impl Iterator<Item = &crate::unit::Unit> + '_ {
    s.units
        .iter()
        .filter(move |u| u.hex == hex && u.owner == seat && u.aboard.is_none())
}

fn count(s: &Viktory, hex: Hex, seat: Seat) -> usize {
    fighters(s, hex, seat).count()
}

/// Rule 12.0: may the active player start the battle at `hex`?
pub fn check_fight(s: &Viktory, hex: Hex) -> Result<(), RuleError> {
    movement::check_port_clear(s)?;
    if s.turn.pending_battles.contains(&hex) {
        Ok(())
    } else {
        refuse(
            "no_battle",
            "12.0",
            format!("no units of yours have entered {hex} to fight"),
        )
    }
}

/// Starts the battle at `hex`: every attacking unit there has attacked (10.6, 10.7).
pub fn apply_fight(s: &mut Viktory, hex: Hex, ev: &mut Vec<Event>) {
    let attacker = s.turn.active;
    s.turn.pending_battles.retain(|&h| h != hex);
    s.turn.battle_hexes.push(hex);
    // Frigate Characteristics: a frigate that landed units here may move on after the
    // battle; it stays the moving unit.
    let frigate_on = s.rules.frigate_characteristics
        && s.turn
            .moving
            .and_then(|m| s.unit(m))
            .is_some_and(|f| f.kind == UnitKind::Frigate && f.hex != hex);
    if !frigate_on {
        s.turn.moving = None;
    }
    start(s, hex, attacker, false, ev);
}

/// Starts a battle at `hex` with `attacker` against whoever else is there.
pub fn start(s: &mut Viktory, hex: Hex, attacker: Seat, placement: bool, ev: &mut Vec<Event>) {
    let defender = s
        .units
        .iter()
        .find(|u| u.hex == hex && u.owner != attacker && u.aboard.is_none())
        .map(|u| u.owner)
        .or_else(|| s.town(hex).map(|t| t.owner))
        .unwrap_or(attacker);
    let naval = s.terrain(hex).is_some_and(|t| !t.is_land());
    let mut entries: Vec<Hex> = Vec::new();
    let mut artillery = 0u8;
    for u in s
        .units
        .iter_mut()
        .filter(|u| u.hex == hex && u.owner == attacker && u.aboard.is_none())
    {
        u.attacked = true;
        u.done = true;
        u.mp = 0;
        if let Some(e) = u.entered_from {
            entries.push(e);
        }
        if u.kind == UnitKind::Artillery {
            artillery = artillery.saturating_add(1);
        }
    }
    entries.sort();
    entries.dedup();
    ev.push(Event::BattleStarted {
        hex,
        attacker,
        defender,
    });
    subjugation::attacked(s, attacker, defender, ev);
    let pre = battle_dice::attacker_pre_battle_dice(&s.rules, naval, artillery);
    s.battle = Some(Battle {
        hex,
        attacker,
        defender,
        naval,
        placement,
        round: 0,
        step: BattleStep::PreBattleFire,
        to_roll: pre,
        rolls: vec![],
        defender_hits: Hits::default(),
        attacker_hits: Hits::default(),
        suppressed: 0,
        marked: vec![],
        entries,
        retreat_to: None,
        averaging: false,
        sure_hits: 0,
    });
    let attackers = battle_dice::composition(s, hex, attacker);
    let overwatch =
        battle_dice::overwatch_dice(s, hex, attacker, defender, attackers, naval || placement);
    if overwatch > 0 {
        let b = s.battle.as_mut().expect("battle");
        b.step = BattleStep::Overwatch;
        b.to_roll = overwatch;
        return;
    }
    if pre == 0 && !start_defender_pre_battle(s) {
        start_round(s, ev);
    }
}

/// After Overwatch: the attacker's pre-battle fire with the artillery he has left.
fn after_overwatch(s: &mut Viktory, ev: &mut Vec<Event>) {
    let Some(b) = s.battle.as_ref() else { return };
    let (hex, attacker) = (b.hex, b.attacker);
    if count(s, hex, attacker) == 0 {
        let defender = b.defender;
        end(s, defender, ev);
        return;
    }
    let artillery = saturating_u8(
        fighters(s, hex, attacker)
            .filter(|u| u.kind == UnitKind::Artillery)
            .count(),
    );
    let pre = battle_dice::attacker_pre_battle_dice(&s.rules, false, artillery);
    let b = s.battle.as_mut().expect("battle");
    b.step = BattleStep::PreBattleFire;
    b.to_roll = pre;
    if pre == 0 && !start_defender_pre_battle(s) {
        start_round(s, ev);
    }
}

/// Expansion, Artillery Pre-Battle Fire Enhancement: the defending artillery fires in
/// the pre-battle segment too, before either side's casualties are removed. Returns
/// whether that fire starts.
fn start_defender_pre_battle(s: &mut Viktory) -> bool {
    let Some(b) = s.battle.as_ref() else {
        return false;
    };
    let artillery = saturating_u8(
        fighters(s, b.hex, b.defender)
            .filter(|u| u.kind == UnitKind::Artillery)
            .count(),
    );
    let dice = battle_dice::defender_pre_battle_dice(&s.rules, b.naval, artillery);
    if dice == 0 {
        return false;
    }
    let b = s.battle.as_mut().expect("battle");
    b.step = BattleStep::PreBattleDefense;
    b.to_roll = dice;
    true
}

fn start_round(s: &mut Viktory, ev: &mut Vec<Event>) {
    let Some(b) = s.battle.as_ref() else { return };
    let (hex, attacker, defender) = (b.hex, b.attacker, b.defender);
    // With no defending units to hit, the attacker's dice could change nothing; the
    // round is the one the defender's town or city forces (12.3 step 2, Note; H-5).
    let dice = if count(s, hex, defender) == 0 {
        0
    } else {
        let field = battle_dice::field(s, hex, attacker, defender, b.naval);
        let present = battle_dice::composition(s, hex, attacker);
        let sides: Vec<Hex> = fighters(s, hex, attacker)
            .filter_map(|u| u.entered_from)
            .collect();
        battle_dice::attacker_dice(&s.rules, &field, present, &sides)
    };
    let averaging = s.rules.luck_averaging;
    let b = s.battle.as_mut().expect("battle");
    b.round = b.round.saturating_add(1);
    b.rolls.clear();
    b.suppressed = 0;
    fire(b, BattleStep::AttackerFire, dice, averaging);
    ev.push(Event::RoundStarted { round: b.round });
}

/// Starts a fire round of `dice` dice; with luck averaging (15.4) the roller first says
/// how many pairs he does not roll.
fn fire(b: &mut Battle, step: BattleStep, dice: u8, averaging: bool) {
    b.step = step;
    b.to_roll = dice;
    b.sure_hits = 0;
    b.averaging = averaging && max_pairs(dice) > 0;
}

/// Rule 15.4: the pairs of dice that may go unrolled: the odd dice (first, third,
/// fifth...) must be rolled, so only the even ones can form pairs.
pub fn max_pairs(dice: u8) -> u8 {
    dice / 2 / 2
}

/// The seat rolling the current fire round.
pub fn roller(b: &Battle) -> Seat {
    if b.step == BattleStep::DefenderFire {
        b.defender
    } else {
        b.attacker
    }
}

/// Rule 15.4: may the roller trade `pairs` pairs of dice for sure hits now?
pub fn check_average(s: &Viktory, pairs: u8) -> Result<(), RuleError> {
    match s.battle.as_ref() {
        Some(b) if b.averaging && pairs <= max_pairs(b.to_roll) => Ok(()),
        Some(b) if b.averaging => refuse(
            "too_many_pairs",
            "15.4",
            format!(
                "at most {} pairs of dice may go unrolled",
                max_pairs(b.to_roll)
            ),
        ),
        _ => refuse(
            "no_averaging",
            "15.4",
            "no luck averaging choice is open now",
        ),
    }
}

/// Rule 15.4: each pair not rolled is one hit of the opponent's choosing.
pub fn apply_average(s: &mut Viktory, pairs: u8, ev: &mut Vec<Event>) {
    let Some(b) = s.battle.as_mut() else { return };
    b.averaging = false;
    b.to_roll = b.to_roll.saturating_sub(pairs.saturating_mul(2));
    b.sure_hits = pairs;
    ev.push(Event::LuckAveraged {
        seat: roller(b),
        pairs,
    });
}

/// Rule 12.3 step 2: the defender's dice, after suppression (12.31, R-15).
fn defender_dice(s: &Viktory, b: &Battle, ev: &mut Vec<Event>) -> (u8, u8) {
    let field = battle_dice::field(s, b.hex, b.attacker, b.defender, b.naval);
    let present = battle_dice::composition(s, b.hex, b.defender);
    let defenders = saturating_u8(count(s, b.hex, b.defender));
    let (dice, suppressed) = battle_dice::defender_dice(
        &s.rules,
        &field,
        present,
        defenders,
        b.defender_hits.total(),
    );
    if suppressed > 0 {
        ev.push(Event::Suppressed { dice: suppressed });
    }
    (dice, suppressed)
}

/// One die of the current fire step.
pub fn roll(s: &mut Viktory, value: u8, ev: &mut Vec<Event>) {
    let Some(b) = s.battle.as_mut() else { return };
    let (seat, purpose) = match b.step {
        BattleStep::PreBattleFire => (b.attacker, DiePurpose::PreBattle),
        BattleStep::Overwatch => (b.defender, DiePurpose::Overwatch),
        BattleStep::PreBattleDefense => (b.defender, DiePurpose::PreBattle),
        BattleStep::AttackerFire => (b.attacker, DiePurpose::Attack),
        _ => (b.defender, DiePurpose::Defense),
    };
    b.rolls.push(value);
    b.to_roll = b.to_roll.saturating_sub(1);
    ev.push(Event::DieRolled {
        seat,
        purpose,
        value,
    });
}

/// Moves the battle on until a die or a decision is needed. Returns whether anything
/// happened.
pub fn advance(s: &mut Viktory, ev: &mut Vec<Event>) -> bool {
    let Some(b) = s.battle.clone() else {
        return false;
    };
    match b.step {
        BattleStep::PreBattleFire
        | BattleStep::PreBattleDefense
        | BattleStep::AttackerFire
        | BattleStep::DefenderFire
        | BattleStep::Overwatch
            if b.averaging || b.to_roll > 0 =>
        {
            false
        }
        BattleStep::Overwatch => {
            let hits = Hits::from_rolls(&b.rolls, s.hit_max_for(b.defender));
            let bm = s.battle.as_mut().expect("battle");
            bm.attacker_hits = hits;
            bm.rolls.clear();
            bm.step = BattleStep::OverwatchCasualties;
            true
        }
        BattleStep::OverwatchCasualties => {
            if let Some(progressed) = choose_casualties(s, ev) {
                return progressed;
            }
            remove_marked(s, ev);
            after_overwatch(s, ev);
            true
        }
        BattleStep::PreBattleFire => {
            let hits = Hits::from_rolls(&b.rolls, s.hit_max_for(b.attacker));
            let bm = s.battle.as_mut().expect("battle");
            bm.defender_hits = hits;
            bm.rolls.clear();
            if !start_defender_pre_battle(s) {
                s.battle.as_mut().expect("battle").step = BattleStep::PreBattleCasualties;
            }
            true
        }
        BattleStep::PreBattleDefense => {
            let hits = Hits::from_rolls(&b.rolls, s.hit_max_for(b.defender));
            let bm = s.battle.as_mut().expect("battle");
            bm.attacker_hits = hits;
            bm.rolls.clear();
            bm.step = BattleStep::PreBattleCasualties;
            true
        }
        BattleStep::AttackerFire => {
            let mut hits = Hits::from_rolls(&b.rolls, s.hit_max_for(b.attacker));
            hits.regular = hits.regular.saturating_add(b.sure_hits);
            s.battle.as_mut().expect("battle").defender_hits = hits;
            let current = s.battle.clone().expect("battle");
            let (dice, suppressed) = defender_dice(s, &current, ev);
            let averaging = s.rules.luck_averaging;
            let bm = s.battle.as_mut().expect("battle");
            bm.rolls.clear();
            bm.suppressed = suppressed;
            fire(bm, BattleStep::DefenderFire, dice, averaging);
            true
        }
        // H-4: both sides' casualties are chosen after the defender has fired.
        BattleStep::DefenderFire => {
            let mut hits = Hits::from_rolls(&b.rolls, s.hit_max_for(b.defender));
            hits.regular = hits.regular.saturating_add(b.sure_hits);
            let bm = s.battle.as_mut().expect("battle");
            bm.attacker_hits = hits;
            bm.rolls.clear();
            bm.step = BattleStep::Casualties;
            true
        }
        BattleStep::PreBattleCasualties | BattleStep::Casualties => {
            if let Some(progressed) = choose_casualties(s, ev) {
                return progressed;
            }
            remove_marked(s, ev);
            after_casualties(s, b.step == BattleStep::PreBattleCasualties, ev);
            true
        }
        BattleStep::RetreatOption => false,
        BattleStep::Retreating => {
            if count(s, b.hex, b.attacker) == 0 {
                end(s, b.defender, ev);
                true
            } else {
                false
            }
        }
    }
}

/// A casualty still to be chosen: made when it makes itself (`Some(true)`), else left to
/// its chooser (`Some(false)`); `None` when every casualty is chosen.
fn choose_casualties(s: &mut Viktory, ev: &mut Vec<Event>) -> Option<bool> {
    let choice = casualties::pending(s)?;
    Some(match casualties::automatic(s, &choice) {
        Some(unit) => {
            casualties::choose(s, unit, ev);
            true
        }
        None => false,
    })
}

/// Rule 12.3 step 2, "Remove Casualties": both sides' casualties go to the reserves
/// together.
fn remove_marked(s: &mut Viktory, ev: &mut Vec<Event>) {
    let Some(b) = s.battle.as_mut() else { return };
    let marked = std::mem::take(&mut b.marked);
    let chooser = b.attacker;
    b.defender_hits = Hits::default();
    b.attacker_hits = Hits::default();
    for unit in marked {
        // The unit's own loss was reported when it was chosen.
        casualties::remove(s, unit, chooser, false, ev);
    }
}

fn after_casualties(s: &mut Viktory, pre_battle: bool, ev: &mut Vec<Event>) {
    let Some(b) = s.battle.clone() else { return };
    let attackers = count(s, b.hex, b.attacker);
    let defenders = count(s, b.hex, b.defender);
    let town = s.town(b.hex).is_some_and(|t| t.owner == b.defender);
    if pre_battle {
        // 12.3 step 0: outside a town or city, a defence wiped out by pre-battle fire
        // loses at once; an attack wiped out by the defenders' artillery (Expansion)
        // is over too.
        if attackers == 0 {
            end(s, b.defender, ev);
        } else if defenders == 0 && !town {
            end(s, b.attacker, ev);
        } else {
            start_round(s, ev);
        }
        return;
    }
    if attackers == 0 {
        end(s, b.defender, ev);
    } else if defenders == 0 {
        end(s, b.attacker, ev);
    } else if !b.placement && retreat_possible(s, &b) {
        s.battle.as_mut().expect("battle").step = BattleStep::RetreatOption;
    } else {
        start_round(s, ev);
    }
}

/// Rule 12.3 step 4: the battle ends; a won town or city is captured (10.3).
fn end(s: &mut Viktory, winner: Seat, ev: &mut Vec<Event>) {
    let Some(b) = s.battle.take() else { return };
    ev.push(Event::BattleEnded { hex: b.hex, winner });
    if winner == b.attacker && !b.naval && s.town(b.hex).is_some_and(|t| t.owner == b.defender) {
        if subjugation::applies(s, b.hex, b.defender) {
            subjugation::subjugate(s, b.hex, b.attacker, b.defender, ev);
        } else {
            capital::capture(s, b.hex, b.attacker, b.defender, ev);
        }
    }
}

/// Where a retreating unit of the attacker may go from the battle hex (12.3 step 3):
/// an adjacent hex some attacking unit entered from; land units to land, or aboard an
/// own frigate with room there; frigates to water. Never into enemy units.
fn retreat_ok(s: &Viktory, b: &Battle, unit: &crate::unit::Unit, to: Hex) -> Result<(), RuleError> {
    if !b.entries.contains(&to) || b.hex.distance(to) != 1 {
        return refuse(
            "retreat_hex",
            "12.3",
            format!("no attacking unit entered the battle from {to}"),
        );
    }
    if s.enemy_units_at(to, b.attacker) {
        return refuse("retreat_hex", "12.3", format!("{to} holds enemy units"));
    }
    if s.town(to).is_some_and(|t| t.owner != b.attacker) {
        // Cavalry Characteristics: a cavalry that rode through an enemy town or city
        // does not retreat back into it.
        return refuse(
            "retreat_hex",
            "12.3",
            format!("{to} holds an enemy town or city"),
        );
    }
    let water = s.terrain(to).is_some_and(|t| !t.is_land());
    if s.rules.retreat == Retreat::OneHexNoFrigate {
        // Original VIKTORY: every unit into the same hex, never back onto a frigate.
        if b.retreat_to.is_some_and(|h| h != to) {
            return refuse(
                "one_retreat_hex",
                "R-1",
                "the attacker retreats all his units into one hex",
            );
        }
        if unit.kind.is_land() && water {
            return refuse(
                "no_frigate_retreat",
                "R-1",
                "land units do not retreat onto frigates",
            );
        }
    }
    match (unit.kind.is_land(), water) {
        (true, false) | (false, true) => Ok(()),
        (true, true) if frigate_with_room(s, b.attacker, to).is_some() => Ok(()),
        (true, true) => refuse(
            "no_frigate",
            "12.3",
            format!("no frigate of yours at {to} has room"),
        ),
        (false, false) => refuse("retreat_hex", "12.3", "frigates retreat to water"),
    }
}

/// An own frigate at `hex` with room for one more land unit (9.41).
pub(crate) fn frigate_with_room(s: &Viktory, seat: Seat, hex: Hex) -> Option<UnitId> {
    s.units
        .iter()
        .find(|f| {
            f.hex == hex
                && f.owner == seat
                && f.kind == UnitKind::Frigate
                && naval::has_room(s, f.id)
        })
        .map(|f| f.id)
}

/// Whether every attacking unit can retreat somewhere, frigate room counted jointly (H-7).
fn retreat_possible(s: &Viktory, b: &Battle) -> bool {
    let units: Vec<_> = fighters(s, b.hex, b.attacker).cloned().collect();
    let land_units = units.iter().filter(|u| u.kind.is_land()).count();
    let frigates = units.len() - land_units;
    retreat_ways(s, b.attacker, &b.entries).allow(s.rules.retreat, land_units, frigates)
}

/// Where an attacker who entered a battle hex from `entries` could retreat to (12.3
/// step 3): a free land entry hex, a free water entry hex, and the room aboard his
/// frigates in the entry hexes.
pub(crate) fn retreat_ways(s: &Viktory, attacker: Seat, entries: &[Hex]) -> RetreatWays {
    let land_entry = entries
        .iter()
        .any(|&e| s.terrain(e).is_some_and(Terrain::is_land) && !s.enemy_units_at(e, attacker));
    let water_entry = entries
        .iter()
        .any(|&e| s.terrain(e).is_some_and(|t| !t.is_land()) && !s.enemy_units_at(e, attacker));
    let room: usize = s
        .units
        .iter()
        .filter(|f| f.kind == UnitKind::Frigate && f.owner == attacker && entries.contains(&f.hex))
        .map(|f| {
            let cap =
                usize::from(s.rules.frigate_capacity).saturating_sub(naval::cargo_count(s, f.id));
            cap.min(usize::from(
                s.rules.frigate_loads_per_turn.saturating_sub(f.loads),
            ))
        })
        .sum();
    RetreatWays {
        land_entry,
        water_entry,
        room,
    }
}

/// The retreat routes open to an attacker (12.3 step 3), see [`retreat_ways`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct RetreatWays {
    /// A land hex some attacking unit entered from, free of enemy units.
    pub(crate) land_entry: bool,
    /// A water hex some attacking unit entered from, free of enemy units.
    pub(crate) water_entry: bool,
    /// Land units the attacker's frigates in the entry hexes can still take aboard.
    pub(crate) room: usize,
}

impl RetreatWays {
    /// Whether `land_units` land units and `frigates` frigates can all retreat, frigate
    /// room counted jointly (H-7); the original VIKTORY sends everyone into one hex and
    /// never onto a frigate.
    pub(crate) fn allow(self, retreat: Retreat, land_units: usize, frigates: usize) -> bool {
        if retreat == Retreat::OneHexNoFrigate {
            // One hex for everyone: land for land units, water for frigates.
            return if land_units > 0 {
                self.land_entry && frigates == 0
            } else {
                self.water_entry
            };
        }
        if frigates > 0 && !self.water_entry {
            return false;
        }
        land_units == 0 || self.land_entry || self.room >= land_units
    }
}

/// Rule 12.3 step 3: may `unit` retreat to `to` now?
pub fn check_retreat(s: &Viktory, unit: UnitId, to: Hex) -> Result<(), RuleError> {
    let Some(b) = s.battle.as_ref() else {
        return refuse("no_battle", "12.3", "there is no battle");
    };
    match s.unit(unit) {
        Some(u) if u.owner == b.attacker && u.hex == b.hex && u.aboard.is_none() => {
            retreat_ok(s, b, u, to)
        }
        _ => refuse(
            "not_attacking",
            "12.3",
            format!("unit {unit} is not an attacking unit in this battle"),
        ),
    }
}

/// Retreats one unit; the rest must follow (12.3 step 3).
pub fn apply_retreat(s: &mut Viktory, unit: UnitId, to: Hex, ev: &mut Vec<Event>) {
    let one_hex = s.rules.retreat == Retreat::OneHexNoFrigate;
    let Some(b) = s.battle.as_mut() else { return };
    b.step = BattleStep::Retreating;
    if one_hex {
        b.retreat_to = Some(to);
    }
    let attacker = b.attacker;
    let kind = s.unit(unit).map(|u| u.kind);
    let water = s.terrain(to).is_some_and(|t| !t.is_land());
    let frigate = if kind.is_some_and(UnitKind::is_land) && water {
        frigate_with_room(s, attacker, to)
    } else {
        None
    };
    let u = s.unit_mut(unit);
    u.hex = to;
    u.aboard = frigate;
    for c in s.units.iter_mut().filter(|c| c.aboard == Some(unit)) {
        c.hex = to;
    }
    if let Some(f) = frigate {
        let f = s.unit_mut(f);
        f.loads = f.loads.saturating_add(1);
    }
    s.refresh_occupancy();
    ev.push(Event::Retreated { unit, to });
}

/// Rule 12.3 step 3: fight another round.
pub fn apply_continue(s: &mut Viktory, ev: &mut Vec<Event>) {
    start_round(s, ev);
}
