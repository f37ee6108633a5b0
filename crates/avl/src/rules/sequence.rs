//! Rule 4.0: the sequence of play: who decides now, and everything that happens by
//! itself between decisions.

use engine::{Outcome, ToMove};

use crate::event::Event;
use crate::rules::{advance, combat, command, hq, reinforcements, retreat, supply, victory};
use crate::scenario::Start;
use crate::state::{Avl, BattleStage, Chit, Location, Phase, PieceState, Position, Rules, Supply};
use crate::unit::{Side, Turn};

/// Rule 3.0: the position at the start: units on their setup hexes, reinforcements
/// waiting (15.0.1: the Axis boxes one turn later), the Axis controls the cities as the
/// scenario says, the Axis pool holds the chits of the Axis HQs on the map.
pub fn initial_position(rules: &Rules) -> Position {
    let d = &rules.data;
    let starts = d
        .units
        .iter()
        .map(|u| (u.start, u.nationality))
        .chain(d.hqs.iter().map(|h| (h.start, h.nationality)));
    let pieces: Vec<PieceState> = starts
        .map(|(start, nat)| PieceState {
            location: match start {
                Start::Hex(h) => Location::Map(h),
                Start::Arrives { turn, in_box } => {
                    let late = rules.options.late_first_panzer
                        && in_box.is_some()
                        && nat.side() == Side::Axis;
                    Location::Arriving(turn.saturating_add(u8::from(late)))
                }
            },
            reduced: false,
            supply: Supply::InSupply,
        })
        .collect();
    let n_units = d.units.len();
    let mut axis: Vec<Chit> = d
        .hqs
        .iter()
        .enumerate()
        .filter(|(_, h)| h.nationality.side() == Side::Axis && matches!(h.start, Start::Hex(_)))
        .map(|(i, _)| Chit::Hq(crate::state::PieceId((n_units + i) as u16)))
        .collect();
    axis.sort();
    Position {
        turn: Turn(1),
        phase: Phase::Preparation,
        pieces,
        control: d.map.cities.iter().map(|c| c.2).collect(),
        inactive: [axis, vec![Chit::Stavka]],
        played: [Vec::new(), Vec::new()],
        cup: Vec::new(),
        drawn: None,
        manstein_must_play: false,
        noted: Vec::new(),
        active: None,
        activation: None,
        battle: None,
        relocations: Vec::new(),
        result: None,
    }
}

/// The start position, run on to the first decision.
pub fn start(s: &mut Avl) {
    let mut ev = Vec::new();
    run(s, &mut ev);
}

/// Who must decide now.
pub fn to_move(s: &Avl) -> ToMove {
    if let Some(r) = &s.pos.result {
        return ToMove::Over(Outcome {
            winners: r.winner.map(Side::seat).into_iter().collect(),
            scores: r.vp.iter().map(|&v| i64::from(v)).collect(),
            reason: r.reason.clone(),
        });
    }
    if let Some(r) = s.pos.relocations.first() {
        return ToMove::Seat(s.side(r.hq).seat());
    }
    let active = s.pos.active.unwrap_or(Side::Axis);
    let seat = match s.pos.phase {
        Phase::Preparation | Phase::SpecialCombat => Side::Soviet,
        Phase::Selection(side) | Phase::Reinforcement(side) => side,
        Phase::FirstChit | Phase::Manstein | Phase::Over => Side::Axis,
        Phase::Draw => return ToMove::Chance,
        Phase::Movement | Phase::Combat => match s.pos.battle.as_ref().map(|b| b.stage) {
            Some(BattleStage::Rolling) => return ToMove::Chance,
            Some(BattleStage::DefenderLosses | BattleStage::Retreat) => active.enemy(),
            _ => active,
        },
    };
    ToMove::Seat(seat.seat())
}

/// Rule 4.1: a new turn's Command Chit Selection Phase.
fn begin_turn(s: &mut Avl, ev: &mut Vec<Event>) {
    if s.options().early_manstein {
        reinforcements::manstein_arrivals(s, ev);
    }
    command::begin_selection(s, ev);
    s.pos.phase = Phase::Selection(Side::Soviet);
}

