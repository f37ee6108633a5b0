//! What a game offers the bots beyond the engine contract.

use engine::{Game, GameRng, Seat, ToMove};

use crate::Budget;

/// How a search spends its budget on one decision ([`AiGame::pace`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pace {
    /// Play the legal action at this index without searching: the decision is forced,
    /// or as good as forced.
    Play(usize),
    /// Search with this budget.
    Search(Budget),
}

/// The search interface a game implements for the bots.
pub trait AiGame: Game {
    /// The seat a view belongs to (`None`: a spectator's view).
    fn view_seat(view: &Self::View) -> Option<Seat>;

    /// A full state that `view`'s seat cannot tell from the true one: what the view
    /// shows, with the hidden facts (face-down tiles, fogged enemy units, enemy
    /// reserves) sampled from `rng`. `None` if no consistent state could be built.
    fn determinize(view: &Self::View, rng: &mut GameRng) -> Option<Self>;

    /// Whether [`AiGame::determinize`] of `view` always builds the same state and draws
    /// nothing from its `rng` (nothing hidden is sampled): a search then builds it once
    /// and copies it for each iteration. False (the default) when unsure.
    fn determinization_is_fixed(view: &Self::View) -> bool {
        let _ = view;
        false
    }

    /// The heuristic worth of the position for every seat (index = seat), each in
    /// `0.0..=1.0`, higher better: an estimate of each seat's share of the win.
    fn evaluate(&self) -> Vec<f64>;

    /// The evaluation's weights by name, at their defaults, in the order
    /// [`AiGame::evaluate_with`] reads them: what `hexwar tune` adjusts. Empty (the
    /// default): the game has no weights to tune.
    fn weights() -> Vec<(&'static str, f64)> {
        Vec::new()
    }

    /// The weights as set by hand, in [`AiGame::weights`]' order: the baseline a tuning
    /// run starts from and is measured against. The default: the defaults.
    fn hand_weights() -> Vec<f64> {
        Self::weights().into_iter().map(|(_, v)| v).collect()
    }

    /// How far a tuning run moves each of these weights at first (0: it keeps the
    /// weight as it is, as a count or a scale that stretches every score alike). The
    /// default: a quarter of each, at least 0.05.
    fn tuning_scales(values: &[f64]) -> Vec<f64> {
        values.iter().map(|v| (v.abs() * 0.25).max(0.05)).collect()
    }

    /// [`AiGame::evaluate`] with these weights, in [`AiGame::weights`]'s order (callers
    /// check their number; a game without weights ignores them). `None`: the defaults.
    fn evaluate_with(&self, weights: Option<&[f64]>) -> Vec<f64> {
        let _ = weights;
        self.evaluate()
    }

    /// Player turns begun so far: rollouts stop after a few of them.
    fn turn_marker(&self) -> u64;

    /// Whether `action` does nothing but pass (end a phase); among equally good
    /// actions the greedy bot passes rather than make an idle move.
    fn is_pass(action: &Self::Action) -> bool {
        let _ = action;
        false
    }

    /// Whether `action` only takes back the player's own previous decision (A Victory
    /// Lost: withdrawing a declared attack, H-108). A one-ply bot could go round in
    /// circles (declare, withdraw, declare …), so the bots choose such an action only
    /// when nothing else is legal.
    fn is_retraction(action: &Self::Action) -> bool {
        let _ = action;
        false
    }

    /// Whether `action`, taken in this state, is futile: it could only be taken back
    /// ([`AiGame::is_retraction`]), like declaring an attack in A Victory Lost that cannot
    /// be resolved or is expected to lose. MCTS does not try futile actions unless
    /// nothing else is legal (greedy needs no telling: the evaluation scores them low).
    fn is_futile(&self, action: &Self::Action) -> bool {
        let _ = action;
        false
    }

    /// The piece `action` moves part of its way, when a piece's move takes several
    /// actions (A Victory Lost, 8.1: one hex per action). The greedy bot follows such a
    /// piece's further steps too and scores `action` by the best position the whole move
    /// reaches ([`crate::greedy::whole_moves`]). `None` (the default): `action` is
    /// scored by the position right after it.
    fn moving_piece(action: &Self::Action) -> Option<u32> {
        let _ = action;
        None
    }

    /// The piece part-way through its move now that may go on
    /// ([`AiGame::moving_piece`]), if any.
    fn moving_now(&self) -> Option<u32> {
        None
    }

    /// The legal actions that move `piece` on from this state (empty when it cannot go
    /// on); only asked for a piece that [`AiGame::moving_piece`] named.
    fn moves_of(&self, piece: u32) -> Vec<Self::Action> {
        let _ = piece;
        Vec::new()
    }

    /// A fingerprint of the state, equal for states a whole move reached by different
    /// paths, so each is scored once ([`AiGame::moving_piece`]).
    fn fingerprint(&self) -> u64 {
        0
    }

    /// A hash of what the evaluation reads among what a piece's move can change: equal
    /// for two states that moves of one piece reached from one state only when their
    /// evaluations are equal (where the pieces stand, not how far the moving one has
    /// gone), so [`crate::greedy::whole_moves`] scores each such position once. `None`
    /// (the default): every position is scored.
    fn value_key(&self) -> Option<u64> {
        None
    }

