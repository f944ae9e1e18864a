//! A real MQTT broker for the tests: Debian's mosquitto, which `make test` installs — for a
//! remote game set up by exactly the files `vedette remote-broker` writes.

use std::net::TcpStream;
use std::path::{Path, PathBuf};
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
        Broker::run(&["-p", &port.to_string()], &[port], None)
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
        Broker::start_config(&config, &[port, websockets])
    }

    /// Start one with the configuration `config`, which opens `ports` (the first its plain
    /// MQTT listener's); what it says goes to `mosquitto.log` beside `config`.
    pub fn start_config(config: &Path, ports: &[u16]) -> Broker {
        let log = config.with_file_name("mosquitto.log");
        let text = config.display().to_string();
        Broker::run(&["-c", &text], ports, Some(&log))
    }

    fn run(args: &[&str], ports: &[u16], log: Option<&Path>) -> Broker {
        assert!(
            Path::new(MOSQUITTO).exists(),
            "{MOSQUITTO} is missing: `make test` installs mosquitto"
        );
        let stderr = match log {
            Some(log) => Stdio::from(std::fs::File::create(log).expect("mosquitto's log")),
            None => Stdio::null(),
        };
        let mut child = Command::new(MOSQUITTO)
            .args(args)
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn()
            .expect("mosquitto starts");
        let said = || {
            log.and_then(|l| std::fs::read_to_string(l).ok())
                .unwrap_or_default()
        };
        let start = Instant::now();
        for port in ports {
            while TcpStream::connect(("127.0.0.1", *port)).is_err() {
                if let Ok(Some(status)) = child.try_wait() {
                    panic!(
                        "mosquitto {args:?} ended ({status}) before listening; it said:\n{}",
                        said()
                    );
                }
                assert!(
                    start.elapsed() < PATIENCE,
                    "mosquitto never listened on {port}; it said:\n{}",
                    said()
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

/// A club's broker for remote players: set up by `vedette remote-broker` (its configuration,
/// access list and accounts), its WebSockets listener serving the remote page — or, bare, with
/// no accounts, as the guide's shortest set-up.
pub struct Club {
    /// The broker.
    pub broker: Broker,
    /// Its WebSockets listener's port.
    pub websockets: u16,
    /// The passwords of its accounts, `host` and `players` (none on a bare broker).
    pub logins: Option<Logins>,
    config: PathBuf,
}

/// The passwords `vedette remote-broker` made, as its `logins` file keeps them.
pub struct Logins {
    /// The host's.
    pub host: String,
    /// The players'.
    pub players: String,
}

impl Club {
    /// A club's broker as `vedette remote-broker` writes it, in a scratch folder named after
    /// `name`, on ports of its own of the loopback.
    pub fn open(name: &str) -> Club {
        let folder = super::scratch(&format!("remote-{name}")).join("broker");
        let (port, websockets) = (super::served::free_port(), super::served::free_port());
        let written = super::vedette(&[
            "remote-broker",
            &folder.display().to_string(),
            "--mqtt-port",
            &port.to_string(),
            "--ws-port",
            &websockets.to_string(),
            "--bind",
            "127.0.0.1",
        ]);
        assert!(
            written.status.success(),
            "{}",
            String::from_utf8_lossy(&written.stderr)
        );
        let logins = std::fs::read_to_string(folder.join("logins")).expect("the logins written");
        let password = |user: &str| {
            logins
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{user}:")))
                .unwrap_or_else(|| panic!("no {user} in {logins}"))
                .to_owned()
        };
        let logins = Logins {
            host: password("host"),
            players: password("players"),
        };
        let config = folder.join("mosquitto.conf");
        let broker = Broker::start_config(&config, &[port, websockets]);
        Club {
            broker,
            websockets,
            logins: Some(logins),
            config,
        }
    }

    /// A bare club's broker: anyone may connect and read and write anything, the page served
    /// as `vedette remote-page` writes it.
    pub fn open_bare(name: &str) -> Club {
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
            logins: None,
            config: web.with_extension("conf"),
        }
    }

    /// A table's address on it for the host (`--remote`), logged in as `host` unless bare.
    pub fn host_url(&self, table: &str) -> String {
        match &self.logins {
            Some(logins) => format!(
                "mqtt://host:{}@127.0.0.1:{}/{table}",
                logins.host, self.broker.port
            ),
            None => self.broker.url(table),
        }
    }

    /// The pages' login (`--player-login`), on a broker with accounts.
    pub fn player_login(&self) -> String {
        let logins = self.logins.as_ref().expect("a bare broker has no accounts");
        format!("players:{}", logins.players)
    }

    /// `vedette serve --demo --remote …` on this broker as the table's host, each remote
    /// seat's token fixed (`british`, `russian`, `umpire`), with `more` arguments; the pages log
    /// in as the players on a broker with accounts.
    pub fn serve_demo(&self, seats: [&str; 3], more: &[&str]) -> super::served::Served {
        let [british, russian, umpire] = seats;
        let (remote, ws) = (self.host_url("demo"), self.pages_broker());
        let (british, russian) = (format!("british={british}"), format!("russian={russian}"));
        let mut args = vec![
            "serve",
            "--demo",
            "--listen",
            "127.0.0.1:0",
            "--remote",
            &remote,
            "--remote-ws",
            &ws,
            "--side-token",
            &british,
            "--side-token",
            &russian,
            "--remote-umpire-token",
            umpire,
        ];
        args.extend(more);
        let login = self.logins.as_ref().map(|_| self.player_login());
        if let Some(login) = &login {
            args.extend(["--player-login", login]);
        }
        super::served::Served::start(
            &args,
            &["table", "remote british", "remote russian", "remote umpire"],
        )
    }

    /// The broker as pages reach it.
    pub fn pages_broker(&self) -> String {
        format!("ws://127.0.0.1:{}", self.websockets)
    }

    /// The broker killed and started again on the same ports, as a club's machine restarting.
    pub fn restart(&mut self) {
        self.broker.stop();
        self.broker = Broker::start_config(&self.config, &[self.broker.port, self.websockets]);
    }
}
