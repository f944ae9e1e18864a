//! `vedette hub`: every table of a hall on one screen (see [`crate::hub`]).

use std::io::Write;
use std::net::SocketAddr;

use anyhow::Context;
use live::Token;
use live::mqtt::Broker;

use super::Hub;

/// How the hall's hub runs.
#[derive(Debug, clap::Args)]
pub struct HubArgs {
    /// The broker the tables publish to: mqtt://host[:port].
    #[arg(long, value_name = "URL")]
    pub mqtt: Broker,
    /// Where to listen.
    #[arg(long, default_value = "0.0.0.0:8764")]
    pub listen: SocketAddr,
    /// The host name or address the link should name.
    #[arg(long)]
    pub host: Option<String>,
    /// The hub's token (default: a new random one).
    #[arg(long)]
    pub token: Option<Token>,
    /// Stop after this many seconds (default: until Ctrl-C).
    #[arg(long)]
    pub seconds: Option<f64>,
}

/// `vedette hub`.
pub fn hub(args: &HubArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let hub = Hub::start(
        args.mqtt.clone(),
        args.listen,
        args.host.clone(),
        args.token.clone(),
    )?;
    writeln!(out, "hub: {}", hub.link())?;
    writeln!(out, "following the tables on {}", args.mqtt)?;
    out.flush()?;
    live::stopping::until_stopped(args.seconds).context("cannot wait for Ctrl-C")?;
    writeln!(out, "stopped")?;
    Ok(())
}
