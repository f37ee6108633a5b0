//! The legal actions: candidates filtered by [`crate::check::check`], so the two always
//! agree.

use std::cell::OnceCell;

use engine::ToMove;

use crate::action::Action;
use crate::check::{allows, check_in};
use crate::derived::Derived;
use crate::rules::{advance, command, movement, reinforcements, retreat, sequence, stacking};
use crate::state::{Avl, BattleStage, Phase, PieceId};
use crate::unit::Side;

/// Candidate actions for the current moment (a superset of the legal ones).
pub fn candidates(s: &Avl) -> Vec<Action> {
    candidates_in(&Derived::new(s))
}

fn candidates_in(d: &Derived<'_>) -> Vec<Action> {
    let s = d.state();
    let mut out = Vec::new();
    if let Some(r) = s.pos.relocations.first() {
        for &to in d.relocation_hexes() {
            out.push(Action::Relocate { hq: r.hq, to });
        }
        return out;
    }
    match s.pos.phase {
        Phase::Over => {}
        Phase::Preparation => {
            out.extend(
                command::choosable(s)
                    .into_iter()
                    .map(|chit| Action::ChooseChit { chit }),
            );
        }
        Phase::Selection(side) => {
            out.extend(
                command::selectable(s, side)
                    .into_iter()
                    .map(|chit| Action::SelectChit { chit }),
            );
        }
        Phase::SpecialCombat => {
            out.push(Action::SpecialCombat { hq: None });
            out.extend(
                s.piece_ids()
                    .filter(|&p| s.is_hq(p))
                    .map(|p| Action::SpecialCombat { hq: Some(p) }),
            );
        }
        Phase::FirstChit => {
            out.extend(s.pos.cup.iter().map(|&chit| Action::FirstChit { chit }));
        }
        Phase::Draw => {
            out.extend(s.pos.cup.iter().map(|&chit| Action::DrawChit { chit }));
        }
        Phase::Manstein => {
            out.push(Action::RejectManstein);
            out.extend(
                command::manstein_choices(s)
                    .into_iter()
                    .map(|hq| Action::ActivateHq { hq }),
            );
        }
        Phase::Movement => {
            out.push(Action::EndMovement);
            if let Some(a) = &s.pos.activation {
                for &p in a.units.iter().chain(&a.hqs) {
                    move_candidates(s, p, &mut out);
                }
            }
        }
        Phase::Combat => match &s.pos.battle {
            None => {
                out.push(Action::EndCombat);
                if let Some(a) = &s.pos.activation {
                    for &u in &a.units {
                        if let Some(h) = s.hex_of(u) {
                            out.extend(
                                s.map()
                                    .neighbors(h)
                                    .map(|(_, t)| Action::Attack { unit: u, target: t }),
                            );
                        }
                    }
                }
            }
            Some(b) => match b.stage {
                BattleStage::Declaring => {
                    out.push(Action::Resolve);
                    out.push(Action::CancelAttack);
                    if let Some(a) = &s.pos.activation {
                        out.extend(a.units.iter().map(|&u| Action::Attack {
                            unit: u,
                            target: b.target,
                        }));
                    }
                }
                BattleStage::Rolling => out.extend((1..=6).map(|value| Action::Die { value })),
                BattleStage::AttackerLosses => {
                    out.extend(b.attackers.iter().map(|&unit| Action::LoseStep { unit }));
                }
                BattleStage::DefenderLosses => {
                    out.extend(b.defenders.iter().map(|&unit| Action::LoseStep { unit }));
                }
                BattleStage::Retreat => {
                    let pieces: Vec<_> = match &b.retreating {
                        Some(r) => vec![r.piece],
                        None => b.to_retreat.clone(),
                    };
                    for p in pieces {
                        out.extend(
                            retreat::options(s, p)
                                .into_iter()
                                .map(|to| Action::Retreat { piece: p, to }),
                        );
                    }
                }
                BattleStage::Advance => {
                    out.push(Action::EndAdvance);
                    for p in s.piece_ids() {
                        out.extend(
                            advance::options(s, p)
                                .into_iter()
                                .map(|to| Action::Advance { piece: p, to }),
                        );
                    }
                }
            },
        },
        Phase::Reinforcement(side) => {
            for p in reinforcements::waiting(s, side) {
                out.extend(
                    reinforcements::places_in(d, p)
                        .into_iter()
                        .map(|to| Action::Place { piece: p, to }),
                );
            }
        }
    }
    out
}

/// Rules 8.1, 8.3, 11.2.2: a move of `p` to each hex next to it (or to its box), by
/// ordinary and by strategic movement: the candidates, legal or not.
fn move_candidates(s: &Avl, p: PieceId, out: &mut Vec<Action>) {
    for to in crate::reach::targets(s, p) {
        out.push(Action::Move { piece: p, to });
        out.push(Action::RoadMove { piece: p, to });
    }
}

/// Rules 8.1, 8.3: the legal moves of `p` one hex now, by ordinary and by strategic
/// movement, added to `out`: exactly the candidates of [`move_candidates`] that
/// [`check_in`] accepts when a player is to move and no HQ waits for relocation (what
/// [`check_in`] asks of a move then is [`movement::check_move_in`]), with the part of
/// the check that concerns the piece, not the hex, made once, and the part that
/// concerns the hex, not the kind of movement, once per hex.
fn legal_moves(d: &Derived<'_>, p: PieceId, out: &mut Vec<Action>) {
    let s = d.state();
    let Ok((m, zoc)) = movement::may_move(d, p) else {
        return;
    };
    crate::reach::each_target(s, p, |to| {
        // What does not depend on the kind of movement is checked once for both.
        let Ok(entry) = movement::enter(s, &m, to, zoc) else {
            return;
        };
        let stop = OnceCell::new();
        for road in [false, true] {
            let can_stop = || *stop.get_or_init(|| stacking::can_stop(s, p, to));
            if movement::check_entry(s, &m, &entry, road, zoc, can_stop).is_ok() {
                out.push(crate::reach::step_action(p, to, road));
            }
        }
    });
}

