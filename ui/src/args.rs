//! Arguments several commands share, and the parsers of the command line's values.

use std::path::PathBuf;

use live::pipeline::{CameraChoice, Recording, Setup, SourceChoice, check_rig, load_cameras};

/// Detector settings shared by the camera commands.
#[derive(Debug, Clone, clap::Args)]
pub struct DetectorArgs {
    /// Find quads on an image this many times smaller: faster, but small tags are lost
    /// (1 finds 1" tags across a 6' table at 1080p; 2 needs about 2" tags).
    #[arg(long, default_value_t = 1.0, value_name = "FACTOR", value_parser = within(1.0_f32, 8.0))]
    pub decimate: f32,
    /// Detector threads (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..))]
    pub threads: Option<u8>,
}

impl DetectorArgs {
    /// The detector settings these arguments ask for.
    pub fn settings(&self) -> vision::DetectorSettings {
        let defaults = vision::DetectorSettings::default();
        vision::DetectorSettings {
            decimate: self.decimate,
            threads: self.threads.unwrap_or(defaults.threads),
            ..defaults
        }
    }
}

/// Where `locate` and `analyze` read from.
#[derive(Debug, Clone, clap::Args)]
pub struct LocateInputs {
    /// The picture (PNG, JPEG …).
    pub image: PathBuf,
    /// The calibration made by `vedette calibrate`.
    #[arg(long, value_name = "CAMERA.toml")]
    pub calibration: PathBuf,
    /// The roster: which tag is on which stand of which unit.
    #[arg(long, value_name = "ROSTER.toml")]
    pub roster: Option<PathBuf>,
    /// A scene file whose terrain is on the table (the camera sees only tags).
    #[arg(long, value_name = "SCENE")]
    pub terrain: Option<PathBuf>,
    /// Height of tags the roster does not list, inches above the cloth.
    #[arg(long, default_value_t = 0.16, value_name = "INCHES")]
    pub tag_height: f64,
}

/// A kind of lens by the first word of its name.
pub(crate) fn parse_lens(text: &str) -> Result<vision::synthetic::LensClass, String> {
    vision::synthetic::LensClass::ALL
        .into_iter()
        .find(|lens| lens.name().split_whitespace().next() == Some(text))
        .ok_or_else(|| format!("{text}: use distortion-free, ordinary, pincushion or wide"))
}

/// A synthetic rendering by its name (`bench accuracy --rendering`).
pub(crate) fn parse_rendering(text: &str) -> Result<vision::synthetic::Rendering, String> {
    vision::synthetic::Rendering::named(text).ok_or_else(|| {
        let names: Vec<&str> = vision::synthetic::Rendering::ALL
            .iter()
            .map(|r| r.name())
            .collect();
        format!("{text}: use {}", names.join(", "))
    })
}

/// A tag family by its AprilTag name.
pub(crate) fn parse_family(text: &str) -> Result<roster::TagFamily, String> {
    roster::TagFamily::ALL
        .into_iter()
        .find(|f| f.name() == text)
        .ok_or_else(|| format!("{text}: use tag36h11, tag25h9 or tag16h5"))
}

/// A parser of a number from `low` to `high`, saying the range when it is not in it.
pub(crate) fn within<T>(low: T, high: T) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy + Send + Sync + 'static,
{
    move |text: &str| {
        let value: T = text
            .trim()
            .parse()
            .map_err(|_| format!("{text:?} is not a number"))?;
        if low <= value && value <= high {
            Ok(value)
        } else {
            Err(format!("{text} is out of range: use {low} to {high}"))
        }
    }
}

