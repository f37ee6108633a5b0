//! The lobby and asynchronous play: listing, joining by link, open seats, leaving,
//! resigning (a bot takes the seat over), messages, and "your move" webhooks and
//! e-mails delivered to real local receivers.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{TestServer, config, sqlite_url};
use futures_util::StreamExt;
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_are_joined_claimed_left_and_resigned() {
    let server = TestServer::start(config(&sqlite_url("lobby"))).await;
    let (id, tokens) = server
        .create(json!({
            "game": "viktory", "preset": "classic",
            "seats": [{"name": "Ann"}, {}, {"open": true}]
        }))
        .await;
    // Seat 1 has an invite link; seat 2 is open to anyone.
    assert!(tokens[1].is_some() && tokens[2].is_none());
    let (_, list) = server.get("/api/games?status=open", None).await;
    let listed = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id)
        .unwrap();
    assert_eq!(listed["status"], "open");
    assert_eq!(listed["seats"][2]["open"], true);
    // Joining with the link names the seat.
    let t1 = tokens[1].clone().unwrap();
    let (status, body) = server
        .post(
            &format!("/api/games/{id}/join"),
            Some(&t1),
            json!({"name": "Bob"}),
        )
        .await;
    assert_eq!((status, body["seat"].as_u64()), (StatusCode::OK, Some(1)));
    // Claiming the open seat hands out a fresh token, once.
    let (status, claimed) = server
        .post(
            &format!("/api/games/{id}/seats/2/claim"),
            None,
            json!({"name": "Cy"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{claimed}");
    let t2 = claimed["token"].as_str().unwrap().to_owned();
    assert!(
        claimed["invite"]
            .as_str()
            .unwrap()
            .ends_with(&format!("#token={t2}"))
    );
    let (status, again) = server
        .post(
            &format!("/api/games/{id}/seats/2/claim"),
            None,
            json!({"name": "Dee"}),
        )
        .await;
    assert_eq!(
        (status, again["code"].as_str()),
        (StatusCode::CONFLICT, Some("seat_taken"))
    );
    assert_eq!(server.state(&id, Some(&t2)).await["you"], 2);
    assert_eq!(server.state(&id, None).await["status"], "running");
    // Leaving reopens the game for the link's next holder.
    let (status, _) = server
        .post(&format!("/api/games/{id}/leave"), Some(&t1), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK);
    let state = server.state(&id, None).await;
    assert_eq!(state["status"], "open");
    assert_eq!(state["seats"][1]["claimed"], false);
    server
        .post(
            &format!("/api/games/{id}/join"),
            Some(&t1),
            json!({"name": "Bo"}),
        )
        .await;
    // A resigned seat is played by a bot: the game goes on without it.
    let (status, _) = server
        .post(&format!("/api/games/{id}/resign"), Some(&t2), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = server.act(&id, &t2, 0, &json!({"type": "end_phase"})).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::CONFLICT, Some("resigned"))
    );
    let state = server.state(&id, None).await;
    assert_eq!(state["seats"][2]["resigned"], true);
    assert_ne!(state["status"], "over");
    // Names are checked.
    let (status, body) = server
        .post(
            &format!("/api/games/{id}/join"),
            Some(&t1),
            json!({"name": "  "}),
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("malformed"))
    );
    // Bad creations are refused with reasons.
    for (body, code) in [
        (json!({"game": "chess", "seats": [{}, {}]}), "not_found"),
        (
            json!({"game": "viktory", "seats": [{"kind": "bot", "level": "grandmaster"}, {}]}),
            "malformed",
        ),
        (json!({"game": "viktory", "seats": [{}]}), "invalid_setup"),
        (
            json!({"game": "viktory", "options": {"no_such_option": 1}, "seats": [{}, {}]}),
            "invalid_setup",
        ),
    ] {
        let (status, reply) = server.post("/api/games", None, body).await;
        assert!(status.is_client_error(), "{reply}");
        assert_eq!(reply["code"], code, "{reply}");
    }
    let (_, catalog) = server.get("/api/catalog", None).await;
    assert_eq!(catalog["games"][0]["game"], "viktory");
    assert_eq!(
        catalog["bot_levels"],
        json!(["random", "easy", "normal", "hard"])
    );
    let (status, health) = server.get("/healthz", None).await;
    assert_eq!(
        (status, health["ok"].as_bool()),
        (StatusCode::OK, Some(true))
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn messages_reach_the_table() {
    let server = TestServer::start(config(&sqlite_url("messages"))).await;
    let (id, tokens) = server.two_people().await;
    let url = format!("{}/api/games/{id}/live", server.base.replace("http", "ws"));
    let (mut socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let t0 = tokens[0].as_deref();
    let (status, message) = server
        .post(
            &format!("/api/games/{id}/messages"),
            t0,
            json!({"text": "good luck"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (message["id"].as_u64(), message["seat"].as_u64()),
        (Some(1), Some(0))
    );
    server
        .post(
            &format!("/api/games/{id}/messages"),
            tokens[1].as_deref(),
            json!({"text": "you too"}),
        )
        .await;
    let (_, all) = server.get(&format!("/api/games/{id}/messages"), None).await;
    let texts: Vec<&str> = all["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["body"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["good luck", "you too"]);
    let (_, after) = server
        .get(&format!("/api/games/{id}/messages?after=1"), None)
        .await;
    assert_eq!(after["messages"].as_array().unwrap().len(), 1);
    // Spectators cannot write; empty messages are refused.
    let (status, _) = server
        .post(
            &format!("/api/games/{id}/messages"),
            None,
            json!({"text": "hi"}),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = server
        .post(
            &format!("/api/games/{id}/messages"),
            t0,
            json!({"text": " "}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // The live listener got both messages.
    let mut got = Vec::new();
    while got.len() < 2 {
        let next = tokio::time::timeout(Duration::from_secs(5), socket.next())
            .await
            .unwrap();
        if let Some(Ok(tokio_tungstenite::tungstenite::Message::Text(text))) = next {
            let value: Value = serde_json::from_str(&text).unwrap();
            if value["type"] == "message" {
                got.push(value["message"]["body"].as_str().unwrap().to_owned());
            }
        }
    }
    assert_eq!(got, ["good luck", "you too"]);
    server.stop().await;
}

/// A tiny HTTP receiver that records each request body.
async fn webhook_receiver() -> (String, Arc<Mutex<Vec<Value>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    let got = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&got);
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                return;
            };
            let sink = Arc::clone(&sink);
            tokio::spawn(async move {
                let mut reader = BufReader::new(stream);
                let mut length = 0;
                loop {
                    let mut line = String::new();
                    reader.read_line(&mut line).await.unwrap();
                    let lower = line.to_ascii_lowercase();
                    if let Some(v) = lower.strip_prefix("content-length:") {
                        length = v.trim().parse().unwrap();
                    }
                    if line == "\r\n" {
                        break;
                    }
                }
                let mut body = vec![0; length];
                tokio::io::AsyncReadExt::read_exact(&mut reader, &mut body)
                    .await
                    .unwrap();
                sink.lock()
                    .unwrap()
                    .push(serde_json::from_slice(&body).unwrap());
                reader
                    .get_mut()
                    .write_all(b"HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n")
                    .await
                    .unwrap();
            });
        }
    });
    (url, got)
}

/// A tiny SMTP server that records each message's data.
async fn smtp_receiver() -> (u16, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let got = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&got);
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                return;
            };
            let sink = Arc::clone(&sink);
            tokio::spawn(async move {
                let mut stream = BufReader::new(stream);
                stream
                    .get_mut()
                    .write_all(b"220 test ESMTP\r\n")
                    .await
                    .unwrap();
                let mut data: Option<String> = None;
                loop {
                    let mut line = String::new();
                    if stream.read_line(&mut line).await.unwrap_or(0) == 0 {
                        return;
                    }
                    if let Some(text) = data.as_mut() {
                        if line == ".\r\n" {
                            sink.lock().unwrap().push(data.take().unwrap());
                            stream.get_mut().write_all(b"250 queued\r\n").await.unwrap();
                        } else {
                            text.push_str(&line);
                        }
                        continue;
                    }
                    let verb = line.get(..4).unwrap_or("").to_ascii_uppercase();
                    let reply: &[u8] = match verb.as_str() {
                        "EHLO" => b"250-test\r\n250 8BITMIME\r\n",
                        "DATA" => {
                            data = Some(String::new());
                            b"354 go on\r\n"
                        }
                        "QUIT" => {
                            let _ = stream.get_mut().write_all(b"221 bye\r\n").await;
                            return;
                        }
                        _ => b"250 ok\r\n",
                    };
                    stream.get_mut().write_all(reply).await.unwrap();
                }
            });
        }
    });
    (port, got)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_are_told_when_they_must_move() {
    let (hook, hooks) = webhook_receiver().await;
    let (smtp_port, mails) = smtp_receiver().await;
    let mut config = config(&sqlite_url("notify"));
    // The receivers are on loopback, which webhooks may reach only on a LAN server.
    config.allow_private_webhooks = true;
    config.smtp = Some(server::SmtpConfig {
        host: "127.0.0.1".into(),
        port: smtp_port,
        credentials: None,
        from: "hexwar@example.org".into(),
        plain: true,
    });
    let server = TestServer::start(config).await;
    let (id, tokens) = server.two_people().await;
    // The seat that does not move first asks to be told (the first player is drawn).
    let first = server.state(&id, None).await["to_move"]["seat"]
        .as_u64()
        .unwrap() as usize;
    let waiter = 1 - first;
    let tw = tokens[waiter].as_deref();
    let (status, _) = server
        .post(
            &format!("/api/games/{id}/notify"),
            tw,
            json!({"email": "bob@example.org", "webhook": hook}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = server
        .post(
            &format!("/api/games/{id}/notify"),
            tw,
            json!({"webhook": "ftp://x"}),
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("malformed"))
    );
    // The first player plays until the decision passes to the other.
    let tf = tokens[first].as_deref().unwrap();
    loop {
        let state = server.state(&id, Some(tf)).await;
        if state["to_move"] != json!({"seat": first}) {
            break;
        }
        let action = state["legal"][0].clone();
        server
            .act(&id, tf, state["version"].as_u64().unwrap(), &action)
            .await;
    }
    for _ in 0..200 {
        if !hooks.lock().unwrap().is_empty() && !mails.lock().unwrap().is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let hook = hooks.lock().unwrap()[0].clone();
    assert_eq!(
        (
            hook["event"].as_str(),
            hook["game"].as_str(),
            hook["seat"].as_u64()
        ),
        (Some("your_move"), Some(id.as_str()), Some(waiter as u64))
    );
    let mail = mails.lock().unwrap()[0].clone();
    assert!(mail.contains("To: bob@example.org"), "{mail}");
    assert!(mail.contains(&format!("your move in game {id}")), "{mail}");
    assert!(!mail.contains(tw.unwrap()), "no token in e-mails");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_answer_in_json() {
    let mut config = config(&sqlite_url("limits"));
    config.rate_per_second = 1;
    config.rate_burst = 5;
    config.max_body_bytes = 1024;
    let server = TestServer::start(config).await;
    let big = json!({"game": "viktory", "seats": [{"name": "x".repeat(2000)}]});
    let (status, body) = server.post("/api/games", None, big).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::PAYLOAD_TOO_LARGE, Some("too_large"))
    );
    let mut limited = 0;
    for _ in 0..10 {
        let (status, body) = server.get("/api/catalog", None).await;
        if status == StatusCode::TOO_MANY_REQUESTS {
            assert_eq!(body["code"], "rate_limited");
            limited += 1;
        }
    }
    assert!(limited >= 4, "{limited}");
    // A wrong method is refused in JSON too.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (status, body) = server
        .call(reqwest::Method::DELETE, "/api/games", None, None)
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::METHOD_NOT_ALLOWED, Some("method_not_allowed"))
    );
    // The health check is not rate limited (load balancers poll it).
    assert_eq!(server.get("/healthz", None).await.0, StatusCode::OK);
    server.stop().await;
}

