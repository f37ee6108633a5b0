//! Information-set Monte Carlo tree search (single observer, open loop).
//!
//! Each iteration samples a full state from the bot's view ([`AiGame::determinize`]),
//! then walks the tree of decisions (one node per sequence of seat decisions; chance
//! outcomes are sampled on the way and not stored, so the tree is open-loop):
//!
//! - selection by UCB1 on the mean reward of the seat that decides at the node, counting
//!   a child's *availability* (how often it was legal when its parent was visited), as
//!   ISMCTS does, since hidden facts and chance change what is legal; each child's
//!   mean counts its prior as [`MctsConfig::prior_visits`] virtual visits, so that a
//!   search of few iterations leans on the evaluation;
//! - progressive widening: a node with `n` visits may have `ceil(c · n^α)` children,
//!   added best-first by the greedy one-ply score (the prior, computed once per node);
//! - a rollout from the new node with a cheap greedy policy (a few sampled candidates
//!   scored one ply deep, some random moves), cut once a few player turns have begun
//!   after the root's, and scored by [`AiGame::evaluate`] (or the outcome);
//! - back-propagation of the whole reward vector: each node's children keep the
//!   reward of the seat choosing among them, so 2 to 8 players work alike.
//!
//! Root parallelism: several independent trees, each with its own random stream
//! derived from the decision's generator and the tree's index, run on scoped threads;
//! their root statistics are summed and the most visited action is played. The number
//! of trees, not of threads, shapes the result, so an iteration budget gives the same
//! choice on any machine.

use std::sync::Arc;
use std::time::{Duration, Instant};

use engine::{GameRng, Seed};

use crate::greedy;
use crate::{AiGame, Bot, Budget, settle};

/// Chance outcomes sampled in a row at most before giving up on a playout.
const SETTLE_LIMIT: usize = 2_000;

/// The search's settings.
#[derive(Clone, Copy, Debug)]
pub struct MctsConfig {
    /// Iterations (in all) or time per decision.
    pub budget: Budget,
    /// Independent trees (root parallelism); shapes the result.
    pub trees: u32,
    /// Threads the trees run on; does not change the result.
    pub threads: u32,
    /// The UCB1 exploration constant.
    pub exploration: f64,
    /// Progressive widening: a node with `n` visits has up to `ceil(c · n^α)` children.
    pub widening_c: f64,
    /// Progressive widening exponent α.
    pub widening_alpha: f64,
    /// Rollouts stop once this many player turns have begun after the root's turn.
    pub rollout_turns: u64,
    /// Candidate actions the rollout policy scores per decision (the rest unseen).
    pub rollout_candidates: usize,
    /// Percent of rollout decisions taken at random.
    pub rollout_random_percent: u32,
    /// Decisions in one rollout at most; 0: no rollout, a new node is scored by the
    /// evaluation at once (chance after its action unresolved, as the priors are).
    pub max_rollout_decisions: u32,
    /// Virtual visits of a child at its prior (the greedy one-ply value of its action
    /// for the seat choosing it), blended into its mean: with few iterations the search
    /// leans on the evaluation, with many on its rollouts. 0: none. The default, 6, won
    /// 101 of 160 games against greedy at 60 iterations per decision, where 0 won 82.5
    /// (docs/ai.md).
    pub prior_visits: f64,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            budget: Budget::Iterations(400),
            trees: 2,
            threads: 2,
            exploration: 0.35,
            widening_c: 1.5,
            widening_alpha: 0.5,
            rollout_turns: 2,
            rollout_candidates: 6,
            rollout_random_percent: 10,
            max_rollout_decisions: 400,
            prior_visits: 6.0,
        }
    }
}

/// What the last search did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Iterations over all trees.
    pub iterations: u64,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
    /// Trees searched.
    pub trees: u32,
}

