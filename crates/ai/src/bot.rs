//! The bot contract.

use std::any::Any;
use std::fmt;
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

/// What a bot keeps of the current player turn of its seat (issue 29: a person waits
/// for the whole turn): the thinking time spent in it, and the search tree of its last
/// decision, re-rooted at the action played, for the turn's next decision
/// ([`crate::Mcts`]), or the greedy bot's plan of whole moves ([`crate::greedy::Plan`])
/// and its steps' kept worth ([`crate::AiGame::steady_steps`]).
/// A new turn starts from nothing. Clones share one memory, so that a caller that
/// builds a bot for each decision (the server) can hand every one of them the seat's
/// memory.
#[derive(Clone, Default)]
pub struct TurnMemory(Arc<Mutex<Held>>);

/// The turn a [`TurnMemory`] is keeping, what was spent in it, and the kept tree.
#[derive(Default)]
struct Held {
    turn: Option<u64>,
    spent: Duration,
    tree: Option<Box<dyn Any + Send>>,
}

impl Held {
    /// Starts counting `turn`, forgetting an earlier turn.
    fn enter(&mut self, turn: u64) {
        if self.turn != Some(turn) {
            *self = Held {
                turn: Some(turn),
                ..Held::default()
            };
        }
    }
}

impl fmt::Debug for TurnMemory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        f.debug_struct("TurnMemory")
            .field("turn", &s.turn)
            .field("spent", &s.spent)
            .field("tree", &s.tree.is_some())
            .finish()
    }
}

impl TurnMemory {
    /// A memory that has kept nothing.
    pub fn new() -> TurnMemory {
        TurnMemory::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Held> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The time spent so far in player turn `turn` (zero for a turn not counted yet).
    pub fn spent_in(&self, turn: u64) -> Duration {
        let s = self.lock();
        if s.turn == Some(turn) {
            s.spent
        } else {
            Duration::ZERO
        }
    }

    /// Counts `thought` as spent in player turn `turn`; a new turn starts from zero.
    pub fn add(&self, turn: u64, thought: Duration) {
        let mut s = self.lock();
        s.enter(turn);
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

    /// Keeps `tree` for the next decision in player turn `turn` (replacing any other).
    pub fn keep_tree(&self, turn: u64, tree: Box<dyn Any + Send>) {
        let mut s = self.lock();
        s.enter(turn);
        s.tree = Some(tree);
    }

    /// The tree kept in player turn `turn`, taken out of the memory (`None` if there is
    /// none, or it was kept in another turn).
    pub fn take_tree(&self, turn: u64) -> Option<Box<dyn Any + Send>> {
        let mut s = self.lock();
        if s.turn == Some(turn) {
            s.tree.take()
        } else {
            None
        }
    }

    /// Whether a tree is kept for player turn `turn` (what a caller that hands the
    /// memory to its bots can check).
    pub fn holds_tree(&self, turn: u64) -> bool {
        let s = self.lock();
        s.turn == Some(turn) && s.tree.is_some()
    }

    /// Forgets the kept tree: the seat's next decision does not follow from the last
    /// one the bot searched (the server chose for it).
    pub fn forget_tree(&self) {
        self.lock().tree = None;
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
        let clock = TurnMemory::new();
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
        let other = TurnMemory::new();
        other.add(9, ms(1));
        assert_eq!(clock.spent_in(9), ms(15));
    }

    /// A kept tree is given back once, only in the turn it was kept in; counting time
    /// in a new turn forgets it, and so does [`TurnMemory::forget_tree`].
    #[test]
    fn a_kept_tree_lasts_one_turn() {
        let memory = TurnMemory::new();
        memory.keep_tree(4, Box::new(41u32));
        assert!(memory.holds_tree(4) && !memory.holds_tree(5));
        assert!(memory.take_tree(5).is_none(), "another turn");
        let tree = memory.take_tree(4).expect("kept in turn 4");
        assert_eq!(tree.downcast_ref::<u32>(), Some(&41));
        assert!(memory.take_tree(4).is_none(), "taken once");
        assert!(!memory.holds_tree(4));

        memory.keep_tree(4, Box::new(42u32));
        memory.add(4, Duration::from_millis(3));
        assert!(memory.clone().take_tree(4).is_some(), "shared by clones");
        memory.keep_tree(4, Box::new(43u32));
        memory.add(5, Duration::from_millis(3));
        assert!(memory.take_tree(4).is_none() && memory.take_tree(5).is_none());

        memory.keep_tree(5, Box::new(44u32));
        memory.forget_tree();
        assert!(memory.take_tree(5).is_none());
        assert_eq!(memory.spent_in(5), Duration::from_millis(3));
    }
}
