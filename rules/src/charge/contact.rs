//! Contact as the camera sees it (digest §7.4, A22): touching or not, and how much of the face
//! is covered.

use super::Face;
use crate::quarter::classify;
use crate::ruling::{Decision, Figure, RuleRef, Ruling, Shape, ShapeRole, Topic};
use crate::situation::{Contact, Situation};

const CONTACT: RuleRef = RuleRef::read_as("Charging More than One Unit at Once (§7.4)", "A22");

/// One ruling per pair of enemy units touching or nearly touching.
pub fn contact_rulings(situation: &Situation) -> Vec<Ruling> {
    situation
        .contacts
        .iter()
        .map(|c| contact_ruling(situation, c))
        .collect()
}

fn contact_ruling(situation: &Situation, contact: &Contact) -> Ruling {
    let distances = situation.profile.distances();
    let (a, b) = (
        &situation.scene.units[contact.a],
        &situation.scene.units[contact.b],
    );
    let face_quarter = classify(b.footprint.frame(), &a.footprint.leader()).face;
    let face = Face::of(b.footprint.frame(), face_quarter);
    let reach = distances.contact + situation.margin(contact.plus_minus);
    let covered = face
        .covered_by(a.footprint.stands(), reach)
        .map_or(0.0, |(from, to)| (to - from).0);
    let fraction = if face.length().0 > 0.0 {
        covered / face.length().0
    } else {
        0.0
    };
    let touching = contact.gap <= distances.contact;
    // Drawn by hand, only a gap beyond the contact distance is in doubt (the distance already
    // allows for a camera never seeing 0); measured, a gap the camera cannot tell from the
    // contact distance either way.
    let borderline = !touching
        || contact.plus_minus.is_some()
            && distances.contact - contact.gap <= situation.margin(contact.plus_minus);
    let apart = situation.length_within(contact.gap, contact.plus_minus);
    let mut explanation = match (touching, borderline) {
        (true, false) if contact.plus_minus.is_some() => {
            format!("{} and {} are in contact ({apart} apart)", a.name, b.name)
        }
        (true, false) => format!("{} and {} are in contact", a.name, b.name),
        _ => format!(
            "{} and {} are {apart} apart: {} — players decide whether they touch",
            a.name,
            b.name,
            situation.undecided(contact.plus_minus),
        ),
    };
    explanation.push_str(&format!(
        "; {} covers {:.0}% of {}'s {} face",
        a.name,
        fraction * 100.0,
        b.name,
        face_quarter.describe()
    ));
    if fraction < 0.5 {
        explanation.push_str(
            ": less than half, so as an adjacent unit it is not engaged (pull it back about 1\")",
        );
    }
    explanation.push('.');
    Ruling {
        topic: Topic::Contact,
        unit: a.id.clone(),
        other: Some(b.id.clone()),
        decision: Decision::judge(true, borderline),
        rule: CONTACT,
        figures: vec![
            Figure::inches("gap", contact.gap).within(contact.plus_minus),
            Figure::fraction("face covered", fraction),
        ],
        explanation,
        shapes: vec![Shape::segment(
            ShapeRole::Zone,
            &face.start,
            &face.end,
            face_quarter.describe(),
        )],
    }
}
