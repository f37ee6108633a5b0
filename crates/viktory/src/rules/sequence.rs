//! 6.0 Sequence of Play: who decides now, and how the turn moves on by itself
//! between decisions.

use engine::{Seat, ToMove};

use crate::event::Event;
use crate::rules::{
    battle, bombard, capital, casualties, customization, exploration, fog, opening, reserve,
    victory,
};
use crate::state::{BattleStep, Stage, Viktory};
use crate::unit::UnitKind;

/// Who must decide now.
pub fn to_move(s: &Viktory) -> ToMove {
    if let Some(o) = &s.outcome {
        return ToMove::Over(o.clone());
    }
    if !s.reveals.is_empty() {
        // Map customization: the revealing player arranges the drawn tiles.
        return if customization::on(s) && !customization::draw_due(s) {
            ToMove::Seat(s.actor())
        } else {
            ToMove::Chance
        };
    }
    if let Some(b) = &s.balance
        && !exploration::balance_choices(s).is_empty()
    {
        return ToMove::Seat(b.seat);
    }
    if let Some(b) = &s.bombard {
        return match b.roll {
            None => ToMove::Chance,
            Some(_) => casualties::pending(s).map_or(ToMove::Chance, |c| ToMove::Seat(c.chooser)),
        };
    }
    if let Some(b) = &s.battle {
        return match b.step {
            BattleStep::PreBattleFire
            | BattleStep::PreBattleDefense
            | BattleStep::AttackerFire
            | BattleStep::DefenderFire => {
                if b.averaging {
                    ToMove::Seat(battle::roller(b))
                } else {
                    ToMove::Chance
                }
            }
            BattleStep::Overwatch => ToMove::Chance,
            BattleStep::PreBattleCasualties
            | BattleStep::Casualties
            | BattleStep::OverwatchCasualties => {
                casualties::pending(s).map_or(ToMove::Chance, |c| ToMove::Seat(c.chooser))
            }
            BattleStep::RetreatOption | BattleStep::Retreating => ToMove::Seat(b.attacker),
        };
    }
    if let Some(c) = &s.capture {
        return ToMove::Seat(c.loser);
    }
    if let Some(h) = &s.handover {
        use crate::rules::subjugation::HandoverStep;
        return match h.step {
            HandoverStep::Evacuate | HandoverStep::Battles => ToMove::Seat(h.ruler),
            HandoverStep::Reinforce => ToMove::Seat(h.vassal),
            HandoverStep::PlacementBattles => ToMove::Chance,
        };
    }
    match s.turn.stage {
        Stage::FirstPlayer | Stage::Start | Stage::PlacementBattles => ToMove::Chance,
        Stage::Opening
        | Stage::Build
        | Stage::Move
        | Stage::Place
        | Stage::BuildAndPlace
        | Stage::SetupBuild
        | Stage::SetupPlace => ToMove::Seat(s.turn.active),
    }
}

/// The kind of chance event waiting (when [`to_move`] says chance).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chance {
    /// A face-down tile is revealed.
    Reveal,
    /// A tile is drawn from the pile (map customization).
    Draw,
    /// The first player is drawn.
    FirstPlayer,
    /// A die is rolled.
    Die,
}

/// Which chance event is waiting.
pub fn chance_kind(s: &Viktory) -> Chance {
    if !s.reveals.is_empty() && customization::on(s) {
        Chance::Draw
    } else if !s.reveals.is_empty() {
        Chance::Reveal
    } else if s.bombard.is_none() && s.battle.is_none() && s.turn.stage == Stage::FirstPlayer {
        Chance::FirstPlayer
    } else {
        Chance::Die
    }
}

/// Runs everything that needs no decision and no chance, until one of them is needed
/// or the game is over. Every apply ends with this, so every reachable state waits
/// for a real decision or a real chance event.
pub fn advance(s: &mut Viktory, ev: &mut Vec<Event>) {
    loop {
        // What is possible next may depend on what the player sees (Dark).
        fog::refresh(s);
        if s.outcome.is_some() || victory::quick_won(s, ev) {
            return;
        }
        if !s.reveals.is_empty() {
            if customization::advance(s, ev) {
                continue;
            }
            return;
        }
        if s.balance.is_some() {
            if exploration::settle_balance(s) {
                continue;
            }
            return;
        }
        if s.bombard.is_some() {
            if bombard::advance(s, ev) {
                continue;
            }
            return;
        }
        if s.battle.is_some() {
            if battle::advance(s, ev) {
                continue;
            }
            return;
        }
        if s.capture.is_some() {
            if capital::advance(s, ev) {
                continue;
            }
            return;
        }
        if s.handover.is_some() {
            if crate::rules::subjugation::advance(s, ev) {
                continue;
            }
            return;
        }
        let progressed = match s.turn.stage {
            Stage::FirstPlayer | Stage::SetupPlace => false,
            Stage::Opening => opening::advance(s, ev),
            Stage::Start => start_of_turn(s, ev),
            // With fog the player ends these phases himself even with nothing to do:
            // skipping them would tell the others what he has and sees.
            Stage::Build | Stage::Place | Stage::BuildAndPlace | Stage::SetupBuild
                if fog::on(s) =>
            {
                false
            }
            Stage::SetupBuild => crate::rules::quick_setup::advance(s, ev),
            Stage::Build => {
                if crate::legal::any_build(s) {
                    false
                } else {
                    building_done(s, ev);
                    true
                }
            }
            Stage::Move => {
                // Pending battles whose enemy vanished (an elimination) are void.
                let vanished: Vec<_> = s
                    .turn
                    .pending_battles
                    .iter()
                    .copied()
                    .filter(|&h| !s.is_enemy_hex(h, s.turn.active))
                    .collect();
                s.turn.pending_battles.retain(|h| !vanished.contains(h));
                !vanished.is_empty()
            }
            Stage::Place => {
                if reserve::any_placement(s) {
                    false
                } else {
                    enter(s, Stage::PlacementBattles, ev);
                    true
                }
            }
            Stage::BuildAndPlace => {
                if reserve::any_placement(s) || crate::legal::any_build(s) {
                    false
                } else {
                    enter(s, Stage::PlacementBattles, ev);
                    true
                }
            }
            Stage::PlacementBattles => {
                if !reserve::start_placement_battle(s, ev) {
                    end_turn(s, ev);
                }
                true
            }
        };
        if !progressed {
            return;
        }
    }
}

