//! A child process the server runs (only `terraform providers schema
//! -json`, and only when the user allowed it): bounded in time and in
//! output, in a process group of its own, and never outliving the server.
//!
//! Why each guard: a provider binary may hang (the child would keep its
//! thread and hold the module "waiting" forever); it may print without end
//! (the server's memory); it may start children of its own (plugins), which
//! a kill of the child alone would leave behind, re-parented to PID 1.

use analysis::sync::Locked;
use std::collections::HashSet;
use std::io::Read;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// What a finished child printed.
pub struct Output {
    pub success: bool,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

/// How much of the child's standard error is kept for a message.
const STDERR_CAP: usize = 64 << 10;

/// The process groups of the children still running, killed by
/// [`stop_all`] when the server ends.
fn running() -> &'static Mutex<HashSet<u32>> {
    static RUNNING: OnceLock<Mutex<HashSet<u32>>> = OnceLock::new();
    RUNNING.get_or_init(Mutex::default)
}

fn lock_running() -> std::sync::MutexGuard<'static, HashSet<u32>> {
    running().locked()
}

/// Kills the whole process group of a child (itself and what it started).
/// Elsewhere than Linux only the child is killed, by the caller.
fn kill_group(pid: u32) {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if let Ok(pid) = i32::try_from(pid) {
        // SAFETY: kill(2) with a negative pid signals the process group the
        // child leads (made by `process_group(0)`); it touches no memory.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    let _ = pid;
}

/// Kills every child still running (and its group): called when the
/// server ends, so no `terraform` it started is left behind.
pub fn stop_all() {
    let groups: Vec<u32> = lock_running().drain().collect();
    for pid in groups {
        kill_group(pid);
    }
}

/// Makes the child lead a process group of its own and, on Linux, die
/// when the thread that started it does (the server killed outright).
fn contain(cmd: &mut Command) {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        // SAFETY: runs in the forked child before exec; prctl(2) only sets
        // the signal the child gets when its parent thread ends, and is
        // async-signal-safe (no allocation, no lock).
        unsafe {
            cmd.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong);
                Ok(())
            });
        }
    }
}

/// Reads at most `cap` bytes of `from`. Past the cap: with `over`, sets it
/// and stops (the caller kills the child, which closes the pipe); without,
/// reads on and drops the rest, so a chatty child never blocks on a full
/// pipe (its standard error, kept only for a message).
fn read_capped(mut from: impl Read, cap: usize, over: Option<&AtomicBool>) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = vec![0u8; 64 << 10];
    loop {
        match from.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) if out.len() + n > cap => match over {
                Some(over) => {
                    over.store(true, Ordering::SeqCst);
                    break;
                }
                None => out.extend_from_slice(&buf[..cap - out.len()]),
            },
            Ok(n) => out.extend_from_slice(&buf[..n]),
        }
    }
    out
}

/// Runs `cmd` (its standard streams are set here) for at most `timeout`,
/// keeping at most `cap` bytes of its output: a child that runs longer or
/// prints more is killed with its group, and that is the error.
pub fn run(mut cmd: Command, timeout: Duration, cap: usize) -> Result<Output, String> {
    cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    contain(&mut cmd);
    let mut child: Child = cmd.spawn().map_err(|e| e.to_string())?;
    let pid = child.id();
    lock_running().insert(pid);
    let result = wait(&mut child, timeout, cap);
    let _ = child.wait();
    lock_running().remove(&pid);
    result
}

/// A child that keeps running after it answered (a provider plugin, a
/// server of its own): in its own process group, registered for
/// [`stop_all`], and killed with its group when dropped.
pub struct Server {
    child: Child,
    /// Its standard error so far (kept for a message, capped).
    stderr: Option<std::thread::JoinHandle<Vec<u8>>>,
}

impl Server {
    /// What the child printed on its standard error (after it was stopped).
    pub fn stop(mut self) -> String {
        self.kill();
        let err = self.stderr.take().and_then(|t| t.join().ok()).unwrap_or_default();
        String::from_utf8_lossy(&err).into_owned()
    }

    fn kill(&mut self) {
        let pid = self.child.id();
        kill_group(pid);
        let _ = self.child.kill();
        let _ = self.child.wait();
        lock_running().remove(&pid);
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Starts `cmd` (its standard streams are set here) and waits at most
/// `timeout` for the first line it prints (at most 4 KiB: go-plugin's
/// handshake line). The rest of its output is read and dropped, so it never
/// blocks on a full pipe.
pub fn start(mut cmd: Command, timeout: Duration) -> Result<(Server, String), String> {
    cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    contain(&mut cmd);
    let mut child: Child = cmd.spawn().map_err(|e| e.to_string())?;
    lock_running().insert(child.id());
    let (stdout, stderr) = (child.stdout.take(), child.stderr.take());
    let stderr = stderr.map(|e| std::thread::spawn(move || read_capped(e, STDERR_CAP, None)));
    let mut server = Server { child, stderr };
    let Some(stdout) = stdout else { return Err("no pipe to the child".into()) };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = Vec::new();
        let mut reader = std::io::BufReader::new(stdout);
        let got = std::io::BufRead::read_until(&mut (&mut reader).take(4096), b'\n', &mut line);
        let _ = tx.send(got.map(|_| line));
        // Drained to the end (go-plugin's own stdout, relayed or not).
        let _ = std::io::copy(&mut reader, &mut std::io::sink());
    });
    match rx.recv_timeout(timeout) {
        Ok(Ok(line)) if line.ends_with(b"\n") => Ok((server, String::from_utf8_lossy(&line).trim().to_string())),
        Ok(_) => {
            let err = server.stderr.take();
            server.kill();
            let err = err.and_then(|t| t.join().ok()).unwrap_or_default();
            Err(format!("ended without a handshake: {}", String::from_utf8_lossy(&err).trim()))
        }
        Err(_) => Err(format!("printed no handshake within {} s; stopped", timeout.as_secs_f32())),
    }
}

