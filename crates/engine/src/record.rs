//! Game records, replay and the fair-dice proof.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::game::parse_json;
use crate::{Game, GameRng, Problem, RuleViolation, Seat, Seed, ToMove};

/// Who took a recorded action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Actor {
    /// A seat's decision.
    Seat(Seat),
    /// A chance outcome (die, draw).
    Chance,
}

/// One step of a record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound(deserialize = "A: serde::de::DeserializeOwned"))]
pub struct RecordedAction<A> {
    /// Who acted.
    pub by: Actor,
    /// What was done.
    pub action: A,
    /// [`state_hash`] after the action, for golden records; optional.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state_hash: Option<String>,
}

/// A complete, replayable account of a game.
///
/// The setup and the actions alone determine every state; the seed commitment lets
/// anyone check, once the seed is revealed, that every chance outcome came from it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(deserialize = "G: Game"))]
pub struct GameRecord<G: Game> {
    /// Record format version (currently 1).
    pub format: u32,
    /// The game family (`G::NAME`).
    pub game: String,
    /// The game's identifier.
    pub game_id: String,
    /// The preset (ruleset) the game was created from, if any.
    #[serde(default)]
    pub preset: Option<String>,
    /// The option overrides it was created with.
    #[serde(default)]
    pub options: serde_json::Map<String, serde_json::Value>,
    /// Seat names, index = seat.
    pub seats: Vec<String>,
    /// SHA-256 commitment to the seed, published when the game started.
    #[serde(default)]
    pub seed_commitment: Option<String>,
    /// The seed, once revealed (at the end of the game).
    #[serde(default)]
    pub seed: Option<Seed>,
    /// The starting position.
    pub setup: G::Setup,
    /// Every action in order.
    pub actions: Vec<RecordedAction<G::Action>>,
}

impl<G: Game> GameRecord<G> {
    /// An empty record for a game starting from `setup`.
    pub fn new(game_id: impl Into<String>, setup: G::Setup, seats: Vec<String>) -> Self {
        GameRecord {
            format: 1,
            game: G::NAME.to_owned(),
            game_id: game_id.into(),
            preset: None,
            options: serde_json::Map::new(),
            seats,
            seed_commitment: None,
            seed: None,
            setup,
            actions: Vec::new(),
        }
    }

    /// Parses a record from JSON.
    pub fn from_json(value: serde_json::Value) -> Result<Self, Problem> {
        parse_json("game record", value)
    }
}

/// SHA-256 (lowercase hex) of the JSON form of a state's setup: a fingerprint for
/// golden records. It covers the public position format, so it survives changes to a
/// game's internal representation.
pub fn state_hash<G: Game>(state: &G) -> String {
    let json = serde_json::to_vec(&state.to_setup()).expect("game setups serialise");
    crate::rng::to_hex(&Sha256::digest(json))
}

/// A whole seeded game for golden records: chance drawn from `seed` as the server draws
/// it (by record index), each decision a uniform pick among the legal actions from a
/// second generator seeded with the same number, a state hash after every step.
///
/// # Panics
/// If the setup is invalid or the game applies an action it listed as legal with an
/// error: broken rules, not outside input.
pub fn seeded_record<G: Game>(
    game_id: &str,
    setup: G::Setup,
    seats: Vec<String>,
    seed: u64,
) -> GameRecord<G> {
    let mut s = G::from_setup(&setup).expect("a valid setup");
    let seed_value = Seed::from_u64(seed);
    let mut record = GameRecord::new(game_id, setup, seats);
    record.seed_commitment = Some(seed_value.commitment());
    record.seed = Some(seed_value);
    let mut choices = GameRng::from_u64(seed);
    loop {
        let step = record.actions.len() as u64;
        let (by, action) = match s.to_move() {
            ToMove::Over(_) => return record,
            ToMove::Chance => (
                Actor::Chance,
                s.sample_chance(&mut GameRng::for_step(&seed_value, step)),
            ),
            ToMove::Seat(seat) => {
                let legal = s.legal_actions();
                let pick = choices.below(legal.len() as u32) as usize;
                (Actor::Seat(seat), legal[pick].clone())
            }
        };
        s.apply(action.clone())
            .unwrap_or_else(|e| panic!("a legal action was refused: {e}"));
        record.actions.push(RecordedAction {
            by,
            action,
            state_hash: Some(state_hash(&s)),
        });
    }
}

