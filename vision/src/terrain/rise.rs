//! A found hill's rise from the stands resting on it: each stand's tag gauged from its pattern
//! ([`crate::rise`]) says how far above the cloth it stands; the highest surely raised stand
//! inside a hill's foot stands on its top.
//!
//! Decisions:
//! - A stand counts when its gauge is surely above the cloth: over 0.3" and two
//!   spreads. One on a flank says less than the top, so the highest is taken, with its
//!   own error bar.
//! - The crest is not seen: it is taken as the foot drawn in by twice the rise all round (a
//!   27° flank, a modelled hill's usual), never more than two fifths of the way to the foot's
//!   middle. An assumption, said in the piece's reason.

use geo::{Centroid, Contains};
use rules::geometry::TablePoint;
use rules::scene::TerrainKind;
use rules::units::Inches;

use super::FoundPiece;

/// A stand gauged resting somewhere.
#[derive(Clone, Copy, Debug)]
pub struct StandRest {
    /// Its tag.
    pub tag: u32,
    /// Where it stands, seen at the height it was gauged at.
    pub at: TablePoint,
    /// How far above the cloth its base stands.
    pub rise: Inches,
    /// One standard deviation of that.
    pub spread: Inches,
}

/// Where each stand whose tag is among `sightings` stands, and how high, its tag gauged from its
/// pattern through `camera` (`specs`: the roster's tags; `family`: their family).
pub fn resting_stands(
    image: &opencv::core::Mat,
    camera: &calibration::Camera,
    family: &str,
    sightings: &[calibration::TagSighting],
    specs: &std::collections::HashMap<u32, calibration::StandTagSpec>,
) -> Result<Vec<StandRest>, crate::VisionError> {
    let tags: Vec<_> = sightings
        .iter()
        .filter_map(|s| specs.get(&s.id).map(|spec| (*s, *spec)))
        .collect();
    let gauged = crate::rise::RiseGauge::new(family)?.gauge(image, camera, &tags)?;
    Ok(tags
        .iter()
        .zip(gauged)
        .filter_map(|((sighting, spec), gauged)| {
            let gauged = gauged?;
            let at = camera.unproject_at(&sighting.center(), spec.height + gauged.rise)?;
            Some(StandRest {
                tag: sighting.id,
                at,
                rise: gauged.rise,
                spread: gauged.spread,
            })
        })
        .collect())
}

/// A stand less raised than this is on the cloth, inches.
const LEAST_RISE: f64 = 0.3;
/// … and its gauge this many spreads above it.
const SURE: f64 = 2.0;
/// A flank's width over the hill's rise (a 27° slope).
const FLANK_OVER_RISE: f64 = 2.0;

/// Give each found hill the rise its resting stands show, with the crest it implies; say how
/// in its reasons. Hills no stand surely rests on keep no rise.
pub fn give_rise(pieces: &mut [FoundPiece], rests: &[StandRest]) {
    for piece in pieces
        .iter_mut()
        .filter(|p| p.doc.kind == TerrainKind::Hill)
    {
        let Some(foot) = piece.doc.polygon.clone() else {
            continue;
        };
        let polygon = to_geo(&foot);
        let on_it: Vec<&StandRest> = rests
            .iter()
            .filter(|r| polygon.contains(&geo::Point::new(r.at.x, r.at.y)))
            .filter(|r| r.rise.0 > LEAST_RISE && r.rise.0 > SURE * r.spread.0)
            .collect();
        let Some(top) = on_it.iter().max_by(|a, b| a.rise.0.total_cmp(&b.rise.0)) else {
            continue;
        };
        let rise = (top.rise.0 * 100.0).round() / 100.0;
        piece.doc.rise = Some(rise);
        piece.doc.crest = Some(crest(&foot, rise));
        let tags: Vec<String> = on_it.iter().map(|r| r.tag.to_string()).collect();
        piece.why.push_str(&format!(
            "; rise {rise:.1}\" ± {:.1}\" (95 %) from the stand(s) resting on it (tag {}), its crest taken as {:.1}\" in from its foot",
            1.96 * top.spread.0,
            tags.join(", "),
            FLANK_OVER_RISE * rise
        ));
    }
}

/// The foot drawn in towards its middle by a flank's width.
fn crest(foot: &[TablePoint], rise: f64) -> Vec<TablePoint> {
    let polygon = to_geo(foot);
    let middle = polygon
        .centroid()
        .map_or(foot[0], |c| TablePoint::new(c.x(), c.y()));
    let flank = FLANK_OVER_RISE * rise;
    foot.iter()
        .map(|p| {
            let to = p - middle;
            let reach = to.norm();
            let inward = flank.min(0.4 * reach);
            middle + to * ((reach - inward) / reach.max(1e-9))
        })
        .collect()
}

fn to_geo(points: &[TablePoint]) -> geo::Polygon<f64> {
    geo::Polygon::new(
        points.iter().map(|p| (p.x, p.y)).collect::<Vec<_>>().into(),
        vec![],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::scene::TerrainDoc;

    fn hill() -> FoundPiece {
        FoundPiece {
            doc: TerrainDoc {
                id: "hill-1".into(),
                kind: TerrainKind::Hill,
                polygon: Some(vec![
                    TablePoint::new(0.0, 0.0),
                    TablePoint::new(20.0, 0.0),
                    TablePoint::new(20.0, 20.0),
                    TablePoint::new(0.0, 20.0),
                ]),
                line: None,
                height: Some(1),
                rise: None,
                crest: None,
            },
            confidence: 0.9,
            why: String::new(),
        }
    }

    fn rest(tag: u32, x: f64, rise: f64, spread: f64) -> StandRest {
        StandRest {
            tag,
            at: TablePoint::new(x, 10.0),
            rise: Inches(rise),
            spread: Inches(spread),
        }
    }

    #[test]
    fn the_highest_sure_stand_on_a_hill_gives_its_rise_and_doubtful_or_outside_ones_do_not() {
        let mut pieces = vec![hill()];
        let rests = [
            rest(10, 10.0, 2.0, 0.2),
            rest(11, 3.0, 1.2, 0.2),
            // Higher, but unsure: left out.
            rest(12, 12.0, 2.6, 1.5),
            // Higher, but beside the hill.
            rest(13, 30.0, 3.0, 0.1),
        ];
        give_rise(&mut pieces, &rests);
        assert_eq!(pieces[0].doc.rise, Some(2.0));
        let crest = pieces[0].doc.crest.as_ref().expect("a crest");
        assert!((2.0..5.0).contains(&crest[0].x), "{crest:?}");
        assert!(pieces[0].why.contains("tag 10, 11"), "{}", pieces[0].why);
    }

    #[test]
    fn a_hill_no_stand_surely_rests_on_keeps_no_rise() {
        let mut pieces = vec![hill()];
        give_rise(&mut pieces, &[rest(10, 10.0, 0.2, 0.05)]);
        assert_eq!(pieces[0].doc.rise, None);
        assert!(pieces[0].why.is_empty());
    }
}
