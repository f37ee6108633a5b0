//! The hexwar game server: `hexwar serve`.
//!
//! - [`store`]: games, seats and the append-only action log, on SQLite (default) or
//!   PostgreSQL; [`fanout`] keeps several processes on one PostgreSQL in step.
//! - [`hub`]: the games in memory and the one checked path every action takes;
//!   [`lobby`]: creating games, seats by invite link, resigning, messages.
//! - [`api`] (HTTP) and [`live`] (WebSocket): what leaves the server for a seat is
//!   only its view and its filtered events.
//! - [`bots`] play bot seats through the same path; [`notify`] tells seats it is their
//!   move.
//! - [`limits`] rate-limits each client (found behind trusted proxies); [`headers`]
//!   puts a Content-Security-Policy, cache rules and gzip on every response.
//!
//! The HTTP API is documented in `docs/server.md`.

#![forbid(unsafe_code)]

pub mod api;
pub mod bots;
pub mod config;
pub mod error;
pub mod fanout;
pub mod feed;
pub mod headers;
pub mod hub;
pub mod limits;
pub mod live;
pub mod lobby;
pub mod notify;
pub mod replay;
pub mod secrets;
pub mod store;
pub mod webhook;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, State};
use axum::http::{Request, StatusCode};
use axum::response::{Html, IntoResponse};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::json;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::trace::TraceLayer;

pub use config::{Config, SmtpConfig};
pub use error::ApiError;
pub use hub::{Hub, catalog};
pub use secrets::{SeatToken, hash_token, new_seed, new_token, token_matches};
pub use store::{
    AppendMeta, Backend, GameRow, MessageRow, SeatRow, StatusChange, Store, StoreError,
};

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The database could not be opened or migrated.
    #[error("cannot open the game store: {0}")]
    Store(#[from] StoreError),
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
}

/// The whole application: API, live updates, health check and the web client's files,
/// every response with the headers of [`headers`].
pub fn app(hub: Arc<Hub>) -> Router {
    let config = &hub.config;
    let limiter = Arc::new(
        limits::RateLimiter::new(config.rate_per_second, config.rate_burst)
            .trusting(config.trusted_proxies.clone()),
    );
    let no_route = || async { ApiError::not_found("no such API route (see docs/server.md)") };
    // The catch-all keeps unknown `/api/...` paths from the web client's fallback
    // (which answers every other path with `index.html`).
    let mut api = api::routes()
        .route("/api/{*rest}", axum::routing::any(no_route))
        .fallback(no_route)
        .layer(axum::middleware::from_fn(headers::cache_board));
    // Only the API is limited: `/healthz` and the web client's files are not.
    if config.rate_per_second > 0 {
        api = api.layer(axum::middleware::from_fn_with_state(limiter, limits::limit));
    }
    let mut router = Router::new()
        .route("/healthz", get(healthz))
        .merge(api)
        .layer(DefaultBodyLimit::max(config.max_body_bytes));
    router = match config
        .web_dir
        .as_ref()
        .filter(|d| d.join("index.html").exists())
    {
        Some(dir) => router.fallback_service(headers::static_files(
            ServeDir::new(dir).fallback(ServeFile::new(dir.join("index.html"))),
        )),
        None => router.route("/", get(no_client)),
    };
    router = router.method_not_allowed_fallback(|| async {
        let body = protocol::ErrorBody {
            code: "method_not_allowed".into(),
            rule: None,
            message: "this route does not take that method (see docs/server.md)".into(),
            problems: vec![],
        };
        (StatusCode::METHOD_NOT_ALLOWED, Json(body))
    });
    headers::harden(router)
        .layer(
            // Paths only: a token in a query string must never reach the logs.
            TraceLayer::new_for_http().make_span_with(|request: &Request<_>| {
                tracing::info_span!("request", method = %request.method(), path = %request.uri().path())
            }),
        )
        .with_state(hub)
}

