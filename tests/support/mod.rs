//! What the end-to-end tests share: running a program with a time limit.
//!
//! The standard output and error are read on their own threads while the program runs, so a
//! program that writes more than a pipe holds (64 KiB on Linux) is not blocked on a full pipe
//! until the time limit kills it; and every run ends within its limit, so no test can hang CI.

use std::io::Read;
use std::process::{Command, Output, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

fn drain(pipe: Option<impl Read + Send + 'static>) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        bytes
    })
}

/// Runs `command` to its end and returns what it wrote; the test fails when it runs longer than `limit`, and the program is killed.
pub fn output_within(command: Command, limit: Duration) -> Output {
    let shown = format!("{command:?}");
    try_output_within(command, limit)
        .unwrap_or_else(|error| panic!("cannot start {shown}: {error}"))
}

/// [`output_within`], with `Err` when the program cannot be started (a tool not on `PATH`).
pub fn try_output_within(mut command: Command, limit: Duration) -> std::io::Result<Output> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if start.elapsed() > limit {
            // The pipes are not waited for: a process the program started may still hold them.
            let _ = child.kill();
            let _ = child.wait();
            panic!("{command:?} took more than {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Ok(Output {
        status,
        stdout: stdout.join().expect("the standard output read"),
        stderr: stderr.join().expect("the standard error read"),
    })
}
