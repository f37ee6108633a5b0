//! Storage of games: each game's header, its seats and its append-only action log
//! `(game_id, seq)`, in SQLite (the default, one file) or PostgreSQL (several server
//! processes sharing one database). One implementation serves both through SQLx's
//! `Any` driver; the SQL is the subset both understand.
//!
//! Actions are appended at `expected_seq + 1, ...` in one transaction that also moves the
//! game's `seq` on from `expected_seq`; if another writer got there first the append
//! fails with [`StoreError::Conflict`] and changes nothing. SQLite runs in WAL mode with
//! `synchronous=FULL`, so an acknowledged append survives a crash.

use std::str::FromStr;

use serde::{Deserialize, Serialize};
use sqlx::any::{AnyConnectOptions, AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Row};

/// What can go wrong with the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Another action was appended first: the caller's version is stale.
    #[error("the game is at a newer version than {expected}")]
    Conflict {
        /// The version the caller expected.
        expected: u64,
    },
    /// No such game.
    #[error("there is no game {0:?}")]
    NoGame(String),
    /// A database URL this store does not understand.
    #[error("unsupported database URL {0:?}: use sqlite://PATH or postgres://...")]
    BadUrl(String),
    /// The database failed.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// The seat was changed by someone else since it was read; nothing was written.
    #[error("the seat changed meanwhile")]
    SeatChanged,
    /// A group commit failed (on SQLite); nothing of it was stored.
    #[error("database error: {0}")]
    Failed(String),
}

/// Which database is behind the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// An SQLite file.
    Sqlite,
    /// A PostgreSQL server.
    Postgres,
}

/// A game's header: everything needed to rebuild its initial state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRow {
    /// The game's id (public, in links).
    pub id: String,
    /// The engine's game name (`viktory`, ...).
    pub game: String,
    /// The preset.
    pub preset: String,
    /// The option overrides it was created with, as a JSON object.
    pub options: String,
    /// The initial setup as JSON.
    pub setup: String,
    /// The secret seed (hex), revealed when the game ends.
    pub seed: String,
    /// The seed's SHA-256 commitment (hex), public from the start.
    pub seed_commitment: String,
    /// `open` (a person's seat is unclaimed), `running` or `over`.
    pub status: String,
    /// How the game ended when the server ended it (resignation), as JSON.
    pub result: Option<String>,
    /// Actions in the log.
    pub seq: u64,
    /// The version a spectator knows: how many of the log's steps a spectator was told
    /// (`crate::feed`). Hidden actions are not counted, so lists do not betray them.
    pub public_seq: u64,
    /// Creation time, Unix seconds.
    pub created_at: i64,
}

/// One seat of a game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRow {
    /// Seat index.
    pub seat: u8,
    /// `person` or `bot`.
    pub kind: String,
    /// The bot's level, for bots.
    pub bot_level: Option<String>,
    /// SHA-256 (hex) of the seat's secret token; the token itself is never stored.
    pub token_hash: Option<String>,
    /// A display name once claimed.
    pub name: Option<String>,
    /// The seat's player resigned; a bot plays it from then on.
    pub resigned: bool,
    /// Where to e-mail the seat when it must move.
    pub notify_email: Option<String>,
    /// Where to POST when the seat must move.
    pub notify_webhook: Option<String>,
}

/// What an append sets besides the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AppendMeta<'a> {
    /// The game's new status, if it changes (`over`).
    pub status: Option<&'a str>,
    /// The version a spectator knows after the append ([`GameRow::public_seq`]).
    pub public_version: u64,
}

/// Where a game stands, as a spectator may see it, stored with the game at each append
/// so that the lists of games show it without loading or replaying a game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// The game turn, as the spectator's view numbers it (`None` when the game does
    /// not number its turns).
    pub turn: Option<u32>,
    /// Who must decide now (`engine::ToMove` as JSON), which spectators are told too.
    pub to_move: String,
}

/// A game as the lists of games show it: its header, where it stands (`None` for a
/// game stored before the progress was kept, until its next action) and its seats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// The game's header.
    pub row: GameRow,
    /// Where it stands.
    pub progress: Option<Progress>,
    /// Its seats, by seat.
    pub seats: Vec<SeatRow>,
}

/// A new status for a game, and how it ended when the server ended it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatusChange<'a> {
    /// `open`, `running` or `over`.
    pub status: &'a str,
    /// The result as JSON, when the server ended the game (resignation).
    pub result: Option<&'a str>,
}

/// One in-game message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageRow {
    /// Its number in the game, from 1.
    pub id: u64,
    /// The seat that wrote it.
    pub seat: u8,
    /// The text.
    pub body: String,
    /// When, Unix seconds.
    pub at: i64,
}

/// The PostgreSQL channel on which server processes announce changed games, with
/// payloads `"GAME VERSION"` and `"GAME meta"`.
pub const NOTIFY_CHANNEL: &str = "hexwar_games";

