//! Type-erased games: every game family behind one JSON interface.

use std::marker::PhantomData;

use engine::{
    Actor, Game, GameRecord, GameRng, NewGame, Preset, RecordedAction, RuleViolation, Seat, Seed,
    ToMove, replay, verify,
};
use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::RejectReason;

/// How a session is started.
#[derive(Clone, Debug)]
pub struct SessionConfig {
    /// The game's identifier, written into its record.
    pub game_id: String,
    /// The seed that resolves chance.
    pub seed: Seed,
    /// When true, chance nodes wait for the caller to apply an outcome; otherwise the
    /// session resolves them itself from the seed, right away.
    pub scripted_chance: bool,
    /// Seat names (missing names become "Seat N").
    pub seat_names: Vec<String>,
}

/// One applied action and what it caused, or the taking back of one (`undo`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Step {
    /// The action's index in the record. For a take-back: the index of the action taken
    /// back, which the next action will have.
    pub index: u64,
    /// Who acted.
    pub by: Actor,
    /// The action, as JSON (`null` for a take-back).
    pub action: Value,
    /// True when this step takes back the seat's action at `index` instead of acting.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub undo: bool,
    /// The events, as JSON (unfiltered: never send these to a client).
    pub events: Vec<Value>,
    /// The events each audience may see, filtered right after the step (when the
    /// game's knowledge is that of the moment): index 0 is a spectator, index `k + 1`
    /// is seat `k`. Use [`Step::events_for`].
    #[serde(skip)]
    pub seen: Vec<Vec<Value>>,
}

impl Step {
    /// The events `seat` (a spectator: `None`) may see, as filtered at the step.
    pub fn events_for(&self, seat: Option<Seat>) -> &[Value] {
        let index = seat.map_or(0, |s| usize::from(s.0) + 1);
        self.seen.get(index).map_or(&[], Vec::as_slice)
    }
}

/// A running game of any family, spoken to in JSON.
pub trait Session: Send {
    /// The game family.
    fn game(&self) -> &'static str;
    /// Number of seats.
    fn seats(&self) -> u8;
    /// Who must decide now.
    fn to_move(&self) -> ToMove;
    /// The game turn now, as every view shows it ([`engine::Game::game_turn`]).
    fn game_turn(&self) -> Option<u32>;
    /// Log entries applied so far, take-backs included (the version a client must name
    /// when acting). Without take-backs it is the number of actions in the record.
    fn version(&self) -> u64;
    /// The legal actions now, as JSON, sorted as the game sorts them.
    fn legal(&self) -> Vec<Value>;
    /// A short text for each legal action, in the same order.
    fn describe_legal(&self) -> Vec<String>;
    /// [`Session::legal`] and [`Session::describe_legal`] together, from one listing of
    /// the legal actions (a state answer needs both).
    fn legal_described(&self) -> (Vec<Value>, Vec<String>);
    /// [`Session::legal_described`] written straight to JSON text (the actions, then
    /// their texts), without building a [`Value`] first: for a state answer.
    fn legal_described_text(&self) -> (Box<RawValue>, Box<RawValue>);
    /// At a chance node: each outcome with its probability.
    fn chance_outcomes(&self) -> Vec<(Value, f64)>;
    /// Applies one action (a chance outcome too, when chance is scripted), then resolves
    /// chance itself unless it is scripted. On error nothing changes.
    fn apply(&mut self, action: Value) -> Result<Vec<Step>, RejectReason>;
    /// Applies one action exactly as a log recorded it (a chance outcome too), checked,
    /// without resolving the chance that may follow: for rebuilding a game from its log.
    /// On error nothing changes.
    fn apply_recorded(&mut self, action: Value) -> Result<Step, RejectReason>;
    /// Resolves pending chance nodes from the seed (nothing to do when none is pending).
    fn resolve_chance(&mut self) -> Vec<Step>;
    /// Whether `seat` may take back its last action now ([`Session::undo`]).
    fn can_undo(&self, seat: Seat) -> bool;
    /// Takes back `seat`'s last action, when the game allows it
    /// ([`engine::Game::undoable`]): it must be that seat's decision, and nothing since
    /// the action may have been a die, a reveal or another seat's decision. The action
    /// leaves the record, so the record stays a plain list of the actions that stand;
    /// the take-back counts as one log entry for [`Session::version`]. Repeated calls
    /// take back earlier actions of the same run.
    fn undo(&mut self, seat: Seat) -> Result<Step, RejectReason>;
    /// What a seat (or a spectator: `None`) sees.
    fn view(&self, seat: Option<Seat>) -> Value;
    /// [`Session::view`] written straight to JSON text, without building a [`Value`]
    /// first: for a state answer, which sends it as it is.
    fn view_text(&self, seat: Option<Seat>) -> Box<RawValue>;
    /// Figures that help `seat` decide ([`engine::Game::advice`]), or `null`.
    fn advice(&self, seat: Seat) -> Value;
    /// [`Session::advice`] to work out later, elsewhere (a blocking thread): it holds a
    /// copy of the game's state only.
    fn advice_later(&self, seat: Seat) -> Box<dyn FnOnce() -> Value + Send>;
    /// The game's fixed public facts ([`engine::Game::board`]), or `null`.
    fn board(&self) -> Value;
    /// The form of an event a seat may receive, or `None` if it must not see it.
    fn event_for(&self, event: &Value, seat: Option<Seat>) -> Option<Value>;
    /// A short text for an event.
    fn describe_event(&self, event: &Value) -> String;
    /// The full state, hidden information included.
    fn state(&self) -> Value;
    /// A setup that reproduces the current position.
    fn setup(&self) -> Value;
    /// The game record; the seed is included only when `reveal_seed`.
    fn record(&self, reveal_seed: bool) -> Value;
    /// The SHA-256 commitment to the seed.
    fn seed_commitment(&self) -> String;
    /// An independent copy of this session at its current version, to replay a log on
    /// from here (a server's checkpoint) or to work out advice away from the game. It
    /// costs the state, not the game's length: its record keeps only the actions
    /// applied after the copy was made, so its [`Session::record`] is not the game's;
    /// everything else (versions, step indexes, take-backs, chance) is as here.
    fn checkpoint(&self) -> Box<dyn Session>;
}

