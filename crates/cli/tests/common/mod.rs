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
    referee_bytes(input.as_bytes())
}

/// [`referee`] on raw bytes (not necessarily UTF-8). The input is written from another
/// thread: the referee answers while it reads, so a long script cannot fill both pipes.
pub fn referee_bytes(input: &[u8]) -> Vec<String> {
    let mut child = hexwar()
        .arg("referee")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("hexwar runs");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    let written = writer.join().unwrap();
    assert!(
        out.status.success(),
        "the referee stopped with {} after {} reply lines",
        out.status,
        out.stdout.iter().filter(|&&b| b == b'\n').count()
    );
    written.expect("the referee reads all its input");
    String::from_utf8(out.stdout)
        .expect("replies are UTF-8")
        .lines()
        .map(str::to_owned)
        .collect()
}