/// Stopping the server while bots play leaves a log that rebuilds, and bots resume when
/// the server starts again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_graceful_stop_keeps_the_log_whole_and_bots_resume() {
    let database = sqlite_url("graceful");
    let server = TestServer::start(config(&database)).await;
    let (id, _) = server
        .create(json!({"game": "viktory", "seats": [{"kind": "bot"}, {"kind": "bot"}]}))
        .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    server.stop().await;
    let store = server::Store::open(&database).await.unwrap();
    let row = store.game(&id).await.unwrap();
    let actions = store.actions(&id, 0).await.unwrap();
    assert_eq!(row.seq, actions.len() as u64);
    assert!(row.seq > 20, "the bots played ({} actions)", row.seq);
    drop(store);
    let again = TestServer::start(config(&database)).await;
    let before = again.state(&id, None).await["version"].as_u64().unwrap();
    assert!(before >= row.seq);
    let mut after = before;
    for _ in 0..200 {
        after = again.state(&id, None).await["version"].as_u64().unwrap();
        if after > before {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(after > before, "the bots went on playing");
    again.stop().await;
}

/// Idle games are unloaded from memory and rebuilt from the log on next use.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_games_are_unloaded_and_come_back() {
    let server = TestServer::start(config(&sqlite_url("idle"))).await;
    let (id, tokens) = server.two_people().await;
    common::play_out(&server, &id, &tokens, 4, 10).await;
    let before = server.state(&id, tokens[0].as_deref()).await;
    // Used just now: kept when unloading games idle for a minute.
    assert_eq!(server.running.hub.evict_idle(Duration::from_mins(1)), 0);
    assert!(server.running.hub.evict_idle(Duration::ZERO) >= 1);
    assert_eq!(server.state(&id, tokens[0].as_deref()).await, before);
    server.stop().await;
}
