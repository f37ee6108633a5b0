//! The game contract.

use std::fmt::Debug;
use std::hash::Hash;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::{GameRng, Problem, RuleViolation, Seat, SetupErrors, ToMove};

/// A named set of options that a game can be created from (a ruleset).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Preset {
    /// Name used on the wire (`"classic"`).
    pub name: String,
    /// One line for people.
    pub description: String,
    /// Fewest players the preset allows.
    pub min_players: u8,
    /// Most players the preset allows.
    pub max_players: u8,
    /// The options a game of this preset can override, with this preset's defaults.
    pub options: Vec<OptionInfo>,
}

/// One option of a game: its name, meaning and default value in a preset, and what
/// values it takes, so that a form can offer the right control for it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OptionInfo {
    /// Name used on the wire (`"auto_casualties"`).
    pub name: String,
    /// One or two sentences for people.
    pub description: String,
    /// The preset's value, as JSON (a bool, a number, a string or an object).
    pub default: serde_json::Value,
    /// What kind of value the option takes.
    #[serde(default)]
    pub kind: OptionKind,
    /// The values allowed, for [`OptionKind::Choice`] (one of them) and
    /// [`OptionKind::Choices`] (a list of them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<serde_json::Value>,
    /// The least value allowed, for [`OptionKind::Number`] and
    /// [`OptionKind::NumberOrNone`] (`null` stays allowed for the latter), and for each
    /// number of a [`OptionKind::Json`] option that is an object of numbers (dice per
    /// unit type, say). `None`: the game states no bound. A game refuses values outside
    /// `min..=max` when it is set up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<i64>,
    /// The greatest value allowed, as for [`OptionInfo::min`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<i64>,
    /// Where a form shows the option, as the game groups them (VIKTORY: `variants`,
    /// `victory`, `advanced`); `None`: the game does not say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
}

/// The kind of value an option takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OptionKind {
    /// Any JSON value the game documents (an object, say).
    #[default]
    Json,
    /// `true` or `false`.
    Bool,
    /// A whole number.
    Number,
    /// A whole number, or `null` for none.
    NumberOrNone,
    /// One of the [`OptionInfo::choices`].
    Choice,
    /// A list of distinct [`OptionInfo::choices`].
    Choices,
}

impl OptionInfo {
    /// An option whose kind is read off its default: a bool, a number, or JSON.
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        default: serde_json::Value,
    ) -> OptionInfo {
        let kind = match &default {
            serde_json::Value::Bool(_) => OptionKind::Bool,
            serde_json::Value::Number(_) => OptionKind::Number,
            _ => OptionKind::Json,
        };
        OptionInfo {
            name: name.into(),
            description: description.into(),
            default,
            kind,
            choices: Vec::new(),
            min: None,
            max: None,
            group: None,
        }
    }

    /// The same option, of kind `kind` with the allowed values `choices`.
    #[must_use]
    pub fn with_kind(mut self, kind: OptionKind, choices: Vec<serde_json::Value>) -> OptionInfo {
        self.kind = kind;
        self.choices = choices;
        self
    }

    /// The same option, taking values from `min` to `max` (both included); see
    /// [`OptionInfo::min`].
    #[must_use]
    pub fn with_range(mut self, min: i64, max: i64) -> OptionInfo {
        self.min = Some(min);
        self.max = Some(max);
        self
    }

    /// The same option, shown in `group` ([`OptionInfo::group`]).
    #[must_use]
    pub fn with_group(mut self, group: impl Into<String>) -> OptionInfo {
        self.group = Some(group.into());
        self
    }
}

/// A request to start a game from a preset, with option overrides.
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct NewGame {
    /// The preset name; `None` means the game's first (default) preset.
    #[serde(default)]
    pub preset: Option<String>,
    /// Overrides of the preset's options, by option name.
    #[serde(default)]
    pub options: serde_json::Map<String, serde_json::Value>,
    /// Number of players; `None` means the preset's smallest.
    #[serde(default)]
    pub players: Option<u8>,
}

