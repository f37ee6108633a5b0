//! The server as a public host sees it: hardening headers on every response, gzip and
//! cache rules, WebSocket upgrades untouched by compression, and rate limits that a
//! client cannot escape with a forged `X-Forwarded-For` (but that tell clients apart
//! behind a trusted reverse proxy).

mod common;

use std::io::Read;
use std::path::PathBuf;
use std::time::Duration;

use common::{TestServer, config, sqlite_url};
use futures_util::StreamExt;
use reqwest::StatusCode;
use reqwest::header::HeaderMap;
use serde_json::{Value, json};
use server::Config;
use server::headers::{BOARD_CACHE, CONTENT_SECURITY_POLICY, NO_STORE, STATIC_CACHE};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// A test configuration serving the repository's web client.
fn with_web(name: &str) -> Config {
    let web = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web/app");
    assert!(web.join("index.html").exists(), "{}", web.display());
    Config {
        web_dir: Some(web),
        ..config(&sqlite_url(name))
    }
}

/// A test configuration with a rate limit of one request a second, bursts of `burst`.
fn limited(name: &str, burst: u32, trusted: &[&str]) -> Config {
    Config {
        rate_per_second: 1,
        rate_burst: burst,
        trusted_proxies: trusted.iter().map(|n| n.parse().unwrap()).collect(),
        ..with_web(name)
    }
}

/// A GET with extra headers; the status, headers and raw body bytes.
async fn get(
    server: &TestServer,
    path: &str,
    headers: &[(&str, &str)],
) -> (StatusCode, HeaderMap, Vec<u8>) {
    let mut request = server.http.get(format!("{}{path}", server.base));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.expect("request sent");
    let status = response.status();
    let headers = response.headers().clone();
    (status, headers, response.bytes().await.unwrap().to_vec())
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).map(|v| v.to_str().unwrap())
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .expect("a gzip body");
    out
}

