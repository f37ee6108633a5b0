//! Rule 9.0–9.4: combat: declaring attacks, strengths with the halving and quartering
//! conventions (1.3), ratios and terrain shifts (9.3), the CRT (9.4) and step losses
//! (9.4.2); HQ losses (12.2).

use std::collections::BTreeMap;

use hexmap::Hex;

use crate::crt::Odds;
use crate::error::{Refusal, RuleError, refuse};
use crate::event::Event;
use crate::rules::{hq, pocket};
use crate::state::{Avl, Battle, BattleStage, Location, Phase, PieceId, Supply};
use crate::unit::Side;

/// Rule 9.3: the strengths and odds of a combat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CombatOdds {
    /// Total attack strength after halving.
    pub attack: u32,
    /// Total defense strength after halving.
    pub defense: u32,
    /// The final rung after shifts; `None`: impossible (9.3.4).
    pub odds: Option<Odds>,
}

/// Rules 1.3, 9.3.1: attack strength of units halved once per factor (river hexside,
/// out of supply or isolated), adding up stacked units with the same factors first.
pub fn attack_strength(s: &Avl, attackers: &[PieceId], target: Hex) -> u32 {
    let mut groups: BTreeMap<(Hex, u32), u32> = BTreeMap::new();
    for &u in attackers {
        let Some(h) = s.hex_of(u) else { continue };
        let mut halvings = 0;
        if s.map().side(h, target).river() {
            halvings += 1;
        }
        if s.piece(u).supply != Supply::InSupply {
            halvings += 1;
        }
        *groups.entry((h, halvings)).or_default() += u32::from(s.strengths(u).attack.0);
    }
    groups.iter().map(|(&(_, k), &v)| v >> k).sum()
}

/// Rules 1.3, 9.3.1: defense strength of the units in a hex, isolated units halved (added
/// up before halving).
pub fn defense_strength(s: &Avl, target: Hex) -> u32 {
    let (mut normal, mut isolated) = (0u32, 0u32);
    for u in s.units_at(target) {
        let d = u32::from(s.strengths(u).defense.0);
        if s.piece(u).supply == Supply::Isolated {
            isolated += d;
        } else {
            normal += d;
        }
    }
    normal + isolated / 2
}

/// Rules 9.3.2–9.3.5: the odds: the ratio rounded down to a column (above the last, to a
/// whole ratio), shifted down once per terrain shift; below 1-1 impossible; a defense of
/// 0 is resolved on the last column whatever the terrain.
pub fn odds(s: &Avl, attackers: &[PieceId], target: Hex) -> CombatOdds {
    let attack = attack_strength(s, attackers, target);
    let defense = defense_strength(s, target);
    let crt = &s.rules().data.crt;
    let top = Odds(crt.columns.len() as i32 - 1);
    let odds = if defense == 0 {
        Some(top)
    } else {
        crt.odds(attack, defense)
            .map(|o| Odds(o.0 - i32::from(s.map().shifts(target))))
            .filter(|o| o.0 >= 0)
    };
    CombatOdds {
        attack,
        defense,
        odds,
    }
}

fn can_attack_with(s: &Avl, u: PieceId, target: Hex) -> Result<(), Refusal> {
    let Some(a) = s.pos.activation.as_ref() else {
        return refuse("wrong_phase", "4.1.2", "no activation");
    };
    if usize::from(u.0) >= s.piece_count() || s.is_hq(u) || Some(s.side(u)) != s.pos.active {
        return refuse(
            "not_attacker",
            "9.0",
            "attacks are made by the active player's combat units",
        );
    }
    if !a.units.contains(&u) {
        return refuse(
            "not_activated",
            "9.1.1",
            "non-activated units cannot attack",
        );
    }
    if a.attacked.contains(&u)
        || s.pos
            .battle
            .as_ref()
            .is_some_and(|b| b.attackers.contains(&u))
    {
        return refuse(
            "attacked_already",
            "9.1.1",
            "a unit takes part in one attack per Combat Segment",
        );
    }
    let Some(h) = s.hex_of(u) else {
        return refuse("not_on_map", "9.0", "the unit is not on the map");
    };
    if !h.is_adjacent(target) {
        return refuse("not_adjacent", "9.0", "units attack adjacent hexes");
    }
    if s.map().side(h, target).impassable {
        return refuse(
            "impassable",
            "9.1.6",
            "no attack across an impassable hexside",
        );
    }
    Ok(())
}