/// A game: its state, and the rules that act on it.
///
/// The implementing type is the game state (private fields, read accessors, cheap to
/// clone). All functions are pure: no I/O, no clock, no global randomness.
///
/// Chance is explicit. When [`Game::to_move`] says [`ToMove::Chance`], the legal actions
/// are the possible outcomes (one die, one tile kind, one chit), and
/// [`Game::chance_outcomes`] gives their integer weights.
pub trait Game:
    Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// Any position, valid or not, as plain public data (files, the wire, tests).
    type Setup: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// One decision at the grain a person makes it.
    type Action: Clone
        + Debug
        + PartialEq
        + Eq
        + Hash
        + Ord
        + Serialize
        + DeserializeOwned
        + Send
        + Sync;
    /// Something that happened, for logs, animation and per-seat delivery.
    type Event: Clone + Debug + PartialEq + Eq + Serialize + DeserializeOwned + Send + Sync;
    /// What one seat (or a spectator) may see.
    type View: Clone + Debug + PartialEq + Eq + Serialize + DeserializeOwned + Send + Sync;
    /// Why an action is refused; names the rule section.
    type Error: RuleViolation + Clone + Send + Sync;

    /// The game family's wire name (`"viktory"`).
    const NAME: &'static str;

    /// The presets (rulesets) this game offers, the default first.
    fn presets() -> Vec<Preset>;

    /// The starting setup for a preset with option overrides and a player count.
    /// Unknown presets, unknown options, bad values and conflicting options are all
    /// reported at once.
    fn new_setup(request: &NewGame) -> Result<Self::Setup, SetupErrors>;

    /// Validates a setup into a state, reporting every problem at once.
    fn from_setup(setup: &Self::Setup) -> Result<Self, SetupErrors>;

    /// The number of seats at the table.
    fn seats(&self) -> u8;

    /// Who must decide now.
    fn to_move(&self) -> ToMove;

    /// The game turn now, as the game's views show it to everyone (`None` for a game
    /// without turns). Cheap: servers read it after every action for their game lists.
    fn game_turn(&self) -> Option<u32> {
        None
    }

    /// Every legal action now, sorted and without duplicates. At a chance node: the
    /// possible outcomes. Empty only when the game is over.
    fn legal_actions(&self) -> Vec<Self::Action>;

    /// Whether `action` is legal now; the error names the rule it breaks.
    /// Agrees exactly with [`Game::legal_actions`].
    fn check(&self, action: &Self::Action) -> Result<(), Self::Error>;

    /// Applies an action that [`Game::check`] accepted. Search code may call it directly;
    /// everything else calls [`Game::apply`].
    fn apply_unchecked(&mut self, action: Self::Action) -> Vec<Self::Event>;

    /// Checks then applies an action. On error the state is unchanged.
    fn apply(&mut self, action: Self::Action) -> Result<Vec<Self::Event>, Self::Error> {
        self.check(&action)?;
        Ok(self.apply_unchecked(action))
    }

    /// At a chance node, the possible outcomes with integer weights (probability =
    /// weight / sum). Empty elsewhere.
    fn chance_outcomes(&self) -> Vec<(Self::Action, u32)>;

    /// Draws the outcome of the chance node from `rng`.
    ///
    /// # Panics
    /// If the state is not at a chance node.
    fn sample_chance(&self, rng: &mut GameRng) -> Self::Action {
        let mut outcomes = self.chance_outcomes();
        assert!(
            !outcomes.is_empty(),
            "sample_chance called outside a chance node"
        );
        let weights: Vec<u32> = outcomes.iter().map(|(_, w)| *w).collect();
        let i = rng.weighted(&weights);
        outcomes.swap_remove(i).0
    }

    /// What `seat` may see; `None` is a spectator's public view.
    fn view(&self, seat: Option<Seat>) -> Self::View;

    /// The form of `event` that `seat` (or a spectator, `None`) may receive, or `None`
    /// when that seat must not hear of it at all. By default every event is public.
    ///
    /// `self` is the state just after the action that produced the event, so a game
    /// with fog of war can filter by what each seat sees then.
    fn event_for(&self, event: &Self::Event, seat: Option<Seat>) -> Option<Self::Event> {
        let _ = seat;
        Some(event.clone())
    }

    /// Whether the seat that just took `action` may take it back (the server's undo):
    /// `self` is the state after the action, `before` the state before it, `events`
    /// what it caused (unfiltered). An action may be taken back only if it taught its
    /// seat nothing new (no die, no draw, no tile or unit coming into sight) and touched
    /// no other seat. Chance actions are never taken back, so the dice of a game stay
    /// the ones its seed gives. By default no action can be taken back.
    fn undoable(&self, before: &Self, action: &Self::Action, events: &[Self::Event]) -> bool {
        let _ = (before, action, events);
        false
    }

    /// Figures that help `seat` decide, computed only from what it may see: for
    /// example the exact odds of the battles it can start or is fighting. JSON, shown
    /// by clients as they are; `Value::Null` (the default) when there are none.
    fn advice(&self, seat: Seat) -> serde_json::Value {
        let _ = seat;
        serde_json::Value::Null
    }

    /// The game's fixed public facts, the same for every seat and for the whole game
    /// (a printed map and its counters, say), which views leave out so that they are
    /// not sent again with every move. JSON; `Value::Null` (the default) when the views
    /// carry everything.
    fn board(&self) -> serde_json::Value {
        serde_json::Value::Null
    }

    /// The setup that reproduces this state (for `state` exports and puzzles).
    fn to_setup(&self) -> Self::Setup;

    /// A short human-readable text for an action (logs, the referee's `legal` list).
    fn describe_action(&self, action: &Self::Action) -> String {
        format!("{action:?}")
    }

    /// A short human-readable text for an event; `self` is a state of the same game
    /// (the one just after the event), for names that live in its rules or scenario.
    fn describe_event(&self, event: &Self::Event) -> String {
        format!("{event:?}")
    }
}

/// Parses an action from JSON for a game, as a [`Problem`] on failure.
pub(crate) fn parse_json<T: DeserializeOwned>(
    what: &str,
    value: serde_json::Value,
) -> Result<T, Problem> {
    serde_json::from_value(value)
        .map_err(|e| Problem::new("malformed", format!("not a valid {what}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An option's range is on the wire only when the game states one, so catalogs of
    /// options without ranges read as before.
    #[test]
    fn option_ranges_are_written_only_when_given() {
        let plain = OptionInfo::new("length", "How long.", serde_json::json!(5));
        let text = serde_json::to_value(&plain).unwrap();
        assert!(
            text.get("min").is_none() && text.get("max").is_none(),
            "{text}"
        );
        let ranged = plain.with_range(1, 9);
        let text = serde_json::to_value(&ranged).unwrap();
        assert_eq!(text["min"], 1);
        assert_eq!(text["max"], 9);
        let back: OptionInfo = serde_json::from_value(text).unwrap();
        assert_eq!(back, ranged);
    }
}
