//! The greedy bot: score every candidate action, play the best (Wesnoth's RCA shape).

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;

use engine::{GameRng, Seat, ToMove};

use crate::{AiGame, Bot, TurnMemory, settle};

/// Chance outcomes sampled after one action at most (a battle's dice, a reveal).
const SETTLE_LIMIT: usize = 400;

/// Tries every legal action on a state rebuilt from the view, samples the chance that
/// follows it `chance_samples` times, scores each result with [`AiGame::evaluate`] for
/// its own seat, and plays the best; ties go to passing.
///
/// Battles are scored by their odds inside the evaluation, so the bot attacks when the
/// odds are good, fights on while they stay good, and retreats when a battle turns bad.
#[derive(Clone, Debug)]
pub struct Greedy {
    /// Samples of the chance after an action that leads to chance.
    pub chance_samples: u32,
    /// Determinizations averaged over (more than one only matters with hidden units).
    pub determinizations: u32,
    /// Positions explored at most per piece when following a piece's whole move
    /// ([`whole_moves`]); 0 scores each step by itself.
    pub whole_move_limit: usize,
    /// The evaluation's weights ([`AiGame::weights`]); `None`: the game's defaults.
    pub weights: Option<Arc<[f64]>>,
    /// Where the player turn's [`Plan`] ([`plan_moves_kept`]) and its steps' scores
    /// ([`AiGame::steady_steps`]) are kept from one decision to the next; `None`: every
    /// decision plans and scores from nothing ([`plan_moves`]). A caller that builds a
    /// bot for each decision (the server) hands each the seat's memory.
    pub memory: Option<TurnMemory>,
}

impl Default for Greedy {
    fn default() -> Self {
        Greedy {
            chance_samples: 3,
            determinizations: 1,
            whole_move_limit: 400,
            weights: None,
            memory: Some(TurnMemory::new()),
        }
    }
}

impl Greedy {
    /// What was kept for the player turn of `view`, taken out of the memory (nothing in
    /// a new turn, without a memory, or with several determinizations, whose averaged
    /// scores a plan does not follow).
    fn take_kept<G: AiGame>(&self, view: &G::View) -> (Kept<G>, Option<u64>) {
        let turn = G::view_turn(view).filter(|_| self.determinizations <= 1);
        let kept = match (&self.memory, turn) {
            (Some(memory), Some(turn)) => memory
                .take_tree(turn)
                .and_then(|kept| kept.downcast::<Kept<G>>().ok())
                .map(|kept| *kept),
            _ => None,
        };
        (
            kept.unwrap_or(Kept {
                plan: Plan::default(),
                steps: None,
                history: Vec::new(),
            }),
            turn,
        )
    }

    /// Keeps `kept` for the next decision of player turn `turn`.
    fn keep<G: AiGame>(&self, kept: Kept<G>, turn: Option<u64>) {
        if let (Some(memory), Some(turn)) = (&self.memory, turn) {
            memory.keep_tree(turn, Box::new(kept));
        }
    }
}

/// What greedy keeps from one decision of a player turn to the next.
struct Kept<G: AiGame> {
    /// The whole moves followed ([`plan_moves_kept`]).
    plan: Plan,
    /// The one-ply scores of the last decision that scored every action.
    steps: Option<Steps<G>>,
    /// The positions the seat decided in so far in the player turn
    /// ([`AiGame::null_move_key`]): an action back to one of them is a null move.
    history: Vec<u64>,
}

/// One decision's one-ply scores of the steps that move a piece
/// ([`AiGame::moving_piece`]): the state it scored them in, and each step's gain over
/// that state's value. A later decision of the turn takes a step's score as its gain
/// over the new state's value where the game says the step's worth still holds
/// ([`AiGame::steady_steps`]: in A Victory Lost, a piece far from the pieces moved
/// since), and scores the others again: a STAVKA activation (7.2.2) has up to some
/// 400 steps to score at each of the 40 or more decisions that start a piece's move.
struct Steps<G: AiGame> {
    state: G,
    gains: HashMap<G::Action, f64>,
}

