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
    let reach = distances.contact + situation.profile.tolerance().distance;
    let covered = face
        .covered_by(a.footprint.stands(), reach)
        .map_or(0.0, |(from, to)| (to - from).0);
    let fraction = if face.length().0 > 0.0 {
        covered / face.length().0
    } else {
        0.0
    };
    let touching = contact.gap <= distances.contact;
    let mut explanation = if touching {
        format!("{} and {} are in contact", a.name, b.name)
    } else {
        format!(
            "{} and {} are {} apart: borderline — players decide whether they touch",
            a.name,
            b.name,
            situation.profile.length(contact.gap.rounded())
        )
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
        decision: Decision::judge(true, !touching),
        rule: CONTACT,
        figures: vec![
            Figure::inches("gap", contact.gap),
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
