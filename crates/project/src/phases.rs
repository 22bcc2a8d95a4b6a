//! Where a keystroke's time goes inside the server, for benchmarks: with
//! `HCL_TYPES_PHASES=FILE` each publication's header write appends one
//! line to FILE naming the phases passed since the last one, each with
//! its wall-clock time from the first (µs) and the CPU time its thread had
//! used (µs; equal steps mean the thread was not kept waiting).
//! `benches/phases.py FILE` sums them up. Off (one load) without it.

use analysis::sync::Locked;
use std::io::Write;
use std::sync::{Mutex, OnceLock};
use std::time::{Instant, SystemTime};

struct Log {
    file: std::fs::File,
    marks: Vec<(&'static str, Instant, f64)>,
}

fn log() -> Option<&'static Mutex<Log>> {
    static LOG: OnceLock<Option<Mutex<Log>>> = OnceLock::new();
    LOG.get_or_init(|| {
        let path = std::env::var_os("HCL_TYPES_PHASES")?;
        let file = std::fs::OpenOptions::new().create(true).append(true).open(path).ok()?;
        Some(Mutex::new(Log { file, marks: Vec::new() }))
    })
    .as_ref()
}

/// The CPU time this thread has used, in µs.
fn thread_cpu() -> f64 {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: clock_gettime only writes the timespec it is given.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0 {
            return ts.tv_sec as f64 * 1e6 + ts.tv_nsec as f64 / 1e3;
        }
    }
    0.0
}

/// Marks that the phase `name` is reached.
pub fn mark(name: &'static str) {
    if let Some(log) = log() {
        let cpu = thread_cpu();
        log.locked().marks.push((name, Instant::now(), cpu));
    }
}

/// Writes the marks since the last line as one line (after a publication's
/// header is written). The line starts with the first mark's wall-clock
/// time (µs since the epoch) to match it with a client's own times.
pub fn line() {
    let Some(log) = log() else { return };
    let mut log = log.locked();
    let Some(&(_, first, _)) = log.marks.first() else { return };
    let since_epoch = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default();
    let start = since_epoch.as_secs_f64() * 1e6 - first.elapsed().as_secs_f64() * 1e6;
    let mut out = format!("start={start:.0}");
    for (name, at, cpu) in &log.marks {
        out.push_str(&format!(" {name}={:.0}/{cpu:.0}", (*at - first).as_secs_f64() * 1e6));
    }
    out.push('\n');
    log.marks.clear();
    let _ = log.file.write_all(out.as_bytes());
}
