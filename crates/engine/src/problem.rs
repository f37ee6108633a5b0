//! Rule and setup errors in one serialisable shape.

use std::fmt;

use serde::{Deserialize, Serialize};

/// What every game's rule error can tell about itself.
///
/// Games keep their own small error enums (with `Display` in plain words); this trait
/// gives the code and the rulebook section that the protocol and server report.
pub trait RuleViolation: fmt::Display + fmt::Debug {
    /// A stable machine-readable code, `snake_case` (e.g. `"slow_terrain"`).
    fn code(&self) -> &'static str;
    /// The rulebook section or ruling the error enforces (e.g. `"9.12"`, `"R-16"`).
    fn rule(&self) -> Option<&'static str>;

    /// This error as a [`Problem`].
    fn to_problem(&self) -> Problem {
        Problem {
            code: self.code().to_owned(),
            rule: self.rule().map(str::to_owned),
            message: self.to_string(),
        }
    }
}

/// A refusal in the shape the outside world sees: `{code, rule, message}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    /// Stable machine-readable code.
    pub code: String,
    /// The rule section enforced, if any.
    pub rule: Option<String>,
    /// A sentence for people.
    pub message: String,
}

impl Problem {
    /// A problem that enforces no particular rule section.
    pub fn new(code: &str, message: impl Into<String>) -> Self {
        Problem {
            code: code.to_owned(),
            rule: None,
            message: message.into(),
        }
    }

    /// A problem that enforces the given rule section.
    pub fn with_rule(code: &str, rule: &str, message: impl Into<String>) -> Self {
        Problem {
            code: code.to_owned(),
            rule: Some(rule.to_owned()),
            message: message.into(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.rule {
            Some(rule) => write!(f, "{} (rule {rule})", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for Problem {}

/// Every problem found in a setup, reported at once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SetupErrors(pub Vec<Problem>);

impl SetupErrors {
    /// A setup error with a single problem.
    pub fn one(problem: Problem) -> Self {
        SetupErrors(vec![problem])
    }
}

impl fmt::Display for SetupErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.as_slice() {
            [] => f.write_str("invalid setup"),
            [one] => write!(f, "invalid setup: {one}"),
            many => {
                write!(f, "invalid setup ({} problems):", many.len())?;
                for p in many {
                    write!(f, " {p};")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for SetupErrors {}
