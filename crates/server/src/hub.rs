//! The games this process is serving: each game's engine session rebuilt from its log,
//! the one checked path every action takes (check → append → acknowledge → broadcast),
//! and the per-seat filtered updates that WebSocket clients receive.
//!
//! A game is loaded on first use and kept. Its `tokio` mutex serialises the actions of
//! one process; the store's `(game, seq)` key serialises processes that share a
//! PostgreSQL database. When an append loses that race the cached session is dropped
//! and rebuilt from the log on next use.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use axum::extract::ws::Utf8Bytes;
use engine::{Actor, Seat, Seed, ToMove};
use protocol::{Catalog, RejectReason, Session, SessionConfig, Step};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Value, json};
use tokio::sync::{MutexGuard, broadcast, watch};

use crate::config::Config;
use crate::error::ApiError;
use crate::feed::{Feeds, Standing, audience_index, audiences, log_version, shown_index};
use crate::secrets::token_matches;
use crate::store::{AppendMeta, Backend, GameRow, SeatRow, Store};

/// One log entry, as the store keeps it: an action (`{"by", "action"}`) or a seat's
/// take-back of its action at record index `undo` (`{"by", "undo"}`).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct LoggedAction {
    pub by: Actor,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub action: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undo: Option<u64>,
}

/// The log entries of `steps`.
pub(crate) fn log_entries(steps: &[Step]) -> Vec<String> {
    steps
        .iter()
        .map(|s| {
            serde_json::to_string(&LoggedAction {
                by: s.by,
                action: s.action.clone(),
                undo: s.undo.then_some(s.index),
            })
            .expect("JSON values serialise")
        })
        .collect()
}

/// Who submits an action: a person by their seat token, or the server's bot for a seat.
#[derive(Clone, Debug)]
pub enum Submitter {
    /// A seat's secret token.
    Token(String),
    /// The bot playing this seat.
    Bot(Seat),
}

/// Who is looking: a seat, or a spectator (`None`).
pub type Audience = Option<Seat>;

/// A message for the WebSocket clients of one game, already written for each audience:
/// index 0 for spectators, `k + 1` for seat `k` ([`crate::feed`]).
#[derive(Debug)]
pub struct Update {
    /// For action updates, the log versions covered: after `from`, up to `to`.
    pub actions: Option<(u64, u64)>,
    /// The JSON text per audience; `None` where the audience is told nothing.
    pub texts: Vec<Option<Utf8Bytes>>,
    /// For action updates, each audience's own version after them.
    pub versions: Vec<u64>,
}

impl Update {
    /// The text for `audience`, if it is told anything.
    pub fn text_for(&self, audience: Audience) -> Option<Utf8Bytes> {
        self.texts.get(audience_index(audience)).cloned().flatten()
    }

    /// `audience`'s own version after an action update.
    pub fn version_for(&self, audience: Audience) -> Option<u64> {
        self.versions.get(audience_index(audience)).copied()
    }
}

/// Log versions between two replay checkpoints of a loaded game.
pub(crate) const CHECKPOINT_EVERY: u64 = 256;

/// A copy of a game's session at a log version, from which part of its log can be
/// replayed without replaying all of it.
pub(crate) struct Checkpoint {
    /// The log version.
    pub version: u64,
    /// The session there.
    pub session: Box<dyn Session>,
    /// The standing actions' log versions there.
    pub standing: Standing,
}

/// A game loaded in memory.
pub(crate) struct Live {
    pub row: GameRow,
    pub seats: Vec<SeatRow>,
    pub session: Box<dyn Session>,
    /// What each audience has been told ([`crate::feed`]).
    pub feeds: Feeds,
    /// Copies of the session every [`CHECKPOINT_EVERY`] log versions, from the start.
    checkpoints: Vec<Checkpoint>,
    /// The public scores by turn so far ([`crate::replay::History`]).
    pub history: crate::replay::History,
    /// Advice already worked out: log version, seat, advice as JSON text.
    advice: Vec<(u64, Seat, Arc<RawValue>)>,
    /// The session's part of the state answers given at the current log version, by
    /// audience and whether it is to act ([`Live::shown`]).
    shown: Vec<(u64, Audience, bool, Arc<Shown>)>,
    /// Per seat, what its bot keeps of the current player turn (its thinking time, so
    /// that the turn's cap holds across the bots built for each of its decisions, and
    /// its search tree: [`ai::TurnMemory`]).
    pub bot_memories: Vec<ai::TurnMemory>,
    /// Per seat, the game turn its bot last decided in and how many decisions it made
    /// there ([`crate::config::Config::bot_turn_decisions`]).
    pub bot_decisions: Vec<(Option<u32>, u32)>,
}

