//! One truth for legality: which actions fit the moment, and the rule that refuses
//! the others.

use engine::ToMove;

use crate::action::Action;
use crate::error::{RuleError, refuse};
use crate::rules::{
    battle, bombard, building, capital, casualties, customization, exploration, movement, naval,
    opening, reserve, sequence,
};
use crate::state::{BattleStep, Stage, Viktory};

/// Checks `action` against the rules in the current position.
pub fn check(s: &Viktory, action: &Action) -> Result<(), RuleError> {
    let chance_action = matches!(action, Action::Draw { .. })
        || matches!(
            action,
            Action::FirstPlayer { .. } | Action::Reveal { .. } | Action::Die { .. }
        );
    match sequence::to_move(s) {
        ToMove::Over(_) => refuse("game_over", "5.0", "the game is over"),
        ToMove::Chance if !chance_action => refuse(
            "chance_pending",
            "6.0",
            "a die roll or a tile reveal must be resolved first",
        ),
        ToMove::Chance => check_chance(s, action),
        ToMove::Seat(_) if chance_action => refuse(
            "not_chance",
            "6.0",
            "no die or tile is waiting to be resolved",
        ),
        ToMove::Seat(_) => check_decision(s, action),
    }
}

fn check_chance(s: &Viktory, action: &Action) -> Result<(), RuleError> {
    match (sequence::chance_kind(s), *action) {
        (sequence::Chance::Reveal, Action::Reveal { hex, terrain }) => {
            exploration::check_reveal(s, hex, terrain)
        }
        (sequence::Chance::Draw, Action::Draw { terrain }) => customization::check_draw(s, terrain),
        (sequence::Chance::FirstPlayer, Action::FirstPlayer { seat })
            if crate::legal::first_player_candidates(s).contains(&seat) =>
        {
            Ok(())
        }
        (sequence::Chance::FirstPlayer, Action::FirstPlayer { seat }) => {
            refuse("no_seat", "4.0", format!("there is no {seat}"))
        }
        (sequence::Chance::Die, Action::Die { value }) if (1..=6).contains(&value) => Ok(()),
        (sequence::Chance::Die, Action::Die { value }) => refuse(
            "die_value",
            "10.1",
            format!("a die shows 1 to 6, not {value}"),
        ),
        _ => refuse(
            "wrong_chance",
            "6.0",
            "that is not the chance event waiting to be resolved",
        ),
    }
}

fn wrong_moment(what: &str) -> Result<(), RuleError> {
    refuse(
        "wrong_phase",
        "6.0",
        format!("{what} is not possible at this moment"),
    )
}

