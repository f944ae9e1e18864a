//! Reading and writing the TOML files of the camera half (anchors, calibrations, rosters), with
//! errors that name the file, the line and the field at fault.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

/// Why a file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file could not be opened or read.
    #[error("{}: cannot read: {cause}", file.display())]
    Read {
        /// The file.
        file: PathBuf,
        /// What the system said.
        cause: std::io::Error,
    },
    /// The file could not be written.
    #[error("{}: cannot write: {cause}", file.display())]
    Write {
        /// The file.
        file: PathBuf,
        /// What the system said.
        cause: std::io::Error,
    },
    /// The text is not valid TOML, or a field has the wrong type.
    #[error("{}:{line}: {}{message}", file.display(), field.as_ref().map(|f| format!("{f}: ")).unwrap_or_default())]
    Parse {
        /// The file.
        file: PathBuf,
        /// 1-based line of the fault (1 when the parser does not know).
        line: usize,
        /// The field, as a dotted path, when known.
        field: Option<String>,
        /// What is wrong.
        message: String,
    },
    /// The file parsed but says something impossible.
    #[error("{}:{}: {message}", file.display(), line.map(|l| l.to_string()).unwrap_or_else(|| "-".into()))]
    Invalid {
        /// The file.
        file: PathBuf,
        /// 1-based line, when known.
        line: Option<usize>,
        /// What is wrong, naming the tag or field.
        message: String,
    },
}

/// Read a text file, naming it if it cannot be read.
pub fn read_text(path: &Path) -> Result<String, FileError> {
    std::fs::read_to_string(path).map_err(|cause| FileError::Read {
        file: path.to_owned(),
        cause,
    })
}

/// Read a TOML file into `T`.
pub fn read_toml<T: DeserializeOwned>(path: &Path) -> Result<T, FileError> {
    parse_toml(&read_text(path)?, path)
}

/// Parse TOML text into `T`; `path` names it in errors.
pub fn parse_toml<T: DeserializeOwned>(text: &str, path: &Path) -> Result<T, FileError> {
    let parse_error =
        |span: Option<std::ops::Range<usize>>, field, message: &str| FileError::Parse {
            file: path.to_owned(),
            line: line_of(text, span.map_or(0, |s| s.start)),
            field,
            message: message.to_owned(),
        };
    let deserializer = toml::de::Deserializer::parse(text)
        .map_err(|e| parse_error(e.span(), None, e.message()))?;
    if let Some((field, span)) = rules::toml_numbers::first_not_finite(text) {
        return Err(parse_error(
            Some(span),
            Some(field),
            "must be a finite number (TOML allows nan and inf; no measurement is one)",
        ));
    }
    serde_path_to_error::deserialize(deserializer).map_err(|error| {
        let field = error.path().to_string();
        let field = (field != ".").then_some(field);
        let inner = error.into_inner();
        parse_error(inner.span(), field, inner.message())
    })
}

/// Write `value` as TOML, replacing the file whole (see [`write_whole`]).
pub fn write_toml<T: Serialize>(value: &T, path: &Path) -> Result<(), FileError> {
    let text = toml::to_string(value).map_err(|e| FileError::Invalid {
        file: path.to_owned(),
        line: None,
        message: format!("cannot be written as TOML: {e}"),
    })?;
    write_whole(path, |temporary| std::fs::write(temporary, text))
}

/// Replace `path` whole: `write` is handed a temporary path beside it, with the same extension
/// (a writer that picks the format by it still does), renamed into place once written. A
/// crash or a full disk leaves the old file, and nothing half-written beside it.
pub fn write_whole(
    path: &Path,
    write: impl FnOnce(&Path) -> std::io::Result<()>,
) -> Result<(), FileError> {
    let temporary = temporary_beside(path);
    write(&temporary)
        .and_then(|()| std::fs::rename(&temporary, path))
        .map_err(|cause| {
            // There may be nothing to remove.
            let _ = std::fs::remove_file(&temporary);
            FileError::Write {
                file: path.to_owned(),
                cause,
            }
        })
}

/// `dir/.name.vedette-PID.ext` beside `dir/name.ext`.
fn temporary_beside(path: &Path) -> PathBuf {
    let stem = path
        .file_stem()
        .map_or_else(|| "output".into(), |s| s.to_string_lossy().into_owned());
    let mut name = format!(".{stem}.vedette-{}", std::process::id());
    if let Some(extension) = path.extension() {
        name.push('.');
        name.push_str(&extension.to_string_lossy());
    }
    path.with_file_name(name)
}

/// The 1-based line holding byte `offset` of `text`.
pub fn line_of(text: &str, offset: usize) -> usize {
    let offset = offset.min(text.len());
    text.as_bytes()[..offset]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = std::env::temp_dir().join(format!("vedette-whole-{}", std::process::id()));
        // Emptied first: a process id comes round again, and the count below wants this test's files.
        std::fs::remove_dir_all(&dir).ok();
        std::fs::create_dir_all(&dir).expect("scratch dir");
        let file = dir.join("camera.toml");
        std::fs::write(&file, b"old").expect("write");
        let failed = write_whole(&file, |temporary| {
            std::fs::write(temporary, b"half")?;
            Err(std::io::Error::other("disk full"))
        });
        let error = failed.expect_err("failed").to_string();
        assert_eq!(
            error,
            format!("{}: cannot write: disk full", file.display())
        );
        assert_eq!(std::fs::read(&file).expect("read"), b"old");
        assert_eq!(
            std::fs::read_dir(&dir).expect("dir").count(),
            1,
            "no temporary left"
        );
        write_whole(&file, |temporary| std::fs::write(temporary, b"new")).expect("written");
        assert_eq!(std::fs::read(&file).expect("read"), b"new");
        std::fs::remove_dir_all(&dir).ok();
    }
}