async fn healthz(State(hub): State<Arc<Hub>>) -> impl IntoResponse {
    match hub.store.ping().await {
        Ok(()) => (StatusCode::OK, Json(json!({"ok": true}))),
        Err(e) => {
            tracing::error!(error = %e, "health check: store unreachable");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(json!({"ok": false, "message": "the game store is unreachable"})),
            )
        }
    }
}

async fn no_client() -> Html<&'static str> {
    Html(
        "<!doctype html><meta charset=utf-8><title>hexwar</title>\
         <p>The hexwar server is running. The browser client was not found next to it \
         (start <code>hexwar serve</code> from the project folder, or pass \
         <code>--web DIR</code>); the API is at <code>/api/catalog</code>.",
    )
}

/// A server running in this process.
pub struct Running {
    /// The address it listens on.
    pub addr: SocketAddr,
    /// Its games.
    pub hub: Arc<Hub>,
    stop: oneshot::Sender<()>,
    task: JoinHandle<std::io::Result<()>>,
}

impl Running {
    /// Stops gracefully: no new connections, WebSockets closed, requests and bot moves
    /// in flight finished (their writes acknowledged or not made).
    pub async fn stop(self) -> std::io::Result<()> {
        let _ = self.stop.send(());
        let served = self.task.await.unwrap_or(Ok(()));
        drain_bots(&self.hub).await;
        served
    }

    /// Waits until the server stops by itself (never, unless it fails).
    pub async fn wait(self) -> std::io::Result<()> {
        let served = self.task.await.unwrap_or(Ok(()));
        drain_bots(&self.hub).await;
        served
    }
}

async fn drain_bots(hub: &Hub) {
    for _ in 0..200 {
        if hub.bots_in_flight.load(Ordering::Acquire) == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tracing::warn!("bots still thinking at shutdown; their moves were not stored");
}

/// Opens the store, binds the address and serves until [`Running::stop`].
pub async fn start(config: Config) -> Result<Running, ServeError> {
    let store = Store::open(&config.database).await?;
    let listener = TcpListener::bind(config.listen)
        .await
        .map_err(|source| ServeError::Bind {
            addr: config.listen,
            source,
        })?;
    let addr = listener.local_addr().map_err(|source| ServeError::Bind {
        addr: config.listen,
        source,
    })?;
    let mut config = config;
    config.listen = addr;
    let hub = Hub::new(store, config);
    fanout::start(&hub);
    unload_idle_games(&hub);
    resume_bots(&hub).await;
    let (stop, stopped) = oneshot::channel::<()>();
    let app = app(Arc::clone(&hub));
    let signal_hub = Arc::clone(&hub);
    let task = tokio::spawn(async move {
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(async move {
            let _ = stopped.await;
            signal_hub.begin_shutdown();
        })
        .await
    });
    tracing::info!(%addr, database = %hub.store.backend_name(), "hexwar serving");
    Ok(Running {
        addr,
        hub,
        stop,
        task,
    })
}

/// Games idle this long are unloaded from memory (they stay in the store).
const IDLE_UNLOAD: Duration = Duration::from_mins(10);

/// Every minute, unloads the games idle for [`IDLE_UNLOAD`], so that memory follows the
/// games in play rather than every game ever opened.
fn unload_idle_games(hub: &Arc<Hub>) {
    let hub = Arc::downgrade(hub);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_mins(1));
        loop {
            tick.tick().await;
            let Some(hub) = hub.upgrade() else { return };
            if hub.shutting_down() {
                return;
            }
            let unloaded = hub.evict_idle(IDLE_UNLOAD);
            if unloaded > 0 {
                tracing::info!(unloaded, "idle games unloaded");
            }
        }
    });
}

/// Bots whose turn it was when the server last stopped play on.
async fn resume_bots(hub: &Arc<Hub>) {
    let Ok(games) = hub.store.games(&["open", "running"], 10_000).await else {
        return;
    };
    for row in games {
        let Ok(seats) = hub.store.seats(&row.id).await else {
            continue;
        };
        if seats.iter().any(|s| s.kind == "bot" || s.resigned) {
            bots::kick(hub, &hub.slot(&row.id));
        }
    }
}