impl<G: AiGame> Bot<G> for Greedy {
    fn name(&self) -> String {
        match self.memory {
            Some(_) => "greedy".into(),
            None => "greedy(fresh)".into(),
        }
    }

    fn choose(&mut self, view: &G::View, legal: &[G::Action], rng: &mut GameRng) -> usize {
        self.choose_after::<G>(view, legal, rng, &[])
    }
}

impl Greedy {
    /// [`Bot::choose`], passing over the null moves back to the positions in `history`
    /// ([`AiGame::null_move_key`]) as well as to the ones this bot decided in: those of
    /// a searcher that falls back on one greedy ply in the same player turn.
    pub(crate) fn choose_after<G: AiGame>(
        &mut self,
        view: &G::View,
        legal: &[G::Action],
        rng: &mut GameRng,
        history: &[u64],
    ) -> usize {
        if legal.len() <= 1 {
            return 0;
        }
        let Some(seat) = G::view_seat(view) else {
            return 0;
        };
        let (mut kept, turn) = self.take_kept::<G>(view);
        let mut total = vec![0.0; legal.len()];
        let mut used = 0;
        let mut first = None;
        for d in 0..self.determinizations.max(1) {
            let Some(state) = G::determinize(view, rng) else {
                continue;
            };
            if d == 0 {
                kept.history.extend(state.null_move_key());
                first = Some(state.clone());
            }
            let weights = self.weights.as_deref();
            // A piece part-way through its move carries on while that beats stopping
            // it, and nothing else needs scoring ([`carry_on`]; with several
            // determinizations every action's scores are averaged instead).
            if d == 0
                && self.determinizations <= 1
                && self.whole_move_limit > 0
                && let Some(i) = carry_on(&state, legal, seat, self.whole_move_limit, weights)
            {
                self.keep(kept, turn);
                return i;
            }
            // Steps' worth is kept only where actions move pieces part of their way (A
            // Victory Lost), and only with a memory to keep it in.
            let base = (turn.is_some() && legal.iter().any(|a| G::moving_piece(a).is_some()))
                .then(|| value(&state, seat, weights));
            let mut scores = match (kept.steps.take().filter(|_| d == 0), base) {
                (Some(steps), Some(base)) => {
                    let steady = state.steady_steps(&steps.state, legal);
                    (legal.iter().zip(steady))
                        .map(|(a, keep)| match steps.gains.get(a).filter(|_| keep) {
                            Some(gain) => base + gain,
                            None => score(&state, a, seat, self.chance_samples, weights, rng),
                        })
                        .collect()
                }
                _ => scores_with(&state, legal, seat, self.chance_samples, weights, rng),
            };
            if let Some(base) = base {
                let gains = (legal.iter().zip(&scores))
                    .filter(|(a, _)| G::moving_piece(a).is_some())
                    .map(|(a, &v)| (a.clone(), v - base))
                    .collect();
                kept.steps = Some(Steps {
                    state: state.clone(),
                    gains,
                });
            }
            plan_moves_kept(
                &state,
                legal,
                seat,
                self.whole_move_limit,
                weights,
                &mut scores,
                &mut kept.plan,
            );
            for (t, s) in total.iter_mut().zip(scores) {
                *t += s;
            }
            used += 1;
        }
        let Some(first) = first.filter(|_| used > 0) else {
            self.keep(kept, turn);
            return 0;
        };
        let seen = |k: u64| kept.history.contains(&k) || history.contains(&k);
        let i = best_not_null(&first, legal, &mut total, seen);
        self.keep(kept, turn);
        i
    }
}

