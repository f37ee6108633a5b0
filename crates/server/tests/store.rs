//! The store against a real SQLite file and the real PostgreSQL on 127.0.0.1:5432
//! (database `test`): games, seats, the append-only log, stale appends refused without
//! changing anything, concurrent writers, and reopening.

use server::{AppendMeta, Backend, GameRow, SeatRow, Store, StoreError};

/// PostgreSQL for the tests (the machines run one with trust auth); `HEXWAR_TEST_PG`
/// overrides it.
fn pg_url() -> String {
    std::env::var("HEXWAR_TEST_PG")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_owned())
}

/// A fresh SQLite file in the target directory.
fn sqlite_url(name: &str) -> (String, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("hexwar-store-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("hexwar.db");
    (format!("sqlite://{}", path.display()), path)
}

/// A game id no other test run uses (PostgreSQL's `test` database is shared).
fn unique(name: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("{name}-{}-{nanos}", std::process::id())
}

/// An append that changes nothing but the log.
const META: AppendMeta<'static> = AppendMeta {
    status: None,
    public_version: 0,
};

fn game(id: &str) -> GameRow {
    GameRow {
        id: id.to_owned(),
        game: "viktory".into(),
        preset: "classic".into(),
        options: "{}".into(),
        setup: r#"{"rules":{"preset":"classic","players":2}}"#.into(),
        seed: "00".repeat(32),
        seed_commitment: "ab".repeat(32),
        status: "open".into(),
        result: None,
        seq: 0,
        created_at: 1_700_000_000,
        public_seq: 0,
    }
}

fn seats() -> Vec<SeatRow> {
    vec![
        SeatRow {
            seat: 0,
            kind: "person".into(),
            bot_level: None,
            token_hash: Some("11".repeat(32)),
            name: None,
            ..SeatRow::default()
        },
        SeatRow {
            seat: 1,
            kind: "bot".into(),
            bot_level: Some("normal".into()),
            token_hash: None,
            name: Some("Bot".into()),
            ..SeatRow::default()
        },
    ]
}

