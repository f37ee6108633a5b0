//! The random bot.

use engine::{Game, GameRng};

use crate::Bot;

/// Picks uniformly among the legal actions.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomBot;

impl<G: Game> Bot<G> for RandomBot {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, _view: &G::View, legal: &[G::Action], rng: &mut GameRng) -> usize {
        pick(legal.len(), rng)
    }

    fn choose_blind(&mut self, legal: &[G::Action], rng: &mut GameRng) -> Option<usize> {
        Some(pick(legal.len(), rng))
    }
}

/// A uniform index below `n` (0 when there is one choice or none: no number drawn).
fn pick(n: usize, rng: &mut GameRng) -> usize {
    if n <= 1 {
        return 0;
    }
    rng.below(n as u32) as usize
}