/// Why a record does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The record is for another game family.
    #[error("this record is for the game {found:?}, not {expected:?}")]
    WrongGame {
        /// The game that was asked to replay it.
        expected: String,
        /// The game the record names.
        found: String,
    },
    /// The setup is invalid.
    #[error("the setup is invalid: {0}")]
    Setup(crate::SetupErrors),
    /// Step `step` (0-based) was not legal.
    #[error("step {step} is illegal: {problem}")]
    Illegal {
        /// Index of the first bad action.
        step: usize,
        /// Why it is refused.
        problem: Problem,
    },
    /// Step `step` names the wrong actor.
    #[error("step {step} is recorded as taken by {recorded:?}, but {expected:?} was to move")]
    WrongActor {
        /// Index of the bad action.
        step: usize,
        /// The actor in the record.
        recorded: Actor,
        /// Who was to move.
        expected: ToMove,
    },
    /// The state after step `step` does not match its recorded hash.
    #[error("the state after step {step} differs from the recorded one")]
    HashMismatch {
        /// Index of the action after which the states differ.
        step: usize,
    },
}

/// The final state of a replay and the events of each step.
pub type Replayed<G> = (G, Vec<Vec<<G as Game>::Event>>);

/// Replays a record from its setup, checking every action, its actor and any recorded
/// state hashes. Returns the final state and the events of each step.
pub fn replay<G: Game>(record: &GameRecord<G>) -> Result<Replayed<G>, ReplayError> {
    if record.game != G::NAME {
        return Err(ReplayError::WrongGame {
            expected: G::NAME.to_owned(),
            found: record.game.clone(),
        });
    }
    let mut state = G::from_setup(&record.setup).map_err(ReplayError::Setup)?;
    let mut all_events = Vec::with_capacity(record.actions.len());
    for (step, recorded) in record.actions.iter().enumerate() {
        let to_move = state.to_move();
        let actor_ok = match (&to_move, recorded.by) {
            (ToMove::Seat(s), Actor::Seat(r)) => *s == r,
            (ToMove::Chance, Actor::Chance) => true,
            (ToMove::Over(_), _) => {
                return Err(ReplayError::Illegal {
                    step,
                    problem: Problem::new("game_over", "the game was already over"),
                });
            }
            _ => false,
        };
        if !actor_ok {
            return Err(ReplayError::WrongActor {
                step,
                recorded: recorded.by,
                expected: to_move,
            });
        }
        let events = state
            .apply(recorded.action.clone())
            .map_err(|e| ReplayError::Illegal {
                step,
                problem: e.to_problem(),
            })?;
        if let Some(hash) = &recorded.state_hash
            && *hash != state_hash(&state)
        {
            return Err(ReplayError::HashMismatch { step });
        }
        all_events.push(events);
    }
    Ok((state, all_events))
}

/// Why a record's dice cannot be proven fair.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// The record does not replay.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// The seed has not been revealed (the game is still running).
    #[error("the record holds no revealed seed")]
    NoSeed,
    /// The record holds no commitment to check the seed against.
    #[error("the record holds no seed commitment")]
    NoCommitment,
    /// The revealed seed does not match the published commitment.
    #[error("the revealed seed does not match the commitment {commitment}")]
    CommitmentMismatch {
        /// The commitment in the record.
        commitment: String,
    },
    /// A chance outcome is not the one the seed gives.
    #[error("step {step}: the seed gives {expected}, the record says {recorded}")]
    ChanceMismatch {
        /// Index of the chance action.
        step: usize,
        /// What the seed produces, as JSON.
        expected: String,
        /// What the record holds, as JSON.
        recorded: String,
    },
}

/// Proves a finished record's chance outcomes came from its committed seed: the seed
/// hashes to the commitment, and every chance action equals
/// `sample_chance(state, GameRng::for_step(seed, step))`. Returns how many chance
/// actions were checked.
pub fn verify<G: Game>(record: &GameRecord<G>) -> Result<usize, VerifyError> {
    let seed = record.seed.ok_or(VerifyError::NoSeed)?;
    let commitment = record
        .seed_commitment
        .clone()
        .ok_or(VerifyError::NoCommitment)?;
    if seed.commitment() != commitment {
        return Err(VerifyError::CommitmentMismatch { commitment });
    }
    replay(record)?;
    let mut state = G::from_setup(&record.setup).map_err(ReplayError::Setup)?;
    let mut checked = 0;
    for (step, recorded) in record.actions.iter().enumerate() {
        if recorded.by == Actor::Chance {
            let expected = state.sample_chance(&mut GameRng::for_step(&seed, step as u64));
            if expected != recorded.action {
                let json = |a: &G::Action| serde_json::to_string(a).unwrap_or_default();
                return Err(VerifyError::ChanceMismatch {
                    step,
                    expected: json(&expected),
                    recorded: json(&recorded.action),
                });
            }
            checked += 1;
        }
        state.apply_unchecked(recorded.action.clone());
    }
    Ok(checked)
}
