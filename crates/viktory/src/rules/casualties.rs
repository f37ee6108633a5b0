//! 10.1 Scoring hits and 10.2 Applying losses: who chooses each casualty, which units
//! can be chosen, and when the choice makes itself.

use engine::Seat;
use hexmap::Hex;

use crate::error::{RuleError, refuse};
use crate::event::Event;
use crate::state::{BattleStep, Viktory};
use crate::unit::{UnitId, UnitKind};

/// A casualty to be chosen now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// Who chooses: the firing player for a 1 (tactical victory), else the owner.
    pub chooser: Seat,
    /// Whose unit is lost.
    pub victim: Seat,
    /// Units that may be chosen, by id.
    pub candidates: Vec<UnitId>,
    /// Hits on the victim's side still to assign, this one included.
    pub hits_left: u8,
}

/// Units of `victim` in `hex` that a hit there can take: frigates in water,
/// land units (not cargo) on land; minus those already marked.
fn targets(s: &Viktory, hex: Hex, victim: Seat, marked: &[UnitId]) -> Vec<UnitId> {
    let water = s.terrain(hex).is_some_and(|t| !t.is_land());
    // Sorted, so that a big battle's many marked casualties are looked up quickly.
    let mut marked = marked.to_vec();
    marked.sort_unstable();
    s.units
        .iter()
        .filter(|u| u.hex == hex && u.owner == victim && u.aboard.is_none())
        .filter(|u| (u.kind == UnitKind::Frigate) == water)
        .filter(|u| marked.binary_search(&u.id).is_err())
        .map(|u| u.id)
        .collect()
}

/// The casualty choice waiting now, if any.
pub fn pending(s: &Viktory) -> Option<Choice> {
    if let Some(b) = &s.bombard {
        let roll = b.roll?;
        if roll > s.hit_max_for(b.attacker) {
            return None;
        }
        let candidates = targets(s, b.target, b.defender, &[]);
        if candidates.is_empty() {
            return None;
        }
        let chooser = if roll == 1 { b.attacker } else { b.defender };
        return Some(Choice {
            chooser,
            victim: b.defender,
            candidates,
            hits_left: 1,
        });
    }
    let b = s.battle.as_ref()?;
    if !matches!(
        b.step,
        BattleStep::PreBattleCasualties | BattleStep::Casualties | BattleStep::OverwatchCasualties
    ) {
        return None;
    }
    let overwatch = b.step == BattleStep::OverwatchCasualties;
    let on_defender = b.defender_hits.total();
    let on_attacker = b.attacker_hits.total();
    let order = [
        (
            b.defender_hits.tactical,
            b.attacker,
            b.defender,
            on_defender,
        ),
        (b.defender_hits.regular, b.defender, b.defender, on_defender),
        (
            b.attacker_hits.tactical,
            b.defender,
            b.attacker,
            on_attacker,
        ),
        (b.attacker_hits.regular, b.attacker, b.attacker, on_attacker),
    ];
    for (hits, chooser, victim, hits_left) in order {
        if hits == 0 {
            continue;
        }
        let mut candidates = targets(s, b.hex, victim, &b.marked);
        if overwatch && chooser != victim {
            // Cavalry are immune to Overwatch: the firer never picks them (the
            // attacker may choose to lose one for a hit he assigns himself).
            candidates.retain(|&id| s.unit(id).is_some_and(|u| u.kind != UnitKind::Cavalry));
        }
        if candidates.is_empty() {
            continue;
        }
        return Some(Choice {
            chooser,
            victim,
            candidates,
            hits_left,
        });
    }
    None
}

/// Units that differ in nothing that matters to their owner: same type, same cargo.
fn class(s: &Viktory, id: UnitId) -> (UnitKind, Vec<UnitKind>) {
    let kind = s.unit(id).map_or(UnitKind::Infantry, |u| u.kind);
    if kind != UnitKind::Frigate {
        // Only frigates carry cargo (9.41): no need to look through every unit.
        return (kind, Vec::new());
    }
    let mut cargo: Vec<UnitKind> = s
        .units
        .iter()
        .filter(|c| c.aboard == Some(id))
        .map(|c| c.kind)
        .collect();
    cargo.sort();
    (kind, cargo)
}

/// R-14's fixed policy: the order in which an owner loses his unit types: infantry
/// first, then artillery, then cavalry, frigates last.
pub(crate) const POLICY_ORDER: [UnitKind; 4] = [
    UnitKind::Infantry,
    UnitKind::Artillery,
    UnitKind::Cavalry,
    UnitKind::Frigate,
];

