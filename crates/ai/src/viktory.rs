//! VIKTORY II for the bots: determinization from a seat's view, the evaluation, and
//! the battle odds it uses.

pub mod battle;
pub mod determinize;
pub mod eval;
pub mod pace;

use engine::{GameRng, Seat};
use viktory::{Action, View, Viktory};

use crate::{AiGame, Budget, Pace};

impl AiGame for Viktory {
    fn view_seat(view: &View) -> Option<Seat> {
        view.seat
    }

    fn determinize(view: &View, rng: &mut GameRng) -> Option<Viktory> {
        determinize::determinize(view, rng)
    }

    fn determinization_is_fixed(view: &View) -> bool {
        determinize::is_fixed(view)
    }

    fn evaluate(&self) -> Vec<f64> {
        eval::evaluate(self, &eval::Weights::DEFAULT)
    }

    fn weights() -> Vec<(&'static str, f64)> {
        eval::Weights::NAMES
            .into_iter()
            .zip(eval::Weights::DEFAULT.values())
            .collect()
    }

    fn hand_weights() -> Vec<f64> {
        eval::Weights::HAND.values().to_vec()
    }

    /// A quarter of each weight, at least 0.05, but for the town, the scale (the win
    /// shares depend only on the ratios of the sums), and the site cap, a count: those
    /// two stay.
    fn tuning_scales(values: &[f64]) -> Vec<f64> {
        crate::tune::quarter_scales(&eval::Weights::NAMES, values, &["town", "sites_max"], 0.05)
    }

    /// Weights that [`eval::Weights::from_values`] refuses (a caller's bug: files are
    /// checked when read) fall back on the defaults.
    fn evaluate_with(&self, weights: Option<&[f64]>) -> Vec<f64> {
        let w = weights
            .and_then(eval::Weights::from_values)
            .unwrap_or(eval::Weights::DEFAULT);
        eval::evaluate(self, &w)
    }

    fn turn_marker(&self) -> u64 {
        turn_marker(self)
    }

    /// Rule 9.0, 9.2: the units' places, the towns, the phase and the hexes revealed.
    fn null_move_key(&self) -> Option<u64> {
        Some(null_move_key(self))
    }

    fn is_pass(action: &Action) -> bool {
        matches!(action, Action::EndPhase)
    }

    /// A player turn shares a few per-decision budgets ([`pace`]).
    fn pace(view: &View, legal: &[Action], budget: Budget, rng: &mut GameRng) -> Pace {
        pace::pace(view, legal, budget, rng)
    }

    fn view_turn(view: &View) -> Option<u64> {
        let p = &view.position;
        Some(marker(
            p.turn.number,
            p.turn.active,
            p.turn.first,
            p.rules.players,
        ))
    }

    /// No rollouts: a new node is scored by the evaluation at once, so a decision's
    /// time buys about ten times the iterations. At equal time per decision against
    /// greedy that won 122 of 160 games where rollouts won 101 (docs/ai.md).
    fn search_settings(config: crate::MctsConfig) -> crate::MctsConfig {
        crate::MctsConfig {
            max_rollout_decisions: 0,
            ..config
        }
    }

    /// [`pace::TURN_CAP_BUDGETS`] per-decision budgets.
    fn turn_cap(per_decision: std::time::Duration) -> Option<std::time::Duration> {
        Some(per_decision.mul_f64(pace::TURN_CAP_BUDGETS))
    }

    /// [`pace::after_cap_iterations`].
    fn after_cap_iterations(view: &View) -> u32 {
        pace::after_cap_iterations(view)
    }
}

/// [`AiGame::null_move_key`]: where every unit stands (and aboard what), every town and
/// its owner, the reserves, the turn, its phase and battles, and how many hexes are
/// revealed (a move that revealed a tile learnt something: a move back is no null move).
pub fn null_move_key(s: &Viktory) -> u64 {
    use std::hash::{BuildHasher, Hash, Hasher};
    let mut h = foldhash::fast::FixedState::with_seed(0x9e37).build_hasher();
    for u in s.units() {
        (u.id.0, u.owner.0, u.kind.index(), u.hex.q, u.hex.r).hash(&mut h);
        u.aboard.map(|a| a.0).hash(&mut h);
    }
    for (hex, t) in s.towns() {
        (hex.q, hex.r, t.owner.0, t.city, t.capital_of.map(|c| c.0)).hash(&mut h);
    }
    for p in 0..s.rules().players {
        let r = s.player(Seat(p)).reserve;
        for k in viktory::UnitKind::ALL {
            r.get(k).hash(&mut h);
        }
    }
    let t = s.turn();
    (turn_marker(s), t.stage as u8, t.pending_battles.len()).hash(&mut h);
    s.battle().is_some().hash(&mut h);
    let board = s.board();
    let revealed = hexmap::Hex::ORIGIN
        .range(board.radius())
        .into_iter()
        .filter(|&x| s.terrain(x).is_some())
        .count();
    revealed.hash(&mut h);
    h.finish()
}

/// Player turns begun: game turn × players + the active player's place after the first.
pub fn turn_marker(s: &Viktory) -> u64 {
    let t = s.turn();
    marker(t.number, t.active, t.first, s.rules().players)
}

/// [`turn_marker`] from the turn's parts (a view's position has them too).
fn marker(number: u16, active: engine::Seat, first: engine::Seat, players: u8) -> u64 {
    let n = u64::from(players.max(1));
    let place = (u64::from(active.0) + n - u64::from(first.0) % n) % n;
    u64::from(number) * n + place
}

#[cfg(test)]
mod tests {
    use super::*;

    /// VIKTORY's levels search without rollouts; the generic settings (A Victory
    /// Lost's) keep them.
    #[test]
    fn levels_search_without_rollouts() {
        let generic = crate::MctsConfig::default();
        assert!(generic.max_rollout_decisions > 0);
        let ours = <Viktory as AiGame>::search_settings(generic);
        assert_eq!(ours.max_rollout_decisions, 0);
        assert_eq!(ours.budget, generic.budget);
        let avl = <avl::Avl as AiGame>::search_settings(generic);
        assert_eq!(avl.max_rollout_decisions, generic.max_rollout_decisions);
    }
}
