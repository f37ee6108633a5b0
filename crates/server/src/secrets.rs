//! The server's secrets, drawn from the operating system: each game's dice seed (its
//! SHA-256 commitment is public from the start, the seed itself once the game is over)
//! and each seat's token (128 random bits in the invite link, stored only as a SHA-256
//! hash).

use engine::Seed;
use sha2::{Digest, Sha256};

/// A seat token in its link form (32 lowercase hex digits) with the hash the store keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatToken {
    /// The secret, shown once, in the invite link.
    pub token: String,
    /// SHA-256 of the token, hex.
    pub hash: String,
}

/// A fresh game seed from the operating system.
pub fn new_seed() -> Result<Seed, getrandom::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    Ok(Seed(bytes))
}

/// A fresh seat token: 128 bits from the operating system.
pub fn new_token() -> Result<SeatToken, getrandom::Error> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)?;
    let token = hex(&bytes);
    let hash = hash_token(&token);
    Ok(SeatToken { token, hash })
}

/// SHA-256 of a token, hex.
pub fn hash_token(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Lowercase hex of `bytes`.
fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// Whether `token` is the one whose hash is `hash`, comparing in constant time.
pub fn token_matches(token: &str, hash: &str) -> bool {
    let candidate = hash_token(token);
    candidate.len() == hash.len()
        && candidate
            .bytes()
            .zip(hash.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_128_bit_hex_and_only_their_hash_matches() {
        let a = new_token().unwrap();
        let b = new_token().unwrap();
        assert_ne!(a.token, b.token);
        assert_eq!(a.token.len(), 32);
        assert!(a.token.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(a.hash.len(), 64);
        assert!(token_matches(&a.token, &a.hash));
        assert!(!token_matches(&b.token, &a.hash));
        assert!(!token_matches(&a.hash, &a.hash));
        assert!(!token_matches("", &a.hash));
    }

    #[test]
    fn seeds_differ_and_commit() {
        let a = new_seed().unwrap();
        let b = new_seed().unwrap();
        assert!(a != b);
        assert_eq!(a.commitment().len(), 64);
        assert_ne!(a.commitment(), b.commitment());
    }

    #[test]
    fn token_hash_is_sha256() {
        // SHA-256("abc"), the FIPS 180-2 test vector.
        assert_eq!(
            hash_token("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
