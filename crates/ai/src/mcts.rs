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
//! - no null moves: an action leading back to a position of the root's player turn, with
//!   nothing learnt between ([`AiGame::null_move_key`]), is never tried, in the tree or
//!   at the root (the turn's earlier positions are kept with the tree): the position
//!   without the detour is as good, with movement to spare;
//! - back-propagation of the whole reward vector: each node's children keep the
//!   reward of the seat choosing among them, so 2 to 8 players work alike.
//!
//! Within a player turn the trees are kept from decision to decision
//! ([`MctsConfig::reuse`], issue 29): after a decision each tree is cut down to the
//! subtree below the action played and kept in the seat's [`TurnMemory`]. The seat's
//! next decision in the same turn searches on from it when it follows from that
//! action: every action tried at the kept root was the same seat's (in no sampled game
//! did another seat decide between) and some of them are legal now.
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
use crate::{AiGame, Bot, Budget, TurnMemory, settle};

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
    /// Whether a decision searches on from the tree of the seat's previous decision in
    /// the same player turn (issue 29), in games that tell the turn
    /// ([`AiGame::view_turn`]). Off: every decision starts a new tree.
    pub reuse: bool,
    /// Positions explored at most per piece when the root's priors follow each piece's
    /// whole move ([`greedy::plan_moves`], as the greedy bot plans), in games where a
    /// move takes several actions ([`AiGame::moving_piece`]). A one-ply prior scores a
    /// unit's first hex, not where its move can end; the root's children are its
    /// first steps. 0: the root's priors are one-ply, as every other node's.
    pub root_whole_moves: usize,
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
            reuse: true,
            root_whole_moves: 0,
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
    /// Visits the trees' roots had before the search: kept from the seat's previous
    /// decision in the player turn ([`MctsConfig::reuse`]); 0 for a new tree.
    pub reused: u64,
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
    /// What the bot keeps of the current player turn: the thinking time spent in it,
    /// against the game's cap ([`AiGame::turn_cap`]), and the tree of its last decision
    /// ([`MctsConfig::reuse`]).
    pub memory: TurnMemory,
}

