//! Helpers shared by the bots' integration tests (issue 29: MCTS keeps its tree within
//! a player turn of VIKTORY and within an activation of A Victory Lost).

use ai::{AiGame, Bot, Greedy, Mcts, arena};
use engine::{Seat, ToMove};

/// One search of seat 0's MCTS: the turn marker it was made at, the root visits kept
/// from the previous search, and the iterations it added.
pub(crate) type Search = (u64, u64, u64);

/// Plays `state` for at most `steps` decisions, seat 0 by `mcts` and every other seat
/// by greedy, the dice and the bots' numbers drawn from the arena's seed `seed`; gives
/// seat 0's searches, each at its `marker`, and the actions played.
pub(crate) fn mcts_against_greedy<G: AiGame>(
    mut state: G,
    mcts: &mut Mcts,
    seed: u64,
    steps: u64,
    marker: impl Fn(&G) -> u64,
) -> (Vec<Search>, Vec<G::Action>) {
    let mut greedy = Greedy::default();
    let mut searches = Vec::new();
    let mut actions = Vec::new();
    for step in 0..steps {
        let a = match state.to_move() {
            ToMove::Over(_) => break,
            ToMove::Chance => state.sample_chance(&mut arena::chance_rng(seed, step)),
            ToMove::Seat(seat) => {
                let legal = state.legal_actions();
                let view = state.view(Some(seat));
                let mut rng = arena::bot_rng(seed, step);
                let i = if seat == Seat(0) {
                    let i = Bot::<G>::choose(mcts, &view, &legal, &mut rng);
                    if let Some(stats) = mcts.last {
                        searches.push((marker(&state), stats.reused, stats.iterations));
                    }
                    i
                } else {
                    Bot::<G>::choose(&mut greedy, &view, &legal, &mut rng)
                };
                legal[i].clone()
            }
        };
        actions.push(a.clone());
        state.apply_unchecked(a);
    }
    (searches, actions)
}

/// What keeping the tree promises, for `searches` made with reuse on: at least
/// `least` of them, and a third, start from a kept tree; the first does not, nor the
/// first of each new `unit` (a player turn, an activation: a change of marker).
pub(crate) fn assert_kept_within(searches: &[Search], least: usize, unit: &str) {
    let reused = searches.iter().filter(|d| d.1 > 0).count();
    assert!(
        reused * 3 >= searches.len() && reused >= least,
        "{reused} of {} searches started from a kept tree: {searches:?}",
        searches.len()
    );
    assert_eq!(searches[0].1, 0, "the first search has nothing to keep");
    for w in searches.windows(2) {
        if w[1].0 != w[0].0 {
            assert_eq!(w[1].1, 0, "a new {unit} starts a new tree: {w:?}");
        }
    }
}