/// The migrations, in order; each runs once, in one transaction, and its number is
/// recorded in `hexwar_migrations`. Never edit a migration that has shipped: add one.
const MIGRATIONS: &[&[&str]] = &[
    // 1: games, seats, the action log.
    &[
        "CREATE TABLE IF NOT EXISTS games (
            id TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            preset TEXT NOT NULL,
            setup TEXT NOT NULL,
            seed TEXT NOT NULL,
            seed_commitment TEXT NOT NULL,
            status TEXT NOT NULL,
            seq BIGINT NOT NULL DEFAULT 0,
            created_at BIGINT NOT NULL
        )",
        "CREATE TABLE IF NOT EXISTS seats (
            game_id TEXT NOT NULL REFERENCES games(id),
            seat INTEGER NOT NULL,
            kind TEXT NOT NULL,
            bot_level TEXT,
            token_hash TEXT,
            name TEXT,
            PRIMARY KEY (game_id, seat)
        )",
        "CREATE TABLE IF NOT EXISTS actions (
            game_id TEXT NOT NULL REFERENCES games(id),
            seq BIGINT NOT NULL,
            body TEXT NOT NULL,
            PRIMARY KEY (game_id, seq)
        )",
    ],
    // 2: options and results, resignation and notifications, messages.
    &[
        "ALTER TABLE games ADD COLUMN options TEXT NOT NULL DEFAULT '{}'",
        "ALTER TABLE games ADD COLUMN result TEXT",
        "ALTER TABLE seats ADD COLUMN resigned BIGINT NOT NULL DEFAULT 0",
        "ALTER TABLE seats ADD COLUMN notify_email TEXT",
        "ALTER TABLE seats ADD COLUMN notify_webhook TEXT",
        "CREATE TABLE IF NOT EXISTS messages (
            game_id TEXT NOT NULL REFERENCES games(id),
            id BIGINT NOT NULL,
            seat BIGINT NOT NULL,
            body TEXT NOT NULL,
            at BIGINT NOT NULL,
            PRIMARY KEY (game_id, id)
        )",
        "CREATE INDEX IF NOT EXISTS games_by_status ON games (status, created_at)",
    ],
    // 3: the version a spectator knows, for game lists.
    &[
        "ALTER TABLE games ADD COLUMN public_seq BIGINT NOT NULL DEFAULT 0",
        "UPDATE games SET public_seq = seq",
    ],
    // 4: where each game stands, for game lists (turn, who decides); filled in by the
    // next append of a game stored before.
    &[
        "ALTER TABLE games ADD COLUMN turn BIGINT",
        "ALTER TABLE games ADD COLUMN to_move TEXT",
    ],
];

const GAME_COLUMNS: &str = "id, game, preset, options, setup, seed, seed_commitment, status, \
    result, seq, created_at, public_seq";

/// The game store.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    url: String,
    /// SQLite has one writer at a time; writers that find the file locked sleep and
    /// retry (`busy_timeout`), which costs milliseconds. Queuing them here instead
    /// keeps latency flat. Unused for PostgreSQL, whose group writer sends one
    /// statement per group, which PostgreSQL runs beside other processes' writes.
    writer: std::sync::Arc<tokio::sync::Mutex<()>>,
    /// The queue of the group writer that commits appends together.
    group: tokio::sync::mpsc::Sender<(AppendRequest, AppendReply)>,
    /// PostgreSQL: this store's mark on its announcements (16 random hex digits), so
    /// that the process's own listener knows the news it made itself
    /// ([`crate::fanout`]).
    origin: String,
}

