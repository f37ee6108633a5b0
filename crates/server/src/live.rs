//! Live updates over WebSocket: `GET /api/games/{id}/live?since=N` (with the seat's
//! token, or none for a spectator). The server first sends the steps after version `N`
//! (rebuilt from the log, so a client that reconnects misses nothing), then every new
//! step as the seat may see it, seat and status changes, and messages. Clients only
//! listen: actions go through `POST .../actions`.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, RawQuery, State};
use axum::http::HeaderMap;
use axum::response::Response;
use futures_util::SinkExt;
use serde_json::json;
use tokio::sync::broadcast::error::RecvError;
use tokio::time::Instant;

use crate::api::{Caller, GameId, Params, audience};
use crate::error::ApiError;
use crate::hub::{Audience, Hub};
use crate::limits::client_ip;

/// The live connections open now, per client address and in all, against the caps
/// `--max-sockets-per-address` and `--max-sockets` (each one costs memory for as long
/// as it stays open).
#[derive(Debug, Default)]
pub struct Sockets {
    open: Mutex<(usize, HashMap<IpAddr, usize>)>,
}

/// One open connection, counted until it is dropped.
pub struct SocketPermit {
    hub: Arc<Hub>,
    ip: IpAddr,
}

impl Sockets {
    fn count(&self) -> std::sync::MutexGuard<'_, (usize, HashMap<IpAddr, usize>)> {
        self.open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Counts a new connection from `ip`, or says why it may not open.
fn admit(hub: &Arc<Hub>, ip: IpAddr) -> Result<SocketPermit, &'static str> {
    let (per_address, total) = (hub.config.max_sockets_per_address, hub.config.max_sockets);
    let mut open = hub.sockets.count();
    if open.0 >= total {
        return Err("the server has as many live connections as it takes; try again later");
    }
    let mine = open.1.entry(ip).or_insert(0);
    if *mine >= per_address {
        return Err("too many live connections from your address; close other tabs or games");
    }
    *mine += 1;
    open.0 += 1;
    Ok(SocketPermit {
        hub: Arc::clone(hub),
        ip,
    })
}

impl Drop for SocketPermit {
    fn drop(&mut self) {
        let mut open = self.hub.sockets.count();
        open.0 = open.0.saturating_sub(1);
        if let Some(n) = open.1.get_mut(&self.ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                open.1.remove(&self.ip);
            }
        }
    }
}

/// Upgrades to a WebSocket once the token is known to be good. A connection over the
/// caps ([`Sockets`]) is accepted and closed at once with code 1013 (try again later)
/// and the reason in words: a browser cannot read why a handshake was refused.
pub(crate) async fn upgrade(
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    RawQuery(raw): RawQuery,
    Caller(token): Caller,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    // The game's id first (a bad one is a 404), then whether this is an upgrade at
    // all, answered in JSON like every other refusal.
    let ws = ws.map_err(|e| {
        ApiError::malformed(format!(
            "this route is a WebSocket: {} (see docs/server.md)",
            e.body_text()
        ))
    })?;
    let params = Params::parse(raw.as_deref())?;
    let (who, version) = {
        let slot = hub.slot(&id);
        let guard = hub.lock(&slot).await?;
        let live = guard.as_ref().expect("locked games are loaded");
        let who = audience(live, token.as_deref())?;
        (who, live.feeds.version(who))
    };
    if let Some(since) = params.since
        && since > version
    {
        return Err(ApiError::malformed(format!(
            "version {since} is ahead of the game's version {version}"
        )));
    }
    let ip = client_ip(peer, &headers, &hub.config.trusted_proxies);
    let permit = admit(&hub, ip);
    let ws = ws
        .read_buffer_size(READ_BUFFER)
        .max_message_size(MAX_INCOMING)
        .max_frame_size(MAX_INCOMING);
    Ok(ws.on_upgrade(move |mut socket| async move {
        let _permit = match permit {
            Ok(permit) => permit,
            Err(reason) => {
                tracing::info!(game = %id, %ip, "live connection refused: {reason}");
                let _ = socket
                    .send(Message::Close(Some(CloseFrame {
                        code: axum::extract::ws::close_code::AGAIN,
                        reason: reason.into(),
                    })))
                    .await;
                return;
            }
        };
        if let Err(e) = run(&hub, &id, who, params.since, socket).await {
            tracing::debug!(game = %id, error = ?e.parts().1.message, "live connection ended");
        }
    }))
}

/// The read buffer of a live connection. A client sends nothing but control frames
/// (pongs, a close), and the WebSocket library zero-fills this whole buffer before each
/// read, even one that finds nothing: at the library's default of 128 KiB that was about
/// 6 % of the server's time with 500 spectators (docs/performance.md).
const READ_BUFFER: usize = 4096;