fn wait(child: &mut Child, timeout: Duration, cap: usize) -> Result<Output, String> {
    let (Some(stdout), Some(stderr)) = (child.stdout.take(), child.stderr.take()) else {
        kill_group(child.id());
        let _ = child.kill();
        return Err("no pipes to the child".into());
    };
    let over = Arc::new(AtomicBool::new(false));
    let out = {
        let over = over.clone();
        std::thread::spawn(move || read_capped(stdout, cap, Some(&over)))
    };
    let err = std::thread::spawn(move || read_capped(stderr, STDERR_CAP, None));
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Ok(status),
            Ok(None) if over.load(Ordering::SeqCst) => {
                break Err(format!("printed more than {} MiB; stopped", cap >> 20))
            }
            Ok(None) if Instant::now() >= deadline => {
                break Err(format!("did not finish within {} s; stopped", timeout.as_secs_f32()))
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => break Err(e.to_string()),
        }
    };
    // Done or not, the group goes (with whatever the child started): the
    // readers then see the pipes close, even where a grandchild held them.
    kill_group(child.id());
    let _ = child.kill();
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    let status = status?;
    if over.load(Ordering::SeqCst) {
        return Err(format!("printed more than {} MiB; stopped", cap >> 20));
    }
    Ok(Output { success: status.success(), stdout, stderr: String::from_utf8_lossy(&stderr).into_owned() })
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn sh(script: &str) -> Command {
        let mut c = Command::new("/bin/sh");
        c.arg("-c").arg(script);
        c
    }

    #[test]
    fn output_and_status_are_returned() {
        let o = run(sh("echo out; echo err >&2; exit 3"), Duration::from_secs(10), 1 << 20).expect("ran");
        assert!(!o.success);
        assert_eq!(o.stdout, b"out\n");
        assert_eq!(o.stderr, "err\n");
    }

    #[test]
    fn a_hanging_child_and_its_children_are_killed_at_the_timeout() {
        let dir = crate::scratch::Scratch::new("child").unwrap();
        let pids = dir.join("pids");
        // The child starts a grandchild, records both, and hangs.
        let script = format!("sleep 300 & echo $$ $! > {}; wait", pids.display());
        let start = Instant::now();
        let err = run(sh(&script), Duration::from_millis(500), 1 << 20).err().expect("timed out");
        assert!(err.contains("did not finish within"), "{err}");
        assert!(start.elapsed() < Duration::from_secs(10), "{:?}", start.elapsed());
        let text = std::fs::read_to_string(&pids).expect("pids");
        // SIGKILL is sent before `run` returns; the kernel ends the
        // processes a moment later.
        let gone = |pid: &str| {
            for _ in 0..250 {
                if !alive(pid) {
                    return true;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            false
        };
        for pid in text.split_whitespace() {
            assert!(gone(pid), "process {pid} outlived the timeout");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_child_printing_without_end_is_stopped_at_the_cap() {
        let start = Instant::now();
        let err = run(sh("exec cat /dev/zero"), Duration::from_secs(60), 1 << 20).err().expect("stopped");
        assert!(err.contains("printed more than 1 MiB"), "{err}");
        assert!(start.elapsed() < Duration::from_secs(30), "{:?}", start.elapsed());
    }

    #[test]
    fn a_child_chatty_on_stderr_is_not_held_up() {
        // 1 MiB on standard error, past what is kept: the rest is read and
        // dropped, so the child finishes at once rather than blocking on a
        // full pipe until the timeout.
        let start = Instant::now();
        let o = run(sh("head -c 1048576 /dev/zero >&2; echo done"), Duration::from_secs(60), 1 << 20).expect("ran");
        assert_eq!(o.stdout, b"done\n");
        assert_eq!(o.stderr.len(), STDERR_CAP);
        assert!(start.elapsed() < Duration::from_secs(30), "{:?}", start.elapsed());
    }

    /// Whether a process exists and is not a zombie.
    fn alive(pid: &str) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .is_ok_and(|s| s.rsplit(')').next().is_some_and(|rest| !rest.trim_start().starts_with('Z')))
    }
}
