//! Webhooks cannot be turned against the server's own network (blind SSRF): a seat's
//! webhook may reach only public internet addresses, unless the operator allows
//! private ones (`--allow-private-webhooks`, a LAN server). Checked when the webhook is
//! set (the player hears why) and again when it is delivered, after the DNS lookup the
//! connection uses. Redirects are never followed.

mod common;

use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{TestServer, config, sqlite_url};
use reqwest::StatusCode;
use reqwest::dns::Resolve;
use serde_json::{Value, json};
use server::webhook::{self, NonPublic, PublicResolver, WebhookClient, WebhookError};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

/// What a receiver heard: the request line ("POST /hook HTTP/1.1") of each request.
type Heard = Arc<Mutex<Vec<String>>>;

/// A tiny HTTP receiver on loopback. It records each request's first line, then answers
/// `answer` (a full status line and headers, without the final blank line).
async fn receiver(answer: impl Fn(u16) -> String + Send + Sync + 'static) -> (u16, Heard) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let heard: Heard = Arc::default();
    let sink = Arc::clone(&heard);
    let answer = Arc::new(answer);
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                return;
            };
            let sink = Arc::clone(&sink);
            let answer = Arc::clone(&answer);
            tokio::spawn(async move {
                let mut reader = BufReader::new(stream);
                let mut first = String::new();
                let mut length = 0;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).await.unwrap_or(0) == 0 {
                        return;
                    }
                    if first.is_empty() {
                        first = line.trim_end().to_owned();
                    }
                    if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                        length = v.trim().parse().unwrap_or(0);
                    }
                    if line == "\r\n" {
                        break;
                    }
                }
                let mut body = vec![0; length];
                let _ = reader.read_exact(&mut body).await;
                sink.lock().unwrap().push(first);
                let reply = format!(
                    "{}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
                    answer(port)
                );
                let _ = reader.get_mut().write_all(reply.as_bytes()).await;
            });
        }
    });
    (port, heard)
}

fn no_content(_: u16) -> String {
    "HTTP/1.1 204 No Content".into()
}

async fn set_webhook(server: &TestServer, id: &str, token: &str, url: &str) -> (StatusCode, Value) {
    server
        .post(
            &format!("/api/games/{id}/notify"),
            Some(token),
            json!({ "webhook": url }),
        )
        .await
}

/// Plays the first seat's legal actions until the decision passes to the other seat;
/// returns that seat.
async fn pass_the_move(server: &TestServer, id: &str, tokens: &[Option<String>]) -> usize {
    let first = server.state(id, None).await["to_move"]["seat"]
        .as_u64()
        .unwrap() as usize;
    let token = tokens[first].as_deref().unwrap();
    loop {
        let state = server.state(id, Some(token)).await;
        if state["to_move"] != json!({ "seat": first }) {
            return 1 - first;
        }
        let action = state["legal"][0].clone();
        let (status, body) = server
            .act(id, token, state["version"].as_u64().unwrap(), &action)
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
}

async fn wait_heard(heard: &Heard) {
    for _ in 0..400 {
        if !heard.lock().unwrap().is_empty() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("the receiver heard nothing");
}

/// Loopback, private, link-local, metadata, IPv4-mapped IPv6, the numeric spellings
/// of 127.0.0.1 (which the URL parser turns into 127.0.0.1), local names, userinfo,
/// control characters and other schemes are all refused when the webhook is set, with
/// a reason; public addresses are accepted. Before the fix every address here was
/// accepted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn non_public_webhooks_are_refused_when_set() {
    let server = TestServer::start(config(&sqlite_url("ssrf-set"))).await;
    let (id, tokens) = server.two_people().await;
    let token = tokens[0].as_deref().unwrap();
    for (url, why) in [
        ("http://127.0.0.1/hook", "127.0.0.1 is loopback"),
        ("http://127.0.0.1:8080/api/games", "127.0.0.1 is loopback"),
        ("http://localhost:8080/", "localhost is a loopback name"),
        ("http://LOCALHOST./", "localhost. is a loopback name"),
        (
            "http://hooks.localhost/",
            "hooks.localhost is a loopback name",
        ),
        ("http://[::1]/", "::1 is loopback"),
        ("http://10.0.0.5/", "10.0.0.5 is private"),
        ("http://192.168.1.10/", "192.168.1.10 is private"),
        ("http://172.16.0.1/", "172.16.0.1 is private"),
        ("http://[fd00::1]/", "fd00::1 is private"),
        (
            "http://169.254.169.254/latest/meta-data/",
            "169.254.169.254 is link-local",
        ),
        ("http://[fe80::1]/", "fe80::1 is link-local"),
        ("http://[::ffff:127.0.0.1]/", "is loopback"),
        ("http://[::ffff:169.254.169.254]/", "is link-local"),
        ("http://2130706433/", "127.0.0.1 is loopback"),
        ("http://0x7f000001/", "127.0.0.1 is loopback"),
        ("http://0177.0.0.1/", "127.0.0.1 is loopback"),
        ("http://127.1/", "127.0.0.1 is loopback"),
        ("http://0.0.0.0:8080/", "0.0.0.0 is unspecified"),
        ("http://[::]/", ":: is unspecified"),
        ("http://100.64.0.1/", "carrier-grade NAT"),
        ("http://224.0.0.1/", "multicast"),
        ("http://255.255.255.255/", "broadcast"),
        ("http://192.0.2.1/", "documentation"),
        ("http://user:secret@93.184.215.14/", "user name or password"),
        ("http://user@93.184.215.14/", "user name or password"),
        ("http://93.184.215.14/\u{0}", "control characters"),
        ("http://93.184.215.14/a\r\nX-Evil: 1", "control characters"),
        ("file:///etc/passwd", "http:// or https://"),
        ("gopher://93.184.215.14/", "http:// or https://"),
        ("ftp://93.184.215.14/", "http:// or https://"),
    ] {
        let (status, body) = set_webhook(&server, &id, token, url).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (StatusCode::BAD_REQUEST, Some("malformed")),
            "{url:?}: {body}"
        );
        let message = body["message"].as_str().unwrap();
        assert!(message.contains(why), "{url:?}: {message}");
        assert!(!message.contains("secret"), "{url:?}: {message}");
    }
    for url in [
        "http://93.184.215.14/hook",
        "https://93.184.215.14:8443/hook?key=1",
        "https://[2606:4700:4700::1111]/hook",
    ] {
        let (status, body) = set_webhook(&server, &id, token, url).await;
        assert_eq!(status, StatusCode::OK, "{url}: {body}");
    }
    server.stop().await;
}