/// Where `vedette serve` and the app take their frames and table files from.
#[derive(Debug, clap::Args)]
pub struct SourceArgs {
    /// The built-in demo table (what is served when no source is given).
    #[arg(long, conflicts_with_all = ["webcam", "video", "image", "cameras"])]
    pub demo: bool,
    /// A webcam, by index (0 is the first); give it again for several cameras over one
    /// table (`--webcam 0 --webcam 2`), each calibrating itself from the anchors.
    #[arg(long, value_name = "INDEX", conflicts_with_all = ["video", "image", "cameras"])]
    pub webcam: Vec<u32>,
    /// Several cameras over one table, from a cameras file (webcams, videos, pictures and
    /// remote cameras, each with its own calibration): see docs/guide/conventions.md.
    #[arg(long, value_name = "CAMERAS.toml", conflicts_with_all = ["video", "image", "calibration"])]
    pub cameras: Option<PathBuf>,
    /// A video file, played in a loop.
    #[arg(long, value_name = "FILE", conflicts_with = "image")]
    pub video: Option<PathBuf>,
    /// One picture.
    #[arg(long, value_name = "FILE")]
    pub image: Option<PathBuf>,
    /// A calibration made by `vedette calibrate`.
    #[arg(long, value_name = "FILE")]
    pub calibration: Option<PathBuf>,
    /// The anchors' layout (calibrates by itself when given).
    #[arg(long, value_name = "FILE")]
    pub anchors: Option<PathBuf>,
    /// The roster: which tag is on which stand.
    #[arg(long, value_name = "FILE")]
    pub roster: Option<PathBuf>,
    /// A scene file whose terrain is on the table.
    #[arg(long, value_name = "FILE")]
    pub terrain: Option<PathBuf>,
    /// Where the game is recorded.
    #[command(flatten)]
    pub record: RecordArgs,
}

/// Where the game is recorded (`--record`, `--no-record`).
#[derive(Debug, Default, clap::Args)]
pub struct RecordArgs {
    /// Record the game into this file (an SQLite database; it must not exist yet) instead of
    /// the games folder (~/.local/share/vedette/games).
    #[arg(long, value_name = "FILE", conflicts_with = "no_record")]
    pub record: Option<PathBuf>,
    /// Do not record the game.
    #[arg(long)]
    pub no_record: bool,
}

impl RecordArgs {
    /// The choice the flags make.
    pub fn choice(&self) -> Recording {
        match (&self.record, self.no_record) {
            (_, true) => Recording::Off,
            (Some(path), false) => Recording::File(path.clone()),
            (None, false) => Recording::Kept,
        }
    }
}

impl SourceArgs {
    /// Whether the command line names a source or a table file (the app opens the source it
    /// used last when it does not).
    pub fn given(&self) -> bool {
        self.demo
            || !self.webcam.is_empty()
            || [
                &self.cameras,
                &self.video,
                &self.image,
                &self.calibration,
                &self.anchors,
                &self.roster,
                &self.terrain,
            ]
            .iter()
            .any(|p| p.is_some())
    }

    /// The setup the arguments name; a cameras file that cannot be used is an error naming it.
    pub fn setup(&self) -> anyhow::Result<Setup> {
        let source = match (
            self.webcam.as_slice(),
            &self.cameras,
            &self.video,
            &self.image,
        ) {
            ([index], ..) => SourceChoice::Webcam {
                index: *index,
                width: 1920,
                height: 1080,
            },
            ([_, _, ..], ..) => {
                let cameras = CameraChoice::webcams(&self.webcam);
                check_rig(&cameras).map_err(anyhow::Error::msg)?;
                SourceChoice::Cameras(cameras)
            }
            (_, Some(file), ..) => SourceChoice::Cameras(load_cameras(file)?),
            (_, _, Some(video), _) => SourceChoice::Video(video.clone()),
            (_, _, _, Some(image)) => SourceChoice::Image(image.clone()),
            _ => SourceChoice::Demo,
        };
        Ok(Setup {
            source,
            calibration: self.calibration.clone(),
            anchors: self.anchors.clone(),
            roster: self.roster.clone(),
            terrain: self.terrain.clone(),
            ruleset: None,
            record: self.record.choice(),
        })
    }
}

/// How players far from the table reach it (`vedette serve` and the app share these).
#[derive(Clone, Debug, Default, clap::Args)]
pub struct RemoteArgs {
    /// Let players far from the table see it, point at it and order moves, through this MQTT
    /// broker: mqtt://host[:port][/table]. Remote pages reach the same broker over WebSockets.
    #[arg(long, value_name = "URL")]
    pub remote: Option<live::mqtt::Broker>,
    /// The broker as remote pages reach it, over WebSockets (default: ws://BROKER-HOST:9001).
    #[arg(long, value_name = "ws(s)://…", requires = "remote", value_parser = websockets)]
    pub remote_ws: Option<String>,
    /// Where the remote player's page is hosted (default: the WebSockets address, as http(s),
    /// followed by /vedette/remote.html: mosquitto serving the folder `vedette remote-page`
    /// writes).
    #[arg(long, value_name = "URL", requires = "remote")]
    pub remote_page: Option<String>,
    /// A side's token in its remote link, SIDE=TOKEN (default: a new random one each time):
    /// fix it to send the link before the game. Once for each side.
    #[arg(long, value_name = "SIDE=TOKEN", requires = "remote", value_parser = side_token)]
    pub side_token: Vec<(String, live::Token)>,
    /// The remote umpire's token (default: a new random one each time). Never the room's
    /// `--umpire-token`: a remote link travels by mail and chat, the room's stays in the room.
    #[arg(long, value_name = "TOKEN", requires = "remote", value_parser = remote_token)]
    pub remote_umpire_token: Option<live::Token>,
    /// The user name and password remote pages give the broker, USER:PASSWORD, when it asks
    /// for them (put in the links: give the players an account that may only read the table
    /// and write to its `in` topic).
    #[arg(long, value_name = "USER:PASSWORD", requires = "remote", value_parser = player_login)]
    pub player_login: Option<(String, String)>,
}

