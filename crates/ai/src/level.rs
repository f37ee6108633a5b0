//! The levels people choose, as bots and budgets.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use crate::{AiGame, Bot, Budget, Greedy, Mcts, MctsConfig, RandomBot, TurnMemory};

/// A bot level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Uniformly random legal actions.
    Random,
    /// The greedy bot: one ply, instant.
    Easy,
    /// MCTS with 250 ms per decision; in VIKTORY a player turn shares about four of
    /// them (about 1 s a turn, [`crate::viktory::pace`]).
    Normal,
    /// MCTS with 1 s per decision; in VIKTORY about 4 s a player turn.
    Hard,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 4] = [Level::Random, Level::Easy, Level::Normal, Level::Hard];

    /// The wire name.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
        }
    }

    /// The thinking time per decision (zero for the instant levels), which the game may
    /// share out over a turn ([`crate::AiGame::pace`]).
    pub const fn time(self) -> Duration {
        match self {
            Level::Random | Level::Easy => Duration::ZERO,
            Level::Normal => Duration::from_millis(250),
            Level::Hard => Duration::from_secs(1),
        }
    }

    /// The level's bot, thinking at most `max_time` per decision, on `threads` threads.
    pub fn bot<G: AiGame>(self, max_time: Duration, threads: u32) -> Box<dyn Bot<G>> {
        self.bot_weighted(max_time, threads, None)
    }

    /// [`Level::bot`] evaluating with these weights ([`AiGame::weights`]; `None`: the
    /// game's defaults). The random level has no evaluation.
    pub fn bot_weighted<G: AiGame>(
        self,
        max_time: Duration,
        threads: u32,
        weights: Option<Arc<[f64]>>,
    ) -> Box<dyn Bot<G>> {
        self.bot_with_memory(max_time, threads, weights, TurnMemory::new())
    }

    /// [`Level::bot_weighted`] keeping the player turn in `memory`, the seat's: its
    /// thinking time against the turn's cap ([`AiGame::turn_cap`]) and its search tree
    /// ([`MctsConfig::reuse`]). For a caller that builds a bot for each decision (the
    /// server), so that the turn's cap holds across them and the tree is kept.
    pub fn bot_with_memory<G: AiGame>(
        self,
        max_time: Duration,
        threads: u32,
        weights: Option<Arc<[f64]>>,
        memory: TurnMemory,
    ) -> Box<dyn Bot<G>> {
        match self {
            Level::Random => Box::new(RandomBot),
            Level::Easy => Box::new(Greedy {
                weights,
                memory: Some(memory),
                ..Greedy::default()
            }),
            Level::Normal | Level::Hard => {
                let mut mcts = Mcts::new(self.search::<G>(max_time, threads));
                mcts.weights = weights;
                mcts.memory = memory;
                Box::new(mcts)
            }
        }
    }

    /// The search settings of a searching level (`normal`, `hard`) in game `G`,
    /// thinking at most `max_time` per decision on `threads` threads.
    pub fn search<G: AiGame>(self, max_time: Duration, threads: u32) -> MctsConfig {
        G::search_settings(MctsConfig {
            budget: Budget::Time(self.time().min(max_time)),
            trees: threads.max(1),
            threads: threads.max(1),
            ..MctsConfig::default()
        })
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelError(pub String);

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no bot level {:?}; the levels are random, easy, normal, hard",
            self.0
        )
    }
}

impl std::error::Error for LevelError {}

impl FromStr for Level {
    type Err = LevelError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Level::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| LevelError(s.chars().take(40).collect()))
    }
}
