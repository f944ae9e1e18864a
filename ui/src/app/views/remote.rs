//! Remote players on the table, in both views: each pointer a ring in its player's side's
//! colour with the player's name, fading as it goes; each ordered move a dashed ghost of the
//! unit where it is to stand, with who ordered it and the check's verdict — or, once the unit
//! was moved, how well it was placed. The host moves the real unit onto the ghost.

use egui::epaint::Shape as EguiShape;
use egui::{Align2, Color32, Painter, Stroke, Vec2};
use live::orders::{Board, POINTER_LIFE, Seat, StandingOrder};
use rules::Scene;
use rules::units::Inches;

use crate::app::overlay::{self, Priority, TableToScreen};

/// The desk's pointers and orders, drawn at the stands' `height`.
pub fn remote_desk(
    painter: &Painter,
    xf: &dyn TableToScreen,
    board: &Board,
    scene: &Scene,
    height: Inches,
    text_size: f32,
) {
    for order in &board.orders {
        ordered(painter, xf, order, scene, height, text_size);
    }
    for (pointer, age) in &board.pointers {
        let left = 1.0 - age.as_secs_f32() / POINTER_LIFE.as_secs_f32();
        let Some(at) = xf.to_screen_at(&pointer.at, height) else {
            continue;
        };
        let colour = seat_colour(scene, &pointer.seat).gamma_multiply(left.clamp(0.0, 1.0));
        painter.circle_stroke(at, 14.0, Stroke::new(3.0, colour));
        painter.circle_filled(at, 3.0, colour);
        overlay::label(
            painter,
            at + Vec2::new(16.0, -12.0),
            Align2::LEFT_BOTTOM,
            &pointer.by,
            text_size,
            colour,
            Priority::Always,
        );
    }
}

fn seat_colour(scene: &Scene, seat: &Seat) -> Color32 {
    match seat.side() {
        Some(side) => overlay::side_colour(scene, side),
        None => Color32::WHITE,
    }
}

/// One order: the unit's ghost where it is to stand, dashed, and what is said of it.
fn ordered(
    painter: &Painter,
    xf: &dyn TableToScreen,
    order: &StandingOrder,
    scene: &Scene,
    height: Inches,
    text_size: f32,
) {
    let placed = order.placed.as_ref().map(|(matched, _)| matched);
    let colour = overlay::side_colour(scene, &order.side).gamma_multiply(if placed.is_some() {
        0.5
    } else {
        1.0
    });
    let stroke = Stroke::new(2.5, colour);
    for stand in &order.ghost {
        let corners: Vec<_> = (stand.iter())
            .filter_map(|c| xf.to_screen_at(c, height))
            .collect();
        if corners.len() == 4 {
            let closed = [&corners[..], &corners[..1]].concat();
            painter.extend(EguiShape::dashed_line(&closed, stroke, 8.0, 5.0));
        }
    }
    let Some(at) = xf.to_screen_at(&order.order.leader, height) else {
        return;
    };
    let words = match placed {
        Some(matched) => format!("{}: {}", order.name, matched.words),
        None => format!(
            "{} {} — ordered by {}",
            live::look::verdict_mark(order.verdict),
            order.name,
            order.by
        ),
    };
    let colour = placed.map_or(overlay::verdict_colour(order.verdict), |m| {
        if m.as_ordered {
            overlay::verdict_colour(rules::ruling::Verdict::Yes)
        } else {
            overlay::verdict_colour(rules::ruling::Verdict::Borderline)
        }
    });
    overlay::label(
        painter,
        at + Vec2::new(0.0, -8.0),
        Align2::CENTER_BOTTOM,
        &words,
        text_size,
        colour,
        Priority::Always,
    );
}
