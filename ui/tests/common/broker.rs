//! A real MQTT broker for the tests: Debian's mosquitto, which `make test` installs.

use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const PATIENCE: Duration = Duration::from_secs(90);

/// A mosquitto broker on a port of its own, stopped when dropped.
pub struct Broker {
    child: Child,
    /// Its port on 127.0.0.1.
    pub port: u16,
}

impl Broker {
    /// Start one on `port`.
    pub fn start(port: u16) -> Broker {
        let program = "/usr/sbin/mosquitto";
        assert!(
            std::path::Path::new(program).exists(),
            "{program} is missing: `make test` installs mosquitto"
        );
        let child = Command::new(program)
            .args(["-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("mosquitto starts");
        let start = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(start.elapsed() < PATIENCE, "mosquitto never listened");
            std::thread::sleep(Duration::from_millis(50));
        }
        Broker { child, port }
    }

    /// A table's address on it.
    pub fn url(&self, table: &str) -> String {
        format!("mqtt://127.0.0.1:{}/{table}", self.port)
    }

    /// Stop it (a broker that vanishes).
    pub fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Broker {
    fn drop(&mut self) {
        self.stop();
    }
}
