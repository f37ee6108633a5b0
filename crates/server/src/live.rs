//! Live updates over WebSocket: `GET /api/games/{id}/live?since=N` (with the seat's
//! token, or none for a spectator). The server first sends the steps after version `N`
//! (rebuilt from the log, so a client that reconnects misses nothing), then every new
//! step as the seat may see it, seat and status changes, and messages. Clients only
//! listen: actions go through `POST .../actions`.

use std::sync::Arc;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{RawQuery, State};
use axum::response::Response;
use futures_util::SinkExt;
use serde_json::json;
use tokio::sync::broadcast::error::RecvError;

use crate::api::{Caller, GameId, Params, audience};
use crate::error::ApiError;
use crate::hub::{Audience, Hub};

/// Upgrades to a WebSocket once the token is known to be good.
pub(crate) async fn upgrade(
    ws: WebSocketUpgrade,
    State(hub): State<Arc<Hub>>,
    GameId(id): GameId,
    RawQuery(raw): RawQuery,
    Caller(token): Caller,
) -> Result<Response, ApiError> {
    let params = Params::parse(raw.as_deref())?;
    let (who, version) = {
        let slot = hub.slot(&id);
        let guard = hub.lock(&slot).await?;
        let live = guard.as_ref().expect("locked games are loaded");
        (audience(live, token.as_deref())?, live.session.version())
    };
    if let Some(since) = params.since
        && since > version
    {
        return Err(ApiError::malformed(format!(
            "version {since} is ahead of the game's version {version}"
        )));
    }
    Ok(ws.on_upgrade(move |socket| async move {
        if let Err(e) = run(&hub, &id, who, params.since, socket).await {
            tracing::debug!(game = %id, error = ?e.parts().1.message, "live connection ended");
        }
    }))
}

async fn send(socket: &mut WebSocket, text: Utf8Bytes) -> Result<(), ApiError> {
    socket
        .send(Message::Text(text))
        .await
        .map_err(|e| ApiError::malformed(format!("send failed: {e}")))
}

/// Sends the steps after `since` and returns the version they reach.
async fn catch_up(
    hub: &Arc<Hub>,
    socket: &mut WebSocket,
    id: &str,
    who: Audience,
    since: u64,
) -> Result<u64, ApiError> {
    let (version, steps) = hub.steps_since(id, who, since).await?;
    if version > since {
        let text = json!({"type": "actions", "from": since, "version": version, "steps": steps});
        send(socket, text.to_string().into()).await?;
    }
    Ok(version)
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
        guard
            .as_ref()
            .expect("locked games are loaded")
            .session
            .version()
    };
    let mut sent = match since {
        Some(since) if since < now => catch_up(hub, &mut socket, id, who, since).await?,
        _ => now,
    };
    send(
        &mut socket,
        json!({"type": "hello", "version": sent, "seat": who.map(|s| s.0)})
            .to_string()
            .into(),
    )
    .await?;
    loop {
        tokio::select! {
            update = updates.recv() => match update {
                Ok(update) => {
                    // Write every update already waiting, then flush once: fewer
                    // system calls when a busy game outpaces the connection.
                    let mut next = Some(update);
                    while let Some(update) = next.take() {
                        let fresh = match update.actions {
                            Some((_, to)) if to <= sent => false,
                            Some((_, to)) => {
                                sent = to;
                                true
                            }
                            None => true,
                        };
                        if fresh {
                            socket
                                .feed(Message::Text(update.text_for(who)))
                                .await
                                .map_err(|e| ApiError::malformed(format!("send failed: {e}")))?;
                        }
                        next = updates.try_recv().ok();
                    }
                    socket
                        .flush()
                        .await
                        .map_err(|e| ApiError::malformed(format!("send failed: {e}")))?;
                }
                Err(RecvError::Lagged(_)) => {
                    sent = catch_up(hub, &mut socket, id, who, sent).await?;
                }
                Err(RecvError::Closed) => break,
            },
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
