//! `vedette remote-broker DIR`: the broker for a remote game as files — mosquitto's
//! configuration, its access list, its two accounts and the remote page it serves — so that a
//! club runs exactly what the tests and `vedette bench remote` run against.
//!
//! Decisions:
//! - Two accounts. `host`, the table's side (the app or `vedette serve --remote`, its remote
//!   cameras, a hall's hub), reads and writes every topic of the table. `players`, one account
//!   every remote page shares (its password is in their links), reads only what the host sends
//!   pages and writes only the table's `in`, which it cannot read: no page reads what another
//!   says. Nothing else — not another table's topics, not `$SYS`. mosquitto 2.0 grants every
//!   subscription and drops, as it delivers them, the messages an account may not read.
//! - The passwords are random tokens ([`Token::random`]), kept in `logins` (its owner's alone)
//!   and hashed into `passwd` by mosquitto's own `mosquitto_passwd`, fed a plain file it hashes
//!   in place: no password on a command line, where any user of the machine sees it. Running
//!   the command again keeps them (the links sent stay good) unless asked for new ones.
//! - The configuration and the access list are written again each time, from the flags; one
//!   that says something else (edited by hand, or other flags) is kept beside as `….old`, and
//!   the command says so.
//! - Paths in the configuration are absolute: mosquitto reads them wherever it is started.
//! - mosquitto started as root runs as another user before it reads the password file, which
//!   only its owner may read: files written by root are given to mosquitto's own user, files
//!   written by anyone else name their owner in the configuration's `user` line.

use std::io::Write;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, bail};
use live::Token;
use live::mqtt::{MAX_PACKET, ROOT, topic_name};

/// The host's account: every topic of the table.
pub const HOST: &str = "host";
/// The players' account, one for every remote page.
pub const PLAYERS: &str = "players";

/// Room over the host's largest message for its topic and the packet's header.
const HEADROOM: usize = 64 << 10;
/// Connections at once on the host's listener: a table's host uses a few (its link to the
/// pages, the hall's, its remote cameras), a hall of tables and its hub a few dozen.
const HOST_CONNECTIONS: u32 = 64;
/// Connections at once on the pages' listener: a page a remote player, for an evening's tables.
const PAGE_CONNECTIONS: u32 = 256;

/// What the players read, under `vedette/<table>/`, and why.
const PLAYERS_READ: [(&str, &str); 6] = [
    (
        "live",
        "every update of the table, as the room's pages get it",
    ),
    ("picture", "the camera's picture"),
    (
        "online",
        "whether the host is there (retained; its last will says when it goes)",
    ),
    (
        "host",
        "the host's epoch (retained): a page sees a host that started again",
    ),
    (
        "view",
        "the table's whole view (retained), as the hall's hub reads it",
    ),
    (
        "to/#",
        "the host's answers to one page, and the pictures of the record it asks for",
    ),
];
/// What the players write, under `vedette/<table>/`, and why.
const PLAYERS_WRITE: (&str, &str) = (
    "in",
    "what pages say to the host (hello, pointers, orders), which no page reads",
);

/// `vedette remote-broker`'s flags.
#[derive(Clone, Debug, clap::Args)]
pub struct RemoteBrokerArgs {
    /// The folder to write into (made if missing): mosquitto.conf, acl, passwd, logins, and the
    /// remote page under www/.
    pub folder: PathBuf,
    /// The port of the plain MQTT listener, which the host connects to.
    #[arg(long, default_value_t = 1883, value_parser = clap::value_parser!(u16).range(1..))]
    pub mqtt_port: u16,
    /// The port of the WebSockets listener, which the players' pages connect to (it serves the
    /// remote page too).
    #[arg(long, default_value_t = 9001, value_parser = clap::value_parser!(u16).range(1..))]
    pub ws_port: u16,
    /// The IP address both listeners are bound to (default: every address of the machine).
    /// mosquitto binds a WebSockets listener to an address, never to a host name.
    #[arg(long, value_name = "ADDRESS")]
    pub bind: Option<IpAddr>,
    /// The one table this broker carries, as the host's address names it
    /// (mqtt://…/NAME): the accounts reach its topics only. Default: any table.
    #[arg(long, value_name = "NAME", value_parser = table_name)]
    pub table: Option<String>,
    /// New passwords for both accounts, even when `logins` holds some (the links already sent
    /// stop working).
    #[arg(long)]
    pub new_passwords: bool,
}

