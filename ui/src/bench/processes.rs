//! The programs a bench runs beside itself — a mosquitto broker, chromedriver — each stopped
//! (with any children) when dropped, and the ports they listen on.

use std::net::IpAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use crate::serve::broker_files::{BrokerFiles, RemoteBrokerArgs};

/// A program of the bench's own, stopped when dropped: its process group too, when it leads
/// one (chromedriver's chromium goes with it).
pub struct Owned(pub Child);

impl Drop for Owned {
    fn drop(&mut self) {
        // No group of its id when it leads none: kill says so, to nobody.
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.0.id())])
            .stderr(Stdio::null())
            .status();
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A port free on this machine's loopback now.
pub fn free_port() -> anyhow::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

/// Wait until something listens on `port` (`what`, to say if nothing does within `patience`).
pub fn wait_for_port(port: u16, what: &str, patience: Duration) -> anyhow::Result<()> {
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if started.elapsed() > patience {
            bail!("{what} did not listen on port {port}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok(())
}

/// mosquitto started with `args` (its output dropped); the caller waits for its ports.
pub fn mosquitto<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> anyhow::Result<Owned> {
    // Debian puts it in /usr/sbin, which a user's PATH may not hold.
    let program = ["/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
        .unwrap_or("mosquitto");
    let child = Command::new(program)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .context("mosquitto is not installed (Debian: apt install mosquitto)")?;
    Ok(Owned(child))
}

/// mosquitto as `vedette remote-broker` sets one up for a remote game — its configuration,
/// access list and accounts written into `folder` for the one table `table` — listening on
/// free ports of the loopback: a bench measures what a club runs.
pub fn shipped_mosquitto(folder: &Path, table: &str) -> anyhow::Result<(Owned, BrokerFiles)> {
    let args = RemoteBrokerArgs {
        folder: folder.to_owned(),
        mqtt_port: free_port()?,
        ws_port: free_port()?,
        bind: Some(IpAddr::from([127, 0, 0, 1])),
        table: Some(table.to_owned()),
        new_passwords: true,
    };
    let files = crate::serve::broker_files::write(&args)?;
    if !files.passwd_written {
        bail!("mosquitto_passwd is not installed (Debian: apt install mosquitto)");
    }
    let config = files.config();
    let owned = mosquitto(&["-c".as_ref(), config.as_os_str()])?;
    let patience = Duration::from_secs(20);
    wait_for_port(args.mqtt_port, "mosquitto", patience)?;
    wait_for_port(args.ws_port, "mosquitto's WebSockets listener", patience)?;
    Ok((owned, files))
}
