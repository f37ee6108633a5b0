//! A Victory Lost for the bots: determinization from a seat's view (the other side's
//! hidden Command Chits), the evaluation, and the turn marker that cuts rollouts.
//!
//! Nothing on the map is hidden in AVL, so a state rebuilt from a view differs from the
//! true one only in the chits the seat cannot see ([`determinize`]). The view carries
//! the game's rules ([`avl::View::rules`]) to rebuild it with; a view read back from
//! JSON must be given them first ([`avl::View::set_rules`]).

pub mod combat;
pub mod determinize;
pub mod eval;
pub mod snapshot;
pub mod topology;

use avl::{Action, Avl, View};
use engine::{GameRng, Seat};

use crate::AiGame;

impl AiGame for Avl {
    fn view_seat(view: &View) -> Option<Seat> {
        view.seat
    }

    fn determinize(view: &View, rng: &mut GameRng) -> Option<Avl> {
        determinize::determinize(view, rng)
    }

    fn evaluate(&self) -> Vec<f64> {
        eval::evaluate(self, &eval::Weights::DEFAULT)
    }

    fn turn_marker(&self) -> u64 {
        turn_marker(self)
    }

    fn is_pass(action: &Action) -> bool {
        is_pass(action)
    }

    /// H-108: withdrawing a declared attack.
    fn is_retraction(action: &Action) -> bool {
        matches!(action, Action::CancelAttack)
    }

    /// Rules 9.2, 9.3.4: declaring an attack that could only be withdrawn.
    fn is_futile(&self, action: &Action) -> bool {
        match *action {
            Action::Attack { target, .. } => {
                eval::futile_attack(self, &eval::Weights::DEFAULT, target)
            }
            _ => false,
        }
    }
}

/// Rule 4.1.2: the actions that end a segment or give up an option: ending the Movement
/// or Combat Segment, advancing no further (9.6.2), forgoing the Turn 1 Special Combat
/// Segment.
pub fn is_pass(action: &Action) -> bool {
    matches!(
        action,
        Action::EndMovement
            | Action::EndCombat
            | Action::EndAdvance
            | Action::SpecialCombat { hq: None }
    )
}

/// Player activations begun (4.1.2): 32 per game turn, plus the chits drawn and played
/// this turn (7.2.1), plus one for each side's Reinforcement Segment (4.3). It grows by
/// one with each activation, so MCTS rollouts stop after a couple of them.
pub fn turn_marker(s: &Avl) -> u64 {
    let pos = s.position();
    let played = (pos.played[0].len() + pos.played[1].len()).min(29) as u64;
    let extra = match pos.phase {
        avl::Phase::Reinforcement(avl::Side::Axis) => 1,
        avl::Phase::Reinforcement(avl::Side::Soviet) | avl::Phase::Over => 2,
        _ => 0,
    };
    u64::from(s.turn().0) * 32 + played + extra
}
