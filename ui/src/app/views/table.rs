//! The table drawn the same way in the camera's view and the plan: the units, their rulings'
//! shapes, the selected unit's zones and targets, the tags the camera cannot place.

use egui::{Color32, Painter, Stroke};
use live::pipeline::TableState;
use rules::Quarter;
use rules::geometry::{ConvexRegion, TablePoint};
use rules::ground::Ground;
use rules::ruling::{Ruling, Topic, Verdict};
use rules::scene::Unit;
use rules::shooting::arc_outline_from;
use rules::units::Inches;

use crate::app::AppState;
use crate::app::measure::{Pick, tape};
use crate::app::overlay::{self, TableToScreen, UnitLook};

/// Short text for a ruling drawn on the table: "must shoot at 3e Ligne — 8.00"", "cannot shoot
/// at 2e Hussards: not in the arc of fire".
pub fn short_label(ruling: &Ruling, unit_name: &str) -> String {
    let text = ruling
        .explanation
        .strip_prefix(unit_name)
        .unwrap_or(&ruling.explanation)
        .trim();
    // Keep the answer and its first reason; names may hold brackets, so cut only after it.
    let reason_at = [" — ", ": "]
        .iter()
        .filter_map(|sep| text.find(sep).map(|i| i + sep.len()))
        .min()
        .unwrap_or(0);
    let cut = [", ", " (", ". "]
        .iter()
        .filter_map(|sep| text[reason_at..].find(sep).map(|i| i + reason_at))
        .min()
        .unwrap_or(text.len());
    let short = text[..cut].trim_end_matches('.');
    if short.chars().count() > 80 {
        let mut s: String = short.chars().take(78).collect();
        s.push('…');
        s
    } else {
        short.to_owned()
    }
}

/// Text sizes for labels on the table, by view.
#[derive(Clone, Copy, Debug)]
pub struct TextSizes {
    /// Unit names.
    pub units: f32,
    /// Labels of lines.
    pub lines: f32,
}

/// Everything drawn on the table, in either view: the selected unit's quarters, charge reach,
/// range and target lines; every unit; the tape; the dispute; the ruling on show.
pub fn draw_table(
    painter: &Painter,
    xf: &dyn TableToScreen,
    state: &AppState,
    table: &TableState,
    sizes: TextSizes,
) {
    let Some(scene) = table.scene.as_deref() else {
        return;
    };
    let selected = state.selected.as_deref().and_then(|id| scene.unit(id));
    if let Some(unit) = selected {
        selected_zones(painter, xf, scene, unit);
        if let Some(unit_rulings) = unit_rulings(table, &unit.id) {
            for ruling in unit_rulings
                .iter()
                .filter(|r| r.topic == Topic::Shooting && r.other.is_none())
            {
                for shape in &ruling.shapes {
                    overlay::ruling_shape(
                        painter,
                        xf,
                        shape,
                        Color32::from_rgb(255, 230, 120),
                        sizes.lines,
                    );
                }
            }
        }
    }
    // A unit on a hill is drawn on it: on the video its outline sits on the stands there.
    let mut ground = Ground::of(&scene.terrain);
    for rise in &table.learnt_ground {
        ground.learn(*rise);
        overlay::learnt_rise(painter, xf, rise);
    }
    let looks: Vec<(&Unit, UnitLook)> = scene
        .units
        .iter()
        .map(|unit| {
            let mut look = unit_look(state, table, scene, unit, sizes.units);
            look.height = look.height + ground.height_at(&unit.footprint.frame().center());
            (unit, look)
        })
        .collect();
    for (unit, look) in &looks {
        overlay::unit(painter, xf, unit, *look);
    }
    travelling(painter, xf, state, table, scene, sizes.units);
    let board = state.desk.board();
    let height = table.stand_height;
    super::remote::remote_desk(painter, xf, &board, scene, height, sizes.units);
    if let Some(unit) = selected {
        target_lines(painter, xf, scene, table, unit, sizes.lines);
    }
    if let Some((unit, index)) = &state.tour.shown
        && let Some(ruling) = unit_rulings(table, unit).and_then(|r| r.get(*index))
    {
        for shape in &ruling.shapes {
            overlay::ruling_shape(
                painter,
                xf,
                shape,
                overlay::verdict_colour(ruling.verdict()),
                sizes.lines,
            );
        }
    }
    if let Some((a, b)) = state.measure.both()
        && let Some(t) = tape(scene, &scene.profile(), a, b, state.settings.units)
    {
        let label = state.settings.units.for_scene(scene).format(t.length);
        let stroke = Stroke::new(3.0, Color32::from_rgb(255, 240, 0));
        overlay::segment(
            painter,
            xf,
            &t.from,
            &t.to,
            stroke,
            false,
            Some((&label, sizes.lines + 2.0)),
        );
    }
    for pick in [&state.measure.first, &state.measure.second]
        .into_iter()
        .flatten()
    {
        if let Pick::Point(p) = pick
            && let Some(at) = xf.to_screen(p)
        {
            painter.circle_filled(at, 4.0, Color32::from_rgb(255, 240, 0));
        }
    }
    if let Some((a, b)) = state.dispute.units()
        && let (Some(a), Some(b)) = (scene.unit(a), scene.unit(b))
    {
        let stroke = Stroke::new(2.5, Color32::from_rgb(255, 120, 255));
        overlay::segment(
            painter,
            xf,
            &a.footprint.leader(),
            &b.footprint.leader(),
            stroke,
            true,
            None,
        );
    }
    unknown_tags(painter, xf, state, table, sizes.units);
    // Names last, the units in play first: the labels of rulings and of the units they are
    // about are placed before the others' names, which give way where there is no room.
    let (first, rest): (Vec<_>, Vec<_>) = looks.into_iter().partition(|(_, look)| look.highlighted);
    for (unit, look) in first.into_iter().chain(rest) {
        overlay::unit_name(painter, xf, unit, look);
    }
    for piece in &scene.terrain {
        overlay::hill_label(painter, xf, piece);
    }
}

