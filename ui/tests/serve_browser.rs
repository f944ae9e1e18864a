//! The table's page in a real browser: Debian's chromium, driven through chromedriver, against a
//! running `vedette serve` on the demo table — as a phone and as a laptop. `make test` installs
//! both (`.ci/system-deps.sh`).

mod common;

use std::time::Duration;

use common::browser::{Browser, Setup};
use common::served::{Served, free_port};
use fantoccini::Locator;
use serde_json::Value;

/// A phone's screen: emulated, as a desktop window is never narrower than 500 px. This test
/// makes the guide's pictures (`VEDETTE_DOCS=1`).
const PHONE: Setup = Setup {
    width: 390,
    height: 844,
    emulated: true,
    patience: Duration::from_secs(90),
    docs: true,
};

/// A laptop's screen, emulated as the phone's is.
const LAPTOP: Setup = Setup {
    width: 1366,
    height: 768,
    ..PHONE
};

/// What these tests ask of the table's page.
impl Browser {
    /// Open `link` and wait until the plan shows the table.
    async fn show(&self, link: &str) {
        self.client.goto(link).await.expect("the page opens");
        self.until("the units are drawn", UNITS_DRAWN).await;
    }

    /// Whether the page shows the umpire's tools.
    async fn umpire_tools_shown(&self) -> bool {
        self.js("return !document.getElementById('umpire').hidden")
            .await
            .as_bool()
            .expect("a yes or no")
    }
}

fn serve(port: u16) -> Served {
    let listen = format!("127.0.0.1:{port}");
    Served::start(
        &[
            "serve",
            "--demo",
            "--listen",
            &listen,
            "--token",
            "players-link",
            "--umpire-token",
            "umpires-link",
        ],
        &["table", "umpire"],
    )
}

/// Tap the first unit of the list, in one go (the list may be rebuilt by a live update between
/// finding an element and clicking it); its id.
async fn tap_first_in_list(browser: &Browser) -> String {
    let id = browser
        .js("const li = document.querySelector('#units li'); li.click(); return li.dataset.id")
        .await;
    id.as_str().expect("a unit in the list").to_owned()
}

const UNITS_DRAWN: &str = "return document.querySelectorAll('#plan g.unit').length >= 10";