/// The session's part of a state answer (`GET /api/games/{id}`) for one audience at
/// one log version, as JSON text: written once, then sent as it is to every caller of
/// that audience (a table of spectators, a page that asks again) until the game moves.
pub(crate) struct Shown {
    /// What the audience sees ([`protocol::Session::view`]).
    pub view: Box<RawValue>,
    /// The legal actions, empty unless the audience is to act.
    pub legal: Box<RawValue>,
    /// A short text for each of them.
    pub legal_text: Box<RawValue>,
    /// Whether the audience may take back its last action now.
    pub can_undo: bool,
}

impl Live {
    /// A game that starts from `session` (at its setup, before any log entry).
    pub(crate) fn new(row: GameRow, seats: Vec<SeatRow>, session: Box<dyn Session>) -> Live {
        let feeds = Feeds::new(session.seats(), session.to_move());
        let seat_count = session.seats();
        let start = Checkpoint {
            version: session.version(),
            session: session.checkpoint(),
            standing: feeds.standing().clone(),
        };
        Live {
            row,
            seats,
            session,
            feeds,
            checkpoints: vec![start],
            history: crate::replay::History::default(),
            advice: Vec::new(),
            shown: Vec::new(),
            // One memory each (clones of a memory share it).
            bot_memories: (0..seat_count).map(|_| ai::TurnMemory::new()).collect(),
            bot_decisions: vec![(None, 0); usize::from(seat_count)],
        }
    }

    /// Applies one stored log entry; returns its step and, for a take-back, the log
    /// version before the step it took back.
    pub(crate) fn apply_logged(&mut self, body: &str) -> Result<(Step, Option<u64>), ApiError> {
        let before = self.session.version();
        let step = apply_logged(self.session.as_mut(), body)?;
        let undone = self
            .advance(before, std::slice::from_ref(&step))
            .pop()
            .flatten();
        Ok((step, undone))
    }

    /// Takes note of `steps`, just applied from log version `before`: the audiences'
    /// feeds, and a checkpoint when one is due. Returns, per step, what
    /// [`Feeds::note`] returns.
    pub(crate) fn advance(&mut self, before: u64, steps: &[Step]) -> Vec<Option<u64>> {
        let undone = self
            .feeds
            .note_batch(before, steps, &self.session.to_move());
        let last = self.checkpoints.last().map_or(0, |c| c.version);
        if self.session.version() >= last + CHECKPOINT_EVERY {
            self.checkpoints.push(Checkpoint {
                version: self.session.version(),
                session: self.session.checkpoint(),
                standing: self.feeds.standing().clone(),
            });
        }
        undone
    }

    /// A copy of the latest checkpoint at or before log version `version`.
    pub(crate) fn checkpoint_at(&self, version: u64) -> Checkpoint {
        let i = self
            .checkpoints
            .partition_point(|c| c.version <= version)
            .saturating_sub(1);
        let c = &self.checkpoints[i];
        Checkpoint {
            version: c.version,
            session: c.session.checkpoint(),
            standing: c.standing.clone(),
        }
    }

    /// The advice for `seat` at the current version, if already worked out.
    pub(crate) fn cached_advice(&self, seat: Seat) -> Option<Arc<RawValue>> {
        let version = self.session.version();
        self.advice
            .iter()
            .find(|(v, s, _)| *v == version && *s == seat)
            .map(|(_, _, a)| Arc::clone(a))
    }

    /// Keeps the advice for `seat` at log version `version`, if still current.
    pub(crate) fn keep_advice(&mut self, version: u64, seat: Seat, advice: Arc<RawValue>) {
        let now = self.session.version();
        if version == now {
            self.advice.retain(|(v, s, _)| *v == now && *s != seat);
            self.advice.push((version, seat, advice));
        }
    }

    /// The session's part of the state answer for `audience` (`acting`: it is to act
    /// now, so the answer lists its legal actions), written at most once per log
    /// version: the session changes only with a log entry, and a game whose entry
    /// fails to store is dropped whole ([`Hub::record_now`]).
    pub(crate) fn shown(&mut self, audience: Audience, acting: bool) -> Arc<Shown> {
        let version = self.session.version();
        if let Some((.., shown)) = self
            .shown
            .iter()
            .find(|(v, a, act, _)| *v == version && *a == audience && *act == acting)
        {
            return Arc::clone(shown);
        }
        self.shown.retain(|(v, ..)| *v == version);
        let session = self.session.as_ref();
        let (legal, legal_text) = if acting {
            session.legal_described_text()
        } else {
            let none = || RawValue::from_string("[]".into()).expect("[] is JSON");
            (none(), none())
        };
        let shown = Arc::new(Shown {
            view: session.view_text(audience),
            legal,
            legal_text,
            can_undo: acting && audience.is_some_and(|s| session.can_undo(s)),
        });
        self.shown
            .push((version, audience, acting, Arc::clone(&shown)));
        shown
    }