struct GameSession<G: Game> {
    state: G,
    record: GameRecord<G>,
    seed: Seed,
    scripted: bool,
    /// Log entries applied: actions and take-backs.
    entries: u64,
    /// For each trailing action that may still be taken back, oldest first: its seat
    /// and the state before it.
    takebacks: Vec<(Seat, G)>,
    /// Actions of the record left out of `record.actions`, before its first: a
    /// [`Session::checkpoint`] starts with none kept.
    dropped: u64,
}

/// Guards against a game that never leaves chance (a broken game, not bad input).
const MAX_CHANCE_CHAIN: usize = 100_000;

impl<G: Game> GameSession<G> {
    fn start(state: G, setup: G::Setup, config: SessionConfig) -> Self {
        let seats = (0..state.seats())
            .map(|i| {
                config
                    .seat_names
                    .get(i as usize)
                    .cloned()
                    .unwrap_or_else(|| Seat(i).to_string())
            })
            .collect();
        let mut record = GameRecord::new(config.game_id, setup, seats);
        record.seed_commitment = Some(config.seed.commitment());
        GameSession {
            state,
            record,
            seed: config.seed,
            scripted: config.scripted_chance,
            entries: 0,
            takebacks: Vec::new(),
            dropped: 0,
        }
    }

    /// The events each audience may see: index 0 a spectator, `k + 1` seat `k`.
    fn audiences(&self) -> impl Iterator<Item = Option<Seat>> + use<G> {
        std::iter::once(None).chain((0..self.state.seats()).map(|s| Some(Seat(s))))
    }

    /// The number of actions in the record, counting those a checkpoint left out.
    fn recorded(&self) -> u64 {
        self.dropped + self.record.actions.len() as u64
    }

