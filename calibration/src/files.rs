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

/// Write `value` as TOML, replacing the file whole: through a temporary file beside it, renamed
/// into place, so that a crash or a full disk leaves the old file rather than half of the new.
pub fn write_toml<T: Serialize>(value: &T, path: &Path) -> Result<(), FileError> {
    let text = toml::to_string(value).map_err(|e| FileError::Invalid {
        file: path.to_owned(),
        line: None,
        message: format!("cannot be written as TOML: {e}"),
    })?;
    let failed = |cause| FileError::Write {
        file: path.to_owned(),
        cause,
    };
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".saving");
    let temporary = std::path::PathBuf::from(temporary);
    std::fs::write(&temporary, text)
        .and_then(|()| std::fs::rename(&temporary, path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&temporary);
            failed(e)
        })
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
