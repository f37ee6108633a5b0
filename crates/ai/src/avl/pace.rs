//! How MCTS spends its budget on an A Victory Lost decision ([`AiGame::pace`]), so that
//! the levels keep pace on the campaign (issue 27: a `normal` decision within 0.3 s, a
//! whole STAVKA activation within 20 s, on one core).
//!
//! A STAVKA activation (7.2.2) moves every Soviet unit, one hex per decision (8.1), and
//! then fights: a few hundred decisions. At a full budget each, `hard` took about a
//! minute per activation. So:
//!
//! - **forced decisions cost nothing**: when only one action is sensible (the others
//!   withdraw a declared attack, H-108, or declare a futile one, [`eval::futile_attack`]),
//!   it is played at once;
//! - **a piece carries on its move without a search** when its whole move
//!   ([`greedy::whole_moves`], as greedy plans it) reaches a better position than
//!   stopping where it is: the search is asked only where the piece should stop, which
//!   piece moves next, and everything that is not a move. MCTS sees one hex ahead per
//!   decision and does not plan whole moves; this is the whole-move planning greedy
//!   has, for the steps after a piece's first;
//! - **an activation shares one budget**: its decisions with a choice are estimated from
//!   the units it activates ([`expected_choices`]); each gets at most
//!   [`ACTIVATION_BUDGETS`] per-decision budgets divided among them, and with a time
//!   budget at most [`ACTIVATION_TIME`] divided among them;
//! - **a time budget ends early**: by the time spent here and by [`OVERRUN`], since the
//!   search checks its deadline only between iterations, and one campaign iteration
//!   (a rollout of up to two activations) takes tens of milliseconds.
//!
//! With an iteration budget the result is a function of the view, the legal actions,
//! the budget and the random stream, as before.

use std::time::{Duration, Instant};

use avl::{Action, Avl, Phase, View};
use engine::GameRng;

use super::{determinize, eval};
use crate::{AiGame, Budget, Pace, greedy};

/// An activation spends at most this many per-decision budgets in all.
pub const ACTIVATION_BUDGETS: f64 = 60.0;

/// With a time budget, an activation spends at most this long searching (the goal is
/// 20 s; forced steps, the carrying on of moves and the overrun of each search come on
/// top).
pub const ACTIVATION_TIME: Duration = Duration::from_secs(14);

/// A time-budgeted search ends this much before its budget: its last iteration overruns
/// the deadline.
pub const OVERRUN: Duration = Duration::from_millis(40);

/// Positions a carried-on move explores at most ([`greedy::whole_moves`]), and the
/// search's root priors ([`crate::MctsConfig::root_whole_moves`]).
pub const WHOLE_MOVE_LIMIT: usize = 400;

/// Rules 7.2, 8.1, 9.2: the decisions with a choice an activation of `units` combat
/// units is expected to ask of the search: one move per unit (where it goes; its
/// further steps are carried on without a search) and about one combat decision per
/// unit (declaring, losses, retreats, advances), plus the segments' ends.
pub fn expected_choices(units: usize) -> f64 {
    2.0 * units as f64 + 4.0
}

/// The budget of one decision of an activation of `units` units, from the level's
/// per-decision `budget`.
pub fn activation_budget(budget: Budget, units: usize) -> Budget {
    let n = expected_choices(units);
    let share = (ACTIVATION_BUDGETS / n).min(1.0);
    match budget {
        Budget::Iterations(it) => {
            Budget::Iterations(((f64::from(it) * share).ceil() as u32).clamp(1, it.max(1)))
        }
        Budget::Time(d) => Budget::Time(d.mul_f64(share).min(ACTIVATION_TIME.div_f64(n))),
    }
}

/// [`AiGame::pace`] for A Victory Lost (module documentation).
pub fn pace(view: &View, legal: &[Action], budget: Budget, rng: &mut GameRng) -> Pace {
    let started = Instant::now();
    let Some(seat) = view.seat else {
        return Pace::Search(budget);
    };
    let Some(state) = determinize::determinize(view, rng) else {
        return Pace::Search(budget);
    };
    let sensible: Vec<usize> = (0..legal.len())
        .filter(|&i| {
            let a = &legal[i];
            !Avl::is_retraction(a)
                && !matches!(*a, Action::Attack { target, .. }
                    if eval::futile_attack(&state, &eval::Weights::DEFAULT, target))
        })
        .collect();
    if let [only] = sensible[..] {
        return Pace::Play(only);
    }
    if let Some(i) = greedy::carry_on(&state, legal, seat, WHOLE_MOVE_LIMIT, None) {
        return Pace::Play(i);
    }
    let pos = &view.position;
    let budget = match &pos.activation {
        Some(act) if matches!(pos.phase, Phase::Movement | Phase::Combat) => {
            activation_budget(budget, act.units.len())
        }
        _ => budget,
    };
    Pace::Search(match budget {
        Budget::Time(d) => Budget::Time(
            d.saturating_sub(started.elapsed() + OVERRUN)
                .max(Duration::from_millis(1)),
        ),
        b @ Budget::Iterations(_) => b,
    })
}
