//! Seeds, commitments and the dice.
//!
//! The generator is `ChaCha8` (`rand_chacha`), seeded with a 32-byte [`Seed`]. Every
//! position of a game's record gets its own `ChaCha` stream, so the random source of a
//! chance action depends only on the seed and the action's index in the record: a
//! server can resolve chance after a restart without saving generator state, and
//! anyone holding the revealed seed can recompute every roll ([`crate::verify`]).
//! Dice, draws and shuffles are sampled by this module's own unbiased code from
//! `next_u32`, never by `rand` distributions, so results never change with a library
//! upgrade.

use std::fmt;
use std::str::FromStr;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

/// A game's 32-byte random seed.
///
/// Written as 64 hexadecimal digits. A small integer `n` is also accepted as a seed
/// (tests, tournaments): its 8 little-endian bytes followed by 24 zero bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Seed(pub [u8; 32]);

impl Seed {
    /// The seed for a small integer: `n` little-endian, then zeros.
    pub fn from_u64(n: u64) -> Seed {
        let mut bytes = [0u8; 32];
        bytes[..8].copy_from_slice(&n.to_le_bytes());
        Seed(bytes)
    }

    /// The public commitment to this seed: SHA-256 of its 32 bytes, lowercase hex.
    /// Published when a game starts; the seed itself is revealed when it ends.
    pub fn commitment(&self) -> String {
        to_hex(&Sha256::digest(self.0))
    }

    /// The seed as 64 lowercase hexadecimal digits.
    pub fn to_hex(&self) -> String {
        to_hex(&self.0)
    }
}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Seed({})", self.to_hex())
    }
}

impl fmt::Display for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

/// Why a text is not a seed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a seed is 64 hexadecimal digits or a decimal number below 2^64, not {0:?}")]
pub struct SeedParseError(pub String);

impl FromStr for Seed {
    type Err = SeedParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || SeedParseError(s.chars().take(80).collect());
        if s.len() == 64 {
            let mut bytes = [0u8; 32];
            for (i, byte) in bytes.iter_mut().enumerate() {
                *byte = u8::from_str_radix(s.get(2 * i..2 * i + 2).ok_or_else(err)?, 16)
                    .map_err(|_| err())?;
            }
            return Ok(Seed(bytes));
        }
        s.parse::<u64>().map(Seed::from_u64).map_err(|_| err())
    }
}

impl Serialize for Seed {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for Seed {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Number(u64),
            Text(String),
        }
        match Raw::deserialize(deserializer)? {
            Raw::Number(n) => Ok(Seed::from_u64(n)),
            Raw::Text(s) => s.parse().map_err(serde::de::Error::custom),
        }
    }
}

pub(crate) fn to_hex(bytes: &[u8]) -> String {
    use fmt::Write;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// The seeded random source handed to [`crate::Game::sample_chance`].
#[derive(Clone, Debug)]
pub struct GameRng(ChaCha8Rng);

impl GameRng {
    /// The generator for the action at `step` (its index in the game record).
    pub fn for_step(seed: &Seed, step: u64) -> GameRng {
        let mut rng = ChaCha8Rng::from_seed(seed.0);
        rng.set_stream(step);
        GameRng(rng)
    }

    /// A generator for simulations and bots (stream `u64::MAX`, never used by a record).
    pub fn from_u64(n: u64) -> GameRng {
        GameRng::for_step(&Seed::from_u64(n), u64::MAX)
    }

    /// The next raw 32 bits.
    pub fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    /// The next raw 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A uniform integer in `0..n`, without bias (rejection of the short last block).
    ///
    /// # Panics
    /// If `n` is 0.
    pub fn below(&mut self, n: u32) -> u32 {
        assert!(n > 0, "GameRng::below(0)");
        // Largest multiple of n that fits in 2^32; values at or above it are redrawn.
        let zone = u32::MAX - (u32::MAX - n + 1) % n;
        loop {
            let x = self.next_u32();
            if x <= zone {
                return x % n;
            }
        }
    }

    /// One roll of a die with `sides` faces: `1..=sides`.
    pub fn die(&mut self, sides: u32) -> u32 {
        self.below(sides) + 1
    }

    /// An index chosen with probability proportional to its weight.
    ///
    /// # Panics
    /// If all weights are zero or their sum overflows `u32`.
    pub fn weighted(&mut self, weights: &[u32]) -> usize {
        let total = weights
            .iter()
            .try_fold(0u32, |a, &w| a.checked_add(w))
            .expect("weights overflow");
        let mut x = self.below(total);
        for (i, &w) in weights.iter().enumerate() {
            if x < w {
                return i;
            }
            x -= w;
        }
        unreachable!("below(total) < total")
    }

    /// Shuffles a slice in place (Fisher–Yates, from the back).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_text_forms() {
        let s: Seed = "7".parse().unwrap();
        assert_eq!(s, Seed::from_u64(7));
        let hex = s.to_hex();
        assert_eq!(hex.len(), 64);
        assert!(hex.starts_with("0700000000000000"));
        assert_eq!(hex.parse::<Seed>().unwrap(), s);
        assert!("xyz".parse::<Seed>().is_err());
        assert!("g".repeat(64).parse::<Seed>().is_err());
        let json: Seed = serde_json::from_str("7").unwrap();
        assert_eq!(json, s);
        assert_eq!(
            serde_json::from_str::<Seed>(&serde_json::to_string(&s).unwrap()).unwrap(),
            s
        );
    }

    #[test]
    fn commitment_is_sha256_of_the_seed_bytes() {
        // SHA-256 of 32 zero bytes.
        assert_eq!(
            Seed([0; 32]).commitment(),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
    }

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let seed = Seed::from_u64(42);
        let a: Vec<u32> = (0..4)
            .map(|_| GameRng::for_step(&seed, 3).next_u32())
            .collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(
            GameRng::for_step(&seed, 3).next_u64(),
            GameRng::for_step(&seed, 4).next_u64()
        );
    }

    #[test]
    fn dice_are_in_range_and_roughly_uniform() {
        let mut rng = GameRng::from_u64(1);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            let d = rng.die(6);
            assert!((1..=6).contains(&d));
            counts[d as usize - 1] += 1;
        }
        // 10,000 expected per face; 5 standard deviations is about 456.
        assert!(
            counts.iter().all(|&c| c.abs_diff(10_000) < 500),
            "{counts:?}"
        );
    }

    #[test]
    fn weighted_never_picks_zero_weight() {
        let mut rng = GameRng::from_u64(9);
        for _ in 0..1000 {
            let i = rng.weighted(&[0, 3, 0, 1]);
            assert!(i == 1 || i == 3);
        }
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut rng = GameRng::from_u64(5);
        let mut v: Vec<u32> = (0..50).collect();
        rng.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_ne!(v, sorted);
    }
}