/// The behaviour every backend must have.
async fn contract(store: &Store) {
    let id = unique("contract");
    // Newer than every game of earlier runs and of the benches (PostgreSQL's `test`
    // database keeps them all), so the newest-first list starts with it.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let row = GameRow {
        created_at: 10_000_000_000 + i64::try_from(now).unwrap(),
        ..game(&id)
    };
    store.create_game(&row, &seats(), &[]).await.unwrap();
    assert_eq!(store.game(&id).await.unwrap(), row);
    assert_eq!(store.seats(&id).await.unwrap(), seats());
    assert!(
        store
            .games(&[], 1000)
            .await
            .unwrap()
            .iter()
            .any(|g| g.id == id)
    );
    // The log: appends at the expected version only.
    assert_eq!(
        store
            .append(&id, 0, &[r#"{"a":1}"#.to_string()], META)
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        store
            .append(&id, 1, &[r#"{"a":2}"#.to_string()], META)
            .await
            .unwrap(),
        2
    );
    let stale = store
        .append(&id, 1, &[r#"{"a":"stale"}"#.to_string()], META)
        .await;
    assert!(
        matches!(stale, Err(StoreError::Conflict { expected: 1 })),
        "{stale:?}"
    );
    assert_eq!(
        store.actions(&id, 0).await.unwrap(),
        vec![(1, r#"{"a":1}"#.to_owned()), (2, r#"{"a":2}"#.to_owned())]
    );
    assert_eq!(store.actions(&id, 1).await.unwrap().len(), 1);
    assert_eq!(store.game(&id).await.unwrap().seq, 2);
    // Unknown games.
    assert!(matches!(
        store
            .append("no-such-game", 0, &["{}".to_string()], META)
            .await,
        Err(StoreError::NoGame(_))
    ));
    assert!(matches!(
        store.game("no-such-game").await,
        Err(StoreError::NoGame(_))
    ));
    store.set_status(&id, "over", None).await.unwrap();
    assert_eq!(store.game(&id).await.unwrap().status, "over");
    // A game id is taken once.
    assert!(store.create_game(&game(&id), &[], &[]).await.is_err());
    // Many writers racing for the same version: exactly one wins each round.
    let race = unique("race");
    store.create_game(&game(&race), &[], &[]).await.unwrap();
    for round in 0..5u64 {
        let mut tasks = Vec::new();
        for writer in 0..4 {
            let store = store.clone();
            let race = race.clone();
            tasks.push(tokio::spawn(async move {
                store
                    .append(
                        &race,
                        round,
                        &[format!("{{\"round\":{round},\"writer\":{writer}}}")],
                        META,
                    )
                    .await
            }));
        }
        let mut won = 0;
        for t in tasks {
            match t.await.unwrap() {
                Ok(seq) => {
                    assert_eq!(seq, round + 1);
                    won += 1;
                }
                Err(StoreError::Conflict { .. }) => {}
                Err(e) => panic!("unexpected error: {e}"),
            }
        }
        assert_eq!(won, 1, "round {round}");
    }
    assert_eq!(store.actions(&race, 0).await.unwrap().len(), 5);
    // Appends of many games at once, committed together (group commit): each stands or
    // is refused on its own. Game 0's append is stale, game 1 does not exist.
    let ids: Vec<String> = (0..12).map(|i| unique(&format!("group{i}"))).collect();
    for id in &ids[2..] {
        store.create_game(&game(id), &[], &[]).await.unwrap();
    }
    store.create_game(&game(&ids[0]), &[], &[]).await.unwrap();
    store
        .append(&ids[0], 0, &["{}".to_string()], META)
        .await
        .unwrap();
    for round in 0..3u64 {
        let tasks: Vec<_> = ids
            .iter()
            .enumerate()
            .map(|(i, id)| {
                let (store, id) = (store.clone(), id.clone());
                // Game 0 stays at version 1: its appends say 0.
                let at = if i == 0 { 0 } else { 2 * round };
                tokio::spawn(async move {
                    let bodies: Vec<String> = (0..2)
                        .map(|k| format!("{{\"game\":{i},\"round\":{round},\"k\":{k}}}"))
                        .collect();
                    store.append(&id, at, &bodies, META).await
                })
            })
            .collect();
        for (i, task) in tasks.into_iter().enumerate() {
            let answer = task.await.unwrap();
            match i {
                0 => assert!(
                    matches!(answer, Err(StoreError::Conflict { expected: 0 })),
                    "{answer:?}"
                ),
                1 => assert!(matches!(answer, Err(StoreError::NoGame(_))), "{answer:?}"),
                _ => assert_eq!(answer.unwrap(), 2 * round + 2, "game {i}, round {round}"),
            }
        }
    }
    assert_eq!(store.actions(&ids[0], 0).await.unwrap().len(), 1);
    for (i, id) in ids.iter().enumerate().skip(2) {
        let log = store.actions(id, 0).await.unwrap();
        let expected: Vec<(u64, String)> = (0..3u64)
            .flat_map(|round| {
                (0..2u64).map(move |k| {
                    (
                        2 * round + k + 1,
                        format!("{{\"game\":{i},\"round\":{round},\"k\":{k}}}"),
                    )
                })
            })
            .collect();
        assert_eq!(log, expected, "game {i}");
        assert_eq!(store.game(id).await.unwrap().seq, 6);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_store() {
    let (url, path) = sqlite_url("contract");
    let store = Store::open(&url).await.unwrap();
    assert_eq!(store.backend(), Backend::Sqlite);
    contract(&store).await;
    // What was acknowledged is there after reopening the file.
    let id = unique("reopen");
    store.create_game(&game(&id), &seats(), &[]).await.unwrap();
    store
        .append(&id, 0, &["{}".to_string()], META)
        .await
        .unwrap();
    drop(store);
    let again = Store::open(&url).await.unwrap();
    assert_eq!(again.game(&id).await.unwrap().seq, 1);
    assert!(path.exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_store() {
    let store = Store::open(&pg_url()).await.unwrap();
    assert_eq!(store.backend(), Backend::Postgres);
    contract(&store).await;
    // Two stores (two server processes) on one database see each other's appends.
    let other = Store::open(&pg_url()).await.unwrap();
    let id = unique("shared");
    store.create_game(&game(&id), &[], &[]).await.unwrap();
    store
        .append(&id, 0, &["{}".to_string()], META)
        .await
        .unwrap();
    assert!(matches!(
        other.append(&id, 0, &["{}".to_string()], META).await,
        Err(StoreError::Conflict { expected: 0 })
    ));
    assert_eq!(
        other
            .append(&id, 1, &["{}".to_string()], META)
            .await
            .unwrap(),
        2
    );
}

#[tokio::test]
async fn unknown_database_urls_are_refused() {
    assert!(matches!(
        Store::open("mysql://localhost/x").await,
        Err(StoreError::BadUrl(_))
    ));
}
