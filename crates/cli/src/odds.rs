//! `hexwar odds`: exact VIKTORY battle and bombardment odds from the command line, or
//! a labelled Monte Carlo estimate for a battle too costly to compute exactly (see
//! docs/odds.md).

use std::fmt::Write as _;
use std::process::ExitCode;

use engine::NewGame;
use viktory::odds::{
    BattleOdds, BattleSpec, BombardOdds, Policy, RetreatPolicy, SpecUnit, Survivors, TacticalPolicy,
};
use viktory::{PerKind, Rules, Terrain, UnitKind};

/// `hexwar odds`: the battle (or bombardment) to compute.
#[derive(clap::Args)]
pub(crate) struct OddsArgs {
    /// Ruleset preset: classic, expansion, online or viktory1.
    #[arg(long, default_value = "classic")]
    ruleset: String,
    /// Attacking units: counts and types, comma-separated: i(nfantry), c(avalry),
    /// a(rtillery), f(rigate), e.g. `2i,1c,1a`. `@N` after a group gives the hex side
    /// (0-5) it attacks across (default 0), e.g. `1i@0,1i@3` for the hex-side bonus.
    #[arg(long, value_name = "UNITS")]
    attacker: Option<String>,
    /// Defending units in the battle hex, e.g. `1i,1a`; `none` for an empty town or city.
    #[arg(long, value_name = "UNITS", default_value = "none")]
    defender: String,
    /// Terrain of the battle hex: plains, grassland, forest, mountain or water (a naval
    /// battle, frigates only).
    #[arg(long, default_value = "plains")]
    terrain: String,
    /// The defender's town stands in the battle hex.
    #[arg(long, conflicts_with = "city")]
    town: bool,
    /// The defender's city stands in the battle hex.
    #[arg(long)]
    city: bool,
    /// The defender has lost his capital (classic: his cities defend as towns, 14.0).
    #[arg(long)]
    capital_lost: bool,
    /// Defending frigates next to the battle hex (naval support, 12.32).
    #[arg(long, value_name = "N", default_value_t = 0)]
    naval_support: u8,
    /// Combat supply (Expansion: hits on 4 or less): attacker, defender or both.
    #[arg(long, value_name = "SIDE")]
    supply: Option<String>,
    /// The attacker retreats when fewer than N of his units are left (default: he fights
    /// to the end).
    #[arg(long, value_name = "N")]
    retreat_below: Option<u8>,
    /// How the firer picks the casualty of a 1: most-dice (the default: the unit whose
    /// loss costs the other side most dice, as players choose), owners-order (R-14's
    /// order, the owner's own) or strongest (frigates, cavalry, artillery, infantry).
    #[arg(long, value_name = "POLICY", default_value = "most-dice")]
    tactical: String,
    /// A rules option, NAME=VALUE with a JSON value (repeatable), e.g.
    /// `--option luck_averaging=true` or `--option hit_max=4`.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Odds of N bombardments of the defending units (one after another) instead of a
    /// battle.
    #[arg(long, value_name = "N")]
    bombard: Option<u8>,
    /// Also print the distribution of the units left on each side.
    #[arg(long)]
    survivors: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// Runs `hexwar odds`.
pub(crate) fn run(args: &OddsArgs) -> ExitCode {
    match compute(args) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("hexwar odds: {message}");
            ExitCode::FAILURE
        }
    }
}

fn compute(args: &OddsArgs) -> Result<String, String> {
    let spec = spec(args)?;
    if let Some(shots) = args.bombard {
        if args.attacker.is_some() {
            return Err("--bombard takes no --attacker: it bombards the --defender units".into());
        }
        if shots == 0 || shots > 50 {
            return Err("--bombard takes 1 to 50 shots".into());
        }
        let odds = spec.bombard_odds(shots).map_err(|e| e.to_string())?;
        return Ok(if args.json {
            json(&serde_json::json!({ "ruleset": args.ruleset, "bombard": odds }))
        } else {
            bombard_table(args, &spec, &odds)
        });
    }
    let odds = spec.odds().map_err(|e| e.to_string())?;
    Ok(if args.json {
        json(&serde_json::json!({ "ruleset": args.ruleset, "battle": odds }))
    } else {
        battle_table(args, &spec, &odds)
    })
}

fn json(value: &serde_json::Value) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

