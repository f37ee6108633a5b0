//! Applying an action: its rule's effect, then everything that follows by itself.

use crate::action::Action;
use crate::event::Event;
use crate::rules::{advance, combat, command, hq, movement, reinforcements, retreat, sequence};
use crate::state::{Avl, Phase};

/// Applies an action that `check` accepted and returns its events.
pub fn apply(s: &mut Avl, action: Action) -> Vec<Event> {
    let mut ev = Vec::new();
    match action {
        Action::ChooseChit { chit } => command::apply_choose(s, chit, &mut ev),
        Action::SelectChit { chit } => {
            if let Phase::Selection(side) = s.pos.phase {
                command::apply_select(s, side, chit, &mut ev);
            }
        }
        Action::SpecialCombat { hq: Some(q) } => {
            command::activate(s, crate::unit::Side::Soviet, vec![q], None, &mut ev);
        }
        Action::SpecialCombat { hq: None } => {
            s.pos.phase = if s.options().axis_first_chit {
                Phase::FirstChit
            } else {
                Phase::Draw
            };
        }
        Action::FirstChit { chit } | Action::DrawChit { chit } => {
            command::apply_draw(s, chit, &mut ev);
        }
        Action::RejectManstein => command::apply_reject(s, &mut ev),
        Action::ActivateHq { hq: q } => command::apply_manstein_hq(s, Some(q), &mut ev),
        Action::Move { piece, to } => movement::apply_move(s, piece, to, false, &mut ev),
        Action::RoadMove { piece, to } => movement::apply_move(s, piece, to, true, &mut ev),
        Action::EndMovement => movement::apply_end(s),
        Action::Attack { unit, target } => combat::apply_attack(s, unit, target),
        Action::Resolve => combat::apply_resolve(s, &mut ev),
        Action::Die { value } => combat::apply_die(s, value, &mut ev),
        Action::LoseStep { unit } => combat::apply_lose(s, unit, &mut ev),
        Action::Retreat { piece, to } => retreat::apply_retreat(s, piece, to, &mut ev),
        Action::Advance { piece, to } => advance::apply_advance(s, piece, to, &mut ev),
        Action::CancelAttack | Action::EndAdvance => s.pos.battle = None,
        Action::EndCombat => sequence::end_activation(s),
        Action::Relocate { hq: q, to } => hq::apply_relocate(s, q, to, &mut ev),
        Action::Place { piece, to } => reinforcements::apply_place(s, piece, to, &mut ev),
    }
    sequence::run(s, &mut ev);
    debug_assert!(s.occupancy_is_true(), "the hex index is out of step");
    ev
}