/// [`best`] among the actions that are no null move from `state`: none leads back to a
/// position of the player turn, one `seen` ([`AiGame::null_move_key`]), as MCTS never
/// tries one. Going out and back gains nothing a player can see, and the evaluation can
/// still prefer it: a battle the player has entered and not yet begun counts the units
/// that could still join it (12.0), and moving another unit out and back keeps that
/// count where beginning the battle would end it. A null move only when every action is
/// one. `scores` are spent.
fn best_not_null<G: AiGame>(
    state: &G,
    legal: &[G::Action],
    scores: &mut [f64],
    seen: impl Fn(u64) -> bool,
) -> usize {
    let first = best::<G>(legal, scores);
    let mut i = first;
    for _ in 0..legal.len() {
        let mut after = state.clone();
        after.apply_unchecked(legal[i].clone());
        let null = after.to_move() == state.to_move() && after.null_move_key().is_some_and(&seen);
        if !null {
            return i;
        }
        scores[i] = f64::NEG_INFINITY;
        i = best::<G>(legal, scores);
        if scores[i] == f64::NEG_INFINITY {
            break;
        }
    }
    first
}

/// The index of the best score; ties (within 1e-9) prefer a pass, then the first.
/// Retractions ([`AiGame::is_retraction`]) only when nothing else is legal.
pub fn best<G: AiGame>(legal: &[G::Action], scores: &[f64]) -> usize {
    let allowed = |i: usize| !G::is_retraction(&legal[i]);
    let Some(mut best) = (0..legal.len()).find(|&i| allowed(i)) else {
        return 0;
    };
    for i in best + 1..legal.len() {
        if !allowed(i) {
            continue;
        }
        let (a, b) = (scores[i], scores[best]);
        if a > b + 1e-9
            || ((a - b).abs() <= 1e-9 && G::is_pass(&legal[i]) && !G::is_pass(&legal[best]))
        {
            best = i;
        }
    }
    best
}

/// Each action's worth for `seat`: the mean evaluation after it, over `samples` draws
/// of the chance that follows (one when none follows). With `samples == 0` the
/// position right after the action is scored, chance unresolved (cheap: priors and
/// rollouts).
pub fn scores<G: AiGame>(
    state: &G,
    legal: &[G::Action],
    seat: Seat,
    samples: u32,
    rng: &mut GameRng,
) -> Vec<f64> {
    scores_with(state, legal, seat, samples, None, rng)
}

/// [`scores`] with the evaluation's weights ([`AiGame::evaluate_with`]).
pub fn scores_with<G: AiGame>(
    state: &G,
    legal: &[G::Action],
    seat: Seat,
    samples: u32,
    weights: Option<&[f64]>,
    rng: &mut GameRng,
) -> Vec<f64> {
    legal
        .iter()
        .map(|a| score(state, a, seat, samples, weights, rng))
        .collect()
}

/// One action's worth for `seat` ([`scores_with`]).
fn score<G: AiGame>(
    state: &G,
    action: &G::Action,
    seat: Seat,
    samples: u32,
    weights: Option<&[f64]>,
    rng: &mut GameRng,
) -> f64 {
    let mut after = state.clone();
    after.apply_unchecked(action.clone());
    if samples == 0 || after.to_move() != engine::ToMove::Chance {
        return value(&after, seat, weights);
    }
    let mut sum = 0.0;
    for _ in 0..samples {
        let mut s = after.clone();
        settle(&mut s, rng, SETTLE_LIMIT);
        sum += value(&s, seat, weights);
    }
    sum / f64::from(samples)
}

/// The pieces that `legal` moves part of their way ([`AiGame::moving_piece`]), sorted.
pub fn moving_pieces<G: AiGame>(legal: &[G::Action]) -> Vec<u32> {
    let mut pieces: Vec<u32> = legal.iter().filter_map(G::moving_piece).collect();
    pieces.sort_unstable();
    pieces.dedup();
    pieces
}

