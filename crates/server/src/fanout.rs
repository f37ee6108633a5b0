//! Several `hexwar serve` processes on one PostgreSQL database: each announces what it
//! appended with `pg_notify` (inside the append's transaction, so only committed
//! actions are announced) and listens for the others' announcements, catching its
//! loaded games up from the log and passing the steps on to its WebSocket clients.
//! Requests also catch up before acting, so a missed announcement delays an update but
//! never serves a stale game.

use std::sync::Arc;
use std::time::Duration;

use sqlx::postgres::PgListener;

use crate::hub::{Hub, Slot};
use crate::store::{Backend, NOTIFY_CHANNEL};

/// Tells other processes that a game's seats or status changed (PostgreSQL only).
pub(crate) async fn meta_changed(hub: &Hub, id: &str) {
    if let Err(e) = hub.store.notify_meta(id).await {
        tracing::warn!(game = %id, error = %e, "could not announce a seat change");
    }
}

/// Starts the listener when the store is PostgreSQL.
pub fn start(hub: &Arc<Hub>) {
    if hub.store.backend() != Backend::Postgres {
        return;
    }
    let hub = Arc::clone(hub);
    tokio::spawn(async move {
        loop {
            match listen(&hub).await {
                Ok(()) => return,
                Err(e) => {
                    tracing::warn!(error = %e, "PostgreSQL listener failed; retrying in 1 s");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
        }
    });
}

async fn listen(hub: &Arc<Hub>) -> Result<(), sqlx::Error> {
    let mut listener = PgListener::connect(hub.store.url()).await?;
    listener.listen(NOTIFY_CHANNEL).await?;
    let mut shutdown = hub.shutdown_signal();
    // Anything announced before we listened is missed: catch up the games already
    // loaded (a WebSocket client may have opened one before LISTEN took effect, and it
    // makes no request that would catch up); the others catch up on first use.
    catch_up_loaded(hub).await;
    loop {
        let received = tokio::select! {
            r = listener.try_recv() => r?,
            _ = shutdown.changed() => return Ok(()),
        };
        match received {
            Some(notification) => {
                let payload = notification.payload();
                let Some((id, what)) = payload.split_once(' ') else {
                    continue;
                };
                if let Some(slot) = hub.loaded_slot(id) {
                    let news = if what == "meta" {
                        News::Meta
                    } else {
                        News::Steps
                    };
                    catch_up(hub, &slot, news).await;
                }
            }
            // The connection dropped and was re-established: we may have missed news.
            None => catch_up_loaded(hub).await,
        }
    }
}

/// Catches every loaded game up from the log, seats and status included.
async fn catch_up_loaded(hub: &Arc<Hub>) {
    for slot in hub.loaded_slots() {
        catch_up(hub, &slot, News::Missed).await;
    }
}

/// What another process may have changed in a game.
#[derive(Clone, Copy, PartialEq, Eq)]
enum News {
    /// It appended actions.
    Steps,
    /// It changed the seats or the status.
    Meta,
    /// Unknown: announcements were missed, so anything.
    Missed,
}

/// Brings a loaded game up to date from the database and, if that hands the move to a
/// bot of this process, lets the bot play. A failure is logged: the game catches up
/// again on its next request or announcement.
async fn catch_up(hub: &Arc<Hub>, slot: &Arc<Slot>, news: News) {
    let mut result = Ok(());
    if news != News::Meta {
        result = hub.catch_up_slot(slot).await;
    }
    if news != News::Steps && result.is_ok() {
        result = hub.refresh_meta(slot).await;
    }
    if let Err(e) = result {
        tracing::warn!(game = %slot.id, error = ?e.parts().1.message, "catch-up failed");
    }
    crate::bots::kick(hub, slot);
}
