//! What every response carries for a server on the open internet: a
//! Content-Security-Policy and the other hardening headers, cache rules and gzip.
//!
//! - API responses are `Cache-Control: no-store`: they carry one seat's view.
//! - `GET /api/games/{id}/board` is fixed for a game's life: `private, max-age=86400`
//!   with an `ETag`, answered `304 Not Modified` on `If-None-Match`.
//! - The web client's files are `no-cache`: the browser revalidates them (`ServeDir`
//!   sends `Last-Modified`), so a deploy is picked up at once.
//! - Bodies of [`COMPRESS_ABOVE`] bytes or more are gzipped when the client accepts it;
//!   WebSocket upgrades never are.

use std::fmt::Write as _;

use axum::Router;
use axum::body::Body;
use axum::extract::{MatchedPath, Request};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::{NotForContentType, Predicate, SizeAbove};
use tower_http::set_header::{SetResponseHeader, SetResponseHeaderLayer};

/// The Content-Security-Policy of every response. The web client is plain ES modules
/// from this origin, one stylesheet, SVG built with the DOM (inline colours set through
/// the CSSOM, which CSP allows), and `fetch`/WebSocket to this origin; nothing else is
/// allowed.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; \
     form-action 'self'; frame-ancestors 'none'";

/// `Cache-Control` of API responses (and errors): each carries one seat's view.
pub const NO_STORE: &str = "no-store";

/// `Cache-Control` of a game's board, fixed for the game's life.
pub const BOARD_CACHE: &str = "private, max-age=86400";

/// `Cache-Control` of the web client's files: revalidate every time, so a deploy is
/// seen at once.
pub const STATIC_CACHE: &str = "no-cache";

/// Bodies smaller than this are sent as they are: gzip would save too little.
pub const COMPRESS_ABOVE: u16 = 1024;

/// The route whose answer [`cache_board`] marks as cacheable.
const BOARD_ROUTE: &str = "/api/games/{id}/board";

/// Adds the hardening headers, the default `Cache-Control: no-store` and gzip to every
/// response of `router`. Headers a route set itself are kept.
pub(crate) fn harden<S: Clone + Send + Sync + 'static>(router: Router<S>) -> Router<S> {
    let keep =
        |name, value| SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value));
    router
        .layer(keep(header::CACHE_CONTROL, NO_STORE))
        .layer(keep(
            header::CONTENT_SECURITY_POLICY,
            CONTENT_SECURITY_POLICY,
        ))
        .layer(keep(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(keep(header::X_FRAME_OPTIONS, "DENY"))
        // Game ids in paths stay out of other sites' logs.
        .layer(keep(header::REFERRER_POLICY, "no-referrer"))
        .layer(CompressionLayer::new().compress_when(compressible()))
}

/// What is worth gzipping: bodies of [`COMPRESS_ABOVE`] bytes or more, not images, and
/// never a protocol switch (a WebSocket upgrade) or a body-less answer.
fn compressible() -> impl Predicate {
    SizeAbove::new(COMPRESS_ABOVE)
        .and(NotForContentType::IMAGES)
        .and(|status: StatusCode, _, _: &HeaderMap, _: &_| {
            !status.is_informational()
                && status != StatusCode::NO_CONTENT
                && status != StatusCode::NOT_MODIFIED
        })
}

/// The web client's files, marked `Cache-Control: no-cache`.
pub(crate) fn static_files<S>(files: S) -> SetResponseHeader<S, HeaderValue> {
    SetResponseHeader::overriding(
        files,
        header::CACHE_CONTROL,
        HeaderValue::from_static(STATIC_CACHE),
    )
}

/// Middleware for the API router: a board (`GET /api/games/{id}/board`) is cacheable
/// for a day and carries a weak `ETag` (weak because gzip changes the bytes, not the
/// meaning); a request whose `If-None-Match` names it gets `304 Not Modified`.
pub(crate) async fn cache_board(request: Request, next: Next) -> Response {
    let is_board = request.method() == Method::GET
        && request
            .extensions()
            .get::<MatchedPath>()
            .is_some_and(|path| path.as_str() == BOARD_ROUTE);
    if !is_board {
        return next.run(request).await;
    }
    let if_none_match = request.headers().get(header::IF_NONE_MATCH).cloned();
    let response = next.run(request).await;
    if response.status() != StatusCode::OK {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    // A board is a few hundred KB of JSON held in memory already; 64 MiB is a guard.
    let Ok(bytes) = axum::body::to_bytes(body, 64 << 20).await else {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    let tag = etag(&bytes);
    parts
        .headers
        .insert(header::CACHE_CONTROL, HeaderValue::from_static(BOARD_CACHE));
    if let Ok(value) = HeaderValue::from_str(&tag) {
        parts.headers.insert(header::ETAG, value);
    }
    if if_none_match.is_some_and(|wanted| matches_etag(&wanted, &tag)) {
        parts.status = StatusCode::NOT_MODIFIED;
        parts.headers.remove(header::CONTENT_TYPE);
        parts.headers.remove(header::CONTENT_LENGTH);
        return Response::from_parts(parts, Body::empty());
    }
    Response::from_parts(parts, Body::from(bytes))
}

/// A weak entity tag for a body: `W/"` + 128 bits of its SHA-256 in hex + `"`.
fn etag(body: &[u8]) -> String {
    let digest = Sha256::digest(body);
    let mut tag = String::from("W/\"");
    for byte in &digest[..16] {
        let _ = write!(tag, "{byte:02x}");
    }
    tag.push('"');
    tag
}

/// Whether an `If-None-Match` value names `tag`, by weak comparison (RFC 9110 13.1.2):
/// `*`, or a comma-separated list of tags compared without their `W/`.
fn matches_etag(if_none_match: &HeaderValue, tag: &str) -> bool {
    let Ok(list) = if_none_match.to_str() else {
        return false;
    };
    let opaque = |t: &str| t.trim().trim_start_matches("W/").to_owned();
    let ours = opaque(tag);
    list.split(',')
        .any(|candidate| candidate.trim() == "*" || opaque(candidate) == ours)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn if_none_match_compares_weakly() {
        let tag = etag(b"{\"board\":null}");
        assert!(
            tag.starts_with("W/\"") && tag.len() == 2 + 1 + 32 + 1,
            "{tag}"
        );
        let strong = tag.trim_start_matches("W/");
        for value in [tag.as_str(), strong, "*", &format!("\"x\", {tag}")] {
            assert!(
                matches_etag(&HeaderValue::from_str(value).unwrap(), &tag),
                "{value}"
            );
        }
        for value in ["\"x\"", "", "W/\"\""] {
            assert!(
                !matches_etag(&HeaderValue::from_str(value).unwrap(), &tag),
                "{value}"
            );
        }
        assert_ne!(etag(b"a"), etag(b"b"));
    }
}