/// A table's name as it stands in its topics; any other is refused (the access list would
/// name a table no host publishes).
fn table_name(text: &str) -> Result<String, String> {
    let cleaned = topic_name(text);
    if cleaned == text {
        Ok(cleaned)
    } else {
        Err(format!(
            "{text:?}: a table's name is letters, digits, '-' and '_' (at most 64), as {cleaned:?}"
        ))
    }
}

/// The accounts' passwords, as `logins` keeps them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Logins {
    /// The host's password.
    pub host: String,
    /// The players' password.
    pub players: String,
}

impl Logins {
    fn random() -> Logins {
        Logins {
            host: Token::random().to_string(),
            players: Token::random().to_string(),
        }
    }

    fn text(&self) -> String {
        format!(
            "# The broker's accounts, USER:PASSWORD (vedette remote-broker). Keep this file to\n\
             # yourself: the host's password publishes the table, the players' is in their links.\n\
             {HOST}:{}\n{PLAYERS}:{}\n",
            self.host, self.players
        )
    }

    /// The logins in `text`, read from `path` (named in errors).
    fn parse(text: &str, path: &Path) -> anyhow::Result<Logins> {
        let (mut host, mut players) = (None, None);
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = || format!("{}, line {}", path.display(), number + 1);
            let Some((user, password)) = line.split_once(':') else {
                bail!("{}: write USER:PASSWORD", at());
            };
            let fits = password.len() >= 8
                && password
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b));
            if !fits {
                bail!(
                    "{}: a password is 8 or more letters, digits, '-', '_' or '.' (it goes into \
                     links and command lines as it is)",
                    at()
                );
            }
            match user {
                HOST => host = Some(password.to_owned()),
                PLAYERS => players = Some(password.to_owned()),
                _ => bail!(
                    "{}: the accounts are {HOST} and {PLAYERS}, not {user:?}",
                    at()
                ),
            }
        }
        match (host, players) {
            (Some(host), Some(players)) => Ok(Logins { host, players }),
            _ => bail!(
                "{}: both {HOST}'s and {PLAYERS}' passwords are needed (or give --new-passwords)",
                path.display()
            ),
        }
    }
}

/// What `vedette remote-broker` wrote.
#[derive(Clone, Debug)]
pub struct BrokerFiles {
    /// The folder, as an absolute path.
    pub folder: PathBuf,
    /// The flags it was written with.
    pub args: RemoteBrokerArgs,
    /// The accounts' passwords.
    pub logins: Logins,
    /// Whether `passwd` holds them: without `mosquitto_passwd`, [`BrokerFiles::passwd_commands`]
    /// says how to make it.
    pub passwd_written: bool,
    /// Whether the passwords were kept from `logins` (else they are new).
    pub kept: bool,
    /// What was done, a line a file.
    pub done: Vec<String>,
}

impl BrokerFiles {
    /// mosquitto's configuration: `mosquitto -c` it.
    pub fn config(&self) -> PathBuf {
        self.folder.join("mosquitto.conf")
    }

    /// The broker's address in links and command lines: the one its listeners are bound to,
    /// else a placeholder for the machine's own.
    pub fn address(&self) -> String {
        match self.args.bind {
            Some(IpAddr::V4(a)) if !a.is_unspecified() => a.to_string(),
            Some(IpAddr::V6(a)) if !a.is_unspecified() => format!("[{a}]"),
            _ => "your-broker".to_owned(),
        }
    }

    /// The broker as the host reaches it, logged in, for `--remote`: `table`'s, or the one
    /// table it carries.
    pub fn host_url(&self, table: &str) -> String {
        let table = self.args.table.as_deref().unwrap_or(table);
        format!(
            "mqtt://{HOST}:{}@{}:{}/{table}",
            self.logins.host,
            self.address(),
            self.args.mqtt_port
        )
    }

    /// The broker as the pages reach it, for `--remote-ws`.
    pub fn pages_broker(&self) -> String {
        format!("ws://{}:{}", self.address(), self.args.ws_port)
    }

    /// The pages' login, for `--player-login`.
    pub fn player_login(&self) -> (String, String) {
        (PLAYERS.to_owned(), self.logins.players.clone())
    }

