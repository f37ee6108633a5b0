//! One truth for legality: which actions fit the moment, and the rule that refuses the
//! others.

use engine::ToMove;

use crate::action::Action;
use crate::derived::Derived;
use crate::error::{RuleError, refuse};
use crate::rules::{advance, combat, command, hq, movement, reinforcements, retreat, sequence};
use crate::state::{Avl, BattleStage, Phase, PieceId};

fn piece_ok(s: &Avl, p: PieceId) -> Result<(), RuleError> {
    if usize::from(p.0) < s.piece_count() {
        Ok(())
    } else {
        refuse("no_piece", "2.2", format!("there is no piece {p}"))
    }
}

/// Checks `action` in the current position.
pub fn check(s: &Avl, action: &Action) -> Result<(), RuleError> {
    check_in(&Derived::for_one(s), action)
}

/// Checks `action` in the position of `d`, reusing (and adding to) what `d` has derived
/// from it: for checking many actions against one position.
pub fn check_in(d: &Derived<'_>, action: &Action) -> Result<(), RuleError> {
    let s = d.state();
    match sequence::to_move(s) {
        ToMove::Over(_) => refuse("game_over", "14.0.2", "the game is over"),
        ToMove::Chance => check_chance(s, action),
        ToMove::Seat(_) if action.is_chance() => {
            refuse("not_chance", "4.0", "no chit draw or die roll is due")
        }
        ToMove::Seat(_) => check_decision(d, action),
    }
}

/// Whether [`check_in`] accepts `action`: the same judgement, but for the actions most
/// often refused among the legal actions' candidates (attacks), without making the
/// refusal into a [`RuleError`].
pub(crate) fn allows(d: &Derived<'_>, action: &Action) -> bool {
    let s = d.state();
    let decision = s.pos.relocations.is_empty()
        && !action.is_chance()
        && matches!(sequence::to_move(s), ToMove::Seat(_));
    match *action {
        // What `check_decision` asks of an attack when a player is to move and no HQ
        // waits for relocation.
        Action::Attack { unit, target } if decision => {
            piece_ok(s, unit).is_ok() && combat::judge_attack(s, unit, target).is_ok()
        }
        _ => check_in(d, action).is_ok(),
    }
}

fn check_chance(s: &Avl, action: &Action) -> Result<(), RuleError> {
    match (*action, s.pos.phase) {
        (Action::DrawChit { chit }, Phase::Draw) => {
            if s.pos.cup.contains(&chit) {
                Ok(())
            } else {
                refuse("not_in_cup", "7.2.1", "that chit is not in the cup")
            }
        }
        (Action::Die { value }, _)
            if s.pos
                .battle
                .as_ref()
                .is_some_and(|b| b.stage == BattleStage::Rolling) =>
        {
            if (1..=6).contains(&value) {
                Ok(())
            } else {
                refuse("die_value", "9.4.1", "a die shows 1 to 6")
            }
        }
        _ => refuse(
            "chance_pending",
            "4.0",
            "a chit draw or a die roll must be resolved first",
        ),
    }
}

fn wrong(what: &str) -> Result<(), RuleError> {
    refuse(
        "wrong_phase",
        "4.0",
        format!("{what} is not possible at this moment"),
    )
}

fn check_decision(d: &Derived<'_>, action: &Action) -> Result<(), RuleError> {
    let s = d.state();
    if !s.pos.relocations.is_empty() {
        return match *action {
            Action::Relocate { hq: q, to } => {
                piece_ok(s, q)?;
                hq::check_relocate_in(d, q, to)
            }
            _ => wrong("anything but relocating the HQ (12.7)"),
        };
    }
    match (*action, s.pos.phase) {
        (Action::ChooseChit { chit }, Phase::Preparation) => command::check_choose(s, chit),
        (Action::SelectChit { chit }, Phase::Selection(side)) => {
            command::check_select(s, side, chit)
        }
        (Action::SpecialCombat { hq }, Phase::SpecialCombat) => {
            if let Some(q) = hq {
                piece_ok(s, q)?;
            }
            command::check_special(s, hq)
        }
        (Action::FirstChit { chit }, Phase::FirstChit) => command::check_first(s, chit),
        (Action::RejectManstein, Phase::Manstein) => command::check_reject(s),
        (Action::ActivateHq { hq }, Phase::Manstein) => {
            piece_ok(s, hq)?;
            command::check_manstein_hq(s, hq)
        }
        (Action::Move { piece, to }, _) => {
            piece_ok(s, piece)?;
            movement::check_move_in(d, piece, to, false)
        }
        (Action::RoadMove { piece, to }, _) => {
            piece_ok(s, piece)?;
            movement::check_move_in(d, piece, to, true)
        }
        (Action::EndMovement, _) => movement::check_end(s),
        (Action::Attack { unit, target }, _) => {
            piece_ok(s, unit)?;
            combat::check_attack(s, unit, target)
        }
        (Action::CancelAttack, _) => combat::check_cancel(s),
        (Action::Resolve, _) => combat::check_resolve(s),
        (Action::LoseStep { unit }, _) => {
            piece_ok(s, unit)?;
            combat::check_lose(s, unit)
        }
        (Action::Retreat { piece, to }, _) => {
            piece_ok(s, piece)?;
            retreat::check_retreat(s, piece, to)
        }
        (Action::Advance { piece, to }, _) => {
            piece_ok(s, piece)?;
            advance::check_advance(s, piece, to)
        }
        (Action::EndAdvance, _) => advance::check_end(s),
        (Action::EndCombat, _) => combat::check_end(s),
        (Action::Place { piece, to }, _) => {
            piece_ok(s, piece)?;
            reinforcements::check_place_in(d, piece, to)
        }
        (Action::Relocate { .. }, _) => {
            refuse("no_relocation", "12.7", "no HQ is waiting to be relocated")
        }
        (a, _) => wrong(&format!("{a:?}")),
    }
}