impl Store {
    /// Opens (creating if needed) the database at `url` and runs the migrations it has
    /// not had yet: `sqlite://PATH` (the file is created) or `postgres://...`.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Backend::Postgres
        } else {
            return Err(StoreError::BadUrl(url.to_owned()));
        };
        let url = if backend == Backend::Sqlite && !url.contains('?') {
            format!("{url}?mode=rwc")
        } else {
            url.to_owned()
        };
        let options = AnyConnectOptions::from_str(&url)?;
        let pool = AnyPoolOptions::new()
            .max_connections(if backend == Backend::Sqlite { 4 } else { 8 })
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // An acknowledged write survives a crash (ARCHITECTURE: Server).
                        for pragma in [
                            "PRAGMA journal_mode = WAL",
                            "PRAGMA synchronous = FULL",
                            "PRAGMA foreign_keys = ON",
                            "PRAGMA busy_timeout = 5000",
                        ] {
                            sqlx::query(pragma).execute(&mut *conn).await?;
                        }
                    }
                    Ok(())
                })
            })
            .connect_with(options)
            .await?;
        let writer = std::sync::Arc::default();
        let mut mark = [0u8; 8];
        getrandom::fill(&mut mark).map_err(|e| StoreError::Failed(e.to_string()))?;
        let origin = format!("{:016x}", u64::from_le_bytes(mark));
        let (queue, receiver) = tokio::sync::mpsc::channel(1024);
        tokio::spawn(group_writer(
            pool.clone(),
            backend,
            origin.clone(),
            std::sync::Arc::clone(&writer),
            receiver,
        ));
        let store = Store {
            pool,
            backend,
            url: url.clone(),
            writer,
            group: queue,
            origin,
        };
        store.migrate().await?;
        Ok(store)
    }

    /// Runs the migrations not yet recorded. On PostgreSQL an advisory lock keeps two
    /// processes starting at once from running the same migration twice.
    async fn migrate(&self) -> Result<(), StoreError> {
        sqlx::query("CREATE TABLE IF NOT EXISTS hexwar_migrations (version BIGINT PRIMARY KEY)")
            .execute(&self.pool)
            .await?;
        let mut tx = self.pool.begin().await?;
        if self.backend == Backend::Postgres {
            sqlx::query("SELECT pg_advisory_xact_lock(7240315)")
                .execute(&mut *tx)
                .await?;
        }
        let done: Option<i64> = sqlx::query("SELECT MAX(version) AS v FROM hexwar_migrations")
            .fetch_one(&mut *tx)
            .await?
            .try_get("v")?;
        let done = usize::try_from(done.unwrap_or(0)).unwrap_or(0);
        for (i, statements) in MIGRATIONS.iter().enumerate().skip(done) {
            for statement in *statements {
                sqlx::query(statement).execute(&mut *tx).await?;
            }
            sqlx::query("INSERT INTO hexwar_migrations (version) VALUES ($1)")
                .bind(i as i64 + 1)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The database behind the store.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Waits for this process's turn to write, on SQLite.
    async fn write_turn(&self) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        match self.backend {
            Backend::Sqlite => Some(self.writer.lock().await),
            Backend::Postgres => None,
        }
    }

    /// `sqlite` or `postgres`, for logs.
    pub fn backend_name(&self) -> &'static str {
        match self.backend {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        }
    }

    /// Checks that the database answers.
    pub async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    /// The database URL (for PostgreSQL LISTEN).
    pub(crate) fn url(&self) -> &str {
        &self.url
    }

    /// The mark this store puts on its announcements (PostgreSQL).
    pub(crate) fn origin(&self) -> &str {
        &self.origin
    }

    /// On PostgreSQL, tells the other server processes that game `id` changed
    /// (`what`: its new version, or `meta` for seats and status; the payload is
    /// `"{id} {what} {origin}"`). Runs inside the caller's transaction when given one,
    /// so the news leaves at commit.
    async fn notify(
        &self,
        conn: &mut sqlx::AnyConnection,
        id: &str,
        what: &str,
    ) -> Result<(), StoreError> {
        if self.backend == Backend::Postgres {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(NOTIFY_CHANNEL)
                .bind(format!("{id} {what} {}", self.origin))
                .execute(conn)
                .await?;
        }
        Ok(())
    }

    /// Stores a new game with its seats and its first actions (`initial`, as the log's
    /// entries 1, 2, ...; `game.seq` must be their number), in one transaction.
    pub async fn create_game(
        &self,
        game: &GameRow,
        seats: &[SeatRow],
        initial: &[String],
    ) -> Result<(), StoreError> {
        self.create_game_at(game, seats, initial, None).await
    }

    /// [`Store::create_game`], with where the new game stands ([`Progress`]) for the
    /// lists of games.
    pub async fn create_game_at(
        &self,
        game: &GameRow,
        seats: &[SeatRow],
        initial: &[String],
        progress: Option<&Progress>,
    ) -> Result<(), StoreError> {
        let _turn = self.write_turn().await;
        let mut tx = self.pool.begin().await?;
        sqlx::query(&format!(
            "INSERT INTO games ({GAME_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"
        ))
        .bind(&game.id)
        .bind(&game.game)
        .bind(&game.preset)
        .bind(&game.options)
        .bind(&game.setup)
        .bind(&game.seed)
        .bind(&game.seed_commitment)
        .bind(&game.status)
        .bind(game.result.as_deref())
        .bind(game.seq as i64)
        .bind(game.created_at)
        .bind(game.public_seq as i64)
        .execute(&mut *tx)
        .await?;
        if let Some(progress) = progress {
            sqlx::query("UPDATE games SET turn = $1, to_move = $2 WHERE id = $3")
                .bind(progress.turn.map(i64::from))
                .bind(&progress.to_move)
                .bind(&game.id)
                .execute(&mut *tx)
                .await?;
        }
        for seat in seats {
            sqlx::query(
                "INSERT INTO seats (game_id, seat, kind, bot_level, token_hash, name, resigned,
                    notify_email, notify_webhook)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            )
            .bind(&game.id)
            .bind(i32::from(seat.seat))
            .bind(&seat.kind)
            .bind(seat.bot_level.as_deref())
            .bind(seat.token_hash.as_deref())
            .bind(seat.name.as_deref())
            .bind(i64::from(seat.resigned))
            .bind(seat.notify_email.as_deref())
            .bind(seat.notify_webhook.as_deref())
            .execute(&mut *tx)
            .await?;
        }
        for (i, body) in initial.iter().enumerate() {
            sqlx::query("INSERT INTO actions (game_id, seq, body) VALUES ($1, $2, $3)")
                .bind(&game.id)
                .bind(i as i64 + 1)
                .bind(body)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// A game's header.
    pub async fn game(&self, id: &str) -> Result<GameRow, StoreError> {
        let row = sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| game_row(&r))
            .transpose()?
            .ok_or_else(|| StoreError::NoGame(id.to_owned()))
    }

    /// The games with one of `statuses` (every game when empty), newest first, at most
    /// `limit`.
    pub async fn games(&self, statuses: &[&str], limit: u32) -> Result<Vec<GameRow>, StoreError> {
        let filter = if statuses.is_empty() {
            String::new()
        } else {
            let marks: Vec<String> = (1..=statuses.len()).map(|i| format!("${i}")).collect();
            format!("WHERE status IN ({})", marks.join(", "))
        };
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games {filter} ORDER BY created_at DESC, id LIMIT {limit}"
        );
        let mut query = sqlx::query(&sql);
        for status in statuses {
            query = query.bind(*status);
        }
        let rows = query.fetch_all(&self.pool).await?;
        rows.iter().map(game_row).collect()
    }

    /// The games with one of `statuses` (every game when empty), newest first, at most
    /// `limit`, with where each stands and its seats: two queries, whatever the number
    /// of games.
    pub async fn listing(&self, statuses: &[&str], limit: u32) -> Result<Vec<Listed>, StoreError> {
        let filter = if statuses.is_empty() {
            String::new()
        } else {
            let marks: Vec<String> = (1..=statuses.len()).map(|i| format!("${i}")).collect();
            format!("WHERE status IN ({})", marks.join(", "))
        };
        let sql = format!(
            "SELECT {GAME_COLUMNS}, turn, to_move FROM games {filter}
             ORDER BY created_at DESC, id LIMIT {limit}"
        );
        let mut query = sqlx::query(&sql);
        for status in statuses {
            query = query.bind(*status);
        }
        let rows = query.fetch_all(&self.pool).await?;
        let mut listed = Vec::with_capacity(rows.len());
        for r in &rows {
            let to_move: Option<String> = r.try_get("to_move")?;
            let turn: Option<i64> = r.try_get("turn")?;
            listed.push(Listed {
                row: game_row(r)?,
                progress: to_move.map(|to_move| Progress {
                    turn: turn.and_then(|t| u32::try_from(t).ok()),
                    to_move,
                }),
                seats: Vec::new(),
            });
        }
        if listed.is_empty() {
            return Ok(listed);
        }
        let marks: Vec<String> = (1..=listed.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT game_id, {SEAT_COLUMNS} FROM seats WHERE game_id IN ({})
             ORDER BY game_id, seat",
            marks.join(", ")
        );
        let mut query = sqlx::query(&sql);
        for game in &listed {
            query = query.bind(&game.row.id);
        }
        let mut by_game: std::collections::HashMap<String, Vec<SeatRow>> =
            std::collections::HashMap::new();
        for r in query.fetch_all(&self.pool).await? {
            let id: String = r.try_get("game_id")?;
            by_game.entry(id).or_default().push(seat_row(&r)?);
        }
        for game in &mut listed {
            game.seats = by_game.remove(&game.row.id).unwrap_or_default();
        }
        Ok(listed)
    }

    /// A game's seats, by seat.
    pub async fn seats(&self, id: &str) -> Result<Vec<SeatRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = $1 ORDER BY seat"
        ))
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(seat_row).collect()
    }

    /// Changes one seat, every field of it (token hash, name, resignation,
    /// notification addresses), and the game's status when `status` is given, in one
    /// transaction, if the seat is still as `before` shows it (compare and set: another
    /// process sharing PostgreSQL may have changed it). On PostgreSQL the change is
    /// announced to the other processes at commit.
    ///
    /// # Errors
    ///
    /// [`StoreError::SeatChanged`] when the seat is no longer as `before` (nothing is
    /// written), [`StoreError::NoGame`] when there is no such game or seat.
    pub async fn update_seat(
        &self,
        id: &str,
        before: &SeatRow,
        after: &SeatRow,
        status: Option<StatusChange<'_>>,
    ) -> Result<(), StoreError> {
        let _turn = self.write_turn().await;
        let mut tx = self.pool.begin().await?;
        // NULLs compare as '' so that an unset column matches an unset `before`.
        let n = sqlx::query(
            "UPDATE seats SET token_hash = $1, name = $2, resigned = $3, notify_email = $4,
                notify_webhook = $5
             WHERE game_id = $6 AND seat = $7
               AND COALESCE(token_hash, '') = COALESCE($8, '')
               AND COALESCE(name, '') = COALESCE($9, '')
               AND resigned = $10
               AND COALESCE(notify_email, '') = COALESCE($11, '')
               AND COALESCE(notify_webhook, '') = COALESCE($12, '')",
        )
        .bind(after.token_hash.as_deref())
        .bind(after.name.as_deref())
        .bind(i64::from(after.resigned))
        .bind(after.notify_email.as_deref())
        .bind(after.notify_webhook.as_deref())
        .bind(id)
        .bind(i32::from(after.seat))
        .bind(before.token_hash.as_deref())
        .bind(before.name.as_deref())
        .bind(i64::from(before.resigned))
        .bind(before.notify_email.as_deref())
        .bind(before.notify_webhook.as_deref())
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if n == 0 {
            let exists = sqlx::query("SELECT 1 FROM seats WHERE game_id = $1 AND seat = $2")
                .bind(id)
                .bind(i32::from(after.seat))
                .fetch_optional(&mut *tx)
                .await?
                .is_some();
            tx.rollback().await?;
            return Err(if exists {
                StoreError::SeatChanged
            } else {
                StoreError::NoGame(id.to_owned())
            });
        }
        if let Some(change) = status {
            sqlx::query(
                "UPDATE games SET status = $1, result = COALESCE($2, result) WHERE id = $3",
            )
            .bind(change.status)
            .bind(change.result)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        }
        self.notify(&mut tx, id, "meta").await?;
        tx.commit().await?;
        Ok(())
    }

    /// Appends `bodies` as actions `expected_seq + 1, + 2, ...` of game `id`, if the game
    /// is still at `expected_seq`, and sets what `meta` gives; returns the new version.
    /// All in one transaction: on a conflict nothing changes.
    ///
    /// Appends that arrive together (from different games) are committed together
    /// (group commit): one disk flush acknowledges them all, and each is still answered
    /// only after it. On SQLite they share a transaction, each under its own savepoint;
    /// on PostgreSQL they are one statement (`commit_group_postgres`).
    pub async fn append(
        &self,
        id: &str,
        expected_seq: u64,
        bodies: &[String],
        meta: AppendMeta<'_>,
    ) -> Result<u64, StoreError> {
        self.append_at(id, expected_seq, bodies, meta, None).await
    }

    /// [`Store::append`], also setting where the game stands after it ([`Progress`],
    /// for the lists of games) in the same transaction.
    pub async fn append_at(
        &self,
        id: &str,
        expected_seq: u64,
        bodies: &[String],
        meta: AppendMeta<'_>,
        progress: Option<&Progress>,
    ) -> Result<u64, StoreError> {
        let request = AppendRequest {
            id: id.to_owned(),
            expected: expected_seq,
            bodies: bodies.to_vec(),
            status: meta.status.map(str::to_owned),
            public_version: meta.public_version,
            progress: progress.cloned(),
        };
        let (reply, answer) = tokio::sync::oneshot::channel();
        self.group
            .send((request, reply))
            .await
            .map_err(|_| StoreError::Failed("the writer has stopped".into()))?;
        answer
            .await
            .map_err(|_| StoreError::Failed("the writer has stopped".into()))?
    }

    /// The actions of game `id` after version `after`, in order, as `(seq, body)`.
    pub async fn actions(&self, id: &str, after: u64) -> Result<Vec<(u64, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT seq, body FROM actions WHERE game_id = $1 AND seq > $2 ORDER BY seq",
        )
        .bind(id)
        .bind(after as i64)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let seq: i64 = r.try_get("seq")?;
                Ok((u64::try_from(seq).unwrap_or(0), r.try_get("body")?))
            })
            .collect()
    }

    /// Sets a game's status (`open`, `running`, `over`) and, when the server ended it,
    /// its result.
    pub async fn set_status(
        &self,
        id: &str,
        status: &str,
        result: Option<&str>,
    ) -> Result<(), StoreError> {
        let _turn = self.write_turn().await;
        let n = sqlx::query(
            "UPDATE games SET status = $1, result = COALESCE($2, result) WHERE id = $3",
        )
        .bind(status)
        .bind(result)
        .bind(id)
        .execute(&self.pool)
        .await?
        .rows_affected();
        if n == 0 {
            return Err(StoreError::NoGame(id.to_owned()));
        }
        Ok(())
    }

    /// Adds a message from `seat`; returns its number.
    pub async fn add_message(
        &self,
        id: &str,
        seat: u8,
        body: &str,
        at: i64,
    ) -> Result<u64, StoreError> {
        let _turn = self.write_turn().await;
        // Two writers may pick the same number; the key refuses one and it tries again.
        for _ in 0..8 {
            let mut tx = self.pool.begin().await?;
            let last: Option<i64> =
                sqlx::query("SELECT MAX(id) AS m FROM messages WHERE game_id = $1")
                    .bind(id)
                    .fetch_one(&mut *tx)
                    .await?
                    .try_get("m")?;
            let next = last.unwrap_or(0) + 1;
            let inserted = sqlx::query(
                "INSERT INTO messages (game_id, id, seat, body, at) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(id)
            .bind(next)
            .bind(i64::from(seat))
            .bind(body)
            .bind(at)
            .execute(&mut *tx)
            .await;
            match inserted {
                Ok(_) => {
                    tx.commit().await?;
                    return Ok(u64::try_from(next).unwrap_or(0));
                }
                Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                    tx.rollback().await?;
                }
                Err(sqlx::Error::Database(e)) if e.is_foreign_key_violation() => {
                    return Err(StoreError::NoGame(id.to_owned()));
                }
                Err(e) => return Err(e.into()),
            }
        }
        Err(StoreError::Conflict { expected: 0 })
    }

    /// A game's messages after number `after`, in order.
    pub async fn messages(&self, id: &str, after: u64) -> Result<Vec<MessageRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, seat, body, at FROM messages WHERE game_id = $1 AND id > $2 ORDER BY id",
        )
        .bind(id)
        .bind(after as i64)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(MessageRow {
                    id: u64::try_from(r.try_get::<i64, _>("id")?).unwrap_or(0),
                    seat: u8::try_from(r.try_get::<i64, _>("seat")?).unwrap_or(u8::MAX),
                    body: r.try_get("body")?,
                    at: r.try_get("at")?,
                })
            })
            .collect()
    }
}