    fn push(&mut self, by: Actor, action: G::Action) -> Step {
        let index = self.recorded();
        let json = to_json(&action);
        let before = match by {
            Actor::Seat(seat) => Some((seat, self.state.clone())),
            Actor::Chance => None,
        };
        let events = self.state.apply_unchecked(action.clone());
        match before {
            Some(b) if self.state.undoable(&b.1, &action, &events) => self.takebacks.push(b),
            _ => self.takebacks.clear(),
        }
        self.entries += 1;
        self.record.actions.push(RecordedAction {
            by,
            action,
            state_hash: None,
        });
        let seen = self
            .audiences()
            .map(|seat| {
                events
                    .iter()
                    .filter_map(|e| self.state.event_for(e, seat))
                    .map(|e| to_json(&e))
                    .collect()
            })
            .collect();
        Step {
            index,
            by,
            action: json,
            undo: false,
            events: events.iter().map(to_json).collect(),
            seen,
        }
    }
}

fn to_json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("game types serialise to JSON")
}

/// `value` as JSON text.
fn to_text<T: Serialize + ?Sized>(value: &T) -> Box<RawValue> {
    serde_json::value::to_raw_value(value).expect("game types serialise to JSON")
}

fn from_json<T: serde::de::DeserializeOwned>(what: &str, value: Value) -> Result<T, RejectReason> {
    serde_json::from_value(value)
        .map_err(|e| RejectReason::Malformed(format!("not a valid {what}: {e}")))
}

impl<G: Game> Session for GameSession<G> {
    fn game(&self) -> &'static str {
        G::NAME
    }

    fn seats(&self) -> u8 {
        self.state.seats()
    }

    fn to_move(&self) -> ToMove {
        self.state.to_move()
    }

    fn game_turn(&self) -> Option<u32> {
        self.state.game_turn()
    }

    fn version(&self) -> u64 {
        self.entries
    }

    fn legal(&self) -> Vec<Value> {
        self.state.legal_actions().iter().map(to_json).collect()
    }

    fn describe_legal(&self) -> Vec<String> {
        self.state
            .legal_actions()
            .iter()
            .map(|a| self.state.describe_action(a))
            .collect()
    }

    fn legal_described(&self) -> (Vec<Value>, Vec<String>) {
        self.state
            .legal_actions()
            .iter()
            .map(|a| (to_json(a), self.state.describe_action(a)))
            .unzip()
    }

    fn legal_described_text(&self) -> (Box<RawValue>, Box<RawValue>) {
        let legal = self.state.legal_actions();
        let texts: Vec<String> = legal
            .iter()
            .map(|a| self.state.describe_action(a))
            .collect();
        (to_text(&legal), to_text(&texts))
    }

    fn chance_outcomes(&self) -> Vec<(Value, f64)> {
        let outcomes = self.state.chance_outcomes();
        let total: f64 = outcomes.iter().map(|(_, w)| f64::from(*w)).sum();
        outcomes
            .into_iter()
            .map(|(a, w)| (to_json(&a), f64::from(w) / total))
            .collect()
    }

    fn apply(&mut self, action: Value) -> Result<Vec<Step>, RejectReason> {
        let mut steps = vec![self.apply_recorded(action)?];
        steps.extend(self.resolve_chance());
        Ok(steps)
    }

    fn apply_recorded(&mut self, action: Value) -> Result<Step, RejectReason> {
        let to_move = self.state.to_move();
        if to_move.is_over() {
            return Err(RejectReason::GameOver);
        }
        let action: G::Action = from_json("action", action)?;
        self.state
            .check(&action)
            .map_err(|e| RejectReason::Rule(e.to_problem()))?;
        let by = match to_move {
            ToMove::Seat(s) => Actor::Seat(s),
            _ => Actor::Chance,
        };
        Ok(self.push(by, action))
    }

    fn resolve_chance(&mut self) -> Vec<Step> {
        let mut steps = Vec::new();
        if self.scripted {
            return steps;
        }
        while self.state.to_move() == ToMove::Chance {
            assert!(
                steps.len() < MAX_CHANCE_CHAIN,
                "{} never leaves chance",
                G::NAME
            );
            // Chance is keyed by the record index: take-backs never remove a chance
            // action, so each index is rolled at most once and `verify` can redo it.
            let mut rng = GameRng::for_step(&self.seed, self.recorded());
            let outcome = self.state.sample_chance(&mut rng);
            steps.push(self.push(Actor::Chance, outcome));
        }
        steps
    }

    fn can_undo(&self, seat: Seat) -> bool {
        self.state.to_move() == ToMove::Seat(seat)
            && self.takebacks.last().is_some_and(|(s, _)| *s == seat)
    }

    fn undo(&mut self, seat: Seat) -> Result<Step, RejectReason> {
        if !self.can_undo(seat) {
            return Err(RejectReason::NothingToUndo);
        }
        let (_, before) = self.takebacks.pop().expect("can_undo saw a take-back");
        self.state = before;
        if self.record.actions.pop().is_none() {
            self.dropped = self.dropped.saturating_sub(1);
        }
        self.entries += 1;
        Ok(Step {
            index: self.recorded(),
            by: Actor::Seat(seat),
            action: Value::Null,
            undo: true,
            events: Vec::new(),
            seen: self.audiences().map(|_| Vec::new()).collect(),
        })
    }

    fn view(&self, seat: Option<Seat>) -> Value {
        to_json(&self.state.view(seat))
    }

    fn view_text(&self, seat: Option<Seat>) -> Box<RawValue> {
        to_text(&self.state.view(seat))
    }

    fn advice(&self, seat: Seat) -> Value {
        self.state.advice(seat)
    }

    fn advice_later(&self, seat: Seat) -> Box<dyn FnOnce() -> Value + Send> {
        let state = self.state.clone();
        Box::new(move || state.advice(seat))
    }

    fn board(&self) -> Value {
        self.state.board()
    }

    fn event_for(&self, event: &Value, seat: Option<Seat>) -> Option<Value> {
        let event: G::Event = serde_json::from_value(event.clone()).ok()?;
        self.state.event_for(&event, seat).map(|e| to_json(&e))
    }

    fn describe_event(&self, event: &Value) -> String {
        match serde_json::from_value::<G::Event>(event.clone()) {
            Ok(e) => self.state.describe_event(&e),
            Err(_) => event.to_string(),
        }
    }

    fn state(&self) -> Value {
        to_json(&self.state)
    }

    fn setup(&self) -> Value {
        to_json(&self.state.to_setup())
    }

    fn record(&self, reveal_seed: bool) -> Value {
        let mut record = self.record.clone();
        if reveal_seed {
            record.seed = Some(self.seed);
        }
        to_json(&record)
    }

    fn checkpoint(&self) -> Box<dyn Session> {
        let mut record = GameRecord::new(
            self.record.game_id.clone(),
            self.record.setup.clone(),
            self.record.seats.clone(),
        );
        record
            .seed_commitment
            .clone_from(&self.record.seed_commitment);
        Box::new(GameSession {
            state: self.state.clone(),
            record,
            seed: self.seed,
            scripted: self.scripted,
            entries: self.entries,
            takebacks: self.takebacks.clone(),
            dropped: self.recorded(),
        })
    }

    fn seed_commitment(&self) -> String {
        self.seed.commitment()
    }
}

