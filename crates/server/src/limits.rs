//! Per-address request rate limit: a token bucket per client IP (`rate` tokens a
//! second, up to `burst`); a request without a token gets 429.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// The buckets of every address seen lately.
#[derive(Debug)]
pub struct RateLimiter {
    rate: f64,
    burst: f64,
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

/// Buckets kept before idle ones are dropped.
const MAX_BUCKETS: usize = 10_000;

impl RateLimiter {
    /// A limiter allowing `rate` requests a second and bursts of `burst`.
    pub fn new(rate: u32, burst: u32) -> Self {
        RateLimiter {
            rate: f64::from(rate),
            burst: f64::from(burst.max(1)),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes a token for `ip` at `now`; false when its bucket is empty.
    pub fn allow(&self, ip: IpAddr, now: Instant) -> bool {
        let mut buckets = self
            .buckets
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if buckets.len() >= MAX_BUCKETS {
            // A full bucket refilled long ago carries no information.
            let (rate, burst) = (self.rate, self.burst);
            buckets.retain(|_, (tokens, at)| {
                *tokens + now.duration_since(*at).as_secs_f64() * rate < burst
            });
        }
        let (tokens, at) = buckets.entry(ip).or_insert((self.burst, now));
        let refilled =
            (*tokens + now.duration_since(*at).as_secs_f64() * self.rate).min(self.burst);
        *at = now;
        if refilled >= 1.0 {
            *tokens = refilled - 1.0;
            true
        } else {
            *tokens = refilled;
            false
        }
    }
}

/// The middleware.
pub(crate) async fn limit(
    State(limiter): State<Arc<RateLimiter>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: Request,
    next: Next,
) -> Response {
    if limiter.allow(peer.ip(), Instant::now()) {
        next.run(request).await
    } else {
        ApiError::RateLimited.into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_burst_then_the_rate() {
        let limiter = RateLimiter::new(10, 3);
        let ip = IpAddr::from([10, 0, 0, 1]);
        let other = IpAddr::from([10, 0, 0, 2]);
        let t0 = Instant::now();
        assert!((0..3).all(|_| limiter.allow(ip, t0)));
        assert!(!limiter.allow(ip, t0));
        // Another address has its own bucket.
        assert!(limiter.allow(other, t0));
        // A tenth of a second later, one more.
        let t1 = t0 + Duration::from_millis(100);
        assert!(limiter.allow(ip, t1));
        assert!(!limiter.allow(ip, t1));
    }
}