    /// A hash of what the player moving can change with his moves and the seat can tell:
    /// where the pieces stand (not how far they have gone), what is built, the phase, and
    /// what has been revealed. Two positions of one player turn with equal keys are the
    /// same but for movement spent, so an action back to an earlier one is a null move:
    /// MCTS never tries it ([`crate::Mcts`]). `None` (the default): no action is taken for
    /// a null move.
    fn null_move_key(&self) -> Option<u64> {
        None
    }

    /// [`AiGame::fingerprint`] and [`AiGame::value_key`] at once, for a game that works
    /// out what they share once.
    fn fingerprint_and_key(&self) -> (u64, Option<u64>) {
        (self.fingerprint(), self.value_key())
    }

    /// For each of `legal`, whether its worth one ply deep, as scored in `earlier` (a
    /// state of the same player turn, before the actions played since), still holds
    /// over the position's own value: the action moves a piece
    /// ([`AiGame::moving_piece`]) that has not moved since, and it and where it goes
    /// stand far from everything that changed. Greedy keeps such steps' gains from one
    /// decision to the next instead of scoring them again ([`crate::greedy`]). The
    /// default: none holds.
    fn steady_steps(&self, earlier: &Self, legal: &[Self::Action]) -> Vec<bool> {
        let _ = earlier;
        vec![false; legal.len()]
    }

    /// How MCTS ([`crate::Mcts`]) spends its per-decision `budget` on this decision:
    /// all of it (the default), less (a decision among many of one long turn, so that
    /// the turn keeps pace), or none (a forced or near-forced decision, played at
    /// once). It may draw on `rng` (a determinization), so the result stays a function
    /// of the view, the legal actions, the budget and the random stream.
    fn pace(view: &Self::View, legal: &[Self::Action], budget: Budget, rng: &mut GameRng) -> Pace {
        let _ = (view, legal, rng);
        Pace::Search(budget)
    }

    /// The player turn `view` is in, as [`AiGame::turn_marker`] numbers it, when the
    /// view tells it (`None`, the default: the game caps no turn, [`AiGame::turn_cap`]).
    fn view_turn(view: &Self::View) -> Option<u64> {
        let _ = view;
        None
    }

    /// The most thinking time one player turn may take in all, for a level thinking
    /// `per_decision` per decision (`None`, the default: no cap). [`crate::Mcts`] keeps
    /// the time it spent in the turn ([`crate::TurnMemory`]) and never searches past
    /// the cap; once it is spent, a decision gets [`AiGame::after_cap_iterations`].
    fn turn_cap(per_decision: std::time::Duration) -> Option<std::time::Duration> {
        let _ = per_decision;
        None
    }

    /// The iterations a decision from `view` still searches once its player turn has
    /// spent its cap ([`AiGame::turn_cap`]): a fixed amount of work, so that the turn's
    /// last decisions are still searched and the turn runs over its cap by a bounded
    /// time (0, the default: no iteration, the action a kept tree favours or one greedy
    /// ply).
    fn after_cap_iterations(view: &Self::View) -> u32 {
        let _ = view;
        0
    }

    /// The game's own settings for its levels' searches, from the generic `config`
    /// (the default: `config` as it is). VIKTORY evaluates a new node at once, without
    /// a rollout ([`crate::MctsConfig::max_rollout_decisions`] 0, docs/ai.md).
    fn search_settings(config: crate::MctsConfig) -> crate::MctsConfig {
        config
    }

    /// The reward vector of a finished game: the winners share 1.
    fn outcome_reward(&self) -> Option<Vec<f64>> {
        match self.to_move() {
            ToMove::Over(o) => {
                let n = usize::from(self.seats());
                let mut r = vec![0.0; n];
                if o.winners.is_empty() {
                    r.fill(1.0 / n as f64);
                } else {
                    let share = 1.0 / o.winners.len() as f64;
                    for w in &o.winners {
                        if let Some(x) = r.get_mut(w.index()) {
                            *x = share;
                        }
                    }
                }
                Some(r)
            }
            _ => None,
        }
    }

    /// The reward vector now: the outcome when over, else the evaluation.
    fn reward(&self) -> Vec<f64> {
        self.reward_with(None)
    }

    /// [`AiGame::reward`] with the evaluation's weights ([`AiGame::evaluate_with`]).
    fn reward_with(&self, weights: Option<&[f64]>) -> Vec<f64> {
        self.outcome_reward()
            .unwrap_or_else(|| self.evaluate_with(weights))
    }
}

/// Samples chance outcomes until a seat must decide or the game ends (at most `limit`
/// of them). Returns whether the state now waits for a seat.
pub fn settle<G: Game>(state: &mut G, rng: &mut GameRng, limit: usize) -> bool {
    for _ in 0..limit {
        match state.to_move() {
            ToMove::Chance => {
                let a = state.sample_chance(rng);
                state.apply_unchecked(a);
            }
            ToMove::Seat(_) => return true,
            ToMove::Over(_) => return false,
        }
    }
    matches!(state.to_move(), ToMove::Seat(_))
}
