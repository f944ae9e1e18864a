//! Printed sheets read back: rasterise each generated page, detect its tags, and check every
//! printed tag is found with its id, at its printed size.

use std::collections::BTreeMap;
use std::path::Path;

use calibration::{AnchorLayout, Board, PixelPoint};
use roster::Roster;
use rules::units::Inches;
use vision::printables::raster::rasterise;
use vision::printables::{
    Base, Mm, Page, Paper, SheetItem, SheetOptions, anchor_kit, board_sheet, roster_items,
    tag_sheet,
};
use vision::{Detection, DetectorSettings, TagDetector};

const DPI: f64 = 150.0;

fn samples(path: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../samples")
        .join(path)
}

fn detect(page: &Page) -> BTreeMap<u32, Detection> {
    let picture = rasterise(page, DPI)
        .and_then(|r| r.to_mat())
        .expect("raster");
    let mut detector = TagDetector::new(DetectorSettings::default()).expect("detector");
    let found = detector.detect(&picture).expect("detect");
    found.tags.into_iter().map(|t| (t.sighting.id, t)).collect()
}

/// Every expected tag found once, no stranger, each side within 1 % of its printed size.
fn assert_read_back(pages: &[Page], expected: &BTreeMap<u32, Mm>) {
    let mut seen = BTreeMap::new();
    for page in pages {
        for (id, detection) in detect(page) {
            assert!(seen.insert(id, detection).is_none(), "tag {id} twice");
        }
    }
    let ids: Vec<u32> = seen.keys().copied().collect();
    let wanted: Vec<u32> = expected.keys().copied().collect();
    assert_eq!(ids, wanted);
    for (id, size) in expected {
        let printed = size.inches().0 * DPI;
        let measured = seen[id].sighting.side();
        let error = (measured - printed).abs() / printed;
        assert!(
            error < 0.01,
            "tag {id}: {measured:.2} px for {printed:.2} px"
        );
    }
}

#[test]
fn a_sheet_of_ids_on_40_by_40_bases_reads_back_at_its_printed_size() {
    let options = SheetOptions {
        family: "tag36h11".into(),
        paper: Paper::A4,
        title: "test".into(),
    };
    let base = Base {
        width: Mm(40.0),
        depth: Mm(40.0),
    };
    let items: Vec<SheetItem> = (0..24)
        .chain([586])
        .map(|id| SheetItem::tag(id, Mm(25.0), Some(base)))
        .collect();
    let pages = tag_sheet(&options, &items).expect("sheet");
    assert_eq!(
        pages.len(),
        2,
        "24 bases of 40 mm and their labels fill an A4"
    );
    let expected = items.iter().map(|i| (i.id, i.size)).collect();
    assert_read_back(&pages, &expected);
}

#[test]
fn a_rosters_sheet_reads_back_with_each_stands_tag_size() {
    let roster = Roster::load(&samples("camera/two-lines-roster.toml")).expect("roster");
    let options = SheetOptions {
        family: "tag36h11".into(),
        paper: Paper::LETTER,
        title: "two lines".into(),
    };
    let items = roster_items(&roster);
    let pages = tag_sheet(&options, &items).expect("sheet");
    let expected: BTreeMap<u32, Mm> = roster
        .mounts()
        .into_iter()
        .map(|(id, m)| (id, Mm::from_inches(m.size)))
        .collect();
    assert_read_back(&pages, &expected);
}

#[test]
fn turned_tags_off_centre_read_back() {
    let options = SheetOptions {
        family: "tag36h11".into(),
        paper: Paper::A4,
        title: "turned".into(),
    };
    let base = Base {
        width: Mm(60.0),
        depth: Mm(36.0),
    };
    let items: Vec<SheetItem> = [0.0, 90.0, 180.0, 270.0, 30.0]
        .into_iter()
        .enumerate()
        .map(|(i, turn)| SheetItem {
            offset: [Mm(12.0), Mm(-2.0)],
            turn: rules::units::Degrees(turn),
            ..SheetItem::tag(100 + i as u32, Mm(18.0), Some(base))
        })
        .collect();
    let pages = tag_sheet(&options, &items).expect("sheet");
    let expected = items.iter().map(|i| (i.id, i.size)).collect();
    assert_read_back(&pages, &expected);
}

#[test]
fn the_anchor_kit_reads_back_at_two_inches() {
    let layout = AnchorLayout::load(&samples("camera/anchors.toml")).expect("anchors");
    let pages = anchor_kit(&layout, Paper::A4).expect("kit");
    let expected = layout
        .anchors
        .iter()
        .map(|a| (a.id, Mm::from_inches(Inches(a.size))))
        .collect();
    assert_read_back(&pages, &expected);
}

#[test]
fn the_board_prints_every_tag_where_the_calibration_expects_it() {
    let board = Board::default();
    for paper in [Paper::A4, Paper::LETTER] {
        let page = board_sheet(&board, paper).expect("board");
        let found = detect(&page);
        let ids: Vec<u32> = found.keys().copied().collect();
        assert_eq!(ids, board.ids().collect::<Vec<_>>());
        let origin = vision::printables::kit::board_origin(&board, paper);
        let to_pixels = |x: f64, y: f64| {
            let mm = (
                origin.x.0 + Mm::from_inches(Inches(x)).0,
                origin.y.0 - Mm::from_inches(Inches(y)).0,
            );
            // OpenCV puts the top-left pixel's centre at (0, 0), half a pixel from the page's corner.
            PixelPoint::new(mm.0 / 25.4 * DPI - 0.5, mm.1 / 25.4 * DPI - 0.5)
        };
        for (id, detection) in &found {
            let placement = board.placement(*id).expect("a board tag");
            for (corner, seen) in placement
                .corners_2d()
                .iter()
                .zip(detection.sighting.corners)
            {
                let expected = to_pixels(corner.x, corner.y);
                let off = expected.distance(&seen).0;
                assert!(
                    off < 1.0,
                    "tag {id}: corner {seen} is {off:.2} px from {expected}"
                );
            }
        }
    }
}

#[test]
fn ids_outside_the_family_and_unprintable_families_are_refused() {
    let mut options = SheetOptions {
        family: "tag36h11".into(),
        paper: Paper::A4,
        title: "bad".into(),
    };
    let error = tag_sheet(&options, &[SheetItem::tag(587, Mm(20.0), None)])
        .expect_err("587 is past tag36h11");
    assert_eq!(
        error.to_string(),
        "tag 587 is not in tag36h11 (its ids are 0–586)"
    );
    options.family = "tagStandard41h12".into();
    let error = tag_sheet(&options, &[SheetItem::tag(1, Mm(20.0), None)]).expect_err("family");
    assert!(
        error
            .to_string()
            .contains("printable families are tag36h11"),
        "{error}"
    );
    options.family = "tag36h11".into();
    let too_big = SheetItem::tag(
        3,
        Mm(25.0),
        Some(Base {
            width: Mm(20.0),
            depth: Mm(20.0),
        }),
    );
    let error = tag_sheet(&options, &[too_big]).expect_err("does not fit");
    assert!(error.to_string().contains("tag 3: a 25 mm (0.98 in) tag with its white border (31.2 mm) does not fit on its 20 × 20 mm base"), "{error}");
}