    /// The commands that make `passwd` with mosquitto's own tool.
    pub fn passwd_commands(&self) -> [String; 2] {
        let passwd = shell(&self.folder.join("passwd"));
        [
            format!(
                "mosquitto_passwd -c -b {passwd} {HOST} {}",
                self.logins.host
            ),
            format!(
                "mosquitto_passwd -b {passwd} {PLAYERS} {}",
                self.logins.players
            ),
        ]
    }
}

/// Write the broker's files as `args` asks (see the module's doc).
pub fn write(args: &RemoteBrokerArgs) -> anyhow::Result<BrokerFiles> {
    if args.mqtt_port == args.ws_port {
        bail!(
            "the MQTT and WebSockets listeners need a port each, not both {}",
            args.mqtt_port
        );
    }
    let folder = std::path::absolute(&args.folder)
        .with_context(|| format!("cannot tell where {} is", args.folder.display()))?;
    if folder.to_str().is_none_or(|t| t.contains(['\n', '\r'])) {
        bail!(
            "{}: mosquitto's configuration names its files by their paths, which must be plain \
             text on one line",
            folder.display()
        );
    }
    std::fs::create_dir_all(&folder)
        .with_context(|| format!("cannot make {}", folder.display()))?;
    let mut done = Vec::new();

    let www = folder.join("www");
    super::command::remote_page(&www, &mut std::io::sink())?;
    done.push(format!(
        "{}: the remote page, which the WebSockets listener serves",
        www.join("vedette").join("remote.html").display()
    ));

    let logins_path = folder.join("logins");
    let kept = !args.new_passwords && logins_path.exists();
    let logins = if kept {
        let text = std::fs::read_to_string(&logins_path)
            .with_context(|| format!("cannot read {}", logins_path.display()))?;
        Logins::parse(&text, &logins_path)?
    } else {
        Logins::random()
    };
    write_private(&logins_path, &logins.text())?;
    done.push(format!(
        "{}: the accounts' passwords ({}) — keep it to yourself",
        logins_path.display(),
        if kept { "kept from before" } else { "new" }
    ));

    let passwd = folder.join("passwd");
    let passwd_written = hash_passwords(&passwd, &logins)?;
    if passwd_written {
        done.push(format!(
            "{}: the accounts {HOST} and {PLAYERS}, their passwords hashed by mosquitto_passwd",
            passwd.display()
        ));
    }
    let user = run_as(&logins_path, passwd_written.then_some(passwd.as_path()))?;

    done.push(replace(
        &folder.join("acl"),
        &acl_text(args.table.as_deref()),
        "what each account may read and write",
    )?);
    done.push(replace(
        &folder.join("mosquitto.conf"),
        &config_text(args, &folder, user.as_deref()),
        "mosquitto's configuration",
    )?);
    Ok(BrokerFiles {
        folder,
        args: args.clone(),
        logins,
        passwd_written,
        kept,
        done,
    })
}

/// `vedette remote-broker`: the files written, and what to run with them said.
pub fn remote_broker(args: &RemoteBrokerArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let files = write(args)?;
    let listening = match args.bind {
        Some(address) => format!("on {address}"),
        None => "on every address of this machine".to_owned(),
    };
    writeln!(
        out,
        "wrote a broker for a remote game in {}: MQTT on port {} for the host, WebSockets on \
         port {} for the players' pages, {listening}",
        files.folder.display(),
        args.mqtt_port,
        args.ws_port
    )?;
    for line in &files.done {
        writeln!(out, "  {line}")?;
    }
    if !files.passwd_written {
        writeln!(
            out,
            "  {}: not written — mosquitto_passwd is not installed here. Once it is (Debian: \
             apt install mosquitto), run:",
            files.folder.join("passwd").display()
        )?;
        for command in files.passwd_commands() {
            writeln!(out, "    {command}")?;
        }
    }
    for (port, what) in [(args.mqtt_port, "--mqtt-port"), (args.ws_port, "--ws-port")] {
        if listened(port) {
            writeln!(
                out,
                "note: something listens on port {port} of this machine already (a broker \
                 started earlier? Debian's own mosquitto service, which `sudo systemctl disable \
                 --now mosquitto` stops?): stop it, or give {what}"
            )?;
        }
    }
    let mosquitto = match program("mosquitto", &[]) {
        Some(_) => "mosquitto".to_owned(),
        None => program(
            "mosquitto",
            &["/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto"],
        )
        .map_or_else(|| "mosquitto".to_owned(), |p| p.display().to_string()),
    };
    writeln!(
        out,
        "start the broker (again after each `vedette remote-broker` on this folder):"
    )?;
    writeln!(out, "  {mosquitto} -c {}", shell(&files.config()))?;
    let table = args.table.as_deref().unwrap_or("your-table");
    let (user, password) = files.player_login();
    writeln!(
        out,
        "then host the table through it ({}the app takes the same --remote flags):",
        if files.address() == "your-broker" {
            "your-broker: the address the host and the players reach this machine at; "
        } else {
            ""
        }
    )?;
    writeln!(
        out,
        "  vedette serve --remote {} --remote-ws {} --player-login {user}:{password}",
        files.host_url(table),
        files.pages_broker()
    )?;
    if args.table.is_none() {
        writeln!(
            out,
            "  (name the table as you like: the access list lets the accounts reach any table; \
             --table NAME keeps them to one)"
        )?;
    }
    Ok(())
}

