//! Servers under test as child processes: started with their stderr in a log file, ready
//! once they print `listening on http://HOST:PORT`, stopped with SIGKILL.

use std::ffi::OsString;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

use crate::Result;

/// How long a server may take to print its `listening on` line (seeding 100,000 people
/// and 5 million subscriptions takes minutes on a busy machine).
const STARTUP_TIMEOUT: Duration = Duration::from_secs(600);

pub struct ServerProcess {
    child: Child,
    pub address: SocketAddr,
    name: String,
    log: PathBuf,
}

impl ServerProcess {
    /// Starts `program` and waits (bounded) until it is listening.
    pub async fn start(name: &str, program: &Path, args: &[OsString], log: &Path) -> Result<Self> {
        let stderr = std::fs::File::create(log)?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .kill_on_drop(true)
            .spawn()
            .map_err(|error| format!("cannot start {name} ({}): {error}", program.display()))?;
        let stdout = child.stdout.take().ok_or("the child has no stdout")?;
        let mut lines = BufReader::new(stdout).lines();
        let announced = tokio::time::timeout(STARTUP_TIMEOUT, async {
            while let Some(line) = lines.next_line().await? {
                if let Some(address) = line.strip_prefix("listening on http://") {
                    return Ok::<_, std::io::Error>(Some(address.trim().to_owned()));
                }
            }
            Ok(None)
        })
        .await;
        let address = match announced {
            Ok(Ok(Some(address))) => address,
            Ok(Ok(None)) | Ok(Err(_)) => {
                let _ = child.kill().await;
                return Err(
                    format!("{name} exited before listening; its stderr:\n{}", tail(log)).into(),
                );
            }
            Err(_) => {
                let _ = child.kill().await;
                return Err(format!(
                    "{name} did not print its `listening on` line within {}s; its stderr:\n{}",
                    STARTUP_TIMEOUT.as_secs(),
                    tail(log)
                )
                .into());
            }
        };
        // Keep reading stdout so that the child never blocks on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        let address = address
            .parse()
            .map_err(|error| format!("{name} announced {address:?}: {error}"))?;
        Ok(Self {
            child,
            address,
            name: name.to_owned(),
            log: log.to_owned(),
        })
    }

    /// CPU time (user + system, all threads) the server has used so far; Linux only.
    pub fn cpu_time(&self) -> Option<Duration> {
        cpu_time_of(&format!("/proc/{}/stat", self.child.id()?))
    }

    /// SIGKILL, not a graceful stop: nothing gets a chance to flush.
    pub async fn kill(mut self) -> Result<()> {
        if let Some(status) = self.child.try_wait()? {
            return Err(format!(
                "{} had already exited ({status}); its stderr:\n{}",
                self.name,
                tail(&self.log)
            )
            .into());
        }
        self.child.kill().await?;
        Ok(())
    }
}

/// The last lines of a log, for error messages.
pub fn tail(log: &Path) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(20)..].join("\n")
}

/// CPU time (user + system) of this process so far; Linux only.
pub fn own_cpu_time() -> Option<Duration> {
    cpu_time_of("/proc/self/stat")
}

/// `utime + stime` from a `/proc/<pid>/stat` file, in the kernel's fixed USER_HZ (100).
fn cpu_time_of(stat: &str) -> Option<Duration> {
    const TICKS_PER_SECOND: u64 = 100;
    let text = std::fs::read_to_string(stat).ok()?;
    // Fields after the `(comm)`: state is field 3, utime 14 and stime 15.
    let mut fields = text.rsplit_once(')')?.1.split_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    Some(Duration::from_millis(
        (user + system) * 1000 / TICKS_PER_SECOND,
    ))
}

/// A binary to run: `requested` if it exists. The default paths are relative to the
/// workspace root; from elsewhere, fall back to the binary of that name next to this one
/// (all live in `target/release`). `build` is the command that makes it.
pub fn resolve_bin(requested: &Path, default: &str, build: &str) -> Result<PathBuf> {
    if requested.is_file() {
        return Ok(requested.to_owned());
    }
    if requested == Path::new(default)
        && let Some(name) = Path::new(default).file_name()
    {
        let sibling = std::env::current_exe()?.with_file_name(name);
        if sibling.is_file() {
            return Ok(sibling);
        }
    }
    Err(format!(
        "no binary at {}: build it with `{build}` or pass its path",
        requested.display()
    )
    .into())
}

/// Where servers' and apps' logs go: `chosen` if given (created), else a temporary
/// directory that lives as long as the returned guard.
pub fn log_dir(
    chosen: &Option<PathBuf>,
    prefix: &str,
) -> Result<(PathBuf, Option<tempfile::TempDir>)> {
    match chosen {
        Some(dir) => {
            std::fs::create_dir_all(dir)?;
            Ok((dir.clone(), None))
        }
        None => {
            let scratch = tempfile::Builder::new().prefix(prefix).tempdir()?;
            Ok((scratch.path().to_owned(), Some(scratch)))
        }
    }
}