#[tokio::test]
async fn on_a_phone_the_plan_draws_a_tap_shows_rulings_the_tape_measures_and_the_view_turns() {
    let server = serve(0);
    let browser = Browser::open(PHONE).await;
    browser.show(&server.link("table")).await;
    assert!(
        !browser.umpire_tools_shown().await,
        "a viewer's page shows the umpire's tools"
    );

    // Tap a unit in the list: its rulings, in the app's words, with their rules.
    let id = tap_first_in_list(&browser).await;
    // Under the plan, each army by name, in the colour its stands are drawn in.
    let armies = browser
        .js("return Array.from(document.querySelectorAll('#armies .army')).map(a => a.textContent)")
        .await;
    let sides = browser
        .js("return [...new Set(Object.values(page.view.units).map(u => u.army))].sort()")
        .await;
    let (Some(armies), Some(sides)) = (armies.as_array(), sides.as_array()) else {
        panic!("{armies} / {sides}");
    };
    assert!(
        sides.len() >= 2 && armies.len() == sides.len(),
        "{armies:?} / {sides:?}"
    );
    for (army, side) in armies.iter().zip(sides) {
        let (army, side) = (army.as_str().unwrap_or(""), side.as_str().unwrap_or("?"));
        assert!(
            army.starts_with(side) && army.contains(" unit"),
            "{army} / {side}"
        );
    }
    let coloured = browser
        .js("return Array.from(document.querySelectorAll('#armies .dot')).every(d => d.style.background !== '') \
             && new Set(Array.from(document.querySelectorAll('#armies .dot')).map(d => d.style.background)).size === document.querySelectorAll('#armies .dot').length")
        .await;
    assert_eq!(coloured, Value::Bool(true), "each army's own colour");
    browser
        .until(
            "its rulings show",
            "return document.querySelectorAll('#rulings li.ruling').length > 0",
        )
        .await;
    let shown = browser
        .js("return Array.from(document.querySelectorAll('#rulings .explanation')).map(e => e.textContent)")
        .await;
    let sent = browser
        .js(&format!(
            "return page.view.rulings['{id}'].map(r => r.explanation)"
        ))
        .await;
    assert_eq!(shown, sent);
    let rules = browser
        .js("return Array.from(document.querySelectorAll('#rulings .rule')).every(e => /^\\[.+\\]$/.test(e.textContent))")
        .await;
    assert_eq!(rules, Value::Bool(true));
    let name = browser
        .js("return document.getElementById('unit-name').textContent")
        .await;
    let named = browser
        .js(&format!("return page.view.units['{id}'].name"))
        .await;
    assert_eq!(name, named);

    // Tap another unit on the plan itself.
    let other = browser
        .js(&format!(
            "const [other, unit] = Object.entries(page.view.units).find(([o]) => o !== '{id}'); \
             const s = unit.stands[0]; \
             const centre = [0, 1].map(k => s.reduce((sum, c) => sum + c[k], 0) / 4); \
             const svg = document.getElementById('plan'); const q = toPlan(centre); \
             const at = new DOMPoint(q[0], q[1]).matrixTransform(svg.getScreenCTM()); \
             svg.dispatchEvent(new MouseEvent('click', {{bubbles: true, clientX: at.x, clientY: at.y}})); \
             return other"
        ))
        .await;
    let other = other.as_str().expect("an id").to_owned();
    let name = browser
        .js("return document.getElementById('unit-name').textContent")
        .await;
    assert_eq!(
        name,
        browser
            .js(&format!("return page.view.units['{other}'].name"))
            .await
    );

    // The plan's names and the selected unit's figures: none over another, none out of the
    // plan (they printed over each other at a contact, and names were cut at its edge).
    let labels = browser
        .js("const svg = document.getElementById('plan'); const v = svg.viewBox.baseVal; \
             const boxes = Array.from(svg.querySelectorAll('text.label, text.measure')) \
               .filter(t => !t.closest('.ghost')).map(t => t.getBBox()).filter(b => b.width > 0); \
             let crossing = 0; \
             for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) { \
               const [a, b] = [boxes[i], boxes[j]]; \
               const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x); \
               const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y); \
               if (w > 0.01 && h > 0.01) crossing++; } \
             const outside = boxes.filter(b => b.x < v.x - 0.01 || b.y < v.y - 0.01 \
               || b.x + b.width > v.x + v.width + 0.01 || b.y + b.height > v.y + v.height + 0.01).length; \
             return [boxes.length, crossing, outside]")
        .await;
    let counts: Vec<u64> = labels
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default();
    assert!(counts.len() == 3 && counts[0] >= 3, "{labels}");
    assert_eq!(
        (counts[1], counts[2]),
        (0, 0),
        "labels crossing, out of the plan: {labels}"
    );

    let phone = browser.screenshot("web-phone.png").await;
    assert_eq!(phone.width(), 390);

    // The tape, in both of two turns of the plan: tap two table points, read the length.
    for turn in 0..2 {
        if turn == 1 {
            let before = browser
                .js("return document.getElementById('plan').getAttribute('viewBox')")
                .await;
            browser
                .client
                .find(Locator::Id("turn"))
                .await
                .expect("turn")
                .click()
                .await
                .expect("turned");
            let after = browser
                .js("return document.getElementById('plan').getAttribute('viewBox')")
                .await;
            let dims = |v: &Value| -> Vec<f64> {
                v.as_str()
                    .unwrap_or("")
                    .split(' ')
                    .filter_map(|n| n.parse().ok())
                    .collect()
            };
            let (b, a) = (dims(&before), dims(&after));
            assert_eq!(
                (a[2], a[3]),
                (b[3], b[2]),
                "a quarter turn swaps the plan's sides"
            );
            assert_eq!(
                browser
                    .js("return document.getElementById('plan').dataset.turn")
                    .await,
                "1"
            );
        }
        browser
            .client
            .find(Locator::Id("tape"))
            .await
            .expect("tape")
            .click()
            .await
            .expect("on");
        // Table points (10, 10) and (40, 30): 36.06" apart.
        let tapped = browser
            .js("const svg = document.getElementById('plan'); const m = svg.getScreenCTM(); \
                 for (const p of [[10, 10], [40, 30]]) { const q = toPlan(p); \
                   const s = new DOMPoint(q[0], q[1]).matrixTransform(m); \
                   svg.dispatchEvent(new MouseEvent('click', {bubbles: true, clientX: s.x, clientY: s.y})); } \
                 return document.getElementById('tape-length').textContent")
            .await;
        let length: f64 = tapped
            .as_str()
            .and_then(|t| t.trim_end_matches('"').parse().ok())
            .unwrap_or_else(|| panic!("no tape length: {tapped}"));
        // Screen pixels round the taps: a hundredth of an inch at most on this plan.
        assert!((length - 36.06).abs() < 0.15, "turn {turn}: tape {length}");
        browser
            .client
            .find(Locator::Id("tape"))
            .await
            .expect("tape")
            .click()
            .await
            .expect("off");
    }
    browser.close().await;
}