    /// The seat `token` opens, if any.
    pub(crate) fn seat_of(&self, token: &str) -> Option<Seat> {
        self.seats
            .iter()
            .find(|s| {
                s.token_hash
                    .as_deref()
                    .is_some_and(|h| token_matches(token, h))
            })
            .map(|s| Seat(s.seat))
    }

    /// True when the game has ended, by its rules or by resignation.
    pub(crate) fn is_over(&self) -> bool {
        self.row.status == "over" || self.session.to_move().is_over()
    }

    /// The seat a bot must play now, if any.
    pub(crate) fn bot_to_move(&self) -> Option<Seat> {
        if self.is_over() {
            return None;
        }
        match self.session.to_move() {
            ToMove::Seat(s) => self
                .seats
                .get(usize::from(s.0))
                .filter(|row| row.kind == "bot" || row.resigned)
                .map(|_| s),
            _ => None,
        }
    }

    /// The status the game should have now.
    pub(crate) fn derived_status(&self) -> &'static str {
        status_of(self.is_over(), &self.seats)
    }

    /// Every audience: spectators, then each seat.
    pub(crate) fn audiences(&self) -> impl Iterator<Item = Audience> + use<> {
        audiences(self.session.seats())
    }
}

/// A game's place in the hub.
pub(crate) struct Slot {
    pub id: String,
    pub live: tokio::sync::Mutex<Option<Live>>,
    pub updates: broadcast::Sender<Arc<Update>>,
    /// A bot task is running for this game.
    pub bot_running: AtomicBool,
    /// When the game was last locked, Unix seconds (for unloading idle games).
    pub last_used: AtomicU64,
    /// The [`Hub::tick`] taken just before the last read of the game's log that this
    /// process's copy reflects (a load, a catch-up, or an append whose version check
    /// passed): every append another process had committed before that tick is in it.
    /// On PostgreSQL a request that came before that tick need not read the log again.
    pub(crate) current_since: AtomicU64,
}

/// What an acknowledged action returns to its seat.
#[derive(Debug, Serialize)]
pub struct Ack {
    /// The game's version after the action and the chance it caused.
    pub version: u64,
    /// Who must decide now.
    pub to_move: ToMove,
    /// The steps, as the acting seat may see them.
    pub steps: Vec<Value>,
}

/// The games this process serves.
pub struct Hub {
    pub(crate) store: Store,
    pub(crate) catalog: Catalog,
    pub(crate) config: Config,
    slots: Mutex<HashMap<String, Arc<Slot>>>,
    shutdown: watch::Sender<bool>,
    /// Bot tasks in flight (graceful shutdown waits for them).
    pub(crate) bots_in_flight: AtomicUsize,
    /// Replays and advice run on blocking threads, at most this many at once, so that
    /// clients asking for them cannot take every core from the games in play.
    pub(crate) heavy: Arc<tokio::sync::Semaphore>,
    /// The live connections open now ([`crate::live::Sockets`]).
    pub(crate) sockets: crate::live::Sockets,
    /// Log entries replayed so far to answer `/steps`, `/at`, `/history`, records and
    /// live catch-ups ([`crate::replay`]): what those answers cost, in a figure a test
    /// can check without a clock.
    pub replayed: AtomicU64,
    /// Log entries first tried against a game as this process had it loaded, refused,
    /// and tried again with the game caught up with the log ([`Hub::submit`], on
    /// PostgreSQL): how often another process had moved a game on unseen.
    pub retried: AtomicU64,
    /// A counter that orders requests and reads of the log ([`Hub::tick`]).
    ticks: AtomicU64,
}

/// The one catalog of the games people play with hexwar: VIKTORY II (`viktory`) and
/// A Victory Lost (`avl`).
///
/// Every entry point that takes a game name uses it, so a game is offered everywhere
/// or nowhere: the server's lobby and `/api/catalog` ([`Hub::new`]), and the `hexwar`
/// commands `referee`, `replay`, `verify` and `simulate` (the CLI depends on this
/// crate, and this crate already depends on every rules crate, so this is the one
/// place both reach). A record the server writes therefore always replays and
/// verifies with `hexwar replay`/`verify`.
///
/// The toy `dice-race` ([`engine::toy::DiceRace`]) is a test fixture for the engine
/// and the protocol, not a game players play: it is not here, so neither the lobby
/// nor `hexwar referee` offers it. The protocol's own tests
/// (`crates/protocol/tests/`) build a [`Catalog`] with it to check the referee's
/// promises on a game small enough to read in a transcript.
pub fn catalog() -> Catalog {
    Catalog::new().with::<viktory::Viktory>().with::<avl::Avl>()
}