/// The MCTS bot.
#[derive(Clone, Debug, Default)]
pub struct Mcts {
    /// Its settings.
    pub config: MctsConfig,
    /// Statistics of the last search (none when the choice was forced).
    pub last: Option<SearchStats>,
    /// The evaluation's weights ([`AiGame::weights`]) for the priors, the rollouts and
    /// their scores; `None`: the game's defaults.
    pub weights: Option<Arc<[f64]>>,
    /// The thinking time spent in the current player turn, against the game's cap
    /// ([`AiGame::turn_cap`]).
    pub clock: crate::TurnClock,
}

impl Mcts {
    /// A bot with these settings.
    pub fn new(config: MctsConfig) -> Mcts {
        Mcts {
            config,
            last: None,
            weights: None,
            clock: crate::TurnClock::new(),
        }
    }

    /// Chooses with the whole configured budget, without asking the game how to spend
    /// it ([`AiGame::pace`]): what the benchmarks time, the search itself.
    pub fn choose_unpaced<G: AiGame>(
        &mut self,
        view: &G::View,
        legal: &[G::Action],
        rng: &mut GameRng,
    ) -> usize {
        self.last = None;
        if legal.len() <= 1 {
            return 0;
        }
        let cfg = self.config;
        self.decide::<G>(&cfg, view, legal, rng)
    }

    /// Searches with `cfg` and names the chosen legal action (the statistics go to
    /// [`Mcts::last`]).
    fn decide<G: AiGame>(
        &mut self,
        cfg: &MctsConfig,
        view: &G::View,
        legal: &[G::Action],
        rng: &mut GameRng,
    ) -> usize {
        let start = Instant::now();
        let (stats, iterations) = search::<G>(cfg, view, self.weights.as_deref(), rng);
        self.last = Some(SearchStats {
            iterations,
            elapsed: start.elapsed(),
            trees: cfg.trees.max(1),
        });
        // The most visited legal action; ties to the better mean, then the first.
        let mut best: Option<(usize, u32, f64)> = None;
        for (i, a) in legal.iter().enumerate() {
            if let Ok(k) = stats.binary_search_by(|(b, _, _)| b.cmp(a)) {
                let (_, visits, value) = &stats[k];
                let mean = value / f64::from((*visits).max(1));
                if best.is_none_or(|(_, v, m)| *visits > v || (*visits == v && mean > m)) {
                    best = Some((i, *visits, mean));
                }
            }
        }
        if let Some((i, _, _)) = best {
            return i;
        }
        // No tree could be built (no determinization): fall back on one greedy ply.
        let mut greedy = greedy::Greedy {
            weights: self.weights.clone(),
            ..greedy::Greedy::default()
        };
        <greedy::Greedy as Bot<G>>::choose(&mut greedy, view, legal, rng)
    }
}

impl<G: AiGame> Bot<G> for Mcts {
    fn name(&self) -> String {
        format!("mcts({})", self.config.budget.describe())
    }

    fn choose(&mut self, view: &G::View, legal: &[G::Action], rng: &mut GameRng) -> usize {
        self.last = None;
        if legal.len() <= 1 {
            return 0;
        }
        // The game may judge the decision forced, or worth less than the whole budget.
        let mut cfg = match G::pace(view, legal, self.config.budget, rng) {
            // Like a single legal action: no search, no statistics.
            crate::Pace::Play(i) if i < legal.len() => return i,
            crate::Pace::Play(_) => self.config,
            crate::Pace::Search(budget) => MctsConfig {
                budget,
                ..self.config
            },
        };
        // And the player turn may have spent what it may.
        let turn = G::view_turn(view);
        let cap = match self.config.budget {
            Budget::Time(per_decision) => G::turn_cap(per_decision),
            Budget::Iterations(_) => None,
        };
        if let (Some(turn), Some(cap)) = (turn, cap) {
            cfg.budget = self.clock.cut(cfg.budget, turn, cap);
        }
        let started = Instant::now();
        let choice = self.decide::<G>(&cfg, view, legal, rng);
        if let Some(turn) = turn {
            self.clock.add(turn, started.elapsed());
        }
        choice
    }
}

