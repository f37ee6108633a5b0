//! Applying an action: its rule's effect, then everything that follows by itself.

use crate::action::Action;
use crate::event::Event;
use crate::rules::{
    battle, bombard, building, capital, casualties, customization, exploration, metropolis,
    movement, naval, opening, pillage, quick_setup, reserve, sequence, subjugation, victory,
};
use crate::state::{Stage, Viktory};

/// Applies an action that `check` accepted and returns its events.
pub fn apply(s: &mut Viktory, action: Action) -> Vec<Event> {
    let mut ev = Vec::new();
    let handing_over = s.handover.is_some();
    match action {
        Action::Evacuate { unit, to } => subjugation::apply_evacuate(s, unit, to, &mut ev),
        Action::Place { kind, to, .. } if handing_over => {
            subjugation::apply_reinforce(s, kind, to, &mut ev);
        }
        Action::EndPhase if handing_over => subjugation::end_reinforcement(s),
        Action::Attack { unit, to } => movement::apply_attack(s, unit, to, &mut ev),
        Action::Pillage { unit, hex } => pillage::apply(s, unit, hex, &mut ev),
        Action::Repair { unit, hex } => pillage::apply_repair(s, unit, hex, &mut ev),
        Action::Bypass { unit, to } => movement::apply_bypass(s, unit, to, &mut ev),
        Action::FirstPlayer { seat } if quick_setup::finished(s) => {
            quick_setup::start_game(s, seat, &mut ev);
        }
        Action::FirstPlayer { seat } => opening::apply_first_player(s, seat, &mut ev),
        Action::Reveal { hex, terrain } => exploration::apply_reveal(s, hex, terrain, &mut ev),
        Action::Draw { terrain } => customization::apply_draw(s, terrain, &mut ev),
        Action::Arrange { hex, terrain } => customization::apply_arrange(s, hex, terrain, &mut ev),
        Action::RedrawWater { redraw } => customization::apply_redraw(s, redraw, &mut ev),
        Action::Die { value } => {
            if s.bombard.is_some() {
                bombard::roll(s, value, &mut ev);
            } else if s.battle.is_some() {
                battle::roll(s, value, &mut ev);
            } else if s.turn.stage == Stage::Start {
                victory::doomsday_roll(s, value, &mut ev);
            }
        }
        Action::Rebalance { hex } => exploration::apply_rebalance(s, hex, &mut ev),
        Action::FoundCapital { hex } => opening::apply_capital(s, hex, &mut ev),
        Action::BuildTown { hex } if s.turn.stage == Stage::Opening => {
            opening::apply_second_town(s, hex, &mut ev);
        }
        Action::BuildTown { hex } => building::apply_town(s, hex, &mut ev),
        Action::BuildCity { hex } => building::apply_city(s, hex, &mut ev),
        Action::BuildMetropolis { hex, extra } => metropolis::apply_build(s, hex, extra, &mut ev),
        Action::SwitchMetropolis { hex, extra } => {
            metropolis::apply_switch(s, hex, extra, &mut ev);
        }
        Action::Relocate { from, to } => building::apply_relocate(s, from, to, &mut ev),
        Action::Move { unit, to } => movement::apply_move(s, unit, to, &mut ev),
        Action::Embark { unit, frigate } => naval::apply_embark(s, unit, frigate, &mut ev),
        Action::Disembark { unit, to } => naval::apply_disembark(s, unit, to, &mut ev),
        Action::Bombard { unit, target } => bombard::apply(s, unit, target, &mut ev),
        Action::Fight { hex } => battle::apply_fight(s, hex, &mut ev),
        Action::Casualty { unit } => casualties::choose(s, unit, &mut ev),
        Action::Continue => battle::apply_continue(s, &mut ev),
        Action::Average { pairs } => battle::apply_average(s, pairs, &mut ev),
        Action::Retreat { unit, to } => battle::apply_retreat(s, unit, to, &mut ev),
        Action::Disband { kind, unit } => capital::apply_disband(s, kind, unit, &mut ev),
        Action::Place { town, .. } if s.turn.stage == Stage::Opening => {
            opening::apply_second_infantry(s, town, &mut ev);
        }
        Action::Place { kind, town, to } => reserve::apply_place(s, kind, town, to, &mut ev),
        Action::Redeploy { unit } => reserve::apply_redeploy(s, unit, &mut ev),
        Action::EndPhase => match s.turn.stage {
            Stage::Opening => opening::skip_second_town(s),
            Stage::Build => sequence::building_done(s, &mut ev),
            Stage::Move => sequence::moving_done(s, &mut ev),
            Stage::Place | Stage::BuildAndPlace => {
                sequence::enter(s, Stage::PlacementBattles, &mut ev);
            }
            Stage::SetupBuild => quick_setup::pass(s, &mut ev),
            Stage::SetupPlace => quick_setup::placed(s, &mut ev),
            _ => {}
        },
    }
    // `advance` refreshes the fog before each of its steps, the last included.
    sequence::advance(s, &mut ev);
    ev
}