/// Units on their way, drawn where they are seen, beside where they rest for the rules.
fn travelling(
    painter: &Painter,
    xf: &dyn TableToScreen,
    state: &AppState,
    table: &TableState,
    scene: &rules::Scene,
    text_size: f32,
) {
    for on_way in &table.travelling {
        let resting = scene.unit(&on_way.unit);
        let side = resting.map(|u| u.side.as_str()).unwrap_or_default();
        let look = UnitLook {
            colour: overlay::side_colour(scene, side),
            highlighted: state.selected.as_deref() == Some(on_way.unit.as_str()),
            held: None,
            height: table.stand_height,
            text_size,
        };
        overlay::ghost(painter, xf, on_way, resting, look);
    }
}

/// Tags the roster does not list, marked where they are: the stand the player is showing the
/// camera to teach it a tag, or a tag that is not in the roster yet.
fn unknown_tags(
    painter: &Painter,
    xf: &dyn TableToScreen,
    state: &AppState,
    table: &TableState,
    text_size: f32,
) {
    let Some(tags) = &table.tags else {
        return;
    };
    let colour = Color32::from_rgb(255, 210, 60);
    let priority = if state.roster.open {
        overlay::Priority::Always
    } else {
        overlay::Priority::IfRoom
    };
    for problem in &tags.problems {
        if let vision::TagProblem::Unknown { id, at } = problem
            && let Some(pos) = xf.to_screen_at(at, table.stand_height)
        {
            painter.circle_stroke(pos, 7.0, Stroke::new(2.0, colour));
            overlay::label(
                painter,
                pos + egui::Vec2::new(9.0, 0.0),
                egui::Align2::LEFT_CENTER,
                &format!("tag {id}?"),
                text_size,
                colour,
                priority,
            );
        }
    }
}

/// How a unit is drawn: its side's colour, bold when it is in play, faint when covered.
fn unit_look(
    state: &AppState,
    table: &TableState,
    scene: &rules::Scene,
    unit: &Unit,
    text_size: f32,
) -> UnitLook {
    let highlighted = state.selected.as_deref() == Some(unit.id.as_str())
        || state.measure.has_unit(&unit.id)
        || state.dispute.has_unit(&unit.id);
    UnitLook {
        colour: overlay::side_colour(scene, &unit.side),
        highlighted,
        held: table.held_units.get(&unit.id).copied(),
        height: table.stand_height,
        text_size,
    }
}

/// The rulings about a unit.
pub fn unit_rulings<'t>(table: &'t TableState, id: &str) -> Option<&'t [Ruling]> {
    table
        .rulings
        .as_deref()?
        .units
        .iter()
        .find(|u| u.summary.id == id)
        .map(|u| u.rulings.as_slice())
}

