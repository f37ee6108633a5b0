//! The legal actions: candidates filtered by [`crate::check::check`], so the two always
//! agree.

use engine::ToMove;

use crate::action::Action;
use crate::check::check_in;
use crate::derived::Derived;
use crate::rules::{advance, command, hq, reinforcements, retreat, sequence};
use crate::state::{Avl, BattleStage, Phase, PieceId};

/// Candidate actions for the current moment (a superset of the legal ones).
pub fn candidates(s: &Avl) -> Vec<Action> {
    candidates_in(&Derived::new(s))
}

fn candidates_in(d: &Derived<'_>) -> Vec<Action> {
    let s = d.state();
    let mut out = Vec::new();
    if let Some(r) = s.pos.relocations.first() {
        for to in hq::relocation_hexes(s, r.hq, r.from) {
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

/// The legal actions that move `p` one hex now (8.1, 8.3): the part of
/// [`legal_actions`] that concerns this piece, without checking every other piece's
/// moves. Empty outside the Movement Segment or for a piece that cannot move.
pub fn moves_of(s: &Avl, p: PieceId) -> Vec<Action> {
    if s.pos.phase != Phase::Movement || usize::from(p.0) >= s.piece_count() {
        return Vec::new();
    }
    let d = Derived::new(s);
    let mut out = Vec::new();
    move_candidates(s, p, &mut out);
    out.retain(|a| check_in(&d, a).is_ok());
    out.sort();
    out
}

/// Every legal action now, sorted.
pub fn legal_actions(s: &Avl) -> Vec<Action> {
    legal_actions_in(&Derived::new(s))
}

/// [`legal_actions`] of the position of `d`, reusing (and adding to) what `d` has
/// derived from it.
pub fn legal_actions_in(d: &Derived<'_>) -> Vec<Action> {
    if matches!(sequence::to_move(d.state()), ToMove::Over(_)) {
        return Vec::new();
    }
    let mut out: Vec<Action> = candidates_in(d)
        .into_iter()
        .filter(|a| check_in(d, a).is_ok())
        .collect();
    out.sort();
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