impl Mcts {
    /// A bot with these settings.
    pub fn new(config: MctsConfig) -> Mcts {
        Mcts {
            config,
            last: None,
            weights: None,
            memory: TurnMemory::new(),
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
        self.decide::<G>(&cfg, view, legal, rng, Vec::new(), Vec::new())
            .0
    }

    /// Searches with `cfg`, from the kept trees in `start` where there are some (by
    /// tree index), and names the chosen legal action (the statistics go to
    /// [`Mcts::last`]); with it, the trees searched and the positions of the player
    /// turn so far, this one's added ([`AiGame::null_move_key`]; `history`: those
    /// before it).
    fn decide<G: AiGame>(
        &mut self,
        cfg: &MctsConfig,
        view: &G::View,
        legal: &[G::Action],
        rng: &mut GameRng,
        start: Trees<G::Action>,
        mut history: Vec<u64>,
    ) -> (usize, Trees<G::Action>, Vec<u64>) {
        let started = Instant::now();
        let reused = start.iter().flatten().map(|n| u64::from(n[0].visits)).sum();
        let (stats, iterations, trees, root) =
            search::<G>(cfg, view, self.weights.as_deref(), rng, start, &history);
        history.extend(root);
        self.last = Some(SearchStats {
            iterations,
            elapsed: started.elapsed(),
            trees: cfg.trees.max(1),
            reused,
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
            return (i, trees, history);
        }
        // No iteration ran (no determinization could be built, or the player turn's
        // time is spent in a game that searches none after it,
        // `AiGame::after_cap_iterations`) and no kept tree answers: one greedy ply, which
        // plays no null move of the turn either (docs/ai.md, "The turn's cap and
        // after").
        let mut greedy = greedy::Greedy {
            weights: self.weights.clone(),
            memory: None,
            ..greedy::Greedy::default()
        };
        let i = greedy.choose_after::<G>(view, legal, rng, &history);
        (i, trees, history)
    }

    /// The trees kept from the seat's last decision in player turn `turn`, by tree
    /// index, where this decision follows from it ([`follows`]); none when it is the
    /// same decision asked again (the same view). With them, the positions of the
    /// player turn before this decision ([`Kept::history`]).
    fn kept_for<G: AiGame>(
        &self,
        turn: u64,
        seat: usize,
        view: &G::View,
        legal: &[G::Action],
    ) -> (Trees<G::Action>, Vec<u64>) {
        let Some(kept) = self
            .memory
            .take_tree(turn)
            .and_then(|t| t.downcast::<Kept<G::Action, G::View>>().ok())
        else {
            return (Vec::new(), Vec::new());
        };
        if kept.view == *view {
            return (Vec::new(), kept.history);
        }
        let trees = kept
            .trees
            .into_iter()
            .map(|t| t.filter(|nodes| follows(nodes, seat, legal)))
            .collect();
        (trees, kept.history)
    }

    /// Keeps `trees`, each cut down to the subtree below `played`, for the seat's next
    /// decision in player turn `turn` ([`MctsConfig::reuse`]), with the positions of the
    /// turn so far.
    fn keep<G: AiGame>(
        &self,
        turn: Option<u64>,
        view: &G::View,
        trees: Trees<G::Action>,
        played: Option<&G::Action>,
        history: Vec<u64>,
    ) {
        let (Some(turn), Some(played), true) = (turn, played, self.config.reuse) else {
            return;
        };
        let trees: Vec<_> = trees
            .into_iter()
            .map(|t| t.and_then(|nodes| below(nodes, played)))
            .collect();
        if trees.iter().any(Option::is_some) || !history.is_empty() {
            let kept: Kept<G::Action, G::View> = Kept {
                view: view.clone(),
                trees,
                history,
            };
            self.memory.keep_tree(turn, Box::new(kept));
        }
    }
}

/// A tree's nodes; the root is the first.
type Nodes<A> = Vec<Node<A>>;

/// Trees by index, each kept or not.
type Trees<A> = Vec<Option<Nodes<A>>>;

/// The trees of a search, each cut down to the subtree below the action played, kept in
/// the seat's [`TurnMemory`] for its next decision in the player turn.
struct Kept<A, V> {
    /// The view the search was made from.
    view: V,
    /// By tree index: the subtree, if the tree had one below the action played.
    trees: Trees<A>,
    /// The positions the seat decided in so far in the player turn
    /// ([`AiGame::null_move_key`]): a move back to one of them is a null move.
    history: Vec<u64>,
}

/// Whether a kept tree fits the decision `seat` faces now, with these `legal` actions:
/// its root was expanded, every action tried there was `seat`'s (so in every sampled
/// game no other seat decided between, as none can have in this one), and some of
/// them are legal now. The tree is open-loop, as the search is: the chance outcomes
/// between the two decisions were sampled in it, and its statistics are over them.
fn follows<A: Ord>(nodes: &[Node<A>], seat: usize, legal: &[A]) -> bool {
    let Some(root) = nodes.first() else {
        return false;
    };
    !root.children.is_empty()
        && root.children.iter().all(|c| c.mover == seat)
        && root
            .children
            .iter()
            .any(|c| legal.binary_search(&c.action).is_ok())
}

/// The subtree below the root's child for `action`, its nodes numbered afresh (root
/// first); `None` if the action was not tried or nothing was tried after it.
fn below<A: PartialEq>(mut nodes: Nodes<A>, action: &A) -> Option<Nodes<A>> {
    let root = nodes
        .first()?
        .children
        .iter()
        .find(|c| c.action == *action)?
        .node;
    if nodes[root].children.is_empty() {
        return None;
    }
    // Every node but the root has one parent, so a walk from the new root meets each of
    // its nodes once.
    let mut order = vec![root];
    let mut renumber = vec![usize::MAX; nodes.len()];
    renumber[root] = 0;
    let mut i = 0;
    while let Some(&old) = order.get(i) {
        for c in &nodes[old].children {
            renumber[c.node] = order.len();
            order.push(c.node);
        }
        i += 1;
    }
    Some(
        order
            .into_iter()
            .map(|old| {
                let mut n = std::mem::replace(&mut nodes[old], Node::new());
                for c in &mut n.children {
                    c.node = renumber[c.node];
                }
                n
            })
            .collect(),
    )
}

impl<G: AiGame> Bot<G> for Mcts {
    fn name(&self) -> String {
        let fresh = if self.config.reuse { "" } else { ", fresh" };
        format!("mcts({}{fresh})", self.config.budget.describe())
    }

    fn choose(&mut self, view: &G::View, legal: &[G::Action], rng: &mut GameRng) -> usize {
        self.last = None;
        let turn = G::view_turn(view);
        // The trees of the seat's last decision in this player turn, where this one
        // follows from it.
        let (start, history) = match (turn, G::view_seat(view)) {
            (Some(turn), Some(seat)) if self.config.reuse => {
                self.kept_for::<G>(turn, seat.index(), view, legal)
            }
            _ => (Vec::new(), Vec::new()),
        };
        if legal.len() <= 1 {
            self.keep::<G>(turn, view, start, legal.first(), history);
            return 0;
        }
        // The game may judge the decision forced, or worth less than the whole budget.
        let mut cfg = match G::pace(view, legal, self.config.budget, rng) {
            // Like a single legal action: no search, no statistics.
            crate::Pace::Play(i) if i < legal.len() => {
                self.keep::<G>(turn, view, start, legal.get(i), history);
                return i;
            }
            crate::Pace::Play(_) => self.config,
            crate::Pace::Search(budget) => MctsConfig {
                budget,
                ..self.config
            },
        };
        // And the player turn may have spent what it may.
        let cap = match self.config.budget {
            Budget::Time(per_decision) => G::turn_cap(per_decision),
            Budget::Iterations(_) => None,
        };
        if let (Some(turn), Some(cap)) = (turn, cap) {
            let after_cap = G::after_cap_iterations(view);
            cfg.budget = match self.memory.cut(cfg.budget, turn, cap) {
                // The turn's time is spent: a fixed few iterations still.
                Budget::Time(left) if left.is_zero() && after_cap > 0 => {
                    Budget::Iterations(after_cap)
                }
                budget => budget,
            };
        }
        let started = Instant::now();
        let (choice, trees, history) = self.decide::<G>(&cfg, view, legal, rng, start, history);
        if let Some(turn) = turn {
            self.memory.add(turn, started.elapsed());
        }
        self.keep::<G>(turn, view, trees, legal.get(choice), history);
        choice
    }
}

/// Root statistics: per action, visits and summed reward of the root's seat; sorted by
/// action. And the iterations run.
type RootStats<A> = Vec<(A, u32, f64)>;

/// What [`search`] found: the merged root statistics, the iterations, each tree's nodes
/// by index, and the root position's [`AiGame::null_move_key`].
type Searched<A> = (RootStats<A>, u64, Trees<A>, Option<u64>);

/// What [`run_tree`] found: its root statistics, iterations, nodes, and the root
/// position's [`AiGame::null_move_key`].
type TreeRun<A> = (RootStats<A>, u64, Nodes<A>, Option<u64>);

/// A tree to run: its index, and its kept nodes if any.
type Job<A> = (u32, Option<Nodes<A>>);

/// Runs the trees (each from its kept nodes in `start`, by index, or from a new root)
/// and merges their root statistics; with them, the iterations run, each tree's
/// nodes, by index, and the root position's [`AiGame::null_move_key`]. `history`: the
/// positions of the player turn before the root's.
fn search<G: AiGame>(
    cfg: &MctsConfig,
    view: &G::View,
    weights: Option<&[f64]>,
    rng: &mut GameRng,
    mut start: Trees<G::Action>,
    history: &[u64],
) -> Searched<G::Action> {
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
    // Tree `t` runs on thread `t % threads`, from its kept nodes if any.
    start.resize_with(trees as usize, || None);
    let mut jobs: Vec<Vec<Job<G::Action>>> = (0..threads).map(|_| Vec::new()).collect();
    for (t, nodes) in (0..trees).zip(start) {
        jobs[(t % threads) as usize].push((t, nodes));
    }
    let run = |jobs: Vec<Job<G::Action>>| {
        jobs.into_iter()
            .map(|(t, nodes)| {
                let rng = GameRng::for_step(&seed, u64::from(t));
                let (s, n, nodes, root) =
                    run_tree::<G>(cfg, view, weights, rng, quota(t), deadline, nodes, history);
                (t, s, n, nodes, root)
            })
            .collect::<Vec<_>>()
    };
    let mut results = Vec::new();
    if threads == 1 {
        for j in jobs {
            results.extend(run(j));
        }
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = jobs
                .into_iter()
                .map(|j| scope.spawn(move || run(j)))
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
    results.sort_by_key(|(t, _, _, _, _)| *t);
    let mut merged: RootStats<G::Action> = Vec::new();
    let mut iterations = 0;
    let mut kept: Trees<G::Action> = (0..trees).map(|_| None).collect();
    let mut root_key = None;
    for (t, stats, n, nodes, root) in results {
        iterations += n;
        root_key = root_key.or(root);
        kept[t as usize] = Some(nodes);
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
    (merged, iterations, kept, root_key)
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
    /// Whether the priors follow whole moves ([`MctsConfig::root_whole_moves`]): set
    /// once the node was a search's root.
    planned: bool,
}

impl<A> Node<A> {
    fn new() -> Self {
        Node {
            visits: 0,
            order: None,
            children: Vec::new(),
            planned: false,
        }
    }
}

/// The actions with their priors, best first; ties in their legal order.
fn by_prior<A: Clone>(legal: &[A], priors: &[f64]) -> Vec<(A, f64)> {
    let mut idx: Vec<usize> = (0..legal.len()).collect();
    idx.sort_by(|&a, &b| priors[b].total_cmp(&priors[a]).then(a.cmp(&b)));
    idx.into_iter()
        .map(|i| (legal[i].clone(), priors[i]))
        .collect()
}

struct Tree<'a, G: AiGame> {
    cfg: &'a MctsConfig,
    weights: Option<&'a [f64]>,
    nodes: Vec<Node<G::Action>>,
    root_marker: u64,
    /// The positions of the root's player turn up to the root's, itself included
    /// ([`AiGame::null_move_key`]); empty where the game tells none.
    history: Vec<u64>,
}

#[allow(clippy::too_many_arguments)] // the search's settings, and this tree's own start
fn run_tree<G: AiGame>(
    cfg: &MctsConfig,
    view: &G::View,
    weights: Option<&[f64]>,
    mut rng: GameRng,
    quota: u32,
    deadline: Option<Instant>,
    start: Option<Nodes<G::Action>>,
    history: &[u64],
) -> TreeRun<G::Action> {
    let nodes = start.unwrap_or_else(|| vec![Node::new()]);
    let root_stats = |nodes: &Nodes<G::Action>| {
        let mut stats: RootStats<G::Action> = nodes[0]
            .children
            .iter()
            .map(|c| (c.action.clone(), c.visits, c.value))
            .collect();
        stats.sort_by(|a, b| a.0.cmp(&b.0));
        stats
    };
    let Some(first) = G::determinize(view, &mut rng) else {
        return (root_stats(&nodes), 0, nodes, None);
    };
    let root_key = first.null_move_key();
    let mut tree: Tree<G> = Tree {
        cfg,
        weights,
        nodes,
        root_marker: first.turn_marker(),
        history: match root_key {
            Some(k) => history.iter().copied().chain([k]).collect(),
            None => Vec::new(),
        },
    };
    if cfg.root_whole_moves > 0 && !tree.nodes[0].planned {
        tree.plan_root(&first, &mut rng);
    }
    let mut done = 0u64;
    let mut failures = 0;
    // A view with nothing hidden to sample gives the same state every time: copy it.
    let fixed = G::determinization_is_fixed(view).then(|| first.clone());
    let mut next = Some(first);
    while done < u64::from(quota) && deadline.is_none_or(|d| Instant::now() < d) {
        let state = if let Some(s) = next.take() {
            s
        } else if let Some(s) = &fixed {
            s.clone()
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
    (root_stats(&tree.nodes), done, tree.nodes, root_key)
}

impl<G: AiGame> Tree<'_, G> {
    fn widening(&self, visits: u32) -> usize {
        let n = (self.cfg.widening_c * f64::from(visits).powf(self.cfg.widening_alpha)).ceil();
        (n as usize).max(1)
    }

    fn cut(&self, state: &G) -> bool {
        state.turn_marker() >= self.root_marker + self.cfg.rollout_turns
    }

    /// Gives the root the priors of whole moves ([`MctsConfig::root_whole_moves`]):
    /// each action's one-ply value, raised for a piece's step to the best position its
    /// whole move reaches from it ([`greedy::plan_moves`]); the root's order and its
    /// children's priors (a tree kept from the last decision has some) follow them.
    /// `state` is a sample of the root's position; the moves are the seat's own and
    /// involve no hidden fact, so one sample serves.
    fn plan_root(&mut self, state: &G, rng: &mut GameRng) {
        let Some(seat) = state.to_move().seat() else {
            return;
        };
        let legal = state.legal_actions();
        if legal.is_empty() {
            return;
        }
        let mut scores = greedy::scores_with(state, &legal, seat, 0, self.weights, rng);
        greedy::plan_moves(
            state,
            &legal,
            seat,
            self.cfg.root_whole_moves,
            self.weights,
            &mut scores,
        );
        let root = &mut self.nodes[0];
        for c in &mut root.children {
            if let Ok(i) = legal.binary_search(&c.action) {
                c.prior = scores[i];
            }
        }
        root.order = Some(by_prior(&legal, &scores));
        root.planned = true;
    }

    fn iterate(&mut self, mut d: G, rng: &mut GameRng) {
        let mut node = 0usize;
        let mut path: Vec<(usize, usize)> = Vec::new();
        let mut expanded = false;
        // The positions of the root's player turn on this path, the root's and those
        // before it included: an action leading back to one is a null move.
        let mut seen = (!self.history.is_empty()).then(|| self.history.clone());
        loop {
            if !settle(&mut d, rng, SETTLE_LIMIT) || self.cut(&d) {
                break;
            }
            if d.turn_marker() != self.root_marker {
                seen = None;
            } else if let Some(seen) = &mut seen
                && !path.is_empty()
                && let Some(k) = d.null_move_key()
            {
                seen.push(k);
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
                self.nodes[node].order = Some(by_prior(&legal, &scores));
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
                // A null move (back to a position of the turn, nothing learnt) is never
                // tried: the same position without it keeps more movement.
                let null = |a: &G::Action| {
                    seen.as_ref().is_some_and(|seen| {
                        let mut after = d.clone();
                        after.apply_unchecked(a.clone());
                        after.to_move().seat().is_some()
                            && after.null_move_key().is_some_and(|k| seen.contains(&k))
                    })
                };
                let fresh = |a: &G::Action| {
                    !n.children.iter().any(|c| &c.action == a)
                        && (only_idle || !idle(a))
                        && !null(a)
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
            history: Vec::new(),
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

    fn node(visits: u32, children: Vec<Child<Action>>) -> Node<Action> {
        Node {
            visits,
            order: None,
            children,
            planned: false,
        }
    }

    fn child(action: Action, node: usize, visits: u32, mover: usize) -> Child<Action> {
        Child {
            action,
            node,
            visits,
            avail: visits,
            value: f64::from(visits) / 2.0,
            mover,
            prior: 0.5,
        }
    }

    /// A node's visits and its children's actions, nodes and visits.
    type Shape = (u32, Vec<(Action, usize, u32)>);

    /// The subtree below the action played keeps its statistics, numbered afresh from
    /// its root; an action not tried, or one with nothing tried after it, keeps nothing.
    #[test]
    fn the_subtree_below_the_action_played_is_kept() {
        let end = Action::EndPhase;
        let go = Action::Continue;
        let nodes = vec![
            node(9, vec![child(end, 1, 3, 0), child(go, 2, 6, 0)]),
            node(3, vec![]),
            node(6, vec![child(end, 4, 4, 0), child(go, 3, 2, 1)]),
            node(2, vec![]),
            node(4, vec![child(go, 5, 3, 0)]),
            node(3, vec![]),
        ];
        let kept = below(nodes, &go).expect("tried, with moves after it");
        let shape: Vec<Shape> = kept
            .iter()
            .map(|n| {
                let children = n.children.iter().map(|c| (c.action, c.node, c.visits));
                (n.visits, children.collect())
            })
            .collect();
        assert_eq!(
            shape,
            vec![
                (6, vec![(end, 1, 4), (go, 2, 2)]),
                (4, vec![(go, 3, 3)]),
                (2, vec![]),
                (3, vec![]),
            ]
        );
        let leaf = vec![node(1, vec![child(end, 1, 1, 0)]), node(1, vec![])];
        assert!(below(leaf, &end).is_none(), "nothing tried after it");
        let one = vec![node(1, vec![child(end, 1, 1, 0)]), node(1, vec![])];
        assert!(below(one, &go).is_none(), "not tried");
    }

    /// A kept tree fits a decision of the same seat where some action tried at its
    /// root is legal; not one where another seat decided next in a sampled game.
    #[test]
    fn a_kept_tree_follows_only_its_own_seat() {
        let mut legal = vec![Action::EndPhase, Action::Continue];
        legal.sort();
        let ours = vec![
            node(4, vec![child(Action::Continue, 1, 4, 1)]),
            node(4, vec![]),
        ];
        assert!(follows(&ours, 1, &legal));
        assert!(!follows(&ours, 0, &legal), "another seat's tree");
        assert!(
            !follows(&ours, 1, &[Action::EndPhase]),
            "nothing tried is legal"
        );
        let mixed = vec![
            node(
                4,
                vec![
                    child(Action::Continue, 1, 2, 1),
                    child(Action::EndPhase, 2, 2, 0),
                ],
            ),
            node(2, vec![]),
            node(2, vec![]),
        ];
        assert!(
            !follows(&mixed, 1, &legal),
            "another seat decided in some games"
        );
        assert!(!follows(&[node(0, vec![])], 1, &legal), "nothing tried");
    }
}
