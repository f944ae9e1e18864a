//! What can be wrong with a scene, said so that a player can find and fix it.

use std::fmt;
use std::path::PathBuf;

/// The part of a scene a problem is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subject {
    /// The document as a whole (or a field outside the table, terrain and units).
    Document,
    /// The `table` object.
    Table,
    /// `units[index]`, with its id when it has one.
    Unit {
        /// Position in the `units` list.
        index: usize,
        /// The unit's id, if readable.
        id: Option<String>,
    },
    /// `units[unit].stands[index]`.
    Stand {
        /// Position of the unit in the `units` list.
        unit: usize,
        /// The unit's id, if readable.
        unit_id: Option<String>,
        /// Position of the stand in the unit's `stands` list.
        index: usize,
    },
    /// `commanders[index]`, with its id when it has one.
    Commander {
        /// Position in the `commanders` list.
        index: usize,
        /// The commander's id, if readable.
        id: Option<String>,
    },
    /// `sides[index]`.
    Side {
        /// Position in the `sides` list.
        index: usize,
        /// The side's id, if readable.
        id: Option<String>,
    },
    /// `terrain[index]`, with its id when it has one.
    Terrain {
        /// Position in the `terrain` list.
        index: usize,
        /// The terrain's id, if readable.
        id: Option<String>,
    },
}

fn named(
    f: &mut fmt::Formatter<'_>,
    what: &str,
    id: &Option<String>,
    list: &str,
    index: usize,
) -> fmt::Result {
    match id {
        Some(id) if !id.is_empty() => write!(f, "{what} '{id}' ({list}[{index}])"),
        _ => write!(f, "{what} {list}[{index}]"),
    }
}

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Subject::Document => write!(f, "scene"),
            Subject::Table => write!(f, "table"),
            Subject::Unit { index, id } => named(f, "unit", id, "units", *index),
            Subject::Terrain { index, id } => named(f, "terrain", id, "terrain", *index),
            Subject::Commander { index, id } => named(f, "commander", id, "commanders", *index),
            Subject::Side { index, id } => named(f, "side", id, "sides", *index),
            Subject::Stand {
                unit,
                unit_id,
                index,
            } => {
                write!(f, "stand {index} of ")?;
                named(f, "unit", unit_id, "units", *unit)
            }
        }
    }
}

/// One thing wrong with a scene.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// What it is about.
    pub subject: Subject,
    /// The field at fault, e.g. `facing` or `stands[2].width`.
    pub field: Option<String>,
    /// The line in the file, when the parser knows it.
    pub line: Option<usize>,
    /// What is wrong, e.g. "must be greater than 0, got -9.4".
    pub message: String,
}

impl Problem {
    /// A problem with a field of a subject.
    pub fn new(subject: Subject, field: Option<&str>, message: impl Into<String>) -> Problem {
        Problem {
            subject,
            field: field.map(str::to_owned),
            line: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(line) = self.line {
            write!(f, "line {line}: ")?;
        }
        write!(f, "{}", self.subject)?;
        if let Some(field) = &self.field {
            write!(f, ", `{field}`")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Why a scene could not be loaded. Every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum SceneError {
    /// The file could not be read.
    #[error("{}: cannot read the scene: {cause}", file.display())]
    Read {
        /// The file.
        file: PathBuf,
        /// What the system said.
        cause: std::io::Error,
    },
    /// The text is not JSON (or TOML) at all.
    #[error("{file}:{line}:{column}: not a valid {format} document: {message}")]
    Syntax {
        /// The file (or `<input>`).
        file: String,
        /// JSON or TOML.
        format: super::format::Format,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser said.
        message: String,
    },
    /// The document parsed, but describes an impossible scene.
    #[error("{file}: {}", list(problems))]
    Invalid {
        /// The file (or `<input>`).
        file: String,
        /// Everything wrong with it, in document order.
        problems: Vec<Problem>,
    },
}

fn list(problems: &[Problem]) -> String {
    match problems {
        [one] => one.to_string(),
        many => {
            let lines: Vec<String> = many.iter().map(|p| format!("  - {p}")).collect();
            format!("{} problems:\n{}", many.len(), lines.join("\n"))
        }
    }
}

impl SceneError {
    /// The problems of an invalid scene (empty for other errors).
    pub fn problems(&self) -> &[Problem] {
        match self {
            SceneError::Invalid { problems, .. } => problems,
            _ => &[],
        }
    }
}