impl Hub {
    /// A hub over `store`.
    pub fn new(store: Store, config: Config) -> Arc<Hub> {
        Arc::new(Hub {
            store,
            catalog: catalog(),
            config,
            slots: Mutex::new(HashMap::new()),
            shutdown: watch::channel(false).0,
            bots_in_flight: AtomicUsize::new(0),
            heavy: Arc::new(tokio::sync::Semaphore::new(
                std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
            )),
            sockets: crate::live::Sockets::default(),
            replayed: AtomicU64::new(0),
            retried: AtomicU64::new(0),
            ticks: AtomicU64::new(1),
        })
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Tells WebSocket connections and bots to stop.
    pub fn begin_shutdown(&self) {
        self.shutdown.send_replace(true);
    }

    /// True once shutdown has begun.
    pub fn shutting_down(&self) -> bool {
        *self.shutdown.borrow()
    }

    /// A receiver that changes when shutdown begins.
    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown.subscribe()
    }

    /// The slot of game `id` (created empty on first use).
    pub(crate) fn slot(&self, id: &str) -> Arc<Slot> {
        let mut slots = self
            .slots
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        slots
            .entry(id.to_owned())
            .or_insert_with(|| {
                Arc::new(Slot {
                    id: id.to_owned(),
                    live: tokio::sync::Mutex::new(None),
                    updates: broadcast::channel(256).0,
                    bot_running: AtomicBool::new(false),
                    last_used: AtomicU64::new(unix_now()),
                    current_since: AtomicU64::new(0),
                })
            })
            .clone()
    }

    /// The slot of game `id` only if this process has it loaded.
    pub(crate) fn loaded_slot(&self, id: &str) -> Option<Arc<Slot>> {
        let slots = self
            .slots
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        slots.get(id).cloned()
    }

    /// Drops the slot of game `id` (a failed load).
    fn forget(&self, id: &str) {
        let mut slots = self
            .slots
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if slots
            .get(id)
            .is_some_and(|s| s.updates.receiver_count() == 0)
        {
            slots.remove(id);
        }
    }

    /// Unloads the games nobody has touched for `idle`: no WebSocket listening, no bot
    /// thinking, no request in flight. They are rebuilt from the log on next use.
    /// Returns how many were unloaded.
    ///
    /// A request that took the slot just before it was removed works on that old slot
    /// (its appends still go through the store's version check); a WebSocket that was
    /// between taking the slot and subscribing would miss the new slot's updates until
    /// it reconnects. After ten idle minutes both are unlikely, and neither loses data.
    pub fn evict_idle(&self, idle: std::time::Duration) -> usize {
        let cutoff = unix_now().saturating_sub(idle.as_secs());
        let mut slots = self
            .slots
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let before = slots.len();
        slots.retain(|_, slot| {
            let idle = slot.last_used.load(Ordering::Relaxed) <= cutoff
                && slot.updates.receiver_count() == 0
                && !slot.bot_running.load(Ordering::Acquire)
                && slot.live.try_lock().is_ok();
            !idle
        });
        before - slots.len()
    }

    /// Every slot this process holds.
    pub(crate) fn loaded_slots(&self) -> Vec<Arc<Slot>> {
        let slots = self
            .slots
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        slots.values().cloned().collect()
    }

    /// Catches a loaded game up with the log (another process appended).
    pub(crate) async fn catch_up_slot(&self, slot: &Slot) -> Result<(), ApiError> {
        let mut guard = slot.live.lock().await;
        self.catch_up(slot, &mut guard).await
    }