const SEAT_COLUMNS: &str =
    "seat, kind, bot_level, token_hash, name, resigned, notify_email, notify_webhook";

fn seat_row(r: &AnyRow) -> Result<SeatRow, StoreError> {
    Ok(SeatRow {
        seat: u8::try_from(r.try_get::<i32, _>("seat")?).unwrap_or(u8::MAX),
        kind: r.try_get("kind")?,
        bot_level: r.try_get("bot_level")?,
        token_hash: r.try_get("token_hash")?,
        name: r.try_get("name")?,
        resigned: r.try_get::<i64, _>("resigned")? != 0,
        notify_email: r.try_get("notify_email")?,
        notify_webhook: r.try_get("notify_webhook")?,
    })
}

fn game_row(r: &AnyRow) -> Result<GameRow, StoreError> {
    let seq: i64 = r.try_get("seq")?;
    Ok(GameRow {
        id: r.try_get("id")?,
        game: r.try_get("game")?,
        preset: r.try_get("preset")?,
        options: r.try_get("options")?,
        setup: r.try_get("setup")?,
        seed: r.try_get("seed")?,
        seed_commitment: r.try_get("seed_commitment")?,
        status: r.try_get("status")?,
        result: r.try_get("result")?,
        seq: u64::try_from(seq).unwrap_or(0),
        created_at: r.try_get("created_at")?,
        public_seq: u64::try_from(r.try_get::<i64, _>("public_seq")?).unwrap_or(0),
    })
}