/// The battle described by the flags.
fn spec(args: &OddsArgs) -> Result<BattleSpec, String> {
    let rules = rules(args)?;
    let mut spec = BattleSpec::new(rules);
    spec.terrain = terrain(&args.terrain)?;
    spec.attackers = match (&args.attacker, args.bombard) {
        (Some(text), _) => units(text, true)?,
        // A bombardment needs no attacking units; one stands in for the position.
        (None, Some(_)) => vec![SpecUnit {
            kind: if spec.terrain == Terrain::Water {
                UnitKind::Frigate
            } else {
                UnitKind::Infantry
            },
            side: 0,
        }],
        (None, None) => return Err("say who attacks, e.g. --attacker 2i,1c".into()),
    };
    let mut defenders = PerKind::default();
    for u in units(&args.defender, false)? {
        let n = defenders.get_mut(u.kind);
        *n = n.saturating_add(1);
    }
    spec.defenders = defenders;
    spec.town = if args.city {
        Some(true)
    } else if args.town {
        Some(false)
    } else {
        None
    };
    spec.defender_capital = !args.capital_lost;
    spec.naval_support = args.naval_support;
    match args.supply.as_deref() {
        None => {}
        Some("attacker") => spec.attacker_supply = true,
        Some("defender") => spec.defender_supply = true,
        Some("both") => {
            spec.attacker_supply = true;
            spec.defender_supply = true;
        }
        Some(other) => {
            return Err(format!(
                "--supply is attacker, defender or both, not {other:?}"
            ));
        }
    }
    if (spec.attacker_supply || spec.defender_supply) && !spec.rules.combat_supply {
        return Err(format!(
            "the {} rules have no combat supply (try --ruleset expansion, or --option combat_supply=true)",
            args.ruleset
        ));
    }
    spec.policy = Policy {
        retreat: match args.retreat_below {
            None => RetreatPolicy::FightToTheEnd,
            Some(n) => RetreatPolicy::WhenFewerThan(n),
        },
        tactical: match args.tactical.as_str() {
            "most-dice" => TacticalPolicy::MostDice,
            "owners-order" => TacticalPolicy::OwnersOrder,
            "strongest" => TacticalPolicy::Strongest,
            other => {
                return Err(format!(
                    "--tactical is most-dice, owners-order or strongest, not {other:?}"
                ));
            }
        },
    };
    Ok(spec)
}

/// The preset's rules with the `--option` overrides.
fn rules(args: &OddsArgs) -> Result<Rules, String> {
    let mut options = serde_json::Map::new();
    for o in &args.options {
        let Some((name, value)) = o.split_once('=') else {
            return Err(format!("--option {o:?} is not NAME=VALUE"));
        };
        // A bare word is a string, so `--option suppression=classic` works too.
        let value = serde_json::from_str(value)
            .unwrap_or_else(|_| serde_json::Value::String(value.to_owned()));
        options.insert(name.trim().to_owned(), value);
    }
    let request = NewGame {
        preset: Some(args.ruleset.clone()),
        players: Some(2),
        options,
    };
    Rules::from_request(&request).map_err(|e| {
        e.0.iter()
            .map(|p| p.message.clone())
            .collect::<Vec<_>>()
            .join("; ")
    })
}

fn terrain(text: &str) -> Result<Terrain, String> {
    Ok(match text.trim().to_ascii_lowercase().as_str() {
        "plains" | "plain" => Terrain::Plains,
        "grassland" | "grass" => Terrain::Grassland,
        "forest" => Terrain::Forest,
        "mountain" | "mountains" => Terrain::Mountain,
        "water" | "sea" => Terrain::Water,
        other => {
            return Err(format!(
                "--terrain is plains, grassland, forest, mountain or water, not {other:?}"
            ));
        }
    })
}

/// Parses `2i,1c@1,a`: counts (default 1), types, optional hex sides.
fn units(text: &str, sides: bool) -> Result<Vec<SpecUnit>, String> {
    let text = text.trim();
    if text.is_empty() || text == "none" || text == "0" {
        return Ok(vec![]);
    }
    let mut out = Vec::new();
    for group in text.split(',') {
        let group = group.trim();
        let (body, side) = match group.split_once('@') {
            Some((b, s)) if sides => {
                let side: u8 = s
                    .trim()
                    .parse()
                    .ok()
                    .filter(|&n| n <= 5)
                    .ok_or_else(|| format!("{group:?}: a hex side is 0 to 5"))?;
                (b, side)
            }
            Some(_) => return Err(format!("{group:?}: defending units have no hex side")),
            None => (group, 0),
        };
        let digits = body.chars().take_while(char::is_ascii_digit).count();
        let count: u32 = if digits == 0 {
            1
        } else {
            body[..digits]
                .parse()
                .map_err(|_| format!("{group:?}: bad count"))?
        };
        if count > 99 {
            return Err(format!("{group:?}: at most 99 units of a kind"));
        }
        let kind = match body[digits..].trim().to_ascii_lowercase().as_str() {
            "i" | "inf" | "infantry" => UnitKind::Infantry,
            "c" | "cav" | "cavalry" => UnitKind::Cavalry,
            "a" | "art" | "artillery" => UnitKind::Artillery,
            "f" | "frigate" | "frigates" => UnitKind::Frigate,
            _ => {
                return Err(format!(
                    "{group:?} is not units like 2i, 1c, 1a or 1f (infantry, cavalry, artillery, frigate)"
                ));
            }
        };
        out.extend((0..count).map(|_| SpecUnit { kind, side }));
    }
    Ok(out)
}