/// The end of an activation: the next chit is drawn (4.1.2 step 4).
pub(crate) fn end_activation(s: &mut Avl) {
    let special = s.pos.activation.as_ref().is_some_and(|a| a.chit.is_none());
    s.pos.activation = None;
    s.pos.active = None;
    s.pos.phase = if special && s.options().axis_first_chit {
        Phase::FirstChit
    } else {
        Phase::Draw
    };
}

/// Rule 4.3: the End of Turn Phase after the Soviet reinforcements.
fn end_of_turn(s: &mut Avl, ev: &mut Vec<Event>) {
    hq::removals(s, ev);
    if victory::check_end(s, ev) {
        return;
    }
    s.pos.turn = Turn(s.pos.turn.0 + 1);
    ev.push(Event::TurnBegan { turn: s.pos.turn.0 });
    begin_turn(s, ev);
}

/// Runs everything that happens by itself until a decision or a chance event is due.
pub fn run(s: &mut Avl, ev: &mut Vec<Event>) {
    for _ in 0..100_000 {
        if !step(s, ev) {
            return;
        }
    }
}

/// One automatic step; `false` when a seat or chance must act.
#[allow(clippy::too_many_lines)]
fn step(s: &mut Avl, ev: &mut Vec<Event>) -> bool {
    if s.pos.result.is_some() {
        return false;
    }
    if let Some(r) = s.pos.relocations.first().copied() {
        if hq::relocation_hexes(s, r.hq, r.from).is_empty() {
            hq::fail_relocation(s, ev);
            return true;
        }
        return false;
    }
    match s.pos.phase {
        Phase::Over => false,
        Phase::Preparation => {
            if command::choosing_done(s) {
                begin_turn(s, ev);
                return true;
            }
            let chosen = s.pos.inactive[1]
                .iter()
                .filter(|&&c| c != Chit::Stavka)
                .count();
            if command::choosable(s).len() + chosen
                <= usize::from(s.rules().scenario.soviet_chosen_chits)
            {
                for c in command::choosable(s) {
                    command::apply_choose(s, c, ev);
                }
                return true;
            }
            false
        }
        Phase::Selection(side) => {
            if command::selecting(s, side) == command::Selecting::Done {
                s.pos.phase = match side {
                    Side::Soviet => Phase::Selection(Side::Axis),
                    Side::Axis if s.turn().0 == 1 => Phase::SpecialCombat,
                    Side::Axis => Phase::Draw,
                };
                return true;
            }
            if command::selection_forced(s, side) {
                for c in command::selectable(s, side) {
                    command::apply_select(s, side, c, ev);
                }
                return true;
            }
            false
        }
        Phase::SpecialCombat => {
            let any = s
                .piece_ids()
                .any(|p| command::check_special(s, Some(p)).is_ok());
            if !any {
                end_activation_special(s);
                return true;
            }
            false
        }
        Phase::FirstChit => {
            if !s
                .pos
                .cup
                .iter()
                .any(|&c| command::chit_side(s, c) == Some(Side::Axis))
            {
                s.pos.phase = Phase::Draw;
                return true;
            }
            false
        }
        Phase::Draw => {
            if s.pos.cup.is_empty() {
                s.pos.phase = Phase::Reinforcement(Side::Axis);
                supply::supply_phase(s, ev);
                reinforcements::begin_segment(s, Side::Axis, ev);
                return true;
            }
            false
        }
        Phase::Manstein => {
            if command::manstein_choices(s).is_empty() && s.pos.manstein_must_play {
                command::apply_manstein_hq(s, None, ev);
                return true;
            }
            false
        }
        Phase::Movement => {
            let empty = s
                .pos
                .activation
                .as_ref()
                .is_none_or(|a| a.units.is_empty() && a.hqs.is_empty());
            if empty {
                end_activation(s);
                return true;
            }
            false
        }
        Phase::Combat => combat_step(s, ev),
        Phase::Reinforcement(side) => {
            if reinforcements::drop_unplaceable(s, side, ev) {
                return false;
            }
            match side {
                Side::Axis => {
                    s.pos.phase = Phase::Reinforcement(Side::Soviet);
                    reinforcements::begin_segment(s, Side::Soviet, ev);
                }
                Side::Soviet => end_of_turn(s, ev),
            }
            true
        }
    }
}