/// One append, as the group writer receives it.
#[derive(Debug)]
struct AppendRequest {
    id: String,
    expected: u64,
    bodies: Vec<String>,
    status: Option<String>,
    public_version: u64,
    progress: Option<Progress>,
}

impl AppendRequest {
    /// The game's version once the append is stored.
    fn last(&self) -> u64 {
        self.expected + self.bodies.len() as u64
    }
}

/// The answer channel of an append.
type AppendReply = tokio::sync::oneshot::Sender<Result<u64, StoreError>>;

/// Most appends committed together.
const GROUP_MAX: usize = 128;

/// Moves a game's row to the new version of an append, if it is still at the expected
/// one ([`bind_move`] gives `$1`–`$8`).
const MOVE_GAME: &str = "UPDATE games SET seq = $1, status = COALESCE($2, status), public_seq = $3,
        turn = CASE WHEN $6 = 1 THEN $7 ELSE turn END,
        to_move = COALESCE($8, to_move)
     WHERE id = $4 AND seq = $5";

/// Binds [`MOVE_GAME`]'s parameters for `request`.
fn bind_move<'q>(
    query: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>,
    request: &'q AppendRequest,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    let progress = request.progress.as_ref();
    query
        .bind(request.last() as i64)
        .bind(request.status.as_deref())
        .bind(request.public_version as i64)
        .bind(&request.id)
        .bind(request.expected as i64)
        .bind(i64::from(progress.is_some()))
        .bind(progress.and_then(|p| p.turn).map(i64::from))
        .bind(progress.map(|p| p.to_move.as_str()))
}

