//! The one error type of this crate: text that does not parse.

use std::error::Error;
use std::fmt;

/// Text that is not a valid [`Hex`](crate::Hex), [`Direction`](crate::Direction) or
/// [`HexNumber`](crate::HexNumber).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    what: &'static str,
    input: String,
}

impl ParseError {
    pub(crate) fn new(what: &'static str, input: &str) -> ParseError {
        ParseError {
            what,
            input: input.to_owned(),
        }
    }

    /// What was being parsed: `"hex"`, `"direction"` or `"hex number"`.
    pub fn what(&self) -> &'static str {
        self.what
    }

    /// The text that failed to parse.
    pub fn input(&self) -> &str {
        &self.input
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid {}: {:?}", self.what, self.input)
    }
}

impl Error for ParseError {}