#[tokio::test]
async fn on_a_laptop_the_camera_overlay_is_drawn_where_the_calibrated_camera_sees_the_units() {
    let server = serve(0);
    let browser = Browser::open(LAPTOP).await;
    browser.show(&server.link("umpire")).await;
    assert!(
        browser.umpire_tools_shown().await,
        "the umpire's page hides its tools"
    );
    tap_first_in_list(&browser).await;
    browser.screenshot("web-laptop.png").await;
    browser
        .client
        .find(Locator::Id("show-video"))
        .await
        .expect("tab")
        .click()
        .await
        .expect("shown");
    browser
        .until(
            "the picture and its overlay show",
            "const img = document.getElementById('video'); \
             return img.naturalWidth > 0 && document.querySelectorAll('#video-overlay polygon').length >= 10",
        )
        .await;
    browser.screenshot("web-laptop-camera.png").await;

    // The page's projection is the camera model's: compare it with calibration::Camera's. The
    // live lens learner may hand the page a newer camera at any poll, so both sides use the one
    // camera read here.
    let camera = browser
        .js("window.cameraUnderTest = page.view.camera; return window.cameraUnderTest")
        .await;
    let number = |v: &Value| v.as_f64().expect("a number");
    let rotation: Vec<f64> = camera["rotation"]
        .as_array()
        .expect("rows")
        .iter()
        .flat_map(|row| {
            row.as_array()
                .expect("row")
                .iter()
                .map(number)
                .collect::<Vec<_>>()
        })
        .collect();
    let translation: Vec<f64> = camera["translation"]
        .as_array()
        .expect("t")
        .iter()
        .map(number)
        .collect();
    let distortion: Vec<f64> = camera["distortion"]
        .as_array()
        .expect("d")
        .iter()
        .map(number)
        .collect();
    let rust_camera = calibration::Camera {
        intrinsics: calibration::Intrinsics {
            image_size: calibration::ImageSize {
                width: camera["width"].as_u64().expect("w") as u32,
                height: camera["height"].as_u64().expect("h") as u32,
            },
            focal_x: calibration::Pixels(number(&camera["fx"])),
            focal_y: calibration::Pixels(number(&camera["fy"])),
            principal_point: calibration::PixelPoint::new(
                number(&camera["cx"]),
                number(&camera["cy"]),
            ),
            distortion: calibration::Distortion::from_coefficients(&distortion),
        },
        pose: calibration::CameraPose {
            rotation: nalgebra::Rotation3::from_matrix_unchecked(
                nalgebra::Matrix3::from_row_slice(&rotation),
            ),
            translation: nalgebra::Vector3::from_column_slice(&translation),
        },
    };
    for (x, y, h) in [
        (5.0, 5.0, 0.0),
        (36.0, 24.0, 0.16),
        (70.0, 45.0, 0.16),
        (1.0, 47.0, 0.0),
    ] {
        let js = browser
            .js(&format!(
                "return project(window.cameraUnderTest, [{x}, {y}], {h})"
            ))
            .await;
        let rust = rust_camera
            .project(&nalgebra::Point3::new(x, y, h))
            .expect("on the picture");
        let js: Vec<f64> = js.as_array().expect("a pixel").iter().map(number).collect();
        assert!(
            (js[0] - rust.x).abs() < 1e-6 && (js[1] - rust.y).abs() < 1e-6,
            "({x}, {y}, {h}): page {js:?}, camera {rust:?}"
        );
    }
    browser.close().await;
}