/// The hardening headers are on every kind of response: API, static file, the page
/// of a client-side route, health check and errors; API responses and errors are never
/// stored, the web client's files are revalidated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_response_carries_the_hardening_headers() {
    let server = TestServer::start(with_web("headers")).await;
    let big = "x".repeat(100 * 1024);
    let too_large = server
        .http
        .post(format!("{}/api/games", server.base))
        .header("content-type", "application/json")
        .body(format!("{{\"game\": \"{big}\"}}"))
        .send()
        .await
        .unwrap();
    assert_eq!(too_large.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let not_allowed = server
        .http
        .delete(format!("{}/api/catalog", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(not_allowed.status(), StatusCode::METHOD_NOT_ALLOWED);
    let mut seen = vec![
        ("413", too_large.headers().clone(), NO_STORE),
        ("405", not_allowed.headers().clone(), NO_STORE),
    ];
    for (path, status, cache) in [
        ("/api/catalog", StatusCode::OK, NO_STORE),
        ("/api/games/nope", StatusCode::NOT_FOUND, NO_STORE),
        ("/api/no/such/route", StatusCode::NOT_FOUND, NO_STORE),
        ("/healthz", StatusCode::OK, NO_STORE),
        ("/", StatusCode::OK, STATIC_CACHE),
        ("/app.js", StatusCode::OK, STATIC_CACHE),
        ("/style.css", StatusCode::OK, STATIC_CACHE),
        ("/play/some-game", StatusCode::OK, STATIC_CACHE),
    ] {
        let (got, headers, _) = get(&server, path, &[]).await;
        assert_eq!(got.as_u16(), status.as_u16(), "{path}");
        seen.push((path, headers, cache));
    }
    for (what, headers, cache) in &seen {
        assert_eq!(
            header(headers, "content-security-policy"),
            Some(CONTENT_SECURITY_POLICY),
            "{what}"
        );
        assert_eq!(
            header(headers, "x-content-type-options"),
            Some("nosniff"),
            "{what}"
        );
        assert_eq!(header(headers, "x-frame-options"), Some("DENY"), "{what}");
        assert_eq!(
            header(headers, "referrer-policy"),
            Some("no-referrer"),
            "{what}"
        );
        assert_eq!(header(headers, "cache-control"), Some(*cache), "{what}");
    }
    server.stop().await;
}

/// The campaign board (hundreds of KB of JSON) is gzipped when the client accepts it,
/// and is the same JSON once unzipped; it may be cached privately, and its entity tag gets a
/// 304. Small answers and clients that do not ask are sent as they are.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_is_gzipped_and_cacheable() {
    let server = TestServer::start(with_web("board")).await;
    let (id, _) = server
        .create(json!({"game": "avl", "seats": [{"name": "Ann"}, {"name": "Bob"}]}))
        .await;
    let path = format!("/api/games/{id}/board");
    let (status, plain_headers, plain) = get(&server, &path, &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(header(&plain_headers, "content-encoding"), None);
    let (status, headers, zipped) = get(&server, &path, &[("accept-encoding", "gzip")]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(header(&headers, "content-encoding"), Some("gzip"));
    assert_eq!(header(&headers, "vary"), Some("accept-encoding"));
    assert_eq!(gunzip(&zipped), plain);
    let board: Value = serde_json::from_slice(&plain).unwrap();
    assert_eq!(
        board["board"]["hexes"].as_array().map(Vec::len),
        Some(71 * 50)
    );
    eprintln!(
        "campaign board: {} bytes of JSON, {} gzipped",
        plain.len(),
        zipped.len()
    );
    assert!(zipped.len() * 4 < plain.len());

    // Cacheable, with one ETag for both encodings.
    assert_eq!(header(&headers, "cache-control"), Some(BOARD_CACHE));
    let etag = header(&headers, "etag").expect("an etag").to_owned();
    assert_eq!(header(&plain_headers, "etag"), Some(etag.as_str()));
    assert_eq!(
        header(&headers, "content-security-policy"),
        Some(CONTENT_SECURITY_POLICY)
    );
    let (status, headers, body) = get(
        &server,
        &path,
        &[("if-none-match", &etag), ("accept-encoding", "gzip")],
    )
    .await;
    assert_eq!(status, StatusCode::NOT_MODIFIED);
    assert!(body.is_empty());
    assert_eq!(header(&headers, "etag"), Some(etag.as_str()));
    assert_eq!(header(&headers, "cache-control"), Some(BOARD_CACHE));
    assert_eq!(header(&headers, "content-encoding"), None);
    let (status, _, body) = get(&server, &path, &[("if-none-match", "W/\"other\"")]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, plain);

    // The game's per-seat state is not cacheable; VIKTORY's null board is too small
    // to zip.
    let (_, headers, _) = get(&server, &format!("/api/games/{id}"), &[]).await;
    assert_eq!(header(&headers, "cache-control"), Some(NO_STORE));
    assert_eq!(header(&headers, "etag"), None);
    let (viktory, _) = server.two_people().await;
    let (status, headers, body) = get(
        &server,
        &format!("/api/games/{viktory}/board"),
        &[("accept-encoding", "gzip")],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(header(&headers, "content-encoding"), None);
    assert_eq!(body, br#"{"board":null}"#);
    server.stop().await;
}

/// The web client's scripts are gzipped too, revalidate (no-cache) and answer a
/// revalidation with 304.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn static_files_are_gzipped_and_revalidated() {
    let server = TestServer::start(with_web("static")).await;
    let (status, headers, plain) = get(&server, "/game.js", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(header(&headers, "content-encoding"), None);
    let (status, headers, zipped) = get(
        &server,
        "/game.js",
        &[("accept-encoding", "br;q=1, gzip;q=0.5")],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(header(&headers, "content-encoding"), Some("gzip"));
    assert_eq!(gunzip(&zipped), plain);
    assert!(
        zipped.len() < plain.len() / 2,
        "{} of {}",
        zipped.len(),
        plain.len()
    );
    assert_eq!(header(&headers, "cache-control"), Some(STATIC_CACHE));
    let modified = header(&headers, "last-modified")
        .expect("last-modified")
        .to_owned();
    let (status, headers, body) =
        get(&server, "/game.js", &[("if-modified-since", &modified)]).await;
    assert_eq!(status, StatusCode::NOT_MODIFIED);
    assert!(body.is_empty());
    assert_eq!(
        header(&headers, "content-security-policy"),
        Some(CONTENT_SECURITY_POLICY)
    );
    server.stop().await;
}

/// A WebSocket handshake that says it accepts gzip (browsers do) still upgrades, with
/// no `Content-Encoding`, and the live feed speaks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websocket_upgrades_are_not_compressed() {
    let server = TestServer::start(with_web("ws")).await;
    let (id, tokens) = server.two_people().await;
    let token = tokens[0].as_deref().unwrap();
    let url = format!(
        "{}/api/games/{id}/live?token={token}&since=0",
        server.base.replace("http://", "ws://")
    );
    let mut request = url.into_client_request().unwrap();
    request
        .headers_mut()
        .insert("accept-encoding", "gzip, deflate, br".parse().unwrap());
    let (mut socket, response) = tokio_tungstenite::connect_async(request)
        .await
        .expect("the upgrade succeeds");
    assert_eq!(response.status().as_u16(), 101);
    assert!(response.headers().get("content-encoding").is_none());
    let hello = tokio::time::timeout(Duration::from_secs(30), async {
        while let Some(Ok(message)) = socket.next().await {
            if let Message::Text(text) = message {
                let value: Value = serde_json::from_str(&text).unwrap();
                if value["type"] == "hello" {
                    return value;
                }
            }
        }
        panic!("the socket closed before hello");
    })
    .await
    .expect("hello arrives");
    assert_eq!(hello["seat"], 0);
    server.stop().await;
}

/// A live connection takes nothing large from its client: a 64 KiB message (over the
/// 16 KiB cap, where the library would take 64 MiB) ends that connection, and the next
/// connection is served as usual.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_connection_refuses_a_large_message() {
    use futures_util::SinkExt;
    let server = TestServer::start(config(&sqlite_url("ws-large"))).await;
    let (id, _) = server.two_people().await;
    let url = format!(
        "{}/api/games/{id}/live",
        server.base.replace("http://", "ws://")
    );
    let hello = |mut socket: tokio_tungstenite::WebSocketStream<_>| async move {
        while let Some(Ok(message)) = socket.next().await {
            if let Message::Text(text) = message
                && serde_json::from_str::<Value>(&text).unwrap()["type"] == "hello"
            {
                return socket;
            }
        }
        panic!("the socket closed before hello");
    };
    let (socket, _) = tokio_tungstenite::connect_async(url.as_str())
        .await
        .unwrap();
    let mut socket = hello(socket).await;
    // Small messages are read and ignored.
    socket.send(Message::text("hi")).await.unwrap();
    let _ = socket.send(Message::text("x".repeat(64 * 1024))).await;
    let ended = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match socket.next().await {
                None | Some(Err(_) | Ok(Message::Close(_))) => return,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert!(ended.is_ok(), "the connection stayed open");
    let (socket, _) = tokio_tungstenite::connect_async(url.as_str())
        .await
        .unwrap();
    let _ = hello(socket).await;
    server.stop().await;
}

/// Forged forwarding headers from a peer that is not a trusted proxy change nothing:
/// twenty requests, each claiming another address, share the peer's bucket of five.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forged_forwarding_headers_do_not_escape_the_limit() {
    // Loopback is not among the trusted proxies.
    let server = TestServer::start(limited("forged", 5, &["192.0.2.0/24"])).await;
    let mut allowed = 0;
    let mut refused = None;
    for i in 0..20 {
        let forged = format!("198.51.100.{i}");
        let forwarded = format!("for={forged}");
        let (status, headers, body) = get(
            &server,
            "/api/catalog",
            &[("x-forwarded-for", &forged), ("forwarded", &forwarded)],
        )
        .await;
        match status {
            StatusCode::OK => allowed += 1,
            StatusCode::TOO_MANY_REQUESTS => refused = Some((headers, body)),
            other => panic!("{other}"),
        }
    }
    // With forged headers believed, all 20 would pass; ignored, 5 plus one a second.
    assert!(allowed < 20, "{allowed} of 20 allowed");
    let (headers, body) = refused.expect("a 429");
    let body: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(body["code"], "rate_limited");
    assert_eq!(
        header(&headers, "content-security-policy"),
        Some(CONTENT_SECURITY_POLICY)
    );
    assert_eq!(header(&headers, "cache-control"), Some(NO_STORE));
    server.stop().await;
}

/// Behind a trusted proxy (here loopback) each forwarded client has its own bucket,
/// named by `X-Forwarded-For` or by `Forwarded`; the health check and the web client's
/// files are never limited.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trusted_proxy_gives_each_client_its_own_bucket() {
    let server = TestServer::start(limited("proxy", 3, &["127.0.0.1/32", "::1/128"])).await;
    let ann = [("x-forwarded-for", "203.0.113.7, 198.51.100.1")];
    let mut spent = 0;
    while get(&server, "/api/catalog", &ann).await.0 == StatusCode::OK {
        spent += 1;
        assert!(spent < 100, "the limit never bit");
    }
    // 198.51.100.1's bucket is empty; others are full.
    for other in [
        [("x-forwarded-for", "203.0.113.7, 198.51.100.2")],
        [("forwarded", "for=\"[2001:db8::1]:4711\"")],
        [("x-forwarded-for", "198.51.100.1, 198.51.100.3")],
    ] {
        let (status, _, _) = get(&server, "/api/catalog", &other).await;
        assert_eq!(status, StatusCode::OK, "{other:?}");
    }
    // Not limited at all.
    for path in ["/healthz", "/app.js", "/"] {
        for _ in 0..5 {
            assert_eq!(get(&server, path, &ann).await.0, StatusCode::OK, "{path}");
        }
    }
    server.stop().await;
}
