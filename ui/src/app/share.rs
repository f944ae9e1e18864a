//! The table shared from the app (its Share button): the server while it runs, its link's QR
//! code, and why the last start failed. The server itself is started by whoever opened the app
//! ([`Starter`]), so the app never reaches into the web server.

use live::orders::Desk;
use live::pipeline::States;

use crate::web::qr::{self, Modules};
use crate::web::share::{Links, Served, Starter};

/// The port tried first; another is taken if it is busy.
const PORT: u16 = 8765;

/// The table's server, while it runs.
#[derive(Default)]
pub struct Share {
    /// How a server is started: none when the app was opened without one (it says so).
    starter: Option<Starter>,
    /// The server and its link's QR code.
    pub(super) running: Option<(Box<dyn Served>, Option<Modules>)>,
    /// Why the last start failed.
    pub(super) error: Option<String>,
    /// Asked from the UI: start (`true`) or stop; done by the app, which holds the pipeline.
    pub requested: Option<bool>,
    /// Whether the umpire's link is shown.
    pub(super) show_umpire: bool,
}

impl Share {
    /// Sharing that starts its servers with `starter`.
    pub fn with(starter: Starter) -> Share {
        Share {
            starter: Some(starter),
            ..Share::default()
        }
    }

    /// Whether the table is being served.
    pub fn is_on(&self) -> bool {
        self.running.is_some()
    }

    /// Pages connected now (0 when not shared).
    pub fn viewers(&self) -> usize {
        self.running
            .as_ref()
            .map_or(0, |(server, _)| server.viewers())
    }

    /// The links, while the table is shared.
    pub fn links(&self) -> Option<&Links> {
        self.running.as_ref().map(|(server, _)| server.links())
    }

    /// Start serving `states`, with the remote players' `desk` (or stop).
    pub fn switch(&mut self, on: bool, states: Option<States>, desk: &Desk) {
        self.error = None;
        if !on {
            self.running = None;
            return;
        }
        let Some(states) = states else {
            self.error = Some("no live table to share".into());
            return;
        };
        let Some(start) = &self.starter else {
            self.error = Some("this app was opened without a server to share the table".into());
            return;
        };
        let started =
            start(PORT, states.clone(), desk.clone()).or_else(|_| start(0, states, desk.clone()));
        match started {
            Ok(server) => {
                let code = qr::modules(&server.links().viewer);
                self.running = Some((server, code));
            }
            Err(e) => {
                tracing::error!("cannot share the table: {e}");
                self.error = Some(e.to_string());
            }
        }
    }
}