/// The access list: the host its table's every topic, the players what a page needs.
fn acl_text(table: Option<&str>) -> String {
    let level = table.unwrap_or("+");
    let (tables, host) = match table {
        Some(table) => (format!("the table {table}"), format!("{ROOT}/{table}/#")),
        None => (
            "any table (`+` stands for its name)".to_owned(),
            format!("{ROOT}/#"),
        ),
    };
    let mut text = format!(
        "# The access list of the broker in this folder (mosquitto's acl_file), written by\n\
         # `vedette remote-broker` for {tables}.\n\
         # An account may use the topics listed under it and no other: anything else (another\n\
         # table's topics, $SYS) is neither delivered to it nor taken from it.\n\
         \n\
         # The table's host — the app or `vedette serve --remote`, its remote cameras, a hall's\n\
         # hub — reads and writes every topic of the table.\n\
         user {HOST}\n\
         topic readwrite {host}\n\
         \n\
         # The players: one account for every remote page, its password in their links. They\n\
         # read what the host sends pages, and write only what pages say to the host.\n\
         user {PLAYERS}\n"
    );
    for (leaf, why) in PLAYERS_READ {
        text.push_str(&format!("# {why}\ntopic read {ROOT}/{level}/{leaf}\n"));
    }
    let (leaf, why) = PLAYERS_WRITE;
    text.push_str(&format!("# {why}\ntopic write {ROOT}/{level}/{leaf}\n"));
    text
}

/// mosquitto's configuration for the files in `folder` (absolute), run as `user` when started
/// as root.
fn config_text(args: &RemoteBrokerArgs, folder: &Path, user: Option<&str>) -> String {
    let listener = |port: u16| match args.bind {
        Some(address) => format!("listener {port} {address}"),
        None => format!("listener {port}"),
    };
    let file = |name: &str| folder.join(name).display().to_string();
    let run_as = match user {
        Some(user) => format!(
            "# Started as root (sudo), mosquitto runs as this user, who owns the password file\n\
             # (only its owner may read it); started as anyone else, it runs as them.\n\
             user {user}\n"
        ),
        None => String::new(),
    };
    format!(
        "# mosquitto's configuration for a remote game of Vedette (mosquitto 2.0), written by\n\
         # `vedette remote-broker`. Start the broker with\n\
         #   mosquitto -c {config}\n\
         # The command writes this file again each time: change its flags, not this file (one\n\
         # edited by hand is kept beside as mosquitto.conf.old when it does).\n\
         \n\
         # The accounts and the access list hold on both listeners (per_listener_settings false).\n\
         # Nobody without an account: whoever reads the table's topics sees the table, and the\n\
         # tokens in the players' messages.\n\
         allow_anonymous false\n\
         # The two accounts, {HOST} and {PLAYERS}, their passwords hashed (logins holds them).\n\
         password_file {passwd}\n\
         # What each account may read and write: the host every topic of its table, the players\n\
         # what a remote page needs.\n\
         acl_file {acl}\n\
         # Nothing kept on disk: the host publishes what it retains again whenever it reaches\n\
         # the broker.\n\
         persistence false\n\
         # The largest packet a client may send: the host's largest message (its retained whole\n\
         # view, at most {MAX_PACKET} bytes) fits with its topic and header; a client sending\n\
         # more is cut off before the broker has read it all.\n\
         max_packet_size {packet}\n\
         {run_as}\
         \n\
         # The host connects here, over plain MQTT: the app or `vedette serve --remote`, its\n\
         # remote cameras (`vedette camera`), a hall's hub (`vedette hub`).\n\
         {mqtt}\n\
         # A table's host uses a few connections, a hall of tables a few dozen; more are refused.\n\
         max_connections {HOST_CONNECTIONS}\n\
         \n\
         # The players' browsers connect here, over WebSockets; it serves them the remote page\n\
         # (www/vedette/remote.html) too, and no other files.\n\
         {ws}\n\
         protocol websockets\n\
         http_dir {www}\n\
         # A page a remote player, for an evening's tables; more are refused.\n\
         max_connections {PAGE_CONNECTIONS}\n",
        config = shell(&folder.join("mosquitto.conf")),
        passwd = file("passwd"),
        acl = file("acl"),
        packet = MAX_PACKET + HEADROOM,
        mqtt = listener(args.mqtt_port),
        ws = listener(args.ws_port),
        www = file("www"),
    )
}

