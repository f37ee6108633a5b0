//! Several `hexwar serve` processes on one PostgreSQL database: each announces what it
//! appended with `pg_notify` (inside the append's transaction, so only committed
//! actions are announced, marked with the store's origin) and listens for the others'
//! announcements (its own it passes over), catching its loaded games up from the log
//! and passing the steps on to its WebSocket clients.
//! Requests also catch up before acting, so a missed announcement delays an update but
//! never serves a stale game.

use std::sync::Arc;
use std::time::Duration;

use sqlx::postgres::PgListener;

use crate::hub::{Hub, Slot};
use crate::store::{Backend, NOTIFY_CHANNEL};

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
                let mut payload = notification.payload().split(' ');
                let (Some(id), Some(what)) = (payload.next(), payload.next()) else {
                    continue;
                };
                // This process's own news: it applied the change and kicked its bots
                // when it made it.
                if payload.next() == Some(hub.store.origin()) {
                    continue;
                }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::hub::Submitter;
    use crate::lobby::CreateGame;
    use crate::store::Store;
    use engine::{Seat, ToMove};

    /// PostgreSQL for the tests (the machines run one with trust auth); `HEXWAR_TEST_PG`
    /// overrides it.
    fn pg_url() -> String {
        std::env::var("HEXWAR_TEST_PG")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_owned())
    }

    /// A hub on the test database with no listener: its announcements go unheard, as
    /// they do while a process's listener is reconnecting.
    async fn hub() -> Arc<Hub> {
        let url = pg_url();
        let store = Store::open(&url).await.expect("the test database opens");
        Hub::new(
            store,
            Config {
                database: url,
                bot_budget: Duration::from_millis(300),
                ..Config::default()
            },
        )
    }

    /// A new VIKTORY game on `hub` with these `seats` (as the lobby takes them).
    async fn create(hub: &Arc<Hub>, seats: serde_json::Value) -> crate::lobby::Created {
        let request: CreateGame =
            serde_json::from_value(serde_json::json!({"game": "viktory", "seats": seats}))
                .expect("a request");
        hub.create_game(request).await.expect("a game")
    }

    /// Plays one action on `hub` for whichever person is to move in game `id` (whose
    /// seats' tokens are `tokens`); returns the log version after it.
    async fn play_one(hub: &Arc<Hub>, id: &str, tokens: &[String]) -> u64 {
        let slot = hub.slot(id);
        let (version, to_move, legal) = {
            let guard = hub.lock(&slot).await.expect("the game loads");
            let live = guard.as_ref().expect("loaded");
            (
                live.session.version(),
                live.session.to_move(),
                live.session.legal(),
            )
        };
        let ToMove::Seat(seat) = to_move else {
            panic!("a person is to move: {to_move:?}");
        };
        let action = legal.into_iter().next().expect("a legal action");
        let token = tokens[usize::from(seat.0)].clone();
        hub.submit(id, Submitter::Token(token), version, action)
            .await
            .expect("the action is legal");
        hub.store.actions(id, 0).await.expect("the log").len() as u64
    }

    /// The next update of B's clients that carries steps, skipping any other (a seat
    /// refresh); fails after 20 s.
    async fn next_steps(
        updates: &mut tokio::sync::broadcast::Receiver<Arc<crate::hub::Update>>,
    ) -> (u64, u64) {
        let wait = async {
            loop {
                let update = updates.recv().await.expect("B's updates go on");
                if let Some(steps) = update.actions {
                    return steps;
                }
            }
        };
        tokio::time::timeout(Duration::from_secs(20), wait)
            .await
            .expect("B heard of the steps within 20 s")
    }

    /// Anyone who can reach the database can `NOTIFY` on the games' channel. Forged
    /// announcements (empty, cut short, of an unknown game, of the loaded game with
    /// nothing new, posing as B itself, overlong, in odd characters) change nothing on
    /// the listening process B: its copy keeps the log's version, its clients are told
    /// of no steps, and the listener lives on, so that A's next true announcement still
    /// reaches B's clients, as the one and only steps after the forgeries.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn forged_announcements_change_nothing() {
        use sqlx::Connection;
        let a = hub().await;
        let b = hub().await;
        start(&b);
        let created = create(&a, serde_json::json!([{"name": "Ann"}, {"name": "Bob"}])).await;
        let id = created.id.clone();
        let tokens: Vec<String> = created
            .seats
            .iter()
            .map(|seat| seat.token.clone().expect("a person's token"))
            .collect();
        let on_b = b.slot(&id);
        let loaded = {
            let guard = b.lock(&on_b).await.expect("B loads the game");
            guard.as_ref().expect("loaded").session.version()
        };
        let mut updates = on_b.updates.subscribe();
        // A true announcement first, so that B's listener is known to be listening.
        // (Announcements sent before it listened are caught up when it starts.)
        let first = play_one(&a, &id, &tokens).await;
        let heard = next_steps(&mut updates).await;
        assert_eq!(heard.1, first, "B heard A's first action");
        assert!(heard.0 >= loaded);

        let mut forger = sqlx::PgConnection::connect(&pg_url())
            .await
            .expect("the forger connects");
        let origin = b.store.origin().to_owned();
        let forged = [
            String::new(),
            " ".to_owned(),
            "nonsense".to_owned(),
            id.clone(),
            format!("{id} steps"),
            format!("{id} meta"),
            format!("{id} steps someone-else and more words"),
            format!("{id} steps {origin}"),
            "no-such-game steps x".to_owned(),
            format!("{id} {} ünïcödé", "\u{1F4A5}\u{7}"),
            format!("{id} steps {}", "x".repeat(7_900)),
        ];
        for payload in &forged {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(NOTIFY_CHANNEL)
                .bind(payload)
                .execute(&mut forger)
                .await
                .expect("PostgreSQL takes the announcement");
        }
        let second = play_one(&a, &id, &tokens).await;
        assert_eq!(
            next_steps(&mut updates).await,
            (first, second),
            "the next steps B's clients hear are A's second action, nothing forged"
        );
        let guard = on_b.live.lock().await;
        let live = guard.as_ref().expect("still loaded");
        assert_eq!(live.session.version(), second, "B's copy is the log's");
        drop(guard);
        b.begin_shutdown();
    }

    /// Two processes on one database. Process B has a game loaded while process A
    /// plays Ann's whole first turn, handing the move to the bot, and then Ann leaves
    /// her seat; B's listener misses all of it. Catching up B's loaded games
    /// ([`News::Missed`]) brings B's copy to the log's version, passes the steps and
    /// the seat change on to B's clients, and lets B's bot make its move.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn missed_news_catches_up_and_lets_the_bot_move() {
        let a = hub().await;
        let b = hub().await;
        // A plays no bots, so a bot move can only come from B.
        a.begin_shutdown();
        // The first player is drawn at the start: create games until Ann moves first
        // (each game is a fresh draw, so 40 tries all failing is a 1-in-2^40 chance).
        let mut game = None;
        for _ in 0..40 {
            let seats = serde_json::json!([{"name": "Ann"}, {"kind": "bot", "level": "random"}]);
            let created = create(&a, seats).await;
            let slot = a.slot(&created.id);
            let first = a
                .lock(&slot)
                .await
                .expect("A has the game")
                .as_ref()
                .map(|live| live.session.to_move());
            if first == Some(ToMove::Seat(Seat(0))) {
                game = Some(created);
                break;
            }
        }
        let created = game.expect("Ann moves first in one of 40 games");
        let id = created.id.clone();
        let ann = created.seats[0].token.clone().expect("Ann's token");

        let on_b = b.slot(&id);
        let loaded = {
            let guard = b.lock(&on_b).await.expect("B loads the game");
            guard.as_ref().expect("loaded").session.version()
        };
        let mut updates = on_b.updates.subscribe();

        // Ann's first turn, on A, until the bot must move.
        let on_a = a.slot(&id);
        for _ in 0..5_000 {
            let (version, to_move, legal) = {
                let guard = a.lock(&on_a).await.expect("A has the game");
                let live = guard.as_ref().expect("loaded");
                (
                    live.session.version(),
                    live.session.to_move(),
                    live.session.legal(),
                )
            };
            if to_move == ToMove::Seat(Seat(1)) {
                break;
            }
            assert_eq!(to_move, ToMove::Seat(Seat(0)), "Ann moves first");
            let action = legal.into_iter().next().expect("Ann has a legal action");
            a.submit(&id, Submitter::Token(ann.clone()), version, action)
                .await
                .expect("Ann's action is legal");
        }
        a.leave(&id, &ann).await.expect("Ann leaves");
        let handed = b.store.actions(&id, 0).await.expect("the log").len() as u64;
        assert!(handed > loaded, "A appended");

        // B missed every announcement: its copy is still where it was loaded.
        {
            let guard = on_b.live.lock().await;
            let live = guard.as_ref().expect("still loaded");
            assert_eq!(live.session.version(), loaded);
            assert_eq!(live.seats[0].name.as_deref(), Some("Ann"));
        }
        catch_up_loaded(&b).await;

        // The steps and the seat change reached B's clients, in order.
        let steps = updates.recv().await.expect("the steps");
        assert_eq!(steps.actions, Some((loaded, handed)));
        let seats = updates.recv().await.expect("the seat change");
        assert_eq!(seats.actions, None);
        assert!(
            seats
                .text_for(None)
                .unwrap_or_default()
                .contains("\"open\""),
            "{:?}",
            seats.text_for(None)
        );

        // B's bot moves: the log grows past what A wrote, and B's copy follows it.
        for _ in 0..600 {
            if !b
                .store
                .actions(&id, handed)
                .await
                .expect("the log")
                .is_empty()
            {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let moved = b.store.actions(&id, handed).await.expect("the log");
        assert!(!moved.is_empty(), "B's bot made no move in 30 s");
        let first: serde_json::Value = serde_json::from_str(&moved[0].1).expect("a log entry");
        assert_eq!(first["by"]["seat"], serde_json::json!(1), "{first}");
        b.begin_shutdown();
    }
}
