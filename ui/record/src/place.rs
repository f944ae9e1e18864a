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

/// A new game's file in `folder`: [`file_name`], or with `-2`, `-3` … before the extension
/// when a game of the same table began in the same second (two tables served from one machine).
pub fn free_file(folder: &Path, began: &str, table: &str) -> PathBuf {
    let name = file_name(began, table);
    let first = folder.join(&name);
    let stem = name.trim_end_matches(&format!(".{EXTENSION}")).to_owned();
    std::iter::once(first)
        .chain((2..).map(|n| folder.join(format!("{stem}-{n}.{EXTENSION}"))))
        .find(|p| !p.exists())
        .unwrap_or_else(|| folder.join(name))
}

/// The file for the game after the one in `path`, beside it: `game-2.sqlite`, `game-3.sqlite`
/// … (the first that does not exist yet).
pub fn next_file(path: &Path) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "game".into());
    let folder = path.parent().unwrap_or(Path::new(""));
    (2..)
        .map(|n| folder.join(format!("{stem}-{n}.{EXTENSION}")))
        .find(|p| !p.exists())
        .unwrap_or_else(|| path.to_owned())
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

    #[test]
    fn a_second_game_begun_in_the_same_second_gets_a_file_of_its_own() {
        let folder = std::env::temp_dir().join(format!("vedette-place-{}", std::process::id()));
        std::fs::create_dir_all(&folder).expect("a folder");
        let first = free_file(&folder, "2026-11-27_20h15m03", "demo");
        std::fs::write(&first, b"").expect("written");
        let second = free_file(&folder, "2026-11-27_20h15m03", "demo");
        assert_eq!(
            second.file_name().and_then(|n| n.to_str()),
            Some("2026-11-27_20h15m03-demo-2.sqlite")
        );
        let _ = std::fs::remove_dir_all(&folder);
    }
}
