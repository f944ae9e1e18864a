//! The roster editor: the army's units, their stands and which tag is on each, edited in place
//! in the roster file (comments and layout kept), with the "learn tags" step — show a stand to
//! the camera, say what it is, and the binding is written. The table follows every edit at
//! once; the file changes when the player saves.

use std::collections::{HashMap, HashSet};

use egui::{Color32, RichText};
use roster::{Roster, RosterDocument, StandEdit, TagOwner};

use crate::app::{AppState, DIM};
use live::pipeline::Command;

/// Ids of the tag36h11 family, the one rosters use unless told otherwise.
const TAG_IDS: std::ops::RangeInclusive<u32> = 0..=586;

/// Everything a tag can be put on, labelled for a menu.
fn owners(roster: &Roster) -> Vec<(TagOwner, String)> {
    let mut out = Vec::new();
    for (u, unit) in roster.units.iter().enumerate() {
        let name = unit.name.as_deref().unwrap_or(&unit.id);
        for (s, stand) in unit.stands.iter().enumerate() {
            let label = if unit.stands.len() == 1 {
                format!("{name} (now tag {})", stand.tag)
            } else {
                format!("{name}, stand {} (now tag {})", s + 1, stand.tag)
            };
            out.push((TagOwner::Stand { unit: u, stand: s }, label));
        }
    }
    for (i, commander) in roster.commanders.iter().enumerate() {
        let name = commander.name.as_deref().unwrap_or(&commander.id);
        out.push((
            TagOwner::Commander(i),
            format!("{name}, commander (now tag {})", commander.tag),
        ));
    }
    out
}

/// The roster panel, in the right-hand column.
pub fn roster_panel(ui: &mut egui::Ui, state: &mut AppState) {
    ui.heading("Roster");
    let Some(path) = state.settings.setup.roster.clone() else {
        ui.label(
            RichText::new(
                "The demo table's roster is built in. To edit yours and teach Vedette your tags, \
                 open your camera or a picture with a roster file (📷 Source → Roster); \
                 `vedette roster new` makes one.",
            )
            .color(DIM),
        );
        return;
    };
    state.roster.follow(&path);
    let unknown = state
        .status()
        .map(|s| s.unknown_tags.clone())
        .unwrap_or_default();
    let seen: HashSet<u32> = state
        .table
        .as_ref()
        .and_then(|t| t.tags.as_ref())
        .map(|t| t.tags.iter().map(|tag| tag.pose.id).collect())
        .unwrap_or_default();
    let editor = &mut state.roster;
    if let Some(error) = &editor.error {
        ui.label(RichText::new(error).color(Color32::from_rgb(255, 110, 90)));
    }
    let Some(doc) = editor.document.as_mut() else {
        return;
    };
    let before = doc.roster().clone();
    let mut failed = None;
    header(ui, doc, &mut failed, &mut state.message);
    ui.separator();
    learn_tags(ui, doc, &unknown, &mut editor.choice, &mut failed);
    ui.separator();
    units(ui, doc, &seen, &mut failed);
    if let Some(e) = failed {
        editor.error = Some(e);
    }
    if doc.roster() != &before {
        editor.error = None;
        state
            .commands
            .push(Command::Roster(Box::new(doc.roster().clone())));
    }
}

fn header(
    ui: &mut egui::Ui,
    doc: &mut RosterDocument,
    failed: &mut Option<String>,
    message: &mut Option<String>,
) {
    ui.horizontal(|ui| {
        ui.label(RichText::new(doc.path().display().to_string()).color(DIM));
        let saved = doc.is_saved();
        if !saved {
            ui.label(RichText::new("• not saved").color(Color32::from_rgb(255, 200, 80)));
        }
        if ui
            .add_enabled(!saved, egui::Button::new("💾 Save"))
            .clicked()
        {
            match doc.save() {
                Ok(()) => *message = Some(format!("roster saved to {}", doc.path().display())),
                Err(e) => *failed = Some(e.to_string()),
            }
        }
    });
}