#[tokio::test]
async fn a_unit_carried_in_a_hand_is_drawn_on_its_way_and_a_faded_tag_is_named_with_its_remedy() {
    let server = serve(0);
    let browser = Browser::open(LAPTOP).await;
    browser.show(&server.link("umpire")).await;
    // The demo makes each turn's moves by hand: units slide, one is carried through the air.
    browser
        .until(
            "a unit drawn in a hand",
            "return document.querySelectorAll('#plan g.ghost.in-hand polygon').length > 0",
        )
        .await;
    let label = browser
        .js("const t = document.querySelector('#plan g.ghost.in-hand text'); return t ? t.textContent : ''")
        .await;
    let label = label.as_str().expect("a label");
    assert!(label.ends_with("— in hand"), "{label}");
    browser.screenshot("web-motion.png").await;
    browser
        .until(
            "the moves listed once made",
            "return !document.getElementById('moves').hidden \
             && document.querySelectorAll('#move-list li').length > 0",
        )
        .await;
    browser
        .until(
            "the faded tag named with its remedy",
            "const care = document.getElementById('care'); \
             return !care.hidden && care.textContent.includes('faded — reprint it')",
        )
        .await;
    browser.screenshot("web-care.png").await;
    browser.close().await;
}

#[tokio::test]
async fn a_page_that_loses_its_connection_says_so_and_recovers_by_itself() {
    let port = free_port();
    let mut server = serve(port);
    let browser = Browser::open(PHONE).await;
    browser.show(&server.link("table")).await;
    server.kill();
    browser
        .until(
            "the page says the connection is lost",
            "const b = document.getElementById('banner'); return !b.hidden && b.textContent.includes('reconnecting')",
        )
        .await;
    // The table's machine comes back (same port, same link).
    let _back = serve(port);
    browser
        .until(
            "the page is live again",
            "return document.getElementById('banner').hidden && document.getElementById('status').className === 'live'",
        )
        .await;
    browser
        .until("the units are drawn again", UNITS_DRAWN)
        .await;
    browser.close().await;
}

#[tokio::test]
async fn with_several_cameras_the_page_says_which_are_out_and_what_no_camera_sees() {
    // A rendered camera over the west half of a table, and a second whose picture is
    // missing: the units beyond the west camera's view are unseen.
    let folder = common::rig::folder("browser-cameras");
    let table = common::rig::table(&folder);
    let server = common::rig::serve_cameras(
        &folder,
        &table,
        &[("west", "west.png"), ("north", "north.png")],
    );
    let browser = Browser::open(LAPTOP).await;
    browser
        .client
        .goto(&server.link("table"))
        .await
        .expect("the page opens");
    // Until the west camera's first frame is measured, no camera sees any unit.
    browser
        .until(
            "the status names the camera out and the units no camera sees",
            "const s = document.getElementById('status'); \
             return s.className === 'partial' && s.textContent.includes('north waiting') \
             && s.textContent.includes('no camera sees') && !s.title.includes('Unit 0')",
        )
        .await;
    let said = browser
        .js("return document.getElementById('status').title")
        .await;
    let unseen = said.as_str().unwrap_or_default().to_owned();
    // The west camera sees the west half; the units far east are named on hover.
    assert!(unseen.contains("Unit 11"), "{unseen}");
    assert!(!unseen.contains("Unit 0"), "{unseen}");
    browser.screenshot("web-cameras.png").await;
    browser.close().await;
    let _ = std::fs::remove_dir_all(&folder);
}