/// Write `text` to `path`, readable and writable by its owner only.
fn write_private(path: &Path, text: &str) -> anyhow::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        options.mode(0o600);
        // A file there already keeps its mode through `open`: make it private too.
        if path.exists() {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
                .with_context(|| format!("cannot make {} private", path.display()))?;
        }
    }
    let mut file = options
        .open(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    file.write_all(text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
}

/// `passwd` made from `logins` with mosquitto's own tool: a plain file, hashed in place.
/// `false` (and nothing written) when the tool is not installed.
fn hash_passwords(passwd: &Path, logins: &Logins) -> anyhow::Result<bool> {
    let known = [
        "/usr/bin/mosquitto_passwd",
        "/usr/local/bin/mosquitto_passwd",
    ];
    let Some(tool) = program("mosquitto_passwd", &known) else {
        return Ok(false);
    };
    write_private(
        passwd,
        &format!("{HOST}:{}\n{PLAYERS}:{}\n", logins.host, logins.players),
    )?;
    let run = Command::new(&tool)
        .arg("-U")
        .arg(passwd)
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("cannot run {}", tool.display()))?;
    if !run.status.success() {
        let _ = std::fs::remove_file(passwd);
        bail!(
            "{} -U {} failed: {}",
            tool.display(),
            passwd.display(),
            String::from_utf8_lossy(&run.stderr).trim()
        );
    }
    Ok(true)
}

/// Who mosquitto started as root must run as to read the private files (see the module's
/// doc): the owner of `written`, named in a `user` line, or — when that is root — mosquitto's
/// own user, given `passwd`.
#[cfg(unix)]
fn run_as(written: &Path, passwd: Option<&Path>) -> anyhow::Result<Option<String>> {
    use std::os::unix::fs::MetadataExt;
    let owner = std::fs::metadata(written)
        .with_context(|| format!("cannot read {}", written.display()))?
        .uid();
    let accounts = std::fs::read_to_string("/etc/passwd").unwrap_or_default();
    let account = |found: &dyn Fn(&[&str]) -> bool| {
        accounts
            .lines()
            .map(|line| line.split(':').collect::<Vec<_>>())
            .find(|fields| fields.len() > 3 && found(fields))
    };
    if owner != 0 {
        let owner = owner.to_string();
        return Ok(account(&|f| f[2] == owner).map(|f| f[0].to_owned()));
    }
    if let (Some(passwd), Some(fields)) = (passwd, account(&|f| f[0] == "mosquitto")) {
        let (uid, gid) = (fields[2].parse().ok(), fields[3].parse().ok());
        std::os::unix::fs::chown(passwd, uid, gid)
            .with_context(|| format!("cannot give {} to mosquitto's user", passwd.display()))?;
    }
    Ok(None)
}

#[cfg(not(unix))]
fn run_as(_written: &Path, _passwd: Option<&Path>) -> anyhow::Result<Option<String>> {
    Ok(None)
}