/// Why an append moved no game row: a missing game, or a stale version.
async fn not_moved(
    conn: &mut sqlx::AnyConnection,
    request: &AppendRequest,
) -> Result<StoreError, sqlx::Error> {
    let exists = sqlx::query("SELECT 1 FROM games WHERE id = $1")
        .bind(&request.id)
        .fetch_optional(&mut *conn)
        .await?
        .is_some();
    Ok(if exists {
        StoreError::Conflict {
            expected: request.expected,
        }
    } else {
        StoreError::NoGame(request.id.clone())
    })
}

/// Applies one append inside a transaction; the outer `Err` is a database failure, the
/// inner one a refusal (stale version, no such game) after which the caller rolls back.
async fn append_in(
    conn: &mut sqlx::AnyConnection,
    request: &AppendRequest,
) -> Result<Result<u64, StoreError>, sqlx::Error> {
    let expected = request.expected;
    let last = request.last();
    let moved = bind_move(sqlx::query(MOVE_GAME), request)
        .execute(&mut *conn)
        .await?
        .rows_affected();
    if moved != 1 {
        return Ok(Err(not_moved(conn, request).await?));
    }
    for (i, body) in request.bodies.iter().enumerate() {
        let inserted = sqlx::query("INSERT INTO actions (game_id, seq, body) VALUES ($1, $2, $3)")
            .bind(&request.id)
            .bind((expected + 1 + i as u64) as i64)
            .bind(body)
            .execute(&mut *conn)
            .await;
        match inserted {
            Ok(_) => {}
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                return Ok(Err(StoreError::Conflict { expected }));
            }
            Err(e) => return Err(e),
        }
    }
    Ok(Ok(last))
}

