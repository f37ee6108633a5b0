//! The bot contract.

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