/// With `allow_private_webhooks` (a LAN server) loopback and private destinations are
/// accepted; addresses that are never a web server are still refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lan_server_accepts_private_webhooks() {
    let mut config = config(&sqlite_url("ssrf-lan"));
    config.allow_private_webhooks = true;
    let server = TestServer::start(config).await;
    let (id, tokens) = server.two_people().await;
    let token = tokens[0].as_deref().unwrap();
    for url in [
        "http://127.0.0.1:9/hook",
        "http://localhost:9/hook",
        "http://10.0.0.5/",
        "http://[fd00::1]/",
    ] {
        let (status, body) = set_webhook(&server, &id, token, url).await;
        assert_eq!(status, StatusCode::OK, "{url}: {body}");
    }
    for url in [
        "http://0.0.0.0/",
        "http://224.0.0.1/",
        "http://user:pw@10.0.0.5/",
    ] {
        let (status, _) = set_webhook(&server, &id, token, url).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{url}");
    }
    server.stop().await;
}

/// A LAN server delivers to a local receiver (through a name, so through the checking
/// resolver), but does not follow its redirect to another local receiver. Before the
/// fix the second receiver got a request too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redirects_are_not_followed() {
    let (second_port, second) = receiver(no_content).await;
    let (first_port, first) = receiver(move |_| {
        format!("HTTP/1.1 302 Found\r\nlocation: http://127.0.0.1:{second_port}/stolen")
    })
    .await;
    let mut config = config(&sqlite_url("ssrf-redirect"));
    config.allow_private_webhooks = true;
    let server = TestServer::start(config).await;
    let (id, tokens) = server.two_people().await;
    let waiter = {
        let first_seat = server.state(&id, None).await["to_move"]["seat"]
            .as_u64()
            .unwrap() as usize;
        1 - first_seat
    };
    let url = format!("http://localhost:{first_port}/hook");
    let (status, body) = set_webhook(&server, &id, tokens[waiter].as_deref().unwrap(), &url).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(pass_the_move(&server, &id, &tokens).await, waiter);
    wait_heard(&first).await;
    assert_eq!(first.lock().unwrap()[0], "POST /hook HTTP/1.1");
    // A followed redirect goes out as soon as the 302 arrives; give it ample time.
    for _ in 0..40 {
        tokio::time::sleep(Duration::from_millis(25)).await;
        assert!(
            second.lock().unwrap().is_empty(),
            "the redirect was followed: {:?}",
            second.lock().unwrap()
        );
    }
    server.stop().await;

    // The same, deterministically, through the delivery client itself: when it
    // returns, a followed redirect would already have reached the second receiver.
    let client = WebhookClient::new(true).unwrap();
    let result = client
        .post_json(&format!("http://127.0.0.1:{first_port}/again"), &json!({}))
        .await;
    assert_eq!(result, Err(WebhookError::Redirected(302)));
    assert!(second.lock().unwrap().is_empty());
}