/// The group writer: takes every append waiting, commits them together, then answers
/// each.
async fn group_writer(
    pool: AnyPool,
    backend: Backend,
    origin: String,
    writer: std::sync::Arc<tokio::sync::Mutex<()>>,
    mut queue: tokio::sync::mpsc::Receiver<(AppendRequest, AppendReply)>,
) {
    while let Some(first) = queue.recv().await {
        let mut batch = vec![first];
        while batch.len() < GROUP_MAX {
            match queue.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        let committed = match backend {
            Backend::Sqlite => {
                let _turn = writer.lock().await;
                commit_group(&pool, &batch).await
            }
            Backend::Postgres => commit_group_postgres(&pool, &origin, &batch).await,
        };
        match committed {
            Ok(results) => {
                for ((_, reply), result) in batch.into_iter().zip(results) {
                    let _ = reply.send(result);
                }
            }
            Err(e) => {
                let message = e.to_string();
                for (_, reply) in batch {
                    let _ = reply.send(Err(StoreError::Failed(message.clone())));
                }
            }
        }
    }
}

async fn commit_group(
    pool: &AnyPool,
    batch: &[(AppendRequest, AppendReply)],
) -> Result<Vec<Result<u64, StoreError>>, sqlx::Error> {
    let mut tx = pool.begin().await?;
    let mut results = Vec::with_capacity(batch.len());
    for (request, _) in batch {
        let mut savepoint = sqlx::Connection::begin(&mut *tx).await?;
        let result = append_in(&mut savepoint, request).await?;
        if result.is_ok() {
            savepoint.commit().await?;
        } else {
            savepoint.rollback().await?;
        }
        results.push(result);
    }
    tx.commit().await?;
    Ok(results)
}

/// One append of a PostgreSQL group, as `jsonb_to_recordset` reads it.
#[derive(Serialize)]
struct GroupedMove<'a> {
    id: &'a str,
    expected: i64,
    last: i64,
    status: Option<&'a str>,
    public_seq: i64,
    progress: bool,
    turn: Option<i64>,
    to_move: Option<&'a str>,
    /// The announcement to the other processes ([`crate::fanout`]).
    told: String,
}

/// One action of a PostgreSQL group.
#[derive(Serialize)]
struct GroupedAction<'a> {
    id: &'a str,
    seq: i64,
    body: &'a str,
}

/// A PostgreSQL group as one statement (one round trip and one commit, atomic on its
/// own), whatever the number of appends in it: the version checks and the games' rows,
/// the actions, and the news to the other processes (`pg_notify`, sent at commit). The
/// appends come as two JSON parameters, so the statement's text is always the same (and
/// prepared once per connection).
const APPEND_GROUP: &str = "WITH input AS (
        SELECT * FROM jsonb_to_recordset($1::jsonb) AS i(id text, expected bigint, last bigint,
            status text, public_seq bigint, progress boolean, turn bigint, to_move text, told text)
    ), rows AS (
        SELECT * FROM jsonb_to_recordset($2::jsonb) AS a(id text, seq bigint, body text)
    ), moved AS (
        UPDATE games g SET seq = i.last, status = COALESCE(i.status, g.status),
            public_seq = i.public_seq,
            turn = CASE WHEN i.progress THEN i.turn ELSE g.turn END,
            to_move = COALESCE(i.to_move, g.to_move)
        FROM input i WHERE g.id = i.id AND g.seq = i.expected
        RETURNING g.id, i.told
    ), added AS (
        INSERT INTO actions (game_id, seq, body)
        SELECT rows.id, rows.seq, rows.body FROM rows JOIN moved ON moved.id = rows.id
    ), told AS (
        SELECT pg_notify($3, moved.told) FROM moved
    )
    SELECT moved.id, (SELECT count(*) FROM told) AS told FROM moved";

