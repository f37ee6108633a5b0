//! Rule 9.3, 9.4: combat ratios and the Combat Results Table, as data.

use serde::{Deserialize, Serialize};

/// A combat ratio column `num/den - 1` (`1.5-1` is 3/2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Ratio {
    /// Numerator.
    pub num: u32,
    /// Denominator.
    pub den: u32,
}

impl Ratio {
    /// Parses `"3-1"`, `"1.5-1"`, `"3:1"`.
    pub fn parse(text: &str) -> Option<Ratio> {
        let (a, b) = text.trim().split_once(['-', ':'])?;
        if b.trim() != "1" {
            return None;
        }
        let a = a.trim();
        let (whole, frac) = match a.split_once('.') {
            Some((w, f)) => (w, f),
            None => (a, ""),
        };
        if whole.is_empty() || frac.len() > 2 || !frac.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let whole: u32 = whole.parse().ok()?;
        let den = 10u32.pow(frac.len() as u32);
        let f: u32 = if frac.is_empty() {
            0
        } else {
            frac.parse().ok()?
        };
        let num = whole.checked_mul(den)?.checked_add(f)?;
        if whole > 1000 {
            return None;
        }
        Some(Ratio { num, den })
    }

    /// Whether `self` is a strictly greater ratio than `other`.
    pub const fn above(self, other: Ratio) -> bool {
        (self.num as u64) * (other.den as u64) > (other.num as u64) * (self.den as u64)
    }

    /// Whether attack `a` against defense `d` reaches this ratio (`a/d >= num/den`).
    pub const fn reached_by(self, a: u32, d: u32) -> bool {
        (a as u64) * (self.den as u64) >= (self.num as u64) * (d as u64)
    }
}

impl std::fmt::Display for Ratio {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.num.is_multiple_of(self.den) {
            write!(f, "{}-1", self.num / self.den)
        } else {
            let whole = self.num / self.den;
            let frac = self.num % self.den;
            let s = format!("{frac:0w$}", w = (self.den.ilog10()) as usize);
            write!(f, "{whole}.{}-1", s.trim_end_matches('0'))
        }
    }
}

/// Rule 9.4.1: one CRT result: steps lost by each side and the defender's retreat.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct CrtResult {
    /// Steps the attacker loses ("A1").
    pub attacker_steps: u8,
    /// Steps the defender loses ("2").
    pub defender_steps: u8,
    /// Hexes the defender retreats ("DR" 1, "DR2" 2).
    pub retreat: u8,
}

impl CrtResult {
    /// Parses `"-"`, `"A1"`, `"1"`, `"DR"`, `"3DR2"`, `"A1/1DR"` (parts joined by `/` or
    /// spaces).
    pub fn parse(text: &str) -> Option<CrtResult> {
        let mut r = CrtResult::default();
        let t = text.trim();
        if t == "-" || t == "—" || t.is_empty() {
            return Some(r);
        }
        for part in t.split(['/', ' ']).filter(|p| !p.is_empty()) {
            if let Some(n) = part.strip_prefix('A') {
                r.attacker_steps = n.parse().ok().filter(|&n| n <= 9)?;
                continue;
            }
            let (steps, retreat) = match part.find("DR") {
                Some(i) => (&part[..i], Some(&part[i + 2..])),
                None => (part, None),
            };
            if !steps.is_empty() {
                r.defender_steps = steps.parse().ok().filter(|&n| n <= 9)?;
            }
            match retreat {
                Some("") => r.retreat = 1,
                Some(n) => r.retreat = n.parse().ok().filter(|&n| (1..=3).contains(&n))?,
                None => {}
            }
        }
        Some(r)
    }
}

impl std::fmt::Display for CrtResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts = Vec::new();
        if self.attacker_steps > 0 {
            parts.push(format!("A{}", self.attacker_steps));
        }
        let mut d = String::new();
        if self.defender_steps > 0 {
            d.push_str(&self.defender_steps.to_string());
        }
        match self.retreat {
            0 => {}
            1 => d.push_str("DR"),
            n => {
                d.push_str("DR");
                d.push_str(&n.to_string());
            }
        }
        if !d.is_empty() {
            parts.push(d);
        }
        if parts.is_empty() {
            f.write_str("-")
        } else {
            f.write_str(&parts.join("/"))
        }
    }
}

/// The CRT: ratio columns lowest first (the last read as N-1+) and six die rows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Crt {
    /// Column ratios.
    pub columns: Vec<Ratio>,
    /// `rows[die - 1][column]`.
    pub rows: Vec<Vec<CrtResult>>,
}

/// Rule 9.3.2: where a ratio falls on the extended ladder of the CRT: a column index, or
/// above the last column, the whole ratio (`steps` past it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Odds(pub i32);

impl Crt {
    /// Rule 9.3.2: the rung of `attack : defense` rounded down (to a column, or above the
    /// last to a whole ratio); `None` below the first column. `defense` must not be 0.
    pub fn odds(&self, attack: u32, defense: u32) -> Option<Odds> {
        let last = *self.columns.last()?;
        if last.reached_by(attack, defense) {
            let whole = attack / defense.max(1);
            let base = last.num / last.den;
            return Some(Odds(
                self.columns.len() as i32 - 1 + (whole.saturating_sub(base)) as i32,
            ));
        }
        self.columns
            .iter()
            .rposition(|c| c.reached_by(attack, defense))
            .map(|i| Odds(i as i32))
    }

    /// The column index for a rung (9.3.4: above the last column, the last).
    pub fn column(&self, odds: Odds) -> usize {
        (odds.0.max(0) as usize).min(self.columns.len().saturating_sub(1))
    }

    /// The ratio a rung stands for, for people.
    pub fn ratio_name(&self, odds: Odds) -> String {
        let n = self.columns.len() as i32;
        if odds.0 < 0 {
            return "below 1-1".into();
        }
        if odds.0 < n {
            return self.columns[odds.0 as usize].to_string();
        }
        let last = self.columns[(n - 1) as usize];
        format!("{}-1", last.num / last.den + (odds.0 - n + 1) as u32)
    }

    /// The result for a die roll (1–6) in a column.
    pub fn result(&self, die: u8, column: usize) -> CrtResult {
        self.rows
            .get(usize::from(die.saturating_sub(1)))
            .and_then(|r| r.get(column))
            .copied()
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_and_results_parse() {
        assert_eq!(Ratio::parse("1.5-1"), Some(Ratio { num: 15, den: 10 }));
        assert_eq!(Ratio::parse("10-1").unwrap().to_string(), "10-1");
        assert_eq!(Ratio::parse("1.5-1").unwrap().to_string(), "1.5-1");
        assert_eq!(Ratio::parse("x"), None);
        assert_eq!(
            CrtResult::parse("3DR2"),
            Some(CrtResult {
                attacker_steps: 0,
                defender_steps: 3,
                retreat: 2
            })
        );
        assert_eq!(CrtResult::parse("A1/1DR").unwrap().to_string(), "A1/1DR");
        assert_eq!(CrtResult::parse("-"), Some(CrtResult::default()));
        assert_eq!(CrtResult::parse("Q"), None);
    }
}
