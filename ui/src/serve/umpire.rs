//! The umpire's link's actions, done as the app does them: freeze the view, mark a turn, save
//! the dispute between two units as a case. Replies name the case's file, never its folder.

use serde::Deserialize;

use super::shared::Shared;
use live::umpire::{dispute, save_case};

/// What a page may ask.
#[derive(Debug, Deserialize)]
#[serde(tag = "do", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Request {
    /// Nothing: keeps the connection alive through proxies.
    Ping,
    /// Freeze the view for every page (umpire).
    Freeze,
    /// Let the view follow the table again (umpire).
    Unfreeze,
    /// Start a turn: moves are checked from here (umpire).
    MarkTurn,
    /// Save the dispute between two units as a case (umpire).
    SaveCase {
        /// One unit's id.
        a: String,
        /// The other's.
        b: String,
        /// The umpire's note.
        #[serde(default)]
        note: String,
    },
}

/// Do what the umpire asked; what to say, or why not.
pub async fn act(shared: &Shared, request: Request) -> Result<String, String> {
    let feed = &shared.feed;
    match request {
        Request::Ping => Ok("pong".into()),
        Request::Freeze => {
            feed.set_frozen(true);
            Ok("the view is frozen for every page".into())
        }
        Request::Unfreeze => {
            feed.set_frozen(false);
            Ok("the view follows the table again".into())
        }
        Request::MarkTurn => match feed.mark_turn() {
            Some(turn) => Ok(format!("turn {turn} begins: moves are checked from here")),
            None => Err("there is no table to mark yet".into()),
        },
        Request::SaveCase { a, b, note } => {
            let snapshot = feed
                .snapshot()
                .ok_or_else(|| "there is no table yet".to_owned())?;
            let state = snapshot.state.clone();
            let (scene, rulings) = match (&state.scene, &state.rulings) {
                (Some(scene), Some(rulings)) => (scene.clone(), rulings.clone()),
                _ => return Err("the table has no rulings yet".into()),
            };
            let Some(case) = dispute(&scene, &rulings, &a, &b) else {
                return Err(format!("{a} and {b} are not both on the table"));
            };
            let folder = shared.cases.clone();
            let saved =
                tokio::task::spawn_blocking(move || save_case(&folder, &state, &case, &note))
                    .await
                    .map_err(|_| "saving the case stopped".to_owned())?;
            match saved {
                Ok(files) => {
                    let name = files
                        .json
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    Ok(format!("case saved: {name}"))
                }
                Err(e) => {
                    tracing::error!("cannot save the umpire's case: {e:#}");
                    Err("the case could not be saved (the table's screen says why)".into())
                }
            }
        }
    }
}