/// While a piece is part-way through its move ([`AiGame::moving_now`]): the index in
/// `legal` of its best next step by the whole move it leads to ([`whole_moves`], at
/// most `limit` positions), if that beats stopping the piece where it is; ties go to
/// the first step. Carrying a piece on is as good as moving another first (another
/// piece's move would end this one's), so nothing else needs scoring.
pub fn carry_on<G: AiGame>(
    state: &G,
    legal: &[G::Action],
    seat: Seat,
    limit: usize,
    weights: Option<&[f64]>,
) -> Option<usize> {
    let piece = state.moving_now()?;
    let steps: Vec<usize> = (0..legal.len())
        .filter(|&i| G::moving_piece(&legal[i]) == Some(piece))
        .collect();
    if steps.is_empty() {
        return None;
    }
    let mut scores = vec![f64::NEG_INFINITY; legal.len()];
    for &i in &steps {
        let mut after = state.clone();
        after.apply_unchecked(legal[i].clone());
        scores[i] = value(&after, seat, weights);
    }
    whole_moves(state, legal, seat, limit, weights, &[piece], &mut scores);
    let best = steps
        .into_iter()
        .max_by(|&a, &b| scores[a].total_cmp(&scores[b]).then(b.cmp(&a)))?;
    (scores[best] > value(state, seat, weights) + 1e-9).then_some(best)
}

/// Pieces whose whole moves are followed at a time ([`plan_moves`]).
pub const PLAN_BATCH: usize = 8;

/// What a player turn's decisions learnt of its pieces' whole moves, kept from one
/// decision to the next ([`plan_moves_kept`]): for each piece followed, how much its best
/// whole move gained over the position it was followed in.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    gains: Vec<(u32, f64)>,
}

impl Plan {
    /// The gain last found for `piece`'s whole move, if it was followed.
    pub fn gain(&self, piece: u32) -> Option<f64> {
        self.gains
            .iter()
            .find(|&&(p, _)| p == piece)
            .map(|&(_, g)| g)
    }

    fn set(&mut self, piece: u32, gain: f64) {
        match self.gains.iter_mut().find(|(p, _)| *p == piece) {
            Some((_, g)) => *g = gain,
            None => self.gains.push((piece, gain)),
        }
    }
}

/// Scores whole moves ([`whole_moves`]) without following every piece's move at every
/// decision, which costs the square of the pieces when many move (a STAVKA activation
/// moves every Soviet unit, 7.2.2); [`plan_moves_kept`] with nothing kept.
pub fn plan_moves<G: AiGame>(
    state: &G,
    legal: &[G::Action],
    seat: Seat,
    limit: usize,
    weights: Option<&[f64]>,
    scores: &mut [f64],
) {
    plan_moves_kept(
        state,
        legal,
        seat,
        limit,
        weights,
        scores,
        &mut Plan::default(),
    );
}