/// The selected unit's quarters (the ruleset's rays from its corners: 45° in Black Powder) and
/// its charge reach (one move from the leader, into the front quarter).
fn selected_zones(painter: &Painter, xf: &dyn TableToScreen, scene: &rules::Scene, unit: &Unit) {
    let frame = unit.footprint.frame();
    let reach = Inches(8.0);
    let profile = scene.profile();
    for quarter in Quarter::ALL {
        let colour = match quarter {
            Quarter::Front => Color32::from_rgb(120, 220, 120),
            Quarter::Rear => Color32::from_rgb(230, 110, 110),
            _ => Color32::from_rgb(120, 170, 240),
        };
        let points = quarter
            .region_with(frame, profile.quarter_rays())
            .polygon(reach);
        overlay::polygon(
            painter,
            xf,
            &points,
            Inches::ZERO,
            colour.gamma_multiply(0.07),
            Stroke::new(1.0, colour.gamma_multiply(0.5)),
        );
    }
    let charge = profile.unit_move(unit);
    let front = ConvexRegion::Wedge(Quarter::Front.region(frame));
    let outline = arc_outline_from(unit.footprint.leader(), &front, charge);
    if outline.len() >= 3 {
        overlay::outline(
            painter,
            xf,
            &outline,
            true,
            Stroke::new(2.0, Color32::from_rgb(255, 150, 60)),
        );
    }
}

/// Lines from the selected unit to each enemy a shooting or charge ruling names, coloured by
/// the verdict and labelled with the ruling.
fn target_lines(
    painter: &Painter,
    xf: &dyn TableToScreen,
    scene: &rules::Scene,
    table: &TableState,
    unit: &Unit,
    text_size: f32,
) {
    let Some(rulings) = unit_rulings(table, &unit.id) else {
        return;
    };
    let leader = unit.footprint.leader();
    for ruling in rulings.iter().filter(|r| r.topic == Topic::Shooting) {
        let Some(other) = ruling.other.as_deref().and_then(|id| scene.unit(id)) else {
            continue;
        };
        let colour = overlay::verdict_colour(ruling.verdict());
        let label = format!(
            "{} {}",
            overlay::verdict_mark(ruling.verdict()),
            short_label(ruling, &unit.name)
        );
        let (from, to): (TablePoint, TablePoint) = match ruling.shapes.first() {
            Some(rules::ruling::Shape::Segment { from, to, .. }) => (*from, *to),
            _ => (leader, other.footprint.closest_point(&leader).0),
        };
        let dashed = ruling.verdict() == Verdict::No;
        let width = if dashed { 1.5 } else { 2.5 };
        // Targets ruled out before measuring (not in the arc, engaged …) are listed in the
        // inspector; on the table they are a faint dashed line, so the real targets stand out.
        let label = (!dashed || !ruling.shapes.is_empty()).then_some((label.as_str(), text_size));
        overlay::segment(
            painter,
            xf,
            &from,
            &to,
            Stroke::new(width, colour),
            dashed,
            label,
        );
    }
    for ruling in rulings
        .iter()
        .filter(|r| r.topic == Topic::Charge && r.verdict() != Verdict::No)
    {
        for shape in &ruling.shapes {
            overlay::ruling_shape(
                painter,
                xf,
                shape,
                Color32::from_rgb(255, 150, 60),
                text_size,
            );
        }
    }
}

/// A message in the middle of an empty view.
pub fn placeholder(painter: &egui::Painter, area: egui::Rect, text: &str) {
    painter.text(
        area.center(),
        egui::Align2::CENTER_CENTER,
        text,
        egui::FontId::proportional(16.0),
        crate::app::DIM,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::ruling::{Decision, RuleRef};

    fn ruling(text: &str) -> Ruling {
        Ruling {
            topic: Topic::Shooting,
            unit: "45th-foot".into(),
            other: None,
            decision: Decision::Must,
            rule: RuleRef::book("x"),
            figures: Vec::new(),
            explanation: text.into(),
            shapes: Vec::new(),
        }
    }

    #[test]
    fn labels_keep_the_answer_and_its_first_reason() {
        let must = ruling(
            "45th Foot must shoot at 3e Ligne — 8.00\" (beyond close range), the closest visible enemy in its arc.",
        );
        assert_eq!(
            short_label(&must, "45th Foot"),
            "must shoot at 3e Ligne — 8.00\""
        );
        let not = ruling(
            "45th Foot cannot shoot at 1er Léger (voltigeurs): 3e Ligne is closer and takes priority (sight to it not checked).",
        );
        assert_eq!(
            short_label(&not, "45th Foot"),
            "cannot shoot at 1er Léger (voltigeurs): 3e Ligne is closer and takes priority"
        );
    }
}
