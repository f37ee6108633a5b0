//! Counting and random walks through a game tree.

use crate::{Game, GameRng, ToMove};

/// The number of action sequences of length `depth` from `state` (chance outcomes
/// count as branches, like decisions). Positions where the game ends earlier count as
/// one leaf. Perft counts from fixed positions are regression fixtures for move
/// generation.
pub fn perft<G: Game>(state: &G, depth: u32) -> u64 {
    if depth == 0 || state.to_move().is_over() {
        return 1;
    }
    let actions = state.legal_actions();
    if depth == 1 {
        return actions.len() as u64;
    }
    actions
        .into_iter()
        .map(|action| {
            let mut next = state.clone();
            next.apply_unchecked(action);
            perft(&next, depth - 1)
        })
        .sum()
}

/// Plays uniformly random legal actions (chance by its own weights) from `state`
/// until the game ends or `max_actions` were taken; returns the actions taken.
pub fn playout<G: Game>(state: &mut G, rng: &mut GameRng, max_actions: usize) -> Vec<G::Action> {
    let mut taken = Vec::new();
    while taken.len() < max_actions {
        let action = match state.to_move() {
            ToMove::Over(_) => break,
            ToMove::Chance => state.sample_chance(rng),
            ToMove::Seat(_) => {
                let mut legal = state.legal_actions();
                if legal.is_empty() {
                    break;
                }
                let i = rng.below(legal.len() as u32) as usize;
                legal.swap_remove(i)
            }
        };
        state.apply_unchecked(action.clone());
        taken.push(action);
    }
    taken
}