/// Scores whole moves ([`whole_moves`]), following as few pieces as it can:
///
/// 1. While a piece is part-way through its move ([`AiGame::moving_now`]), its own
///    further steps are followed first; if the best action is then to carry it on, that
///    is the choice (carrying on first and moving another piece after is as good, and
///    another piece's move ends this one's).
/// 2. Otherwise the pieces are taken in the order of their best single step's score,
///    [`PLAN_BATCH`] at a time, until the best action is no longer a step of a piece
///    not yet taken.
/// 3. Before the best action is a pass ([`AiGame::is_pass`]: ending the Movement
///    Segment), every remaining piece is taken, so none is left standing that had
///    somewhere worth going.
///
/// A piece taken is followed now, unless `plan` kept its gain from an earlier decision
/// of the turn (another piece has moved since). Such a piece is expected to gain as much
/// again, and is followed only while that expectation beats the best action found, its
/// own single step is the best action, or the best action is a pass (3): the moves of
/// the other pieces rarely change what one piece's move is worth, and following each
/// piece again at each decision cost most of a STAVKA activation's time. Every piece
/// followed has its gain kept in `plan`. With an empty `plan` every piece taken is
/// followed.
pub fn plan_moves_kept<G: AiGame>(
    state: &G,
    legal: &[G::Action],
    seat: Seat,
    limit: usize,
    weights: Option<&[f64]>,
    scores: &mut [f64],
    plan: &mut Plan,
) {
    if limit == 0 {
        return;
    }
    // Each piece with its best single step's score, best first.
    let mut pieces: Vec<(u32, f64)> = Vec::new();
    for (a, &v) in legal.iter().zip(scores.iter()) {
        if let Some(p) = G::moving_piece(a) {
            match pieces.iter_mut().find(|(q, _)| *q == p) {
                Some((_, best)) => *best = best.max(v),
                None => pieces.push((p, v)),
            }
        }
    }
    if pieces.is_empty() {
        return;
    }
    pieces.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut left: Vec<u32> = pieces.into_iter().map(|(p, _)| p).collect();
    let base = value(state, seat, weights);
    let follow = |batch: &[u32], scores: &mut [f64], plan: &mut Plan| {
        whole_moves(state, legal, seat, limit, weights, batch, scores);
        for &p in batch {
            let best = (legal.iter().zip(scores.iter()))
                .filter(|(a, _)| G::moving_piece(a) == Some(p))
                .fold(f64::NEG_INFINITY, |m, (_, &v)| m.max(v));
            plan.set(p, best - base);
        }
    };
    if let Some(now) = state.moving_now().filter(|p| left.contains(p)) {
        follow(&[now], scores, plan);
        let b = best::<G>(legal, scores);
        if G::moving_piece(&legal[b]) == Some(now) {
            return;
        }
        left.retain(|&p| p != now);
    }
    // Pieces taken whose gain the plan kept, not followed yet: each with the score it
    // is expected to reach.
    let mut expected: Vec<(u32, f64)> = Vec::new();
    while !left.is_empty() {
        let taken: Vec<u32> = left.drain(..PLAN_BATCH.min(left.len())).collect();
        let mut fresh = Vec::new();
        for p in taken {
            match plan.gain(p) {
                Some(gain) => expected.push((p, base + gain)),
                None => fresh.push(p),
            }
        }
        follow(&fresh, scores, plan);
        loop {
            let b = best::<G>(legal, scores);
            let own = G::moving_piece(&legal[b]).filter(|p| expected.iter().any(|e| e.0 == *p));
            // Before a pass every piece is followed (3 above), kept or not.
            let pass = G::is_pass(&legal[b]);
            let next = own.or_else(|| {
                expected
                    .iter()
                    .filter(|e| pass || e.1 > scores[b] + 1e-9)
                    .max_by(|x, y| x.1.total_cmp(&y.1).then(y.0.cmp(&x.0)))
                    .map(|e| e.0)
            });
            let Some(p) = next else { break };
            expected.retain(|e| e.0 != p);
            follow(&[p], scores, plan);
        }
        let b = &legal[best::<G>(legal, scores)];
        let unexplored = G::moving_piece(b).is_some_and(|p| left.contains(&p));
        if !unexplored && !G::is_pass(b) {
            return;
        }
    }
}

