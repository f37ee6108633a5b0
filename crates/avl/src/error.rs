//! Why an action is refused, naming the rule section it enforces.

use std::borrow::Cow;
use std::fmt;

use engine::RuleViolation;

/// A refused action: a stable code, the rule section (or ruling), a sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleError {
    /// Stable code.
    pub code: &'static str,
    /// Rulebook section or ruling (`"8.2.1"`, `"H-101"`).
    pub rule: &'static str,
    /// For people.
    pub message: String,
}

impl RuleError {
    /// A refusal under `rule`.
    pub fn new(code: &'static str, rule: &'static str, message: impl Into<String>) -> RuleError {
        RuleError {
            code,
            rule,
            message: message.into(),
        }
    }
}

/// The sentence alone: the rule travels in its own field ([`RuleViolation::rule`]), and
/// whoever shows both adds it (the page, [`engine::Problem`]'s display), once.
impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RuleError {}

impl RuleViolation for RuleError {
    fn code(&self) -> &'static str {
        self.code
    }

    fn rule(&self) -> Option<&'static str> {
        Some(self.rule)
    }
}

/// A refusal not yet made into a [`RuleError`]: what the checks that the legal actions
/// run many times return, so that a refused candidate allocates nothing (its sentence
/// is borrowed until it becomes a [`RuleError`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Refusal {
    code: &'static str,
    rule: &'static str,
    message: Cow<'static, str>,
}

impl From<Refusal> for RuleError {
    fn from(r: Refusal) -> RuleError {
        RuleError::new(r.code, r.rule, r.message)
    }
}

/// Shorthand for a refusal, as a [`RuleError`] or as a [`Refusal`].
pub(crate) fn refuse<T, E: From<Refusal>>(
    code: &'static str,
    rule: &'static str,
    message: impl Into<Cow<'static, str>>,
) -> Result<T, E> {
    Err(E::from(Refusal {
        code,
        rule,
        message: message.into(),
    }))
}
