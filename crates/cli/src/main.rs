//! `hexwar`: play, referee, replay and verify hex-and-counter wargames.

#![forbid(unsafe_code)]

use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use protocol::{Catalog, Referee};

#[derive(Parser)]
#[command(
    name = "hexwar",
    version,
    about = "Rules-enforcing engine for hex-and-counter wargames"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Speak the JSON-lines referee protocol on stdin/stdout (see docs/protocol.md).
    Referee,
    /// Re-apply a game record and report the first illegal step, if any.
    Replay {
        /// The record file (JSON).
        file: PathBuf,
    },
    /// Prove that every die roll of a finished game came from its committed seed.
    Verify {
        /// The record file (JSON), with its seed revealed.
        file: PathBuf,
    },
    /// Run the game server and web client.
    Serve,
    /// Run bot tournaments.
    Simulate,
    /// Print exact battle odds.
    Odds,
    /// Check or render an A Victory Lost scenario file.
    Scenario,
}

/// Every game family this build offers.
fn catalog() -> Catalog {
    Catalog::new()
        .with::<viktory::Viktory>()
        .with::<engine::toy::DiceRace>()
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Referee => referee(),
        Command::Replay { file } => check_record(&file, false),
        Command::Verify { file } => check_record(&file, true),
        Command::Serve => not_yet("serve", 5),
        Command::Simulate => not_yet("simulate", 7),
        Command::Odds => not_yet("odds", 7),
        Command::Scenario => not_yet("scenario", 8),
    }
}

fn not_yet(command: &str, issue: u32) -> ExitCode {
    eprintln!("hexwar {command}: not implemented yet (tracked as issue #{issue})");
    ExitCode::from(2)
}

fn referee() -> ExitCode {
    let mut referee = Referee::new(catalog());
    let stdin = io::stdin().lock();
    let mut stdout = io::stdout().lock();
    for line in stdin.lines() {
        let Ok(line) = line else {
            eprintln!("hexwar referee: stdin is not valid UTF-8 text");
            return ExitCode::FAILURE;
        };
        if line.trim().is_empty() {
            continue;
        }
        let reply = referee.handle_line(&line);
        if writeln!(stdout, "{reply}")
            .and_then(|()| stdout.flush())
            .is_err()
        {
            // The reader went away; nothing more to say.
            return ExitCode::SUCCESS;
        }
    }
    ExitCode::SUCCESS
}

fn check_record(file: &Path, verify: bool) -> ExitCode {
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("hexwar: cannot read {}: {e}", file.display());
            return ExitCode::FAILURE;
        }
    };
    let record: serde_json::Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("hexwar: {} is not JSON: {e}", file.display());
            return ExitCode::FAILURE;
        }
    };
    let catalog = catalog();
    let result = catalog.for_record(&record).and_then(|entry| {
        if verify {
            entry.verify(record)
        } else {
            entry.replay(record)
        }
    });
    match result {
        Ok(summary) => {
            let to_move = serde_json::to_string(&summary.to_move).unwrap_or_default();
            match summary.chance_verified {
                Some(n) => println!(
                    "ok: {} actions replayed; all {n} chance outcomes come from the committed seed; to move: {to_move}",
                    summary.actions
                ),
                None => println!(
                    "ok: {} actions replayed, all legal; to move: {to_move}",
                    summary.actions
                ),
            }
            ExitCode::SUCCESS
        }
        Err(reason) => {
            eprintln!("{}: {reason}", file.display());
            ExitCode::FAILURE
        }
    }
}