/// Raises the score of each action that moves a piece part of its way
/// ([`AiGame::moving_piece`]) to the best evaluation among the positions that piece
/// reaches by moving on from it, so that a unit heads for the best hex its whole move
/// reaches, not the best adjacent one (A Victory Lost: a move is one hex per action,
/// 8.1). Breadth first from the current state, each position followed once
/// ([`AiGame::fingerprint`]) and credited to the first step that reached it, at most
/// `limit` positions per piece of `pieces`; the moves are the player's own and involve
/// no chance. Positions the evaluation cannot tell apart ([`AiGame::value_key`]: the
/// same hex reached with different movement points left) are evaluated once.
pub fn whole_moves<G: AiGame>(
    state: &G,
    legal: &[G::Action],
    seat: Seat,
    limit: usize,
    weights: Option<&[f64]>,
    pieces: &[u32],
    scores: &mut [f64],
) {
    // Evaluations by value key, for this call's root state only.
    let mut evaluated: HashMap<u64, f64> = HashMap::new();
    for &piece in pieces {
        let mut seen = HashSet::new();
        let mut queue = VecDeque::new();
        for (i, a) in legal.iter().enumerate() {
            if G::moving_piece(a) != Some(piece) {
                continue;
            }
            let mut after = state.clone();
            after.apply_unchecked(a.clone());
            if after.to_move() == ToMove::Seat(seat) && seen.insert(after.fingerprint()) {
                queue.push_back((after, i));
            }
        }
        let mut explored = seen.len();
        while let Some((s, i)) = queue.pop_front() {
            for a in s.moves_of(piece) {
                if explored >= limit {
                    queue.clear();
                    break;
                }
                let mut next = s.clone();
                next.apply_unchecked(a);
                let (fingerprint, key) = next.fingerprint_and_key();
                if !seen.insert(fingerprint) {
                    continue;
                }
                explored += 1;
                let v = match key {
                    Some(k) => *evaluated
                        .entry(k)
                        .or_insert_with(|| value(&next, seat, weights)),
                    None => value(&next, seat, weights),
                };
                if v > scores[i] {
                    scores[i] = v;
                }
                if next.to_move() == ToMove::Seat(seat) {
                    queue.push_back((next, i));
                }
            }
        }
    }
}

fn value<G: AiGame>(state: &G, seat: Seat, weights: Option<&[f64]>) -> f64 {
    state
        .reward_with(weights)
        .get(seat.index())
        .copied()
        .unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use engine::{Game, NewGame};
    use viktory::Viktory;

    use super::*;

    /// MCTS, when no iteration ran, falls back on one greedy ply and hands it the
    /// positions of the player turn so far: greedy passes over an action leading back
    /// to one of them as over a return to a position it decided in itself.
    #[test]
    fn greedy_passes_over_a_move_back_to_a_position_it_is_told_of() {
        let setup = Viktory::new_setup(&NewGame {
            preset: Some("classic".into()),
            options: serde_json::Map::new(),
            players: Some(2),
        })
        .expect("classic");
        let mut s = Viktory::from_setup(&setup).expect("a new game");
        let mut rng = GameRng::from_u64(3);
        let mut checked = 0;
        for step in 0..3_000u64 {
            let seat = match s.to_move() {
                ToMove::Chance => {
                    let a = s.sample_chance(&mut rng);
                    s.apply_unchecked(a);
                    continue;
                }
                ToMove::Seat(seat) => seat,
                ToMove::Over(_) => break,
            };
            let legal = s.legal_actions();
            let view = s.view(Some(seat));
            let mut greedy = Greedy {
                memory: None,
                ..Greedy::default()
            };
            let i =
                greedy.choose_after::<Viktory>(&view, &legal, &mut GameRng::from_u64(step), &[]);
            let mut after = s.clone();
            after.apply_unchecked(legal[i]);
            if legal.len() > 2
                && after.to_move() == s.to_move()
                && let Some(key) = after.null_move_key()
            {
                // Told that the position after its choice is one the turn was in.
                let j = greedy.choose_after::<Viktory>(
                    &view,
                    &legal,
                    &mut GameRng::from_u64(step),
                    &[key],
                );
                let mut other = s.clone();
                other.apply_unchecked(legal[j]);
                assert_ne!(j, i, "step {step}: {:?} again", legal[i]);
                assert_ne!(other.null_move_key(), Some(key), "step {step}");
                checked += 1;
            }
            s.apply_unchecked(legal[i]);
        }
        assert!(checked > 50, "{checked} decisions checked");
    }
}
