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

const MOSQUITTO: &str = "/usr/sbin/mosquitto";

impl Broker {
    /// Start one on `port`.
    pub fn start(port: u16) -> Broker {
        Broker::run(&["-p", &port.to_string()], &[port])
    }

    /// Start one on `port`, with a WebSockets listener on `websockets` serving the files of
    /// `web` too (mosquitto's `http_dir`), as a club's broker for remote players would be set
    /// up: the configuration is written beside `web`.
    pub fn start_websockets(port: u16, websockets: u16, web: &std::path::Path) -> Broker {
        let config = web.with_extension("conf");
        let text = format!(
            "listener {port} 127.0.0.1\nallow_anonymous true\n\
             listener {websockets} 127.0.0.1\nprotocol websockets\nhttp_dir {}\n\
             allow_anonymous true\n",
            web.display()
        );
        std::fs::write(&config, text).expect("mosquitto's configuration is written");
        let config = config.display().to_string();
        Broker::run(&["-c", &config], &[port, websockets])
    }

    fn run(args: &[&str], ports: &[u16]) -> Broker {
        assert!(
            std::path::Path::new(MOSQUITTO).exists(),
            "{MOSQUITTO} is missing: `make test` installs mosquitto"
        );
        let child = Command::new(MOSQUITTO)
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("mosquitto starts");
        let start = Instant::now();
        for port in ports {
            while TcpStream::connect(("127.0.0.1", *port)).is_err() {
                assert!(
                    start.elapsed() < PATIENCE,
                    "mosquitto never listened on {port}"
                );
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        Broker {
            child,
            port: ports[0],
        }
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

/// A club's broker for remote players: its WebSockets listener serves the remote page that
/// `vedette remote-page` writes, as the guide sets one up.
pub struct Club {
    /// The broker.
    pub broker: Broker,
    /// Its WebSockets listener's port.
    pub websockets: u16,
    web: std::path::PathBuf,
}

impl Club {
    /// A club's broker, its files in a scratch folder named after `name`.
    pub fn open(name: &str) -> Club {
        let web = super::scratch(&format!("remote-{name}")).join("www");
        let written = super::vedette(&["remote-page", &web.display().to_string()]);
        assert!(
            written.status.success(),
            "{}",
            String::from_utf8_lossy(&written.stderr)
        );
        let (port, websockets) = (super::served::free_port(), super::served::free_port());
        let broker = Broker::start_websockets(port, websockets, &web);
        Club {
            broker,
            websockets,
            web,
        }
    }

    /// The broker as pages reach it.
    pub fn pages_broker(&self) -> String {
        format!("ws://127.0.0.1:{}", self.websockets)
    }

    /// The broker killed and started again on the same ports, as a club's machine restarting.
    pub fn restart(&mut self) {
        self.broker.stop();
        self.broker = Broker::start_websockets(self.broker.port, self.websockets, &self.web);
    }
}
