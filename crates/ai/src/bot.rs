//! The bot contract.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use engine::{Game, GameRng};

/// A player that picks one of the legal actions from what its seat sees.
///
/// `view` is the view of the seat that must decide (`game.view(Some(seat))`) and
/// `legal` the legal actions there (never empty). The choice may depend on nothing
/// else than these and `rng`: two states that differ only in facts hidden from the
/// seat give the same choice for the same `rng`.
pub trait Bot<G: Game>: Send {
    /// A short name for tables ("greedy", "mcts").
    fn name(&self) -> String;

    /// The index in `legal` of the chosen action.
    fn choose(&mut self, view: &G::View, legal: &[G::Action], rng: &mut GameRng) -> usize;

    /// The choice of a bot that does not look at the view (the random bot), so that
    /// the caller need not build one; `None` (the default): call [`Bot::choose`]. A bot
    /// that answers here must answer as `choose` would, drawing the same numbers from
    /// `rng`; one that does not must leave `rng` untouched.
    fn choose_blind(&mut self, _legal: &[G::Action], _rng: &mut GameRng) -> Option<usize> {
        None
    }
}

/// How long a search may think about one decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A fixed number of iterations in all (shared by the trees): repeatable.
    Iterations(u32),
    /// Wall-clock time: not repeatable, since it depends on the machine and its load.
    Time(Duration),
}

impl Budget {
    /// A short text ("400 it", "1000 ms").
    pub fn describe(&self) -> String {
        match self {
            Budget::Iterations(n) => format!("{n} it"),
            Budget::Time(d) => format!("{} ms", d.as_millis()),
        }
    }
}

/// The thinking time a bot has spent in the current player turn of its seat (issue 29:
/// a person waits for the whole turn). Clones share one clock, so that a caller that
/// builds a bot for each decision (the server) can hand every one of them the seat's
/// clock.
#[derive(Clone, Debug, Default)]
pub struct TurnClock(Arc<Mutex<Spent>>);

/// The turn a [`TurnClock`] is counting, and what was spent in it.
#[derive(Clone, Copy, Debug, Default)]
struct Spent {
    turn: Option<u64>,
    spent: Duration,
}

impl TurnClock {
    /// A clock that has counted nothing.
    pub fn new() -> TurnClock {
        TurnClock::default()
    }

    /// The time spent so far in player turn `turn` (zero for a turn not counted yet).
    pub fn spent_in(&self, turn: u64) -> Duration {
        let s = *self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if s.turn == Some(turn) {
            s.spent
        } else {
            Duration::ZERO
        }
    }

    /// Counts `thought` as spent in player turn `turn`; a new turn starts from zero.
    pub fn add(&self, turn: u64, thought: Duration) {
        let mut s = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if s.turn != Some(turn) {
            *s = Spent {
                turn: Some(turn),
                spent: Duration::ZERO,
            };
        }
        s.spent += thought;
    }

    /// `budget` cut to what is left of `cap` in player turn `turn` (time budgets only:
    /// an iteration budget is a fixed amount of work, kept as it is).
    pub fn cut(&self, budget: Budget, turn: u64, cap: Duration) -> Budget {
        match budget {
            Budget::Time(d) => Budget::Time(d.min(cap.saturating_sub(self.spent_in(turn)))),
            Budget::Iterations(_) => budget,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A clock counts one turn at a time, cuts time budgets to what is left of the cap
    /// (never iteration budgets), and is shared by its clones, not by new clocks.
    #[test]
    fn a_turn_clock_counts_one_turn() {
        let ms = Duration::from_millis;
        let clock = TurnClock::new();
        assert_eq!(clock.spent_in(7), Duration::ZERO);
        clock.add(7, ms(300));
        clock.add(7, ms(200));
        assert_eq!(clock.spent_in(7), ms(500));
        assert_eq!(clock.spent_in(8), Duration::ZERO);
        let cap = ms(1750);
        assert_eq!(
            clock.cut(Budget::Time(ms(250)), 7, cap),
            Budget::Time(ms(250))
        );
        clock.add(7, ms(1100));
        assert_eq!(
            clock.cut(Budget::Time(ms(250)), 7, cap),
            Budget::Time(ms(150))
        );
        clock.add(7, ms(400));
        assert_eq!(
            clock.cut(Budget::Time(ms(250)), 7, cap),
            Budget::Time(Duration::ZERO)
        );
        assert_eq!(
            clock.cut(Budget::Iterations(40), 7, cap),
            Budget::Iterations(40)
        );
        // Another turn starts from zero.
        assert_eq!(
            clock.cut(Budget::Time(ms(250)), 9, cap),
            Budget::Time(ms(250))
        );
        clock.add(9, ms(10));
        assert_eq!(clock.spent_in(7), Duration::ZERO);
        assert_eq!(clock.spent_in(9), ms(10));

        let shared = clock.clone();
        shared.add(9, ms(5));
        assert_eq!(clock.spent_in(9), ms(15));
        let other = TurnClock::new();
        other.add(9, ms(1));
        assert_eq!(clock.spent_in(9), ms(15));
    }
}
