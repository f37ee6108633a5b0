//! Storage of games: each game's header, its seats and its append-only action log
//! `(game_id, seq)`, in SQLite (the default, one file) or PostgreSQL (several server
//! processes sharing one database). One implementation serves both through SQLx's
//! `Any` driver; the SQL is the subset both understand.
//!
//! An action is appended at `expected_seq + 1` in one transaction that also moves the
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
    /// The initial setup as JSON.
    pub setup: String,
    /// The secret seed (hex), revealed when the game ends.
    pub seed: String,
    /// The seed's SHA-256 commitment (hex), public from the start.
    pub seed_commitment: String,
    /// `open` (seats free), `running` or `over`.
    pub status: String,
    /// Actions in the log.
    pub seq: u64,
    /// Creation time, Unix seconds.
    pub created_at: i64,
}

/// One seat of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
}

/// The schema, statement by statement; every statement can run again.
const SCHEMA: &[&str] = &[
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
];

/// The game store.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
}

impl Store {
    /// Opens (creating if needed) the database at `url` and brings its schema up to
    /// date: `sqlite://PATH` (the file is created) or `postgres://...`.
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
        let store = Store { pool, backend };
        for statement in SCHEMA {
            sqlx::query(statement).execute(&store.pool).await?;
        }
        Ok(store)
    }

    /// The database behind the store.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Stores a new game with its seats, in one transaction.
    pub async fn create_game(&self, game: &GameRow, seats: &[SeatRow]) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO games (id, game, preset, setup, seed, seed_commitment, status, seq, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(&game.id)
        .bind(&game.game)
        .bind(&game.preset)
        .bind(&game.setup)
        .bind(&game.seed)
        .bind(&game.seed_commitment)
        .bind(&game.status)
        .bind(game.seq as i64)
        .bind(game.created_at)
        .execute(&mut *tx)
        .await?;
        for seat in seats {
            sqlx::query(
                "INSERT INTO seats (game_id, seat, kind, bot_level, token_hash, name)
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(&game.id)
            .bind(i32::from(seat.seat))
            .bind(&seat.kind)
            .bind(seat.bot_level.as_deref())
            .bind(seat.token_hash.as_deref())
            .bind(seat.name.as_deref())
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// A game's header.
    pub async fn game(&self, id: &str) -> Result<GameRow, StoreError> {
        let row = sqlx::query(
            "SELECT id, game, preset, setup, seed, seed_commitment, status, seq, created_at
             FROM games WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| game_row(&r))
            .transpose()?
            .ok_or_else(|| StoreError::NoGame(id.to_owned()))
    }

    /// Every game, newest first.
    pub async fn games(&self) -> Result<Vec<GameRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, game, preset, setup, seed, seed_commitment, status, seq, created_at
             FROM games ORDER BY created_at DESC, id",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(game_row).collect()
    }

    /// A game's seats, by seat.
    pub async fn seats(&self, id: &str) -> Result<Vec<SeatRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT seat, kind, bot_level, token_hash, name FROM seats
             WHERE game_id = $1 ORDER BY seat",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(SeatRow {
                    seat: u8::try_from(r.try_get::<i32, _>("seat")?).unwrap_or(u8::MAX),
                    kind: r.try_get("kind")?,
                    bot_level: r.try_get("bot_level")?,
                    token_hash: r.try_get("token_hash")?,
                    name: r.try_get("name")?,
                })
            })
            .collect()
    }

    /// Appends `body` as action `expected_seq + 1` of game `id`, if the game is still
    /// at `expected_seq`; returns the new version. On a conflict nothing changes.
    pub async fn append(&self, id: &str, expected_seq: u64, body: &str) -> Result<u64, StoreError> {
        let next = expected_seq + 1;
        let mut tx = self.pool.begin().await?;
        let moved = sqlx::query("UPDATE games SET seq = $1 WHERE id = $2 AND seq = $3")
            .bind(next as i64)
            .bind(id)
            .bind(expected_seq as i64)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if moved != 1 {
            tx.rollback().await?;
            // Tell a missing game from a stale version.
            self.game(id).await?;
            return Err(StoreError::Conflict {
                expected: expected_seq,
            });
        }
        let inserted = sqlx::query("INSERT INTO actions (game_id, seq, body) VALUES ($1, $2, $3)")
            .bind(id)
            .bind(next as i64)
            .bind(body)
            .execute(&mut *tx)
            .await;
        match inserted {
            Ok(_) => {
                tx.commit().await?;
                Ok(next)
            }
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                tx.rollback().await?;
                Err(StoreError::Conflict {
                    expected: expected_seq,
                })
            }
            Err(e) => Err(e.into()),
        }
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

    /// Sets a game's status (`open`, `running`, `over`).
    pub async fn set_status(&self, id: &str, status: &str) -> Result<(), StoreError> {
        let n = sqlx::query("UPDATE games SET status = $1 WHERE id = $2")
            .bind(status)
            .bind(id)
            .execute(&self.pool)
            .await?
            .rows_affected();
        if n == 0 {
            return Err(StoreError::NoGame(id.to_owned()));
        }
        Ok(())
    }
}

fn game_row(r: &AnyRow) -> Result<GameRow, StoreError> {
    let seq: i64 = r.try_get("seq")?;
    Ok(GameRow {
        id: r.try_get("id")?,
        game: r.try_get("game")?,
        preset: r.try_get("preset")?,
        setup: r.try_get("setup")?,
        seed: r.try_get("seed")?,
        seed_commitment: r.try_get("seed_commitment")?,
        status: r.try_get("status")?,
        seq: u64::try_from(seq).unwrap_or(0),
        created_at: r.try_get("created_at")?,
    })
}