/// Delivery checks again, whatever was stored: an IP literal is refused before any
/// connection (it never reaches a resolver), and so is a URL with a user name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delivery_refuses_private_literals_without_connecting() {
    let (port, heard) = receiver(no_content).await;
    let public = WebhookClient::new(false).unwrap();
    for url in [
        format!("http://127.0.0.1:{port}/hook"),
        format!("http://[::ffff:127.0.0.1]:{port}/hook"),
        format!("http://2130706433:{port}/hook"),
        format!("http://localhost:{port}/hook"),
    ] {
        let result = public.post_json(&url, &json!({})).await;
        assert!(
            matches!(
                result,
                Err(WebhookError::NotPublic {
                    kind: NonPublic::Loopback,
                    ..
                })
            ),
            "{url}: {result:?}"
        );
    }
    let result = public
        .post_json("http://u:p@93.184.215.14/", &json!({}))
        .await;
    assert!(
        matches!(result, Err(WebhookError::Malformed(_))),
        "{result:?}"
    );
    assert!(heard.lock().unwrap().is_empty());
    // The same receiver is reached when private addresses are allowed.
    let lan = WebhookClient::new(true).unwrap();
    lan.post_json(&format!("http://127.0.0.1:{port}/hook"), &json!({}))
        .await
        .unwrap();
    assert_eq!(heard.lock().unwrap().len(), 1);
}

/// The resolver a delivery connects through drops non-public addresses, so a name
/// that resolves to loopback (or rebinds to it after it was set) is refused when the
/// connection is made.
#[tokio::test]
async fn the_resolver_keeps_public_addresses_only() {
    let addr = |s: &str| s.parse::<SocketAddr>().unwrap();
    // A name resolving to a mix keeps only its public addresses.
    let kept = webhook::public_addrs(
        "mixed.example",
        [
            addr("127.0.0.1:0"),
            addr("93.184.215.14:0"),
            addr("[::1]:0"),
            addr("10.1.2.3:0"),
            addr("[2606:4700:4700::1111]:0"),
            addr("169.254.169.254:0"),
        ],
        false,
    )
    .unwrap();
    assert_eq!(
        kept,
        [addr("93.184.215.14:0"), addr("[2606:4700:4700::1111]:0")]
    );
    // Only private addresses: refused, naming the first.
    let refused = webhook::public_addrs(
        "rebound.example",
        [addr("127.0.0.1:0"), addr("[::ffff:10.0.0.1]:0")],
        false,
    )
    .unwrap_err();
    assert_eq!(
        refused.to_string(),
        "webhooks may only reach public internet addresses; rebound.example resolves to 127.0.0.1, which is loopback"
    );
    // With private addresses allowed, LAN ones pass but "this host" and multicast don't.
    let lan = webhook::public_addrs(
        "lan.example",
        [addr("127.0.0.1:0"), addr("0.0.0.0:0"), addr("[ff02::1]:0")],
        true,
    )
    .unwrap();
    assert_eq!(lan, [addr("127.0.0.1:0")]);

    // The resolver itself: `localhost` is refused, or resolved to loopback on a LAN
    // server.
    let refused = PublicResolver::new(false)
        .resolve("localhost".parse().unwrap())
        .await;
    let error = refused.err().expect("localhost is refused").to_string();
    assert!(error.contains("loopback"), "{error}");
    let found: Vec<IpAddr> = PublicResolver::new(true)
        .resolve("localhost".parse().unwrap())
        .await
        .expect("localhost resolves")
        .map(|a| a.ip())
        .collect();
    assert!(
        !found.is_empty() && found.iter().all(IpAddr::is_loopback),
        "{found:?}"
    );
}

/// One client per setting for the whole process.
#[test]
fn the_delivery_client_is_built_once() {
    let a = WebhookClient::shared(false).unwrap();
    let b = WebhookClient::shared(false).unwrap();
    assert!(std::ptr::eq(a, b));
    assert!(!std::ptr::eq(a, WebhookClient::shared(true).unwrap()));
}

/// A receiver that accepts and never answers does not hold a delivery for long: the
/// client gives up (after its 5 s total timeout) with an error that names no URL.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_receiver_times_out() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let held = tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((stream, _)) = listener.accept().await {
            open.push(stream);
        }
    });
    let result = WebhookClient::new(true)
        .unwrap()
        .post_json(&format!("http://127.0.0.1:{port}/secret-path"), &json!({}))
        .await;
    let Err(WebhookError::Request(message)) = result else {
        panic!("{result:?}");
    };
    assert!(message.contains("timed out"), "{message}");
    assert!(!message.contains("secret-path"), "{message}");
    held.abort();
}