/// R-14's fixed policy: a type's place in [`POLICY_ORDER`].
pub(crate) fn policy_kind_rank(kind: UnitKind) -> u8 {
    POLICY_ORDER.iter().position(|&k| k == kind).unwrap_or(0) as u8
}

/// R-14's fixed policy: lose infantry first, then artillery, then cavalry, frigates
/// last; within a type the emptiest frigate first, then the lowest unit id.
pub(crate) fn policy_rank(s: &Viktory, id: UnitId) -> (u8, usize, UnitId) {
    let kind = s.unit(id).map_or(UnitKind::Infantry, |u| u.kind);
    let cargo = if kind == UnitKind::Frigate {
        s.units.iter().filter(|c| c.aboard == Some(id)).count()
    } else {
        0
    };
    (policy_kind_rank(kind), cargo, id)
}

/// The choice the rules make without asking: every candidate is lost anyway, or all
/// are alike, or R-14's policy decides an owner's own choice.
pub fn automatic(s: &Viktory, choice: &Choice) -> Option<UnitId> {
    let first = *choice.candidates.first()?;
    if usize::from(choice.hits_left) >= choice.candidates.len() {
        return Some(first);
    }
    let c0 = class(s, first);
    if choice.candidates.iter().all(|&id| class(s, id) == c0) {
        return Some(first);
    }
    if s.rules.auto_casualties && choice.chooser == choice.victim {
        return choice
            .candidates
            .iter()
            .copied()
            .min_by_key(|&id| policy_rank(s, id));
    }
    None
}

/// Rule 10.1: is `unit` a casualty the deciding player may choose now?
pub fn check(s: &Viktory, unit: UnitId) -> Result<(), RuleError> {
    match pending(s) {
        Some(c) if c.candidates.contains(&unit) => Ok(()),
        Some(_) => refuse(
            "not_a_target",
            "10.1",
            format!("unit {unit} cannot be taken as this casualty"),
        ),
        None => refuse("no_casualty", "10.1", "no casualty is to be chosen now"),
    }
}

/// Records one chosen casualty: marked in a battle (removed with the others), removed
/// at once by a bombardment.
pub fn choose(s: &mut Viktory, unit: UnitId, ev: &mut Vec<Event>) {
    let Some(choice) = pending(s) else { return };
    if s.bombard.is_some() {
        remove(s, unit, choice.chooser, true, ev);
        s.bombard = None;
        return;
    }
    let Some(b) = s.battle.as_mut() else { return };
    let hits = if choice.victim == b.defender {
        &mut b.defender_hits
    } else {
        &mut b.attacker_hits
    };
    if choice.chooser != choice.victim && hits.tactical > 0 {
        hits.tactical -= 1;
    } else if hits.regular > 0 {
        hits.regular -= 1;
    } else {
        hits.tactical = hits.tactical.saturating_sub(1);
    }
    b.marked.push(unit);
    ev.push(Event::UnitLost {
        unit,
        owner: choice.victim,
        kind: s.unit(unit).map_or(UnitKind::Infantry, |u| u.kind),
        chosen_by: choice.chooser,
    });
}

/// Rule 10.2, 9.45: a lost unit goes to its owner's reserve; a frigate's cargo with it.
/// `announce`: report the unit's loss (battle casualties were reported when chosen).
pub fn remove(s: &mut Viktory, unit: UnitId, chosen_by: Seat, announce: bool, ev: &mut Vec<Event>) {
    let Some(u) = s.unit(unit).cloned() else {
        return;
    };
    let cargo: Vec<(UnitId, UnitKind)> = s
        .units
        .iter()
        .filter(|c| c.aboard == Some(unit))
        .map(|c| (c.id, c.kind))
        .collect();
    s.players[u.owner.index()].reserve.gain(u.kind);
    if announce {
        ev.push(Event::UnitLost {
            unit,
            owner: u.owner,
            kind: u.kind,
            chosen_by,
        });
    }
    for (c, kind) in cargo {
        s.players[u.owner.index()].reserve.gain(kind);
        ev.push(Event::UnitLost {
            unit: c,
            owner: u.owner,
            kind,
            chosen_by,
        });
    }
    s.units.retain(|x| x.id != unit && x.aboard != Some(unit));
    s.refresh_occupancy();
    if s.turn.moving == Some(unit) {
        s.turn.moving = None;
    }
}