/// What replaying a record found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReplaySummary {
    /// Actions replayed.
    pub actions: usize,
    /// Who is to move at the end.
    pub to_move: ToMove,
    /// Chance actions proven to come from the revealed seed (by `verify`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chance_verified: Option<usize>,
}

/// One game family, as the catalog holds it.
pub trait GameEntry: Send + Sync {
    /// The family's wire name.
    fn name(&self) -> &'static str;
    /// Its presets.
    fn presets(&self) -> Vec<Preset>;
    /// Starts a game from a preset with option overrides. A chance node at the start is
    /// left pending: call [`Session::resolve_chance`].
    fn create(
        &self,
        request: &NewGame,
        config: SessionConfig,
    ) -> Result<Box<dyn Session>, RejectReason>;
    /// Starts a game from any setup.
    fn load(&self, setup: Value, config: SessionConfig) -> Result<Box<dyn Session>, RejectReason>;
    /// Replays a record, checking every step.
    fn replay(&self, record: Value) -> Result<ReplaySummary, RejectReason>;
    /// Replays a finished record and proves its chance outcomes came from its seed.
    fn verify(&self, record: Value) -> Result<ReplaySummary, RejectReason>;
}

/// The [`GameEntry`] of a game type.
pub struct Entry<G>(PhantomData<fn() -> G>);

impl<G: Game> Entry<G> {
    /// The entry for `G`.
    pub fn new() -> Self {
        Entry(PhantomData)
    }