fn check_decision(s: &Viktory, action: &Action) -> Result<(), RuleError> {
    if !s.reveals.is_empty() {
        return match *action {
            Action::RedrawWater { .. } => customization::check_redraw(s),
            Action::Arrange { .. } if customization::redraw_open(s) => refuse(
                "redraw_pending",
                "Expansion",
                "first say whether to redraw a water tile",
            ),
            Action::Arrange { hex, terrain } => customization::check_arrange(s, hex, terrain),
            _ => refuse(
                "arrange_pending",
                "Expansion",
                "first lay the drawn tiles on the revealed hexes",
            ),
        };
    }
    if s.balance.is_some() {
        return match *action {
            Action::Rebalance { hex } => exploration::check_rebalance(s, hex),
            _ => refuse(
                "balancing_pending",
                "15.3",
                "first say whether to swap a revealed water hex",
            ),
        };
    }
    if casualties::pending(s).is_some() {
        return match *action {
            Action::Casualty { unit } => casualties::check(s, unit),
            _ => refuse(
                "casualty_pending",
                "10.1",
                "a casualty must be chosen first",
            ),
        };
    }
    if let Some(b) = &s.battle {
        return match *action {
            Action::Average { pairs } => battle::check_average(s, pairs),
            Action::Continue if b.step == BattleStep::RetreatOption => Ok(()),
            Action::Continue => refuse(
                "retreating",
                "12.3",
                "once retreating, every attacking unit must retreat",
            ),
            Action::Retreat { unit, to } => battle::check_retreat(s, unit, to),
            _ => refuse(
                "battle_decision",
                "12.3",
                "the attacker must retreat or fight another round",
            ),
        };
    }
    if let Some(h) = &s.handover {
        use crate::rules::subjugation::{self, HandoverStep};
        return match (h.step, *action) {
            (HandoverStep::Evacuate, Action::Evacuate { unit, to }) => {
                subjugation::check_evacuate(s, unit, to)
            }
            (HandoverStep::Battles, Action::Fight { hex }) if h.battles.contains(&hex) => {
                battle::check_fight(s, hex)
            }
            (HandoverStep::Reinforce, Action::Place { kind, town, to }) => {
                subjugation::check_reinforce(s, kind, town, to)
            }
            (HandoverStep::Reinforce, Action::EndPhase) => Ok(()),
            _ => refuse(
                "handover_pending",
                "15.62",
                "the returned capital must be handed back first",
            ),
        };
    }
    if s.capture.is_some() {
        return match *action {
            Action::Disband { kind, unit } => capital::check_disband(s, kind, unit),
            Action::SwitchMetropolis { hex, extra } => {
                crate::rules::metropolis::check_switch(s, hex, extra)
            }
            _ => refuse(
                "disband_pending",
                "10.2",
                "the units of the lost town or city must be given up first",
            ),
        };
    }
    match (s.turn.stage, action) {
        (Stage::Opening, &Action::FoundCapital { hex }) => opening::check_capital(s, hex),
        (Stage::Opening, &Action::BuildTown { hex }) => opening::check_second_town(s, hex),
        (Stage::Opening, &Action::Place { kind, town, to }) => {
            opening::check_second_infantry(s, kind, town, to)
        }
        (Stage::Opening, Action::EndPhase)
            if s.turn.second_town == Some(crate::state::SecondTown::Build) =>
        {
            Ok(())
        }
        (Stage::Build | Stage::BuildAndPlace | Stage::SetupBuild, &Action::BuildTown { hex }) => {
            building::check_town(s, hex)
        }
        (Stage::SetupPlace, &Action::Place { kind, town, to }) => {
            reserve::check_place(s, kind, town, to)?;
            if s.enemy_units_at(to, s.turn.active) {
                return refuse(
                    "no_battle_in_setup",
                    "Expansion",
                    "no frigate is placed among enemy frigates before the game begins",
                );
            }
            Ok(())
        }
        (Stage::Build | Stage::BuildAndPlace | Stage::SetupBuild, &Action::BuildCity { hex }) => {
            building::check_city(s, hex)
        }
        (
            Stage::Build | Stage::BuildAndPlace | Stage::SetupBuild,
            &Action::BuildMetropolis { hex, extra },
        ) => crate::rules::metropolis::check_build(s, hex, extra),
        (_, &Action::SwitchMetropolis { hex, extra }) => {
            crate::rules::metropolis::check_switch(s, hex, extra)
        }
        (Stage::Build | Stage::BuildAndPlace, &Action::Relocate { from, to }) => {
            building::check_relocate(s, from, to)
        }
        (
            Stage::Build
            | Stage::Place
            | Stage::BuildAndPlace
            | Stage::SetupBuild
            | Stage::SetupPlace,
            Action::EndPhase,
        ) => Ok(()),
        (Stage::Move, &Action::Move { unit, to }) => movement::check_move(s, unit, to),
        (Stage::Move, &Action::Pillage { unit, hex }) => crate::rules::pillage::check(s, unit, hex),
        (Stage::Move, &Action::Repair { unit, hex }) => {
            crate::rules::pillage::check_repair(s, unit, hex)
        }
        (Stage::Move, &Action::Bypass { unit, to }) => movement::check_bypass(s, unit, to),
        (Stage::Move, &Action::Attack { unit, to }) => {
            crate::rules::subjugation::check_attack(s, unit, to)
        }
        (Stage::Move, &Action::Embark { unit, frigate }) => naval::check_embark(s, unit, frigate),
        (Stage::Move, &Action::Disembark { unit, to }) => naval::check_disembark(s, unit, to),
        (Stage::Move, &Action::Bombard { unit, target }) => bombard::check(s, unit, target),
        (Stage::Move, &Action::Fight { hex }) => battle::check_fight(s, hex),
        (Stage::Move, Action::EndPhase) => {
            movement::check_port_clear(s)?;
            if let Some(h) = s.turn.pending_battles.first() {
                return refuse(
                    "battle_pending",
                    "12.0",
                    format!("your units entered {h}: the battle there must be fought"),
                );
            }
            Ok(())
        }
        (Stage::Place | Stage::BuildAndPlace, &Action::Place { kind, town, to }) => {
            reserve::check_place(s, kind, town, to)
        }
        (Stage::Place | Stage::BuildAndPlace, &Action::Redeploy { unit }) => {
            reserve::check_redeploy(s, unit)
        }
        (_, Action::Casualty { .. }) => {
            refuse("no_casualty", "10.1", "no casualty is to be chosen now")
        }
        (_, Action::Continue | Action::Retreat { .. }) => {
            refuse("no_battle", "12.3", "there is no battle")
        }
        (_, Action::Disband { .. }) => refuse("nothing_owed", "10.2", "no units are owed now"),
        (_, Action::Evacuate { .. }) => {
            refuse("no_handover", "15.62", "no capital is being handed back")
        }
        (_, Action::Rebalance { .. }) => refuse(
            "no_balancing",
            "15.3",
            "no exploration balancing choice is open",
        ),
        (stage, a) => wrong_moment(&format!(
            "{} during the {stage:?} phase",
            crate::notation::action_name(a)
        )),
    }
}