    /// Locks game `id`, loading it from the store if needed and, on PostgreSQL, catching
    /// up with actions other processes appended. Updates caused by catching up are
    /// broadcast.
    ///
    /// A request that waited for the game while another read the log, the read having
    /// begun after this request came, does not read it again: that read saw every
    /// append committed before this request came ([`Slot::current_since`]). So the
    /// requests that pile up behind one game (its spectators fetching the state after
    /// each step) share one read.
    pub(crate) async fn lock<'a>(
        &self,
        slot: &'a Slot,
    ) -> Result<MutexGuard<'a, Option<Live>>, ApiError> {
        let came = self.tick();
        let (mut guard, loaded) = self.lock_loaded(slot).await?;
        if !loaded
            && self.store.backend() == Backend::Postgres
            && slot.current_since.load(Ordering::SeqCst) <= came
        {
            self.catch_up(slot, &mut guard).await?;
        }
        Ok(guard)
    }

    /// The next tick of the hub's counter: ticks order this process's requests and its
    /// reads of the log in time (each is taken before what it stamps begins).
    fn tick(&self) -> u64 {
        self.ticks.fetch_add(1, Ordering::SeqCst)
    }

    /// Notes that the game's copy reflects a read of the log (or an append) begun after
    /// tick `begun`.
    fn current_from(slot: &Slot, begun: u64) {
        slot.current_since.fetch_max(begun, Ordering::SeqCst);
    }

    /// Locks game `id`, loading it from the store if needed, but not catching up with
    /// actions other processes appended: for work whose own append's version check
    /// tells whether the game was current ([`Hub::record_now`]), and for the state
    /// answered to an append just made, which is at least as new as that append.
    pub(crate) async fn lock_as_loaded<'a>(
        &self,
        slot: &'a Slot,
    ) -> Result<MutexGuard<'a, Option<Live>>, ApiError> {
        Ok(self.lock_loaded(slot).await?.0)
    }

    /// Locks game `id`, loading it from the store if it is not loaded; true if it was
    /// loaded now (so it is current).
    async fn lock_loaded<'a>(
        &self,
        slot: &'a Slot,
    ) -> Result<(MutexGuard<'a, Option<Live>>, bool), ApiError> {
        let mut guard = slot.live.lock().await;
        slot.last_used.store(unix_now(), Ordering::Relaxed);
        if guard.is_some() {
            return Ok((guard, false));
        }
        let begun = self.tick();
        match self.load(&slot.id).await {
            Ok(live) => {
                *guard = Some(live);
                Self::current_from(slot, begun);
            }
            Err(e) => {
                // No game table entry for ids that are not games.
                self.forget(&slot.id);
                return Err(e);
            }
        }
        Ok((guard, true))
    }

    /// Rebuilds game `id` from the store.
    async fn load(&self, id: &str) -> Result<Live, ApiError> {
        let row = self.store.game(id).await?;
        let seats = self.store.seats(id).await?;
        let actions = self.store.actions(id, 0).await?;
        let session = start_session(&self.catalog, &row, &seats)?;
        let mut live = Live::new(row, seats, session);
        for (_, body) in &actions {
            live.apply_logged(body)?;
        }
        if live.session.to_move().is_over() && live.row.status != "over" {
            // The last append stored the action but the status update did not follow.
            live.row.status = "over".into();
            self.store.set_status(id, "over", None).await?;
        }
        Ok(live)
    }

    /// Runs `work` on a blocking thread, one of at most as many as the machine has
    /// cores ([`Hub::heavy`]): replays of a log, advice.
    pub(crate) async fn heavy<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let permit = Arc::clone(&self.heavy)
            .acquire_owned()
            .await
            .map_err(|e| ApiError::Unavailable(format!("no worker: {e}")))?;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work()
        })
        .await
        .map_err(|e| ApiError::Unavailable(format!("a worker failed: {e}")))
    }

    /// Applies actions other processes appended, and broadcasts them.
    pub(crate) async fn catch_up(
        &self,
        slot: &Slot,
        guard: &mut MutexGuard<'_, Option<Live>>,
    ) -> Result<(), ApiError> {
        let Some(live) = guard.as_mut() else {
            return Ok(());
        };
        let from = live.session.version();
        let begun = self.tick();
        let newer = self.store.actions(&slot.id, from).await?;
        if newer.is_empty() {
            Self::current_from(slot, begun);
            return Ok(());
        }
        let told = live.feeds.versions();
        let mut steps = Vec::with_capacity(newer.len());
        let mut undone = Vec::with_capacity(newer.len());
        for (_, body) in &newer {
            match live.apply_logged(body) {
                Ok((step, u)) => {
                    steps.push(step);
                    undone.push(u);
                }
                Err(e) => {
                    **guard = None;
                    return Err(e);
                }
            }
        }
        if live.session.to_move().is_over() {
            live.row.status = "over".into();
        }
        Self::current_from(slot, begun);
        Self::broadcast_steps(slot, live, from, &told, &steps, &undone);
        Ok(())
    }

    /// Reloads a game's seats and status from the store (another process changed them)
    /// and tells its clients.
    pub(crate) async fn refresh_meta(&self, slot: &Slot) -> Result<(), ApiError> {
        let mut guard = slot.live.lock().await;
        let Some(live) = guard.as_mut() else {
            return Ok(());
        };
        live.seats = self.store.seats(&slot.id).await?;
        let row = self.store.game(&slot.id).await?;
        live.row.status = row.status;
        live.row.result = row.result;
        Self::broadcast_meta(slot, live);
        Ok(())
    }

    /// Runs `work` to completion in a task of its own and returns what it returns.
    ///
    /// A request handler's future is dropped at whatever `.await` it has reached when
    /// its client goes away. Work that writes the store and then memory must not stop
    /// between the two, so every such piece of work runs here: once started it
    /// finishes, whether or not anyone waits for the answer (ARCHITECTURE: Server).
    pub(crate) async fn to_completion<T, F>(&self, work: F) -> Result<T, ApiError>
    where
        F: Future<Output = Result<T, ApiError>> + Send + 'static,
        T: Send + 'static,
    {
        tokio::spawn(work)
            .await
            .map_err(|e| ApiError::Unavailable(format!("a task of the server failed: {e}")))?
    }

    /// The one checked path of every action, from people and bots alike. The seat is
    /// resolved under the same lock as the action, so a seat that resigns meanwhile
    /// cannot slip one in.
    pub async fn submit(
        self: &Arc<Self>,
        id: &str,
        by: Submitter,
        version: u64,
        action: Value,
    ) -> Result<Ack, ApiError> {
        self.record(id, by, version, Entry::Action(action)).await
    }

    /// Takes back the seat's last action, when the game allows it
    /// ([`protocol::Session::undo`]), through the same path as an action: the take-back
    /// is a log entry of its own, so the log stays append-only and versions only grow.
    pub async fn take_back(
        self: &Arc<Self>,
        id: &str,
        token: &str,
        version: u64,
    ) -> Result<Ack, ApiError> {
        self.record(id, Submitter::Token(token.to_owned()), version, Entry::Undo)
            .await
    }

    /// Checks, applies, stores and broadcasts one log entry of a seat, in a task of its
    /// own ([`Hub::to_completion`]).
    async fn record(
        self: &Arc<Self>,
        id: &str,
        by: Submitter,
        version: u64,
        entry: Entry,
    ) -> Result<Ack, ApiError> {
        let hub = Arc::clone(self);
        let id = id.to_owned();
        self.to_completion(async move { hub.record_now(&id, by, version, entry).await })
            .await
    }

    /// [`Hub::record`]'s work. On PostgreSQL another process may have appended since
    /// this one last read the log; rather than read it before every entry, the entry is
    /// first tried against the game as loaded: the append's version check commits it
    /// only if the game was current. Should that try be refused for any reason (a stale
    /// version, not the seat's turn, an illegal action, another append first), the game
    /// is caught up with the log and the entry tried again, and that answer stands.
    async fn record_now(
        self: &Arc<Self>,
        id: &str,
        by: Submitter,
        version: u64,
        entry: Entry,
    ) -> Result<Ack, ApiError> {
        if self.store.backend() == Backend::Postgres {
            match self
                .record_once(id, by.clone(), version, entry.clone(), false)
                .await
            {
                Err(ApiError::Reject(_) | ApiError::Conflict { .. }) => {
                    self.retried.fetch_add(1, Ordering::Relaxed);
                }
                answer => return answer,
            }
        }
        self.record_once(id, by, version, entry, true).await
    }

    /// One try of [`Hub::record_now`], with the game caught up with the log first
    /// (`catch_up`; only PostgreSQL's logs move under another process) or as loaded.
    async fn record_once(
        self: &Arc<Self>,
        id: &str,
        by: Submitter,
        version: u64,
        entry: Entry,
        catch_up: bool,
    ) -> Result<Ack, ApiError> {
        let slot = self.slot(id);
        let mut guard = if catch_up {
            self.lock(&slot).await?
        } else {
            self.lock_as_loaded(&slot).await?
        };
        let live = guard.as_mut().expect("locked games are loaded");
        let seat = match &by {
            Submitter::Token(token) => {
                let seat = live.seat_of(token).ok_or(RejectReason::BadToken)?;
                if live.seats[usize::from(seat.0)].resigned {
                    return Err(ApiError::Conflict {
                        code: "resigned",
                        message: "this seat resigned; a bot plays it now".into(),
                    });
                }
                seat
            }
            Submitter::Bot(seat) => *seat,
        };
        if live.is_over() {
            return Err(RejectReason::GameOver.into());
        }
        let current = live.session.version();
        // A person's version is in the seat's own numbering ([`crate::feed`]); a bot's
        // is the log's.
        let stale = |current| -> ApiError {
            RejectReason::StaleVersion {
                sent: version,
                current,
            }
            .into()
        };
        let to_move = live.session.to_move();
        match &by {
            Submitter::Token(_) => {
                let mine = live.feeds.version(Some(seat));
                if version != mine {
                    return Err(stale(mine));
                }
                if log_version(live.feeds.points(Some(seat)), mine) != Some(current) {
                    // Up to date with all it may know: the game moved on out of sight.
                    return Err(RejectReason::NotYourTurn { to_move }.into());
                }
            }
            Submitter::Bot(_) if version != current => return Err(stale(current)),
            Submitter::Bot(_) => {}
        }
        if to_move != ToMove::Seat(seat) {
            return Err(RejectReason::NotYourTurn { to_move }.into());
        }
        // From here the session runs ahead of the store until the append commits. If
        // anything stops this work before that (a failed append, a panic), the loaded
        // game is dropped and rebuilt from the store on next use.
        let mut unstored = Unstored(&mut guard);
        let live = unstored.live();
        let steps = match entry {
            Entry::Action(action) => live.session.apply(action),
            Entry::Undo => live.session.undo(seat).map(|step| vec![step]),
        };
        let steps = match steps {
            Ok(steps) => steps,
            // The engine refused: it left the session untouched.
            Err(e) => {
                unstored.stored();
                return Err(e.into());
            }
        };
        let told = live.feeds.versions();
        let undone = live.advance(current, &steps);
        let bodies = log_entries(&steps);
        let over = live.session.to_move().is_over();
        let change = AppendMeta {
            status: over.then_some("over"),
            public_version: live.feeds.version(None),
        };
        let progress = crate::lobby::progress(live.session.as_ref());
        let begun = self.tick();
        self.store
            .append_at(id, current, &bodies, change, Some(&progress))
            .await?;
        unstored.stored();
        // The version check passed: no other process had appended.
        Self::current_from(&slot, begun);
        let live = guard.as_mut().expect("locked games are loaded");
        if over {
            live.row.status = "over".into();
        }
        live.row.public_seq = live.feeds.version(None);
        Self::broadcast_steps(&slot, live, current, &told, &steps, &undone);
        let ack = Ack {
            version: live.feeds.version(Some(seat)),
            to_move: live.session.to_move(),
            steps: shown_steps(live, Some(seat), current, &steps, &undone),
        };
        let next = live.session.to_move();
        let notify = (next != to_move).then(|| crate::notify::due(live));
        // Only a bot's turn needs the bot task (which, on PostgreSQL, would catch the
        // game up from the database only to find no bot to move).
        let bot_next = live.bot_to_move().is_some();
        drop(guard);
        if let Some(Some(due)) = notify {
            crate::notify::send(self, due);
        }
        if bot_next {
            crate::bots::kick(self, &slot);
        }
        Ok(ack)
    }

    /// Sends `steps` (which moved the log on from `from`) to the game's WebSocket
    /// clients, each audience only the steps it is told, in its own numbering
    /// ([`crate::feed`]); `told` is each audience's version before them.
    fn broadcast_steps(
        slot: &Slot,
        live: &Live,
        from: u64,
        told: &[u64],
        steps: &[Step],
        undone: &[Option<u64>],
    ) {
        if slot.updates.receiver_count() == 0 {
            return;
        }
        let session = live.session.as_ref();
        let texts = live
            .audiences()
            .map(|a| {
                let shown = shown_steps(live, a, from, steps, undone);
                (!shown.is_empty()).then(|| {
                    let body = json!({
                        "type": "actions",
                        "from": told.get(audience_index(a)).copied().unwrap_or(0),
                        "version": live.feeds.version(a),
                        "to_move": session.to_move(),
                        "status": live.derived_status(),
                        "steps": shown,
                    });
                    Utf8Bytes::from(body.to_string())
                })
            })
            .collect();
        let _ = slot.updates.send(Arc::new(Update {
            actions: Some((from, session.version())),
            texts,
            versions: live.feeds.versions(),
        }));
    }

    /// Tells the game's clients that seats or status changed.
    pub(crate) fn broadcast_meta(slot: &Slot, live: &Live) {
        let text = Utf8Bytes::from(
            json!({
                "type": "seats",
                "status": live.derived_status(),
                "seats": public_seats(&live.seats),
                "result": live.row.result.as_deref().and_then(|r| serde_json::from_str::<Value>(r).ok()),
            })
            .to_string(),
        );
        Self::broadcast_same(slot, live, &text);
    }

    /// Sends the same text to every audience of a game.
    pub(crate) fn broadcast_same(slot: &Slot, live: &Live, text: &Utf8Bytes) {
        let texts = live.audiences().map(|_| Some(text.clone())).collect();
        let _ = slot.updates.send(Arc::new(Update {
            actions: None,
            texts,
            versions: Vec::new(),
        }));
    }
}