/// Write `text` to `path` (what it is: `what`); a file there that says something else is kept
/// as `<name>.old`. What was done, to say.
fn replace(path: &Path, text: &str, what: &str) -> anyhow::Result<String> {
    let name = path.display();
    let said = match std::fs::read_to_string(path) {
        Ok(old) if old == text => return Ok(format!("{name}: {what} (unchanged)")),
        Ok(_) => {
            let file = path.file_name().unwrap_or_default().to_string_lossy();
            let old = path.with_file_name(format!("{file}.old"));
            std::fs::rename(path, &old)
                .with_context(|| format!("cannot keep {name} as {}", old.display()))?;
            format!(
                "{name}: {what} — written again; the one there said something else (edited by \
                 hand, or other flags), kept as {}",
                old.display()
            )
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => format!("{name}: {what}"),
        Err(e) => return Err(e).with_context(|| format!("cannot read {name}")),
    };
    std::fs::write(path, text).with_context(|| format!("cannot write {name}"))?;
    Ok(said)
}

/// `name` on the PATH, else the first of `known` that exists.
fn program(name: &str, known: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .chain(known.iter().map(PathBuf::from))
        .find(|p| p.is_file())
}

/// Whether something listens on `port` of the loopback.
fn listened(port: u16) -> bool {
    let at = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    std::net::TcpStream::connect_timeout(&at, std::time::Duration::from_millis(200)).is_ok()
}

/// `path` as a shell word: quoted when it holds anything but plain path characters.
fn shell(path: &Path) -> String {
    let text = path.display().to_string();
    let plain = text
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"/-_.+,:@%".contains(&b));
    if plain {
        text
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether MQTT topic `topic` matches filter `filter` (`+` one level, `#` the rest;
    /// neither matches a topic starting with `$`), as mosquitto matches its access list.
    fn matches(filter: &str, topic: &str) -> bool {
        if topic.starts_with('$') && !filter.starts_with('$') {
            return false;
        }
        let (mut f, mut t) = (filter.split('/'), topic.split('/'));
        loop {
            match (f.next(), t.next()) {
                (Some("#"), _) => return true,
                (Some("+"), Some(_)) => {}
                (Some(a), Some(b)) if a == b => {}
                (None, None) => return true,
                _ => return false,
            }
        }
    }

    /// The rules of `user` in an access list: (access, topic filter).
    fn rules(acl: &str, user: &str) -> Vec<(String, String)> {
        let mut current = None;
        let mut found = Vec::new();
        for line in acl.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["user", name] => current = Some(name.to_string()),
                ["topic", access, filter] if current.as_deref() == Some(user) => {
                    found.push((access.to_string(), filter.to_string()));
                }
                ["topic", ..] => {}
                _ => panic!("an access list line mosquitto does not read: {line:?}"),
            }
        }
        found
    }

    /// Whether `user` may `access` ("read" or "write") `topic` under `acl`.
    fn may(acl: &str, user: &str, access: &str, topic: &str) -> bool {
        rules(acl, user)
            .iter()
            .any(|(a, f)| (a == access || a == "readwrite") && matches(f, topic))
    }

    fn args(table: Option<&str>, bind: Option<&str>) -> RemoteBrokerArgs {
        RemoteBrokerArgs {
            folder: "/srv/vedette broker".into(),
            mqtt_port: 1883,
            ws_port: 9001,
            bind: bind.map(|b| b.parse().expect("an address")),
            table: table.map(str::to_owned),
            new_passwords: false,
        }
    }

    #[test]
    fn the_players_write_only_in_and_never_read_it() {
        for (acl, table) in [
            (acl_text(Some("sunday")), "sunday"),
            (acl_text(None), "any"),
        ] {
            let root = format!("vedette/{table}");
            assert!(may(&acl, PLAYERS, "write", &format!("{root}/in")), "{acl}");
            assert!(!may(&acl, PLAYERS, "read", &format!("{root}/in")), "{acl}");
            let writable: Vec<_> = rules(&acl, PLAYERS)
                .into_iter()
                .filter(|(access, _)| access != "read")
                .collect();
            assert_eq!(writable.len(), 1, "{writable:?}");
            for leaf in [
                "live",
                "picture",
                "online",
                "host",
                "view",
                "to/p-1a",
                "to/p-1a/kept",
            ] {
                let topic = format!("{root}/{leaf}");
                assert!(may(&acl, PLAYERS, "read", &topic), "{topic}");
                assert!(!may(&acl, PLAYERS, "write", &topic), "{topic}");
            }
            for topic in [
                format!("{root}/camera/left/tags"),
                format!("{root}/ping/1"),
                "$SYS/broker/uptime".to_owned(),
                "other/thing".to_owned(),
            ] {
                assert!(!may(&acl, PLAYERS, "read", &topic), "{topic}");
                assert!(!may(&acl, PLAYERS, "write", &topic), "{topic}");
            }
            for leaf in [
                "in",
                "live",
                "view",
                "online",
                "host",
                "camera/left/tags",
                "to/p-1",
            ] {
                let topic = format!("{root}/{leaf}");
                assert!(may(&acl, HOST, "read", &topic) && may(&acl, HOST, "write", &topic));
            }
            assert!(!may(&acl, HOST, "read", "$SYS/broker/uptime"));
        }
    }

    #[test]
    fn one_tables_accounts_reach_no_other_table() {
        let acl = acl_text(Some("sunday"));
        for user in [HOST, PLAYERS] {
            assert!(!may(&acl, user, "read", "vedette/monday/live"));
            assert!(!may(&acl, user, "write", "vedette/monday/in"));
        }
        assert!(may(&acl_text(None), PLAYERS, "read", "vedette/monday/live"));
    }

    #[test]
    fn the_configuration_names_its_files_and_limits() {
        let folder = Path::new("/srv/vedette broker");
        let text = config_text(&args(Some("sunday"), Some("127.0.0.1")), folder, None);
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .collect();
        let packet = MAX_PACKET + HEADROOM;
        assert_eq!(
            lines,
            [
                "allow_anonymous false",
                "password_file /srv/vedette broker/passwd",
                "acl_file /srv/vedette broker/acl",
                "persistence false",
                &format!("max_packet_size {packet}"),
                "listener 1883 127.0.0.1",
                "max_connections 64",
                "listener 9001 127.0.0.1",
                "protocol websockets",
                "http_dir /srv/vedette broker/www",
                "max_connections 256",
            ]
        );
        assert!(text.contains("mosquitto -c '/srv/vedette broker/mosquitto.conf'"));
        let everywhere = config_text(&args(None, None), folder, Some("anne"));
        assert!(everywhere.contains("\nlistener 1883\n") && everywhere.contains("\nuser anne\n"));
    }

    #[test]
    fn the_links_name_the_bound_address_and_the_accounts() {
        let files = BrokerFiles {
            folder: "/srv/b".into(),
            args: args(Some("sunday"), Some("192.168.1.5")),
            logins: Logins {
                host: "hostpass".into(),
                players: "playerpass".into(),
            },
            passwd_written: true,
            kept: false,
            done: Vec::new(),
        };
        assert_eq!(
            files.host_url("ignored"),
            "mqtt://host:hostpass@192.168.1.5:1883/sunday"
        );
        let broker: live::mqtt::Broker = files.host_url("x").parse().expect("an address");
        assert_eq!(broker.login, Some(("host".into(), "hostpass".into())));
        assert_eq!(broker.table.as_deref(), Some("sunday"));
        assert_eq!(files.pages_broker(), "ws://192.168.1.5:9001");
        let anywhere = BrokerFiles {
            args: args(None, None),
            ..files
        };
        assert_eq!(anywhere.pages_broker(), "ws://your-broker:9001");
        assert_eq!(
            anywhere.passwd_commands()[0],
            "mosquitto_passwd -c -b /srv/b/passwd host hostpass"
        );
    }

    #[test]
    fn logins_are_read_back_and_bad_ones_named() {
        let logins = Logins::random();
        let path = Path::new("/x/logins");
        assert_eq!(Logins::parse(&logins.text(), path).expect("read"), logins);
        let error = Logins::parse("host:short\nplayers:longenough\n", path)
            .expect_err("too short")
            .to_string();
        assert!(error.contains("/x/logins, line 1"), "{error}");
        let error = Logins::parse("host:longenough\n", path)
            .expect_err("no players")
            .to_string();
        assert!(error.contains("players"), "{error}");
    }

    #[test]
    fn a_table_name_is_taken_only_as_its_topics_name_it() {
        assert_eq!(table_name("sunday-game"), Ok("sunday-game".to_owned()));
        assert!(table_name("sunday game").is_err());
        assert!(table_name("a/#").is_err());
    }
}
