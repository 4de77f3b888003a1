//! What the command line writes, and how it fails: standard output checked like a file (`out!` and `outln!` keep
//! the first failed write for `main` to report, and a reader that goes away ends the command quietly), design
//! and export files written atomically or to standard output (`write_out`), an error said with each of its causes
//! once (`error_chain`), and the exit status for unreadable or invalid input.

use racksmith::io;

/// Writes to standard output like `print!`, but a write that fails (a closed pipe, a full disk) is kept for
/// `main` to report instead of panicking; later writes are skipped.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::output::stdout_write(format_args!($($arg)*), false)
    };
}
pub(crate) use out;

/// [`out!`] with a line feed, like `println!`.
macro_rules! outln {
    () => {
        $crate::cli::output::stdout_write(format_args!(""), true)
    };
    ($($arg:tt)*) => {
        $crate::cli::output::stdout_write(format_args!($($arg)*), true)
    };
}
pub(crate) use outln;

/// The first error writing to standard output, if any.
static STDOUT_ERROR: std::sync::Mutex<Option<std::io::Error>> = std::sync::Mutex::new(None);

/// Writes to standard output, keeping the first error ([`out!`]).
pub fn stdout_write(args: std::fmt::Arguments<'_>, newline: bool) {
    use std::io::Write as _;
    let Ok(mut failed) = STDOUT_ERROR.lock() else {
        return;
    };
    if failed.is_some() {
        return;
    }
    let mut stdout = std::io::stdout().lock();
    let written = stdout.write_fmt(args).and_then(|()| {
        if newline {
            stdout.write_all(b"\n")
        } else {
            Ok(())
        }
    });
    if let Err(e) = written {
        *failed = Some(e);
    }
}

/// Flushes standard output and returns the first error writing to it, if any.
pub fn stdout_result() -> Result<(), std::io::Error> {
    use std::io::Write as _;
    let flushed = std::io::stdout().lock().flush();
    let kept = STDOUT_ERROR.lock().ok().and_then(|mut e| e.take());
    match kept {
        Some(e) => Err(e),
        None => flushed,
    }
}

/// Whether an error is standard output's reader going away (`racksmith analyze FILE | head`): not a failure of
/// the command, so it ends quietly.
pub fn is_closed_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Writes bytes to a file atomically, or to standard output for None or "-".
pub fn write_out(output: Option<&std::path::Path>, bytes: &[u8], text: bool) -> anyhow::Result<()> {
    use std::io::Write as _;
    match output.filter(|p| p.as_os_str() != "-") {
        Some(path) => {
            io::write_atomic(path, bytes)?;
            eprintln!("wrote {} ({} bytes)", path.display(), bytes.len());
        }
        None => {
            if !text {
                anyhow::bail!("this format is binary: give a file with -o");
            }
            std::io::stdout().lock().write_all(bytes)?;
        }
    }
    Ok(())
}

/// The error and its causes, each said once: a cause whose text its parent already includes (an OS error inside
/// "cannot save FILE: ...") is not repeated.
pub fn error_chain(e: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if out.contains(&text) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&text);
    }
    out
}

/// Exit status for unreadable or invalid input.
pub const EXIT_INVALID: u8 = 2;