/// Tags the camera sees that the roster does not list: pick what each is on.
fn learn_tags(
    ui: &mut egui::Ui,
    doc: &mut RosterDocument,
    unknown: &[u32],
    choice: &mut HashMap<u32, TagOwner>,
    failed: &mut Option<String>,
) {
    ui.label(RichText::new("Learn tags").strong());
    if unknown.is_empty() {
        ui.label(
            RichText::new(
                "Show a stand to the camera: a tag the roster does not list appears here, \
                 and you say which stand it is on.",
            )
            .color(DIM),
        );
        return;
    }
    let options = owners(doc.roster());
    for &tag in unknown {
        ui.horizontal(|ui| {
            let named = ui.label(RichText::new(format!("Tag {tag} in view")).strong());
            let picked = choice.get(&tag).copied();
            let text = picked
                .and_then(|p| options.iter().find(|(o, _)| *o == p))
                .map_or("it is on…", |(_, label)| label.as_str());
            egui::ComboBox::from_id_salt(("learn-tag", tag))
                .selected_text(text)
                .width(220.0)
                .show_ui(ui, |ui| {
                    for (owner, label) in &options {
                        if ui.selectable_label(picked == Some(*owner), label).clicked() {
                            choice.insert(tag, *owner);
                        }
                    }
                })
                .response
                .labelled_by(named.id);
            let ready = choice.get(&tag).copied();
            if ui
                .add_enabled(ready.is_some(), egui::Button::new("Put it there"))
                .clicked()
                && let Some(owner) = ready
            {
                match doc.bind_tag(tag, owner) {
                    Ok(()) => {
                        choice.remove(&tag);
                    }
                    Err(e) => *failed = Some(e.to_string()),
                }
            }
        });
    }
}

/// Every unit with its stands: name, tag, size and where the tag sits; ✔ when its tag is seen.
fn units(
    ui: &mut egui::Ui,
    doc: &mut RosterDocument,
    seen: &HashSet<u32>,
    failed: &mut Option<String>,
) {
    let roster = doc.roster().clone();
    for (u, unit) in roster.units.iter().enumerate() {
        let title = unit.name.clone().unwrap_or_else(|| unit.id.clone());
        egui::CollapsingHeader::new(&title)
            .id_salt(("roster-unit", u))
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.label("Name");
                    let mut name = title.clone();
                    if ui.text_edit_singleline(&mut name).changed()
                        && let Err(e) = doc.rename_unit(u, &name)
                    {
                        *failed = Some(e.to_string());
                    }
                });
                ui.label(
                    RichText::new(format!(
                        "{} · {:?} · lengths in inches, turn in degrees",
                        unit.id, unit.kind
                    ))
                    .color(DIM),
                );
                egui::Grid::new(("roster-stands", u))
                    .num_columns(8)
                    .striped(true)
                    .show(ui, |ui| {
                        for heading in ["", "tag", "width", "depth", "tag x", "tag y", "turn", ""] {
                            ui.label(RichText::new(heading).color(DIM));
                        }
                        ui.end_row();
                        for (s, stand) in unit.stands.iter().enumerate() {
                            for edit in stand_row(ui, s, stand, seen.contains(&stand.tag)) {
                                if let Err(e) = doc.edit_stand(u, s, edit) {
                                    *failed = Some(e.to_string());
                                }
                            }
                            ui.end_row();
                        }
                    });
            });
    }
}

/// One stand's row; returns the edits made.
fn stand_row(
    ui: &mut egui::Ui,
    index: usize,
    stand: &roster::RosterStand,
    seen: bool,
) -> Vec<StandEdit> {
    let mut edits = Vec::new();
    ui.label(format!("{}", index + 1));
    let mut tag = stand.tag;
    if ui
        .add(egui::DragValue::new(&mut tag).range(TAG_IDS))
        .changed()
    {
        edits.push(StandEdit::Tag(tag));
    }
    let length = |ui: &mut egui::Ui, v: &mut f64, range| {
        ui.add(
            egui::DragValue::new(v)
                .range(range)
                .speed(0.05)
                .max_decimals(2),
        )
        .changed()
    };
    let (mut width, mut depth) = (stand.width, stand.depth);
    if length(ui, &mut width, 0.1..=48.0) {
        edits.push(StandEdit::Width(width));
    }
    if length(ui, &mut depth, 0.1..=48.0) {
        edits.push(StandEdit::Depth(depth));
    }
    let mut offset = stand.tag_offset;
    let moved_x = length(ui, &mut offset.right.0, -24.0..=24.0);
    let moved_y = length(ui, &mut offset.front.0, -24.0..=24.0);
    if moved_x || moved_y {
        edits.push(StandEdit::TagOffset(offset));
    }
    let mut turn = stand.tag_turn;
    if ui
        .add(
            egui::DragValue::new(&mut turn)
                .range(-180.0..=180.0)
                .speed(1.0),
        )
        .changed()
    {
        edits.push(StandEdit::TagTurn(turn));
    }
    if seen {
        ui.label(RichText::new("✔ seen").color(Color32::from_rgb(120, 220, 120)));
    } else {
        ui.label(RichText::new("not in view").color(DIM));
    }
    edits
}