/// A loaded game whose session may be ahead of the store: unless [`Unstored::stored`]
/// is called, dropping it unloads the game, which is then rebuilt from the store.
/// Memory follows the store and never leads it, whatever stops the work half-way.
struct Unstored<'g, 'a>(&'g mut MutexGuard<'a, Option<Live>>);

impl Unstored<'_, '_> {
    /// The game.
    fn live(&mut self) -> &mut Live {
        self.0.as_mut().expect("locked games are loaded")
    }

    /// The store has what memory has: keep the game loaded.
    fn stored(self) {
        std::mem::forget(self);
    }
}

impl Drop for Unstored<'_, '_> {
    fn drop(&mut self) {
        **self.0 = None;
    }
}

/// What a seat adds to a game's log.
#[derive(Clone)]
enum Entry {
    /// An action.
    Action(Value),
    /// The take-back of its last action.
    Undo,
}

/// A game's session at its setup, before any log entry.
pub(crate) fn start_session(
    catalog: &Catalog,
    row: &GameRow,
    seats: &[SeatRow],
) -> Result<Box<dyn Session>, ApiError> {
    let entry = catalog.get(&row.game)?;
    let seed: Seed = row
        .seed
        .parse()
        .map_err(|e| ApiError::Unavailable(format!("game {}: bad seed: {e}", row.id)))?;
    let setup: Value = serde_json::from_str(&row.setup)
        .map_err(|e| ApiError::Unavailable(format!("game {}: bad setup: {e}", row.id)))?;
    let config = SessionConfig {
        game_id: row.id.clone(),
        seed,
        scripted_chance: false,
        seat_names: seats
            .iter()
            .map(|s| s.name.clone().unwrap_or_else(|| Seat(s.seat).to_string()))
            .collect(),
    };
    Ok(entry.load(setup, config)?)
}

