//! Standing orders and reaction tests that an enemy's coming within a distance triggers (eRules
//! §17.1, §20.2.3, §26), read from the profile's `[[triggers]]`: a ruleset states them as data
//! (who is tested, by which kind of enemy, within what distance, and what follows), and this
//! module rules on them for every unit.
//!
//! Decisions:
//! - The distance is edge to edge, to the nearest enemy of the kind that can set it off: one the
//!   unit sees from its leader when the rule says "sighted", one not in melee when it says so.
//!   Whether the enemy is "advancing" is the players' to say, and the ruling says so.
//! - A trigger with a longer reach for some enemies of the kind (irregular cavalry charges
//!   further) is borderline between the two distances: the camera cannot tell regular from
//!   irregular.
//! - A trigger set off decides yes, not test: whether a test follows hangs on what the camera
//!   cannot tell (the cavalry advancing, supports within evade distance, E-09), so the sentence
//!   says what follows and players apply it.

use crate::profile::Trigger;
use crate::ruling::{Decision, Figure, Ruling, Shape, ShapeRole, Topic};
use crate::situation::{Situation, UnitView};
use crate::visibility::can_see;

/// The rulings of every trigger the unit at `index` is subject to, for those an enemy sets off.
pub fn trigger_rulings(situation: &Situation, index: usize) -> Vec<Ruling> {
    let unit = &situation.scene.units[index];
    situation
        .profile
        .triggers()
        .iter()
        .filter(|t| t.tested == unit.kind)
        .filter_map(|t| trigger_ruling(situation, index, t))
        .collect()
}

fn trigger_ruling(situation: &Situation, index: usize, trigger: &Trigger) -> Option<Ruling> {
    let view = &situation.units[index];
    let unit = view.unit;
    let leader = unit.footprint.leader();
    let sets_off = |o: &UnitView| {
        o.unit.kind == trigger.by
            && !(trigger.not_in_melee && o.engaged)
            && !(trigger.sighted && can_see(situation, index, &leader, o.index).is_err())
    };
    let (enemy, gap) = situation.nearest_enemy_where(index, sets_off)?;
    let enemy = &situation.units[enemy];
    let profile = situation.profile;
    let tolerance = profile.tolerance().distance;
    // Scaled like every other length of the profile (eRules' ground scale by figure size).
    let distance = profile.scaled(trigger.within);
    let reach = profile
        .scaled(trigger.wider.unwrap_or(trigger.within))
        .max(distance);
    if gap > reach + tolerance {
        return None;
    }
    let within = gap <= distance;
    let near_edge = (gap - distance).abs() <= tolerance;
    let (decision, note) = if within || near_edge {
        let note = if near_edge {
            format!(
                " Within tolerance of {}: borderline — players decide.",
                profile.length(distance)
            )
        } else {
            String::new()
        };
        (Decision::judge(within, near_edge), note)
    } else {
        let who = trigger.wider_for.as_deref().unwrap_or("some of them");
        let note = format!(
            " Beyond {} but within {} if it is {who}: borderline — players decide.",
            profile.length(distance),
            profile.length(reach)
        );
        (Decision::Borderline, note)
    };
    let enemy_name = &enemy.unit.name;
    let explanation = format!(
        "{} has {enemy_name} {} away, edge to edge (the rule's distance is {}): {}.{note}",
        unit.name,
        profile.length(gap.rounded()),
        profile.length(distance),
        trigger.then
    );
    let (from, _) = unit.footprint.closest_point(&enemy.unit.footprint.leader());
    let (to, _) = enemy.unit.footprint.closest_point(&from);
    Some(Ruling {
        topic: Topic::Proximity,
        unit: unit.id.clone(),
        other: Some(enemy.unit.id.clone()),
        decision,
        rule: trigger.cited,
        figures: vec![
            Figure::inches("gap", gap),
            Figure::inches("trigger distance", distance),
        ],
        explanation,
        shapes: vec![Shape::segment(
            ShapeRole::Measure,
            &from,
            &to,
            profile.length(gap.rounded()).to_string(),
        )],
    })
}