/// Enters a phase of the active player's turn.
pub fn enter(s: &mut Viktory, stage: Stage, ev: &mut Vec<Event>) {
    s.turn.stage = stage;
    if matches!(
        stage,
        Stage::Build
            | Stage::Move
            | Stage::Place
            | Stage::BuildAndPlace
            | Stage::SetupBuild
            | Stage::SetupPlace
    ) {
        ev.push(Event::PhaseStarted { stage });
    }
    // "The unit now moving" only means something within one movement phase.
    s.turn.moving = None;
}

/// The start of a player turn (5.4, 5.5, 7.1): victory by points, the doomsday die,
/// then building.
fn start_of_turn(s: &mut Viktory, ev: &mut Vec<Event>) -> bool {
    let seat = s.turn.active;
    if victory::race_won(s, seat, ev) {
        return true;
    }
    if victory::doomsday_roll_due(s) {
        return false; // a chance node: the doomsday die
    }
    s.turn.can_build = s.holds_capital(seat);
    // Expansion, Turn Sequence Reordered: movement and combat come first.
    let first = if s.rules.build_after_moving {
        Stage::Move
    } else {
        Stage::Build
    };
    enter(s, first, ev);
    true
}

/// The building phase is over: on to movement, or (reordered turns) to placement.
pub fn building_done(s: &mut Viktory, ev: &mut Vec<Event>) {
    let next = if s.rules.build_after_moving {
        Stage::Place
    } else {
        Stage::Move
    };
    enter(s, next, ev);
}

/// The movement and combat phase is over: on to placement, or (reordered) to building,
/// or (online) to building and placement in one phase.
pub fn moving_done(s: &mut Viktory, ev: &mut Vec<Event>) {
    let next = if s.rules.build_and_place_together {
        Stage::BuildAndPlace
    } else if s.rules.build_after_moving {
        Stage::Build
    } else {
        Stage::Place
    };
    enter(s, next, ev);
}

/// Ends the active player's turn and starts the next live player's (6.0).
pub fn end_turn(s: &mut Viktory, ev: &mut Vec<Event>) {
    // 15.63: the turn without attacks is over.
    s.players[s.turn.active.index()].reorganizing = false;
    let n = s.rules.players;
    let mut next = s.turn.active;
    let mut new_round = false;
    for _ in 0..n {
        next = Seat((next.0 + 1) % n);
        if next == s.turn.first {
            new_round = true;
        }
        if !s.players[next.index()].eliminated {
            break;
        }
    }
    if new_round {
        s.turn.number = s.turn.number.saturating_add(1);
        if victory::turn_limit_reached(s, ev) {
            return;
        }
    }
    start_turn(s, next, ev);
}

/// Starts `seat`'s player turn: fresh movement for its units, an empty turn record.
pub fn start_turn(s: &mut Viktory, seat: Seat, ev: &mut Vec<Event>) {
    let network = s.rules.road_ferry_network;
    let allowance = |k| s.rules.allowance(k);
    let allow: Vec<u8> = UnitKind::ALL.iter().map(|&k| allowance(k)).collect();
    let mut started_here = Vec::new();
    for u in &mut s.units {
        let mine = u.owner == seat;
        let full = allow[UnitKind::ALL.iter().position(|&k| k == u.kind).unwrap_or(0)];
        u.mp = if mine { full } else { 0 };
        u.done = !mine;
        u.attacked = false;
        u.transported = false;
        u.boarded = false;
        u.pillages = 0;
        u.road_run = 0;
        u.entered_from = None;
        u.drop = None;
        u.loads = 0;
        // Road/Ferry Network: the "pathfinder" counts frigates too.
        let pathfinder = u.kind.is_land() || network;
        if mine && pathfinder && u.aboard.is_none() {
            started_here.push(u.hex);
        }
    }
    // Each frigate's load is the units aboard it (units are kept sorted by id).
    for i in 0..s.units.len() {
        if let Some(f) = s.units[i].aboard
            && s.unit(f).is_some_and(|u| u.kind == UnitKind::Frigate)
        {
            let frigate = s.unit_mut(f);
            frigate.loads = frigate.loads.saturating_add(1);
        }
    }
    started_here.sort();
    started_here.dedup();
    let t = &mut s.turn;
    t.active = seat;
    t.started_here = started_here;
    t.built = None;
    t.battle_hexes.clear();
    t.pending_battles.clear();
    t.moving = None;
    t.placed.clear();
    t.placement_battles.clear();
    t.frigate_bombards.clear();
    t.repairs.clear();
    t.doomsday_rolled = false;
    t.can_build = false;
    t.build_actions_used = 0;
    t.stage = Stage::Start;
    ev.push(Event::TurnStarted {
        seat,
        turn: t.number,
    });
}