/// Applies one stored log entry.
pub(crate) fn apply_logged(session: &mut dyn Session, body: &str) -> Result<Step, ApiError> {
    let logged: LoggedAction = serde_json::from_str(body)
        .map_err(|e| ApiError::Unavailable(format!("unreadable log entry: {e}")))?;
    let stale =
        |e: RejectReason| ApiError::Unavailable(format!("log entry no longer applies: {e}"));
    match (logged.undo, logged.by) {
        (None, _) => session.apply_recorded(logged.action).map_err(stale),
        (Some(index), Actor::Seat(seat)) => {
            let step = session.undo(seat).map_err(stale)?;
            if step.index == index {
                Ok(step)
            } else {
                Err(ApiError::Unavailable(format!(
                    "log entry took back action {index}, but the last one is {}",
                    step.index
                )))
            }
        }
        (Some(_), Actor::Chance) => Err(ApiError::Unavailable(
            "log entry: chance cannot take an action back".into(),
        )),
    }
}

/// The steps of a batch that `audience` is told, as it may see them
/// ([`step_json`]); the batch moved the log on from `from`.
pub(crate) fn shown_steps(
    live: &Live,
    audience: Audience,
    from: u64,
    steps: &[Step],
    undone: &[Option<u64>],
) -> Vec<Value> {
    let points = live.feeds.points(audience);
    steps
        .iter()
        .zip(undone)
        .enumerate()
        .filter_map(|(i, (step, undone))| {
            shown_index(points, step, from + i as u64, *undone)
                .map(|told| step_json(live.session.as_ref(), step, audience, told.index))
        })
        .collect()
}

