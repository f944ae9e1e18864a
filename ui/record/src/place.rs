//! Where games are kept: one file per game in the user's data folder
//! (`~/.local/share/vedette/games` on Linux), named by when it began and its table.

use std::path::{Path, PathBuf};

/// The extension of a record's file: it is an SQLite database, and says so.
pub const EXTENSION: &str = "sqlite";

/// The folder games are kept in by default (`$XDG_DATA_HOME/vedette/games`), if the user has
/// a home.
pub fn games_folder() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "vedette").map(|dirs| dirs.data_dir().join("games"))
}

/// A game's file name: `2026-11-27_20h15m03-waterloo.sqlite` — sorts in time order, reads as
/// a time, and holds no character a file system refuses.
pub fn file_name(began: &str, table: &str) -> String {
    let mut slug = String::new();
    for c in table.chars() {
        if c.is_alphanumeric() {
            slug.extend(c.to_lowercase());
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
    }
    let slug = slug.trim_end_matches('-');
    let slug: String = slug.chars().take(40).collect();
    let slug = if slug.is_empty() {
        "table".into()
    } else {
        slug
    };
    format!("{began}-{slug}.{EXTENSION}")
}

/// The games kept in `folder`, newest first.
pub fn games_in(folder: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut games: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == EXTENSION))
        .collect();
    games.sort();
    games.reverse();
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_named_by_its_time_and_table() {
        assert_eq!(
            file_name("2026-11-27_20h15m03", "Waterloo, 1815 — La Haye Sainte"),
            "2026-11-27_20h15m03-waterloo-1815-la-haye-sainte.sqlite"
        );
        assert_eq!(file_name("t", "///"), "t-table.sqlite");
    }
}