    fn open(
        setup: G::Setup,
        config: SessionConfig,
        request: Option<&NewGame>,
    ) -> Result<Box<dyn Session>, RejectReason> {
        let state = G::from_setup(&setup).map_err(RejectReason::Setup)?;
        let mut session = GameSession::start(state, setup, config);
        if let Some(request) = request {
            session.record.preset.clone_from(&request.preset);
            session.record.options.clone_from(&request.options);
        }
        Ok(Box::new(session))
    }
}

impl<G: Game> Default for Entry<G> {
    fn default() -> Self {
        Self::new()
    }
}

fn replay_problem(e: &engine::ReplayError) -> RejectReason {
    use engine::ReplayError as E;
    let (code, rule) = match e {
        E::WrongGame { .. } => ("wrong_game", None),
        E::Setup(errors) => return RejectReason::Setup(errors.clone()),
        E::Illegal { problem, .. } => ("illegal_step", problem.rule.clone()),
        E::WrongActor { .. } => ("wrong_actor", None),
        E::HashMismatch { .. } => ("hash_mismatch", None),
    };
    RejectReason::Rule(engine::Problem {
        code: code.into(),
        rule,
        message: e.to_string(),
    })
}

impl<G: Game> GameEntry for Entry<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn presets(&self) -> Vec<Preset> {
        G::presets()
    }

    fn create(
        &self,
        request: &NewGame,
        config: SessionConfig,
    ) -> Result<Box<dyn Session>, RejectReason> {
        let setup = G::new_setup(request).map_err(RejectReason::Setup)?;
        Self::open(setup, config, Some(request))
    }

    fn load(&self, setup: Value, config: SessionConfig) -> Result<Box<dyn Session>, RejectReason> {
        Self::open(from_json("setup", setup)?, config, None)
    }

    fn replay(&self, record: Value) -> Result<ReplaySummary, RejectReason> {
        let record: GameRecord<G> = from_json("game record", record)?;
        let (state, _) = replay(&record).map_err(|e| replay_problem(&e))?;
        Ok(ReplaySummary {
            actions: record.actions.len(),
            to_move: state.to_move(),
            chance_verified: None,
        })
    }

    fn verify(&self, record: Value) -> Result<ReplaySummary, RejectReason> {
        let record: GameRecord<G> = from_json("game record", record)?;
        let checked = verify(&record).map_err(|e| match e {
            engine::VerifyError::Replay(r) => replay_problem(&r),
            other => RejectReason::Rule(engine::Problem::new("unverified", other.to_string())),
        })?;
        let (state, _) = replay(&record).map_err(|e| replay_problem(&e))?;
        Ok(ReplaySummary {
            actions: record.actions.len(),
            to_move: state.to_move(),
            chance_verified: Some(checked),
        })
    }
}

/// The game families a program offers.
#[derive(Default)]
pub struct Catalog {
    entries: Vec<Box<dyn GameEntry>>,
}

impl Catalog {
    /// An empty catalog.
    pub fn new() -> Self {
        Catalog::default()
    }

    /// Adds the game `G`.
    #[must_use]
    pub fn with<G: Game>(mut self) -> Self {
        self.entries.push(Box::new(Entry::<G>::new()));
        self
    }

    /// The entry named `name`.
    pub fn get(&self, name: &str) -> Result<&dyn GameEntry, RejectReason> {
        self.entries
            .iter()
            .find(|e| e.name() == name)
            .map(AsRef::as_ref)
            .ok_or_else(|| {
                let names: Vec<&str> = self.entries.iter().map(|e| e.name()).collect();
                RejectReason::NotFound(format!("no game {name:?}; the games are {names:?}"))
            })
    }

    /// Every entry, in the order added.
    pub fn entries(&self) -> impl Iterator<Item = &dyn GameEntry> {
        self.entries.iter().map(AsRef::as_ref)
    }

    /// The game family a record (as JSON) belongs to.
    pub fn for_record(&self, record: &Value) -> Result<&dyn GameEntry, RejectReason> {
        let name = record.get("game").and_then(Value::as_str).ok_or_else(|| {
            RejectReason::Malformed("a game record needs a \"game\" field".into())
        })?;
        self.get(name)
    }
}