fn end_activation_special(s: &mut Avl) {
    s.pos.phase = if s.options().axis_first_chit {
        Phase::FirstChit
    } else {
        Phase::Draw
    };
}

fn combat_step(s: &mut Avl, ev: &mut Vec<Event>) -> bool {
    let Some(b) = s.pos.battle.clone() else {
        // No battle: end the segment by itself when no attack is possible at all.
        let possible = s.pos.activation.as_ref().is_some_and(|a| {
            a.units.iter().any(|&u| {
                s.hex_of(u).is_some_and(|h| {
                    s.map()
                        .neighbors(h)
                        .any(|(_, t)| combat::judge_attack(s, u, t).is_ok())
                })
            })
        });
        if !possible {
            end_activation(s);
            return true;
        }
        return false;
    };
    match b.stage {
        BattleStage::Declaring | BattleStage::Rolling => false,
        BattleStage::AttackerLosses | BattleStage::DefenderLosses => {
            if b.steps_left == 0 || combat::losers(s).is_empty() {
                let bm = s.pos.battle.as_mut().expect("battle");
                bm.steps_left = 0;
                if b.stage == BattleStage::AttackerLosses {
                    bm.stage = BattleStage::DefenderLosses;
                    bm.steps_left = b.result.map_or(0, |r| r.defender_steps);
                } else {
                    combat::hq_losses(s);
                    let alive: Vec<_> = b
                        .defenders
                        .iter()
                        .copied()
                        .filter(|&u| matches!(s.location(u), Location::Map(_)))
                        .collect();
                    let bm = s.pos.battle.as_mut().expect("battle");
                    bm.stage = BattleStage::Retreat;
                    if b.result.is_some_and(|r| r.retreat > 0) {
                        bm.to_retreat = alive;
                    }
                }
                return true;
            }
            if combat::losses_forced(s) {
                combat::take_forced_losses(s, ev);
                return true;
            }
            false
        }
        BattleStage::Retreat => {
            if let Some(r) = &b.retreating {
                if retreat::options(s, r.piece).is_empty() {
                    retreat::eliminate(s, r.piece, ev);
                    return true;
                }
                return false;
            }
            if let Some(&p) = b
                .to_retreat
                .iter()
                .find(|&&p| retreat::options(s, p).is_empty())
            {
                if s.is_hq(p) {
                    if let Some(bm) = s.pos.battle.as_mut() {
                        bm.to_retreat.retain(|&x| x != p);
                    }
                    hq::start_relocation(s, p, b.target);
                } else {
                    retreat::eliminate(s, p, ev);
                }
                return true;
            }
            if !b.to_retreat.is_empty() {
                return false;
            }
            // Rule 12.2: units of a HQ's stack eliminated in the retreat.
            combat::hq_losses(s);
            // Rule 12.3: the defender's HQ retreats with its stack.
            let defender = s.pos.active.unwrap_or(Side::Axis).enemy();
            if b.result.is_some_and(|r| r.retreat > 0)
                && let Some(q) = s.hq_at(b.target).filter(|&q| s.side(q) == defender)
                && !s.units_at(b.target).any(|_| true)
            {
                if let Some(bm) = s.pos.battle.as_mut() {
                    bm.to_retreat = vec![q];
                }
                return true;
            }
            let empty = s.pieces_at(b.target).next().is_none();
            let bm = s.pos.battle.as_mut().expect("battle");
            if empty {
                bm.stage = BattleStage::Advance;
            } else {
                s.pos.battle = None;
            }
            true
        }
        BattleStage::Advance => {
            if advance::any(s) {
                return false;
            }
            s.pos.battle = None;
            true
        }
    }
}
