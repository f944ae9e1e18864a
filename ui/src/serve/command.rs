//! `vedette serve`: the table on every phone (see [`crate::serve`]).

use std::io::{IsTerminal, Write};
use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;
use live::mqtt::Broker;
use live::pipeline::{Pipeline, SourceChoice};

use super::remote::Remote;
use super::{Links, ServeOptions, Server, Token};
use crate::args::{RemoteArgs, SourceArgs, sides_of};
use crate::web::qr;

/// How the table is served.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Frames and table files.
    #[command(flatten)]
    pub source: SourceArgs,
    /// Where to listen: every interface by default, so phones on the same network reach it.
    #[arg(long, default_value = "0.0.0.0:8765")]
    pub listen: SocketAddr,
    /// The host name or address links should name (default: this machine's address on its
    /// network).
    #[arg(long)]
    pub host: Option<String>,
    /// The table's name, on pages and in MQTT topics (default: the scenario's name).
    #[arg(long)]
    pub name: Option<String>,
    /// The viewers' token (default: a new random one each time): fix it to print the link on
    /// a card. 8–64 lower-case letters, digits, '-' or '_'.
    #[arg(long)]
    pub token: Option<Token>,
    /// The umpire's token (default: a new random one each time).
    #[arg(long)]
    pub umpire_token: Option<Token>,
    /// Most pages at once; more are refused.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub max_viewers: u32,
    /// Most updates a second sent to pages (0.5–30).
    #[arg(long, default_value_t = 10.0, value_parser = rate)]
    pub rate: f64,
    /// Publish the table to an MQTT broker too: mqtt://host[:port][/table].
    #[arg(long, value_name = "URL")]
    pub mqtt: Option<Broker>,
    /// Players far from the table.
    #[command(flatten)]
    pub remote: RemoteArgs,
    /// Where the umpire's cases are saved.
    #[arg(long, default_value = "vedette-cases")]
    pub cases: PathBuf,
    /// Stop after this many seconds (default: until Ctrl-C).
    #[arg(long)]
    pub seconds: Option<f64>,
}

fn rate(text: &str) -> Result<f64, String> {
    let value: f64 = text
        .parse()
        .map_err(|_| format!("{text:?} is not a number"))?;
    if (0.5..=30.0).contains(&value) {
        Ok(value)
    } else {
        Err(format!("{value} updates a second: give 0.5 to 30"))
    }
}

/// `vedette serve`.
pub fn serve(args: &ServeArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let setup = args.source.setup()?;
    let name = match (&args.name, &setup.source) {
        (None, SourceChoice::Demo) => Some("Demo table: Crimea River".to_owned()),
        (name, _) => name.clone(),
    };
    let remote = Remote::from_args(&args.remote, &sides_of(&setup));
    let pipeline = Pipeline::start(setup, || {});
    let options = ServeOptions {
        listen: args.listen,
        host: args.host.clone(),
        name,
        token: args.token.clone(),
        umpire_token: args.umpire_token.clone(),
        max_viewers: args.max_viewers as usize,
        rate: args.rate,
        mqtt: args.mqtt.clone(),
        cases: args.cases.clone(),
        desk: Default::default(),
        remote: remote.clone(),
    };
    let server = Server::start(options, pipeline.watch())?;
    say_links(server.links(), out)?;
    if let Some(broker) = &args.mqtt {
        writeln!(out, "publishing to {broker} for the hall's hub")?;
    }
    if let Some(remote) = &remote {
        remote.say_links(server.remote_links(), out)?;
    }
    out.flush()?;
    live::stopping::until_stopped(args.seconds).context("cannot wait for Ctrl-C")?;
    writeln!(out, "stopped")?;
    Ok(())
}

fn say_links(links: &Links, out: &mut dyn Write) -> anyhow::Result<()> {
    writeln!(out, "table: {}", links.viewer)?;
    if std::io::stdout().is_terminal()
        && let Some(code) = qr::terminal(&links.viewer)
    {
        write!(out, "{code}")?;
    }
    writeln!(
        out,
        "umpire: {} (keep it to yourself: it can freeze the view and save cases)",
        links.umpire
    )?;
    Ok(())
}

/// `vedette remote-page FOLDER`: the remote player's page and its scripts, in `FOLDER/vedette/`.
pub fn remote_page(folder: &std::path::Path, out: &mut dyn Write) -> anyhow::Result<()> {
    let place = folder.join("vedette");
    std::fs::create_dir_all(&place).with_context(|| format!("cannot make {}", place.display()))?;
    for (name, text) in crate::web::page::remote_files() {
        let path = place.join(name);
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    writeln!(
        out,
        "wrote the remote player's page to {}: serve this folder where the players reach it \
         (mosquitto: http_dir {} on its websockets listener)",
        place.join("remote.html").display(),
        folder.display()
    )?;
    Ok(())
}