/// One step as `audience` may see it: its `index` in the audience's numbering
/// ([`crate::feed::shown_index`]), the action only for the seat that took it, the
/// events filtered for the audience, and each event in words.
pub(crate) fn step_json(
    session: &dyn Session,
    step: &Step,
    audience: Audience,
    index: Option<u64>,
) -> Value {
    let events = step.events_for(audience);
    let mine = matches!((step.by, audience), (Actor::Seat(a), Some(b)) if a == b);
    let mut out = json!({
        "index": index,
        "by": step.by,
        "events": events,
        "text": events.iter().map(|e| session.describe_event(e)).collect::<Vec<_>>(),
    });
    if step.undo {
        out["undo"] = json!(true);
    } else if mine {
        out["action"] = step.action.clone();
    }
    out
}

/// A game's status: `over` when it has ended, `open` while a person's seat that has
/// not resigned is unclaimed, else `running`.
pub(crate) fn status_of(over: bool, seats: &[SeatRow]) -> &'static str {
    if over {
        "over"
    } else if seats
        .iter()
        .any(|s| s.kind == "person" && s.name.is_none() && !s.resigned)
    {
        "open"
    } else {
        "running"
    }
}

/// Seats as everyone may see them (no token hashes, no notification addresses).
pub(crate) fn public_seats(seats: &[SeatRow]) -> Vec<Value> {
    seats
        .iter()
        .map(|s| {
            json!({
                "seat": s.seat,
                "kind": s.kind,
                "bot_level": s.bot_level,
                "name": s.name,
                "claimed": s.name.is_some(),
                "open": s.kind == "person" && s.token_hash.is_none(),
                "resigned": s.resigned,
            })
        })
        .collect()
}

/// Now, in Unix seconds.
fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}