/// The largest message or frame a live connection takes from its client (the library's
/// default is 64 MiB, which a client could make the server hold per connection).
const MAX_INCOMING: usize = 16 * 1024;

/// A connection writes at most this often (see `run`): with 31 spectators of a game
/// that moves every few milliseconds, a wake-up and a write per step per connection was
/// most of the server's work; a person watching does not see 20 ms.
const COALESCE: Duration = Duration::from_millis(20);

/// Writes what was fed to `socket`.
async fn flush(socket: &mut WebSocket) -> Result<(), ApiError> {
    socket
        .flush()
        .await
        .map_err(|e| ApiError::malformed(format!("send failed: {e}")))
}

async fn send(socket: &mut WebSocket, text: Utf8Bytes) -> Result<(), ApiError> {
    socket
        .send(Message::Text(text))
        .await
        .map_err(|e| ApiError::malformed(format!("send failed: {e}")))
}

/// Where a connection stands: the log version its updates cover, and the audience's
/// own version it was told.
#[derive(Clone, Copy)]
struct Told {
    log: u64,
    version: u64,
}

/// Sends the steps after the audience's version `since` and returns where that leaves
/// the connection.
async fn catch_up(
    hub: &Arc<Hub>,
    socket: &mut WebSocket,
    id: &str,
    who: Audience,
    since: u64,
) -> Result<Told, ApiError> {
    let missed = hub.steps_since(id, who, since).await?;
    if missed.version > since {
        let text = json!({
            "type": "actions", "from": since, "version": missed.version, "steps": missed.steps,
        });
        send(socket, text.to_string().into()).await?;
    }
    Ok(Told {
        log: missed.log_version,
        version: missed.version,
    })
}

async fn run(
    hub: &Arc<Hub>,
    id: &str,
    who: Audience,
    since: Option<u64>,
    mut socket: WebSocket,
) -> Result<(), ApiError> {
    let slot = hub.slot(id);
    // Subscribe before reading the version, so nothing falls between the two.
    let mut updates = slot.updates.subscribe();
    let mut shutdown = hub.shutdown_signal();
    let now = {
        let guard = hub.lock(&slot).await?;
        let live = guard.as_ref().expect("locked games are loaded");
        Told {
            log: live.session.version(),
            version: live.feeds.version(who),
        }
    };
    let mut told = match since {
        Some(since) if since < now.version => catch_up(hub, &mut socket, id, who, since).await?,
        _ => now,
    };
    send(
        &mut socket,
        json!({"type": "hello", "version": told.version, "seat": who.map(|s| s.0)})
            .to_string()
            .into(),
    )
    .await?;
    // After writing, a connection rests for `COALESCE` before it takes the next
    // updates: what a busy game does meanwhile waits in the channel and goes out in one
    // write (one wake-up, one system call), while a quiet game's step goes out at once.
    let mut resting: Option<Instant> = None;
    loop {
        tokio::select! {
            update = updates.recv(), if resting.is_none() => match update {
                Ok(update) => {
                    // Write every update already waiting, then flush once.
                    let mut next = Some(update);
                    let mut fed = false;
                    while let Some(update) = next.take() {
                        let fresh = match update.actions {
                            Some((_, to)) if to <= told.log => false,
                            Some((_, to)) => {
                                told.log = to;
                                if let Some(version) = update.version_for(who) {
                                    told.version = version;
                                }
                                true
                            }
                            None => true,
                        };
                        // Steps this audience is not told leave no trace at all.
                        if let Some(text) = update.text_for(who).filter(|_| fresh) {
                            socket
                                .feed(Message::Text(text))
                                .await
                                .map_err(|e| ApiError::malformed(format!("send failed: {e}")))?;
                            fed = true;
                        }
                        next = updates.try_recv().ok();
                    }
                    if fed {
                        flush(&mut socket).await?;
                        resting = Some(Instant::now() + COALESCE);
                    }
                }
                Err(RecvError::Lagged(_)) => {
                    told = catch_up(hub, &mut socket, id, who, told.version).await?;
                }
                Err(RecvError::Closed) => break,
            },
            () = tokio::time::sleep_until(resting.unwrap_or_else(Instant::now)), if resting.is_some() => {
                resting = None;
            }
            incoming = socket.recv() => match incoming {
                None | Some(Err(_) | Ok(Message::Close(_))) => break,
                Some(Ok(_)) => {}
            },
            _ = shutdown.changed() => {
                let _ = socket
                    .send(Message::Close(Some(CloseFrame {
                        code: axum::extract::ws::close_code::AWAY,
                        reason: "server shutting down".into(),
                    })))
                    .await;
                break;
            }
        }
    }
    Ok(())
}