/// Commits a group of appends on PostgreSQL ([`APPEND_GROUP`]). An append whose game
/// moved on (or does not exist) is told apart afterwards and refused; the others stand.
/// Should the statement fail as a whole (two appends of one game, or an action already
/// stored), each append is tried again on its own, so that one cannot refuse the others.
async fn commit_group_postgres(
    pool: &AnyPool,
    origin: &str,
    batch: &[(AppendRequest, AppendReply)],
) -> Result<Vec<Result<u64, StoreError>>, sqlx::Error> {
    let requests: Vec<&AppendRequest> = batch.iter().map(|(r, _)| r).collect();
    // Two appends of one game in a group (the hub appends a game's entries one at a
    // time, but the store's other callers may race, as its tests do) go one by one.
    let games: std::collections::HashSet<&str> = requests.iter().map(|r| r.id.as_str()).collect();
    if games.len() == requests.len() {
        match append_postgres(pool, origin, &requests).await {
            Err(_) if requests.len() > 1 => {}
            answer => return answer,
        }
    }
    let mut results = Vec::with_capacity(requests.len());
    for request in requests {
        // An append stored before a later one failed is still answered as stored.
        results.push(match append_postgres(pool, origin, &[request]).await {
            Ok(mut answer) => answer.pop().expect("one answer per append"),
            Err(e) => Err(e.into()),
        });
    }
    Ok(results)
}

/// [`APPEND_GROUP`] for `requests`, one answer each. `Err` only when the statement
/// failed, so that nothing of it is stored (a unique violation among them, the
/// connection lost); what goes wrong after it committed is the answer of the appends
/// concerned, never a reason to try the stored ones again. A lone append's unique
/// violation is its conflict.
async fn append_postgres(
    pool: &AnyPool,
    origin: &str,
    requests: &[&AppendRequest],
) -> Result<Vec<Result<u64, StoreError>>, sqlx::Error> {
    let moves: Vec<GroupedMove> = requests
        .iter()
        .map(|r| {
            let progress = r.progress.as_ref();
            GroupedMove {
                id: &r.id,
                expected: r.expected as i64,
                last: r.last() as i64,
                status: r.status.as_deref(),
                public_seq: r.public_version as i64,
                progress: progress.is_some(),
                turn: progress.and_then(|p| p.turn).map(i64::from),
                to_move: progress.map(|p| p.to_move.as_str()),
                told: format!("{} {} {origin}", r.id, r.last()),
            }
        })
        .collect();
    let actions: Vec<GroupedAction> = requests
        .iter()
        .flat_map(|r| {
            r.bodies.iter().enumerate().map(|(i, body)| GroupedAction {
                id: &r.id,
                seq: (r.expected + 1 + i as u64) as i64,
                body,
            })
        })
        .collect();
    let rows = sqlx::query(APPEND_GROUP)
        .bind(serde_json::to_string(&moves).expect("appends are JSON"))
        .bind(serde_json::to_string(&actions).expect("actions are JSON"))
        .bind(NOTIFY_CHANNEL)
        .fetch_all(pool)
        .await;
    let rows = match rows {
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() && requests.len() == 1 => {
            return Ok(vec![Err(StoreError::Conflict {
                expected: requests[0].expected,
            })]);
        }
        rows => rows?,
    };
    let moved: Result<std::collections::HashSet<String>, _> = rows
        .iter()
        .map(|row| row.try_get::<String, _>("id"))
        .collect();
    let moved = match moved {
        Ok(moved) => moved,
        Err(e) => {
            let message = e.to_string();
            return Ok(requests
                .iter()
                .map(|_| Err(StoreError::Failed(message.clone())))
                .collect());
        }
    };
    let mut results = Vec::with_capacity(requests.len());
    for request in requests {
        results.push(if moved.contains(&request.id) {
            Ok(request.last())
        } else {
            refusal(pool, request).await
        });
    }
    Ok(results)
}

/// Why an append of a PostgreSQL group moved no game row ([`not_moved`]).
async fn refusal(pool: &AnyPool, request: &AppendRequest) -> Result<u64, StoreError> {
    let mut conn = pool.acquire().await?;
    Err(not_moved(&mut conn, request).await?)
}