/// Whether a player is to move and no HQ waits for relocation: then what [`check_in`]
/// asks of a move is [`movement::check_move_in`], and of a placement
/// [`reinforcements::check_place_in`].
fn player_to_move(s: &Avl) -> bool {
    s.pos.relocations.is_empty() && matches!(sequence::to_move(s), ToMove::Seat(_))
}

/// Whether moves are judged by [`legal_moves`]: in the Movement Segment, a player to
/// move and no HQ waiting for relocation.
fn moves_by_piece(s: &Avl) -> bool {
    s.pos.phase == Phase::Movement && player_to_move(s)
}

/// Rule 11.1: the legal placements of `side`'s reinforcements: every place of each
/// waiting piece, which are the candidates of [`candidates_in`] in the Reinforcement
/// Phase; [`reinforcements::places_in`] lists only hexes that
/// [`reinforcements::check_place_in`] accepts, so none is checked again.
fn legal_placements(d: &Derived<'_>, side: Side, out: &mut Vec<Action>) {
    for p in reinforcements::waiting(d.state(), side) {
        out.extend(
            reinforcements::places_in(d, p)
                .into_iter()
                .map(|to| Action::Place { piece: p, to }),
        );
    }
}

/// The legal actions that move `p` one hex now (8.1, 8.3): the part of
/// [`legal_actions`] that concerns this piece, without checking every other piece's
/// moves. Empty outside the Movement Segment or for a piece that cannot move.
pub fn moves_of(s: &Avl, p: PieceId) -> Vec<Action> {
    if !moves_by_piece(s) || usize::from(p.0) >= s.piece_count() {
        return Vec::new();
    }
    let d = Derived::new(s);
    let mut out = Vec::new();
    legal_moves(&d, p, &mut out);
    out.sort_unstable();
    out
}

/// Every legal action now, sorted.
pub fn legal_actions(s: &Avl) -> Vec<Action> {
    legal_actions_in(&Derived::new(s))
}

/// [`legal_actions`] of the position of `d`, reusing (and adding to) what `d` has
/// derived from it.
pub fn legal_actions_in(d: &Derived<'_>) -> Vec<Action> {
    let s = d.state();
    if matches!(sequence::to_move(s), ToMove::Over(_)) {
        return Vec::new();
    }
    let mut out: Vec<Action> = Vec::with_capacity(64);
    match s.pos.phase {
        Phase::Movement if player_to_move(s) => {
            // The candidates of `candidates_in` for the Movement Segment, the moves
            // through `legal_moves`.
            if check_in(d, &Action::EndMovement).is_ok() {
                out.push(Action::EndMovement);
            }
            if let Some(a) = &s.pos.activation {
                for &p in a.units.iter().chain(&a.hqs) {
                    legal_moves(d, p, &mut out);
                }
            }
        }
        Phase::Reinforcement(side) if player_to_move(s) => legal_placements(d, side, &mut out),
        _ => out.extend(candidates_in(d).into_iter().filter(|a| allows(d, a))),
    }
    // A total order, equal actions the same: as stable sorting would leave them.
    out.sort_unstable();
    out.dedup();
    out
}

/// At a chance node, the outcomes with weights: each chit in the cup once, each die face
/// once.
pub fn chance_outcomes(s: &Avl) -> Vec<(Action, u32)> {
    if sequence::to_move(s) != ToMove::Chance {
        return Vec::new();
    }
    legal_actions(s).into_iter().map(|a| (a, 1)).collect()
}

#[cfg(test)]
pub(crate) mod reference {
    //! The legal actions as first written: every candidate through [`check_in`], each
    //! with what it derives from the position found again.

    use engine::ToMove;

    use super::{candidates_in, move_candidates};
    use crate::action::Action;
    use crate::check::check_in;
    use crate::derived::Derived;
    use crate::rules::{hq, sequence};
    use crate::state::{Avl, Phase, PieceId};

    /// [`super::legal_actions`]: the candidates that [`check_in`] accepts.
    pub(crate) fn legal_actions(s: &Avl) -> Vec<Action> {
        let d = Derived::new(s);
        if matches!(sequence::to_move(s), ToMove::Over(_)) {
            return Vec::new();
        }
        if let Some(r) = s.pos.relocations.first() {
            // A player is to move (12.7): the hexes, each checked as at first.
            return hq::relocation_hexes(s, r.hq, r.from)
                .into_iter()
                .filter(|&to| hq::reference::check_relocate(s, r.hq, to).is_ok())
                .map(|to| Action::Relocate { hq: r.hq, to })
                .collect();
        }
        let candidates = candidates_in(&d);
        // Each candidate checked on its own, nothing derived shared between them.
        let mut out: Vec<Action> = candidates
            .into_iter()
            .filter(|a| check_in(&Derived::new(s), a).is_ok())
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// [`super::moves_of`]: the move candidates of `p` that [`check_in`] accepts.
    pub(crate) fn moves_of(s: &Avl, p: PieceId) -> Vec<Action> {
        if s.pos.phase != Phase::Movement || usize::from(p.0) >= s.piece_count() {
            return Vec::new();
        }
        let mut out = Vec::new();
        move_candidates(s, p, &mut out);
        out.retain(|a| check_in(&Derived::new(s), a).is_ok());
        out.sort();
        out
    }
}