impl RemoteArgs {
    /// The broker's address for pages: the one given, else the broker's host on port 9001
    /// (mosquitto's usual WebSockets listener).
    pub fn pages_broker(&self) -> Option<String> {
        let broker = self.remote.as_ref()?;
        Some(
            self.remote_ws
                .clone()
                .unwrap_or_else(|| format!("ws://{}:9001", broker.host)),
        )
    }

    /// The remote page's address: the one given, else the page under the broker's own web
    /// server.
    pub fn page(&self) -> Option<String> {
        if let Some(page) = &self.remote_page {
            return Some(page.clone());
        }
        let ws = self.pages_broker()?;
        let web = match ws.strip_prefix("wss://") {
            Some(rest) => format!("https://{rest}"),
            None => format!("http://{}", ws.trim_start_matches("ws://")),
        };
        let root = match web.splitn(4, '/').collect::<Vec<_>>().as_slice() {
            [scheme, _, host, ..] => format!("{scheme}//{host}"),
            _ => web.clone(),
        };
        Some(format!("{root}/vedette/remote.html"))
    }
}

fn websockets(text: &str) -> Result<String, String> {
    if text.starts_with("ws://") || text.starts_with("wss://") {
        Ok(text.trim_end_matches('/').to_owned())
    } else {
        Err(format!(
            "{text:?}: give the broker's WebSockets address, ws://host:port or wss://host:port"
        ))
    }
}

fn player_login(text: &str) -> Result<(String, String), String> {
    let (user, password) = text
        .split_once(':')
        .ok_or_else(|| format!("{text:?}: write USER:PASSWORD"))?;
    Ok((user.to_owned(), password.to_owned()))
}

fn side_token(text: &str) -> Result<(String, live::Token), String> {
    let (side, token) = text
        .split_once('=')
        .ok_or_else(|| format!("{text:?}: write SIDE=TOKEN, as british=our-secret-link"))?;
    Ok((side.trim().to_owned(), remote_token(token)?))
}

/// The shortest token a remote seat may be given, letters: a seat's messages are sealed
/// with a key made from its token, and every player reads them; a short token could be found
/// from them by trying every one (a random token is 26 letters, some 130 bits).
pub const SHORTEST_REMOTE_TOKEN: usize = 20;

fn remote_token(text: &str) -> Result<live::Token, String> {
    if text.len() < SHORTEST_REMOTE_TOKEN {
        return Err(format!(
            "a remote seat's token must be at least {SHORTEST_REMOTE_TOKEN} letters (it has {}): \
             every player reads the messages it seals, and a short one can be guessed from them",
            text.len()
        ));
    }
    live::Token::parse(text).map_err(|e| e.to_string())
}

/// The sides of the roster a setup plays (the demo table's, when it is the demo): one
/// remote link each.
pub fn sides_of(setup: &Setup) -> Vec<String> {
    let inputs = match setup.source {
        SourceChoice::Demo => match live::demo::Demo::new() {
            Ok(demo) => demo.inputs(),
            Err(_) => return Vec::new(),
        },
        _ => live::pipeline::Inputs::load(setup),
    };
    let Some(roster) = inputs.roster else {
        return Vec::new();
    };
    let listed = roster.sides.iter().map(|s| s.id.clone());
    let used = roster.units.iter().map(|u| u.side.clone());
    let mut sides: Vec<String> = listed.chain(used).collect();
    sides.sort();
    sides.dedup();
    sides
}