/// Root statistics: per action, visits and summed reward of the root's seat; sorted by
/// action. And the iterations run.
type RootStats<A> = Vec<(A, u32, f64)>;

fn search<G: AiGame>(
    cfg: &MctsConfig,
    view: &G::View,
    weights: Option<&[f64]>,
    rng: &mut GameRng,
) -> (RootStats<G::Action>, u64) {
    let trees = cfg.trees.max(1);
    let seed = Seed::from_u64(rng.next_u64());
    let deadline = match cfg.budget {
        Budget::Time(d) => Some(Instant::now() + d),
        Budget::Iterations(_) => None,
    };
    let quota = |t: u32| match cfg.budget {
        Budget::Iterations(n) => n / trees + u32::from(t < n % trees),
        Budget::Time(_) => u32::MAX,
    };
    let threads = cfg.threads.clamp(1, trees);
    let mut results: Vec<(u32, RootStats<G::Action>, u64)> = Vec::new();
    if threads == 1 {
        for t in 0..trees {
            let (s, n) = run_tree::<G>(
                cfg,
                view,
                weights,
                GameRng::for_step(&seed, u64::from(t)),
                quota(t),
                deadline,
            );
            results.push((t, s, n));
        }
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|k| {
                    scope.spawn(move || {
                        (k..trees)
                            .step_by(threads as usize)
                            .map(|t| {
                                let (s, n) = run_tree::<G>(
                                    cfg,
                                    view,
                                    weights,
                                    GameRng::for_step(&seed, u64::from(t)),
                                    quota(t),
                                    deadline,
                                );
                                (t, s, n)
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            for h in handles {
                // A panicking tree is a bug in the game; its results are lost, not the game.
                if let Ok(v) = h.join() {
                    results.extend(v);
                }
            }
        });
    }
    // Merge in tree order, so the sums do not depend on thread scheduling.
    results.sort_by_key(|(t, _, _)| *t);
    let mut merged: RootStats<G::Action> = Vec::new();
    let mut iterations = 0;
    for (_, stats, n) in results {
        iterations += n;
        for (a, v, w) in stats {
            match merged.binary_search_by(|(b, _, _)| b.cmp(&a)) {
                Ok(k) => {
                    merged[k].1 += v;
                    merged[k].2 += w;
                }
                Err(k) => merged.insert(k, (a, v, w)),
            }
        }
    }
    (merged, iterations)
}

struct Child<A> {
    action: A,
    node: usize,
    visits: u32,
    avail: u32,
    value: f64,
    mover: usize,
    /// The greedy one-ply value of the action for `mover` ([`MctsConfig::prior_visits`]).
    prior: f64,
}

struct Node<A> {
    visits: u32,
    /// The actions legal at the first visit, best prior first, with their priors.
    order: Option<Vec<(A, f64)>>,
    children: Vec<Child<A>>,
}

impl<A> Node<A> {
    fn new() -> Self {
        Node {
            visits: 0,
            order: None,
            children: Vec::new(),
        }
    }
}

struct Tree<'a, G: AiGame> {
    cfg: &'a MctsConfig,
    weights: Option<&'a [f64]>,
    nodes: Vec<Node<G::Action>>,
    root_marker: u64,
}

fn run_tree<G: AiGame>(
    cfg: &MctsConfig,
    view: &G::View,
    weights: Option<&[f64]>,
    mut rng: GameRng,
    quota: u32,
    deadline: Option<Instant>,
) -> (RootStats<G::Action>, u64) {
    let Some(first) = G::determinize(view, &mut rng) else {
        return (Vec::new(), 0);
    };
    let mut tree: Tree<G> = Tree {
        cfg,
        weights,
        nodes: vec![Node::new()],
        root_marker: first.turn_marker(),
    };
    let mut done = 0u64;
    let mut failures = 0;
    let mut next = Some(first);
    while done < u64::from(quota) && deadline.is_none_or(|d| Instant::now() < d) {
        let state = if let Some(s) = next.take() {
            s
        } else if let Some(s) = G::determinize(view, &mut rng) {
            s
        } else {
            failures += 1;
            if failures > 20 {
                break;
            }
            continue;
        };
        tree.iterate(state, &mut rng);
        done += 1;
    }
    let mut stats: RootStats<G::Action> = tree.nodes[0]
        .children
        .iter()
        .map(|c| (c.action.clone(), c.visits, c.value))
        .collect();
    stats.sort_by(|a, b| a.0.cmp(&b.0));
    (stats, done)
}

impl<G: AiGame> Tree<'_, G> {
    fn widening(&self, visits: u32) -> usize {
        let n = (self.cfg.widening_c * f64::from(visits).powf(self.cfg.widening_alpha)).ceil();
        (n as usize).max(1)
    }

    fn cut(&self, state: &G) -> bool {
        state.turn_marker() >= self.root_marker + self.cfg.rollout_turns
    }

    fn iterate(&mut self, mut d: G, rng: &mut GameRng) {
        let mut node = 0usize;
        let mut path: Vec<(usize, usize)> = Vec::new();
        let mut expanded = false;
        loop {
            if !settle(&mut d, rng, SETTLE_LIMIT) || self.cut(&d) {
                break;
            }
            let Some(seat) = d.to_move().seat() else {
                break;
            };
            let legal = d.legal_actions();
            if legal.is_empty() {
                break;
            }
            if self.nodes[node].order.is_none() {
                let scores = greedy::scores_with(&d, &legal, seat, 0, self.weights, rng);
                let mut idx: Vec<usize> = (0..legal.len()).collect();
                idx.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
                self.nodes[node].order = Some(
                    idx.into_iter()
                        .map(|i| (legal[i].clone(), scores[i]))
                        .collect(),
                );
            }
            let allowed = self.widening(self.nodes[node].visits);
            let mut present = 0usize;
            for c in &mut self.nodes[node].children {
                if legal.binary_search(&c.action).is_ok() {
                    c.avail += 1;
                    present += 1;
                }
            }
            let pick = if present < allowed.min(legal.len()) {
                // Expand: the best-prior legal action that is not a child yet.
                let n = &self.nodes[node];
                // Retractions and futile actions only when nothing else is legal.
                let idle = |a: &G::Action| G::is_retraction(a) || d.is_futile(a);
                let only_idle = legal.iter().all(idle);
                let fresh = |a: &G::Action| {
                    !n.children.iter().any(|c| &c.action == a) && (only_idle || !idle(a))
                };
                let action = n
                    .order
                    .iter()
                    .flatten()
                    .find(|(a, _)| legal.binary_search(a).is_ok() && fresh(a))
                    .cloned()
                    .or_else(|| legal.iter().find(|a| fresh(a)).map(|a| (a.clone(), 0.5)));
                action.map(|(action, prior)| {
                    let child_node = self.nodes.len();
                    self.nodes.push(Node::new());
                    let n = &mut self.nodes[node];
                    n.children.push(Child {
                        action,
                        node: child_node,
                        visits: 0,
                        avail: 1,
                        value: 0.0,
                        mover: seat.index(),
                        prior,
                    });
                    expanded = true;
                    n.children.len() - 1
                })
            } else {
                None
            };
            let pick = match pick {
                Some(p) => p,
                None => match self.select(node, &legal) {
                    Some(p) => p,
                    None => break,
                },
            };
            let child = &self.nodes[node].children[pick];
            d.apply_unchecked(child.action.clone());
            let next = child.node;
            path.push((node, pick));
            node = next;
            if expanded {
                break;
            }
        }
        if expanded {
            self.rollout(&mut d, rng);
        }
        let reward = d.reward_with(self.weights);
        self.nodes[0].visits += 1;
        for (n, c) in path {
            let child = &mut self.nodes[n].children[c];
            child.visits += 1;
            child.value += reward.get(child.mover).copied().unwrap_or(0.0);
            let next = child.node;
            self.nodes[next].visits += 1;
        }
    }

    /// UCB1 over the children legal now.
    fn select(&self, node: usize, legal: &[G::Action]) -> Option<usize> {
        let c = self.cfg.exploration;
        let mut best: Option<(usize, f64)> = None;
        for (i, ch) in self.nodes[node].children.iter().enumerate() {
            if legal.binary_search(&ch.action).is_err() {
                continue;
            }
            let score = if ch.visits == 0 {
                f64::INFINITY
            } else {
                let n = f64::from(ch.visits);
                let pv = self.cfg.prior_visits;
                (ch.value + pv * ch.prior) / (n + pv)
                    + c * (f64::from(ch.avail.max(1)).ln() / n).sqrt()
            };
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((i, score));
            }
        }
        best.map(|(i, _)| i)
    }

    /// Plays on with the cheap greedy policy until the cut.
    fn rollout(&self, d: &mut G, rng: &mut GameRng) {
        let k = self.cfg.rollout_candidates.max(1);
        for _ in 0..self.cfg.max_rollout_decisions {
            if !settle(d, rng, SETTLE_LIMIT) || self.cut(d) {
                return;
            }
            let Some(seat) = d.to_move().seat() else {
                return;
            };
            let legal = d.legal_actions();
            let action = match legal.len() {
                0 => return,
                1 => legal[0].clone(),
                n if rng.below(100) < self.cfg.rollout_random_percent => {
                    legal[rng.below(n as u32) as usize].clone()
                }
                n => {
                    let cands: Vec<G::Action> = if n <= k {
                        legal
                    } else {
                        let mut idx: Vec<usize> = (0..n).collect();
                        rng.shuffle(&mut idx);
                        let mut pick: Vec<usize> = idx[..k].to_vec();
                        if let Some(p) = legal.iter().position(G::is_pass)
                            && !pick.contains(&p)
                        {
                            pick.push(p);
                        }
                        pick.sort_unstable();
                        pick.into_iter().map(|i| legal[i].clone()).collect()
                    };
                    let scores = greedy::scores_with(d, &cands, seat, 0, self.weights, rng);
                    let b = greedy::best::<G>(&cands, &scores);
                    cands[b].clone()
                }
            };
            d.apply_unchecked(action);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use viktory::{Action, Viktory};

    /// Two children alike in their rollouts, one with the better prior.
    fn tree_of_two(cfg: &MctsConfig) -> Tree<'_, Viktory> {
        let child = |action, node, prior| Child {
            action,
            node,
            visits: 4,
            avail: 8,
            value: 2.0,
            mover: 0,
            prior,
        };
        let mut root = Node::new();
        root.visits = 8;
        root.children = vec![
            child(Action::EndPhase, 1, 0.3),
            child(Action::Continue, 2, 0.7),
        ];
        Tree {
            cfg,
            weights: None,
            nodes: vec![root, Node::new(), Node::new()],
            root_marker: 0,
        }
    }

    /// With `prior_visits`, selection leans on the priors where the rollouts do not tell
    /// two children apart; without, the first of equals is taken.
    #[test]
    fn selection_leans_on_the_prior() {
        let mut legal = vec![Action::EndPhase, Action::Continue];
        legal.sort();
        let plain = MctsConfig {
            prior_visits: 0.0,
            ..MctsConfig::default()
        };
        assert_eq!(tree_of_two(&plain).select(0, &legal), Some(0));
        let leaning = MctsConfig {
            prior_visits: 6.0,
            ..MctsConfig::default()
        };
        assert_eq!(tree_of_two(&leaning).select(0, &legal), Some(1));
    }
}
