//! Reading scenes from JSON and TOML, with errors that point at the file, line and unit.

use std::path::Path;

use serde_path_to_error::{Path as FieldPath, Segment};

use super::doc::SceneDoc;
use super::format::Format;
use super::validate::validate;
use super::{Problem, Scene, SceneError, Subject};
use crate::profile::Profile;

impl Scene {
    /// Read a scene file (JSON or TOML, by extension), checked against its ruleset's built-in
    /// profile.
    pub fn load(path: &Path) -> Result<Scene, SceneError> {
        Scene::load_against(path, None)
    }

    /// Read a scene file, checked against `profile` (a `--profile` file: a weapon it adds is
    /// one the scene may use) or, when none is given, its ruleset's built-in profile.
    pub fn load_against(path: &Path, profile: Option<&Profile>) -> Result<Scene, SceneError> {
        let text = std::fs::read_to_string(path).map_err(|cause| SceneError::Read {
            file: path.to_owned(),
            cause,
        })?;
        let file = path.display().to_string();
        Scene::parse_against(&text, Format::of(path, &text), &file, profile)
    }

    /// Parse a scene from text; `file` names it in errors.
    pub fn parse(text: &str, format: Format, file: &str) -> Result<Scene, SceneError> {
        Scene::parse_against(text, format, file, None)
    }

    /// Parse a scene from text, checked against `profile` (see [`Scene::load_against`]).
    pub fn parse_against(
        text: &str,
        format: Format,
        file: &str,
        profile: Option<&Profile>,
    ) -> Result<Scene, SceneError> {
        let doc = match format {
            Format::Json => parse_json(text, file)?,
            Format::Toml => parse_toml(text, file)?,
        };
        let profile = profile.unwrap_or_else(|| Profile::builtin(doc.ruleset));
        validate(doc, profile).map_err(|problems| SceneError::Invalid {
            file: file.to_owned(),
            problems,
        })
    }

    /// Check a scene document built in code (the camera pipeline builds one from a roster and
    /// the tags it sees) against its ruleset's built-in profile; `source` names it in errors.
    pub fn from_doc(doc: SceneDoc, source: &str) -> Result<Scene, SceneError> {
        let profile = Profile::builtin(doc.ruleset);
        validate(doc, profile).map_err(|problems| SceneError::Invalid {
            file: source.to_owned(),
            problems,
        })
    }

    /// The scene as pretty JSON, in the same format it is read from.
    pub fn to_json(&self) -> String {
        // Serializing plain structs of numbers and strings cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

fn parse_json(text: &str, file: &str) -> Result<SceneDoc, SceneError> {
    let syntax_error = |error: &serde_json::Error| SceneError::Syntax {
        file: file.to_owned(),
        format: Format::Json,
        line: error.line(),
        column: error.column(),
        message: strip_position(&error.to_string()),
    };
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let doc = serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
        let path = error.path().clone();
        let inner = error.into_inner();
        if inner.is_syntax() || inner.is_eof() {
            return syntax_error(&inner);
        }
        let raw = serde_json::from_str::<serde_json::Value>(text).ok();
        let message = strip_position(&inner.to_string());
        field_error(file, &path, raw.as_ref(), Some(inner.line()), message)
    })?;
    deserializer.end().map_err(|e| syntax_error(&e))?;
    Ok(doc)
}

fn parse_toml(text: &str, file: &str) -> Result<SceneDoc, SceneError> {
    let syntax_error = |error: toml::de::Error| {
        let (line, column) = line_and_column(text, error.span().map_or(0, |s| s.start));
        SceneError::Syntax {
            file: file.to_owned(),
            format: Format::Toml,
            line,
            column,
            message: error.message().to_owned(),
        }
    };
    let deserializer = toml::de::Deserializer::parse(text).map_err(syntax_error)?;
    serde_path_to_error::deserialize(deserializer).map_err(|error| {
        let path = error.path().clone();
        let inner = error.into_inner();
        let line = inner.span().map(|s| line_and_column(text, s.start).0);
        let raw = toml::from_str::<serde_json::Value>(text).ok();
        field_error(file, &path, raw.as_ref(), line, inner.message().to_owned())
    })
}

/// serde_json appends " at line L column C"; the error already carries them separately.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_owned(),
        None => message.to_owned(),
    }
}

/// 1-based line and column of a byte offset.
fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// A type error inside the document, said about the unit, stand or terrain it is in.
fn field_error(
    file: &str,
    path: &FieldPath,
    raw: Option<&serde_json::Value>,
    line: Option<usize>,
    message: String,
) -> SceneError {
    let (subject, field) = locate(path, raw);
    SceneError::Invalid {
        file: file.to_owned(),
        problems: vec![Problem {
            subject,
            field,
            line,
            message,
        }],
    }
}

/// Split a document path like `units[2].stands[1].width` into its subject and field.
fn locate(path: &FieldPath, raw: Option<&serde_json::Value>) -> (Subject, Option<String>) {
    let segments: Vec<&Segment> = path.iter().collect();
    let id_at = |list: &str, index: usize| {
        raw.and_then(|r| {
            r.get(list)?
                .get(index)?
                .get("id")?
                .as_str()
                .map(str::to_owned)
        })
    };
    let rest = |from: usize| {
        let field = render(&segments[from.min(segments.len())..]);
        (!field.is_empty()).then_some(field)
    };
    match segments.as_slice() {
        [
            Segment::Map { key },
            Segment::Seq { index },
            Segment::Map { key: s },
            Segment::Seq { index: stand },
            ..,
        ] if key == "units" && s == "stands" => {
            let subject = Subject::Stand {
                unit: *index,
                unit_id: id_at("units", *index),
                index: *stand,
            };
            (subject, rest(4))
        }
        [Segment::Map { key }, Segment::Seq { index }, ..] if key == "units" => (
            Subject::Unit {
                index: *index,
                id: id_at("units", *index),
            },
            rest(2),
        ),
        [Segment::Map { key }, Segment::Seq { index }, ..] if key == "terrain" => (
            Subject::Terrain {
                index: *index,
                id: id_at("terrain", *index),
            },
            rest(2),
        ),
        [Segment::Map { key }, ..] if key == "table" => (Subject::Table, rest(1)),
        _ => (Subject::Document, rest(0)),
    }
}

fn render(segments: &[&Segment]) -> String {
    let mut out = String::new();
    for segment in segments {
        match segment {
            Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            Segment::Map { key } => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Segment::Enum { variant } => out.push_str(&format!("::{variant}")),
            Segment::Unknown => {}
        }
    }
    out
}
