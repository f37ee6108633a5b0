//! What the CLI's integration tests share: the binary, and the referee run on a script.
#![allow(dead_code, unreachable_pub)]

use std::io::Write;
use std::process::{Command, Stdio};

/// The `hexwar` binary under test.
pub fn hexwar() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hexwar"))
}

/// Runs `hexwar referee` on `input`; checks that it ends cleanly and returns its reply
/// lines.
pub fn referee(input: &str) -> Vec<String> {
    let mut child = hexwar()
        .arg("referee")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("hexwar runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "referee exits cleanly");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}
