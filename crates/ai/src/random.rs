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
        if legal.len() <= 1 {
            return 0;
        }
        rng.below(legal.len() as u32) as usize
    }
}
