//! Rules 9.3–9.4 for the evaluation: what an attack is worth to the attacker, averaged
//! over the six rolls of the die on its CRT column.

use avl::crt::{Crt, Odds};

/// What is at stake in one attack, in VP-equivalents.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stakes {
    /// What each step the defender could lose costs him, cheapest first (9.4.2: the
    /// owner picks which steps go).
    pub defender_steps: Vec<f64>,
    /// The same for the attacking units.
    pub attacker_steps: Vec<f64>,
    /// Gained when the hex is emptied (every step lost, or a retreat), so that the
    /// attacker advances into it (9.6): a Victory City's VPs (14.0.1), else 0.
    pub hex: f64,
    /// Lost by the defender per hex of retreat (9.5: ground given up, and the step a
    /// retreat into an enemy ZOC costs, 9.5.3).
    pub retreat: f64,
}

/// The cost of the `n` cheapest steps (all of them, and no more, if there are fewer).
fn cost(steps: &[f64], n: u8) -> f64 {
    steps.iter().take(usize::from(n)).sum()
}

/// Rule 9.4.1: the attacker's expected gain on the column of `odds`: the defender's
/// steps and retreats, the hex when it empties, less the attacker's own steps (an `A`
/// result), over the six die rolls.
pub fn expected_gain(crt: &Crt, odds: Odds, stakes: &Stakes) -> f64 {
    let column = crt.column(odds);
    let total = stakes.defender_steps.len();
    let mut sum = 0.0;
    for die in 1..=6 {
        let r = crt.result(die, column);
        let wiped = usize::from(r.defender_steps) >= total;
        let mut gain = cost(&stakes.defender_steps, r.defender_steps);
        if wiped || r.retreat > 0 {
            gain += stakes.hex;
        }
        if !wiped {
            gain += stakes.retreat * f64::from(r.retreat);
        }
        gain -= cost(&stakes.attacker_steps, r.attacker_steps);
        sum += gain;
    }
    sum / 6.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use avl::crt::{CrtResult, Ratio};

    fn crt() -> Crt {
        let results = ["A1", "-", "1", "DR", "2DR", "A1/1"];
        Crt {
            columns: vec![Ratio { num: 1, den: 1 }],
            rows: results
                .iter()
                .map(|r| vec![CrtResult::parse(r).expect("a result")])
                .collect(),
        }
    }

    #[test]
    fn rule_9_4_expected_gain_averages_the_die() {
        let stakes = Stakes {
            defender_steps: vec![1.0, 2.0],
            attacker_steps: vec![0.5],
            hex: 5.0,
            retreat: 0.25,
        };
        // A1: -0.5; -: 0; 1: 1; DR: 5 + 0.25; 2DR: 3 + 5 (wiped, no retreat cost);
        // A1/1: 1 - 0.5.
        let want = (-0.5 + 0.0 + 1.0 + 5.25 + 8.0 + 0.5) / 6.0;
        let got = expected_gain(&crt(), Odds(0), &stakes);
        assert!((got - want).abs() < 1e-12, "{got} {want}");
    }
}