/// Rule 9.2 (1): check that `u` attacks `target`.
pub fn check_attack(s: &Avl, u: PieceId, target: Hex) -> Result<(), RuleError> {
    Ok(judge_attack(s, u, target)?)
}

/// [`check_attack`], its refusal not made into a [`RuleError`]: for judging many
/// candidate attacks.
pub(crate) fn judge_attack(s: &Avl, u: PieceId, target: Hex) -> Result<(), Refusal> {
    if s.pos.phase != Phase::Combat {
        return refuse(
            "wrong_phase",
            "4.1.2",
            "attacks are made in the Combat Segment",
        );
    }
    match &s.pos.battle {
        Some(b) if b.stage != BattleStage::Declaring => {
            return refuse(
                "combat_in_progress",
                "9.2",
                "finish the current combat first",
            );
        }
        Some(b) if b.target != target => {
            return refuse(
                "one_combat",
                "9.2",
                "combats are declared and resolved one at a time",
            );
        }
        Some(_) => {}
        None => {
            let side = s.pos.active.unwrap_or(Side::Axis);
            if !s.units_at(target).any(|p| s.side(p) != side) {
                return refuse(
                    "no_defender",
                    "9.0",
                    "only hexes holding enemy combat units can be attacked",
                );
            }
            if s.pos
                .activation
                .as_ref()
                .is_some_and(|a| a.attacked_hexes.contains(&target))
            {
                return refuse(
                    "hex_attacked",
                    "9.1.4",
                    "a hex can be attacked only once per Combat Segment",
                );
            }
            if pocket::closed(s, target) {
                return refuse("pocket", "13.0", "the Stalingrad Pocket cannot be used yet");
            }
        }
    }
    can_attack_with(s, u, target)
}

/// Rule 9.2 (1): `u` joins the attack on `target`.
pub fn apply_attack(s: &mut Avl, u: PieceId, target: Hex) {
    match s.pos.battle.as_mut() {
        Some(b) => {
            b.attackers.push(u);
            b.attackers.sort();
        }
        None => {
            s.pos.battle = Some(Battle {
                target,
                attackers: vec![u],
                stage: BattleStage::Declaring,
                defenders: Vec::new(),
                hq_stacks: Vec::new(),
                odds: None,
                die: None,
                result: None,
                steps_left: 0,
                to_retreat: Vec::new(),
                retreating: None,
                retreated: Vec::new(),
                advancing: None,
                advanced: Vec::new(),
            });
        }
    }
}

fn declaring(s: &Avl) -> Result<&Battle, RuleError> {
    match &s.pos.battle {
        Some(b) if b.stage == BattleStage::Declaring && s.pos.phase == Phase::Combat => Ok(b),
        _ => refuse("no_declaration", "9.2", "no attack is being declared"),
    }
}

/// Rule 9.3.4: check resolving the declared attack.
pub fn check_resolve(s: &Avl) -> Result<(), RuleError> {
    let b = declaring(s)?;
    if odds(s, &b.attackers, b.target).odds.is_none() {
        return refuse(
            "impossible_odds",
            "9.3.4",
            "the final combat ratio is below 1-1: the attack is impossible",
        );
    }
    Ok(())
}

/// H-108: check withdrawing the declared attack (before the die is rolled).
pub fn check_cancel(s: &Avl) -> Result<(), RuleError> {
    declaring(s).map(|_| ())
}

/// Rule 9.2 (2): compute the odds and note the stacks; the die is rolled next.
pub fn apply_resolve(s: &mut Avl, ev: &mut Vec<Event>) {
    let Some(b) = s.pos.battle.clone() else {
        return;
    };
    let o = odds(s, &b.attackers, b.target);
    let defenders: Vec<PieceId> = s.units_at(b.target).collect();
    let mut hexes: Vec<Hex> = b.attackers.iter().filter_map(|&u| s.hex_of(u)).collect();
    hexes.push(b.target);
    hexes.sort();
    hexes.dedup();
    let hq_stacks = hexes
        .iter()
        .filter_map(|&h| s.hq_at(h).map(|q| (q, s.units_at(h).collect::<Vec<_>>())))
        .collect();
    ev.push(Event::Odds {
        target: b.target,
        attack: o.attack,
        defense: o.defense,
        column: o
            .odds
            .map(|x| s.rules().data.crt.ratio_name(x))
            .unwrap_or_default(),
    });
    if let Some(a) = s.pos.activation.as_mut() {
        a.attacked.extend(b.attackers.iter().copied());
        a.attacked.sort();
        a.attacked_hexes.push(b.target);
    }
    let bm = s.pos.battle.as_mut().expect("battle");
    bm.defenders = defenders;
    bm.hq_stacks = hq_stacks;
    bm.odds = o.odds;
    bm.stage = BattleStage::Rolling;
}