fn describe(units: PerKind) -> String {
    let parts: Vec<String> = UnitKind::ALL
        .iter()
        .filter(|&&k| units.get(k) > 0)
        .map(|&k| format!("{} {k}", units.get(k)))
        .collect();
    if parts.is_empty() {
        "no units".into()
    } else {
        parts.join(", ")
    }
}

fn place(spec: &BattleSpec) -> String {
    let mut s = spec.terrain.name().to_owned();
    match spec.town {
        Some(true) => s.push_str(" city"),
        Some(false) => s.push_str(" town"),
        None => s.push_str(" hex"),
    }
    if spec.naval_support > 0 {
        let _ = write!(s, ", naval support from {} frigate(s)", spec.naval_support);
    }
    s
}

fn percent(p: f64) -> String {
    format!("{:>8.2} %", 100.0 * p)
}

fn battle_table(args: &OddsArgs, spec: &BattleSpec, o: &BattleOdds) -> String {
    let mut t = String::new();
    let mut sides: Vec<u8> = spec.attackers.iter().map(|u| u.side).collect();
    sides.sort_unstable();
    sides.dedup();
    let _ = writeln!(
        t,
        "VIKTORY battle odds ({}): {} attack {} in a {}",
        args.ruleset,
        describe(o.attackers),
        describe(o.defenders),
        place(spec)
    );
    let mut notes = Vec::new();
    if sides.len() > 1 {
        notes.push(format!("attacking across {} hex sides", sides.len()));
    }
    if spec.attacker_supply {
        notes.push("attacker in combat supply".into());
    }
    if spec.defender_supply {
        notes.push("defender in combat supply".into());
    }
    if args.capital_lost {
        notes.push("defender without his capital".into());
    }
    notes.push(match spec.policy.retreat {
        RetreatPolicy::FightToTheEnd => "the attacker fights to the end".into(),
        RetreatPolicy::WhenFewerThan(n) => {
            format!("the attacker retreats when fewer than {n} of his units are left")
        }
    });
    notes.push(
        match spec.policy.tactical {
            TacticalPolicy::MostDice => {
                "a 1 takes the unit whose loss costs the other side most dice"
            }
            TacticalPolicy::OwnersOrder => {
                "a 1 takes units in the owner's order (infantry, artillery, cavalry, frigates)"
            }
            TacticalPolicy::Strongest => {
                "a 1 takes the strongest unit (frigates, cavalry, artillery, infantry)"
            }
        }
        .into(),
    );
    let _ = writeln!(t, "({})", notes.join("; "));
    if let (false, Some(n)) = (o.exact, o.samples) {
        // Two standard errors of a probability near one half.
        let margin = 100.0 / f64::from(n).sqrt();
        let _ = writeln!(
            t,
            "estimate ({n} samples): too costly to compute exactly; each probability within about {margin:.1} points"
        );
    }
    let _ = writeln!(t);
    let _ = writeln!(t, "outcome                 probability");
    for (name, p) in [
        ("attacker wins", o.attacker_wins),
        ("defender holds", o.defender_holds),
        ("both destroyed", o.both_destroyed),
        ("attacker retreats", o.attacker_retreats),
    ] {
        let _ = writeln!(t, "{name:<22}{}", percent(p));
    }
    let _ = writeln!(t);
    let _ = writeln!(t, "                        attacker  defender");
    let _ = writeln!(
        t,
        "units                   {:>8}  {:>8}",
        o.attackers.total(),
        o.defenders.total()
    );
    let _ = writeln!(
        t,
        "expected losses         {:>8.3}  {:>8.3}",
        o.expected_attacker_losses, o.expected_defender_losses
    );
    if args.survivors {
        survivors(&mut t, "attacker", &o.attacker_survivors);
        survivors(&mut t, "defender", &o.defender_survivors);
    }
    t
}

fn survivors(t: &mut String, side: &str, list: &[Survivors]) {
    let _ = writeln!(t);
    let _ = writeln!(t, "{side} units left{:>26}", "probability");
    for s in list {
        let _ = writeln!(t, "  {:<36}{}", describe(s.units), percent(s.probability));
    }
}

fn bombard_table(args: &OddsArgs, spec: &BattleSpec, o: &BombardOdds) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "VIKTORY bombardment odds ({}): {} bombardment(s) of {} in a {}",
        args.ruleset,
        o.shots,
        describe(o.targets),
        place(spec)
    );
    let _ = writeln!(t, "(each shot hits with {})", percent(o.hit_chance).trim());
    let _ = writeln!(t);
    let _ = writeln!(t, "units lost              probability");
    for (k, p) in o.losses.iter().enumerate() {
        let _ = writeln!(t, "{k:<22}{}", percent(*p));
    }
    let _ = writeln!(t);
    let _ = writeln!(t, "expected losses         {:>8.3}", o.expected_losses);
    if args.survivors {
        survivors(&mut t, "defender", &o.survivors);
    }
    t
}