/// Rule 9.4.1: the die is rolled: the result applies.
pub fn apply_die(s: &mut Avl, die: u8, ev: &mut Vec<Event>) {
    let crt = &s.rules().data.crt;
    let Some(b) = s.pos.battle.as_ref() else {
        return;
    };
    let column = crt.column(b.odds.unwrap_or(Odds(0)));
    let result = crt.result(die, column);
    ev.push(Event::CombatResult { die, result });
    let b = s.pos.battle.as_mut().expect("battle");
    b.die = Some(die);
    b.result = Some(result);
    b.steps_left = result.attacker_steps;
    b.stage = BattleStage::AttackerLosses;
}

/// Alive units of the side losing steps now.
pub fn losers(s: &Avl) -> Vec<PieceId> {
    let Some(b) = &s.pos.battle else {
        return Vec::new();
    };
    let list = match b.stage {
        BattleStage::AttackerLosses => &b.attackers,
        BattleStage::DefenderLosses => &b.defenders,
        _ => return Vec::new(),
    };
    list.iter()
        .copied()
        .filter(|&u| matches!(s.location(u), Location::Map(_)))
        .collect()
}

/// Rule 9.4.2, H-110: whether the step losses leave no choice (one unit, or every step
/// lost).
pub fn losses_forced(s: &Avl) -> bool {
    let Some(b) = &s.pos.battle else { return true };
    let l = losers(s);
    let total: u32 = l.iter().map(|&u| u32::from(s.steps(u))).sum();
    l.len() <= 1 || u32::from(b.steps_left) >= total
}

/// Rule 9.4.2: check removing a step from `u`.
pub fn check_lose(s: &Avl, u: PieceId) -> Result<(), RuleError> {
    match &s.pos.battle {
        Some(b)
            if matches!(
                b.stage,
                BattleStage::AttackerLosses | BattleStage::DefenderLosses
            ) && b.steps_left > 0 => {}
        _ => return refuse("no_losses", "9.4.2", "no step losses are due"),
    }
    if !losers(s).contains(&u) {
        return refuse(
            "not_involved",
            "9.4.2",
            "steps are removed from the units involved in the combat",
        );
    }
    Ok(())
}

/// Rule 9.4.2: flip a full-strength unit, or eliminate a reduced or one-step unit.
pub fn lose_step(s: &mut Avl, u: PieceId, ev: &mut Vec<Event>) {
    let eliminated = s.steps(u) <= 1;
    if eliminated {
        s.set_location(u, Location::Eliminated);
    } else {
        s.piece_mut(u).reduced = true;
    }
    ev.push(Event::StepLost {
        unit: u,
        eliminated,
    });
}

/// Rule 9.4.2: one chosen step loss.
pub fn apply_lose(s: &mut Avl, u: PieceId, ev: &mut Vec<Event>) {
    lose_step(s, u, ev);
    if let Some(b) = s.pos.battle.as_mut() {
        b.steps_left = b.steps_left.saturating_sub(1);
    }
}

/// Rule 9.4.2: forced losses are taken without asking (the owner's choice cannot
/// matter): every step, or all on the only unit.
pub fn take_forced_losses(s: &mut Avl, ev: &mut Vec<Event>) {
    while s.pos.battle.as_ref().is_some_and(|b| b.steps_left > 0) {
        let l = losers(s);
        let Some(&u) = l.first() else {
            if let Some(b) = s.pos.battle.as_mut() {
                b.steps_left = 0;
            }
            break;
        };
        apply_lose(s, u, ev);
    }
}

/// Rule 12.2: HQs whose stacked combat units were all eliminated in this combat are
/// relocated.
pub fn hq_losses(s: &mut Avl) {
    let Some(b) = s.pos.battle.clone() else {
        return;
    };
    for (q, units) in &b.hq_stacks {
        if let Location::Map(h) = s.location(*q)
            && !units.is_empty()
            && units.iter().all(|&u| s.location(u) == Location::Eliminated)
        {
            hq::start_relocation(s, *q, h);
        }
    }
}

/// Check ending the Combat Segment.
pub fn check_end(s: &Avl) -> Result<(), RuleError> {
    if s.pos.phase != Phase::Combat || s.pos.battle.is_some() {
        return refuse("wrong_phase", "4.1.2", "not at the end of a Combat Segment");
    }
    Ok(())
}
