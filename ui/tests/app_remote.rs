//! Remote players on the host's app: their pointers and ordered moves drawn over the live video
//! and on the plan — from a fixed table, pixel by pixel, and from a real remote page through a
//! real broker to the app's own desk.

mod common;

use std::time::{Duration, Instant};

use common::broker::Club;
use common::browser::{Browser, Setup};
use live::demo::Demo;
use live::orders::Seat;
use rules::geometry::TablePoint;
use rules::order::Order;
use vedette_ui::app::headless::{WINDOW, demo_state, harness_on};
use vedette_ui::app::overlay::TableToScreen;
use vedette_ui::app::{Settings, VedetteApp};

/// Pixels that differ between two renders of the app, and where.
fn differing(a: &image::RgbaImage, b: &image::RgbaImage) -> Vec<(u32, u32)> {
    a.enumerate_pixels()
        .filter(|(x, y, p)| {
            let q = b.get_pixel(*x, *y);
            (0..3).map(|i| p[i].abs_diff(q[i]) as u32).sum::<u32>() > 60
        })
        .map(|(x, y, _)| (x, y))
        .collect()
}

#[test]
fn an_order_and_a_pointer_are_drawn_on_the_video_and_the_plan() {
    let demo = Demo::new().expect("the demo");
    let state = demo_state(&demo, 1).expect("a turn");
    let scene = state.scene.clone().expect("a scene");
    let unit = (scene.units.iter())
        .find(|u| u.side == "british")
        .expect("a British unit")
        .clone();
    let mut plain = harness_on(state.clone(), None);
    let mut ordered = harness_on(state.clone(), None);
    let forward = rules::geometry::heading(unit.footprint.facing()) * 6.0;
    let to = unit.footprint.leader() + forward;
    let desk = &ordered.state().state.desk.clone();
    let order = Order {
        unit: unit.id.clone(),
        leader: to,
        facing: unit.footprint.facing(),
    };
    desk.order(&Seat::Side("british".into()), "Anne", order, &state)
        .expect("the order is taken");
    let pointer = TablePoint::new(36.0, 24.0);
    desk.point(&Seat::Side("british".into()), "Anne", pointer, &state)
        .expect("the pointer is taken");
    plain.run_steps(2);
    ordered.run_steps(2);
    let (a, b) = (
        plain.render().expect("rendered"),
        ordered.render().expect("rendered"),
    );
    b.save(common::scratch("app-remote").join("ordered.png"))
        .expect("saved");
    let changed = differing(&a, &b);
    let plan = ordered
        .state()
        .state
        .plan_transform
        .expect("the plan is drawn");
    let near = |at: egui::Pos2| {
        changed
            .iter()
            .filter(|(x, y)| (*x as f32 - at.x).hypot(*y as f32 - at.y) < 40.0)
            .count()
    };
    let ghost = plan.to_screen(&to).expect("on the plan");
    let ring = plan.to_screen(&pointer).expect("on the plan");
    assert!(near(ghost) > 30, "no ghost drawn at {ghost:?} on the plan");
    assert!(near(ring) > 30, "no pointer drawn at {ring:?} on the plan");
    let over_video = (changed.iter())
        .filter(|(x, y)| !plan.rect.contains(egui::pos2(*x as f32, *y as f32)))
        .count();
    assert!(
        over_video > 100,
        "{over_video} pixels changed over the video"
    );
}

#[test]
fn a_remote_players_order_reaches_the_hosts_app_through_the_broker() {
    let club = Club::open("app");
    let args = vedette_ui::args::RemoteArgs {
        remote: Some(club.host_url("demo").parse().expect("a broker")),
        remote_ws: Some(club.pages_broker()),
        remote_page: None,
        player_login: club
            .player_login()
            .split_once(':')
            .map(|(u, p)| (u.into(), p.into())),
        side_token: vec![(
            "british".into(),
            live::Token::parse("british-link-for-the-app-test").expect("a token"),
        )],
        remote_umpire_token: None,
    };
    let sides = ["british".to_owned(), "russian".to_owned()];
    let remote = vedette_ui::serve::remote::Remote::from_args(&args, &sides);
    let mut harness = egui_kittest::Harness::builder()
        .with_size(WINDOW)
        .build_eframe(move |cc| {
            let mut app = VedetteApp::new(&cc.egui_ctx, Settings::default())
                .sharing_with(vedette_ui::serve::starter(remote.clone()));
            app.state.share.requested = Some(true);
            app
        });
    let deadline = Instant::now() + Duration::from_secs(180);
    let step_until = |harness: &mut egui_kittest::Harness<'_, VedetteApp>,
                      what: &str,
                      done: &dyn Fn(&VedetteApp) -> bool| {
        while !done(harness.state()) {
            assert!(Instant::now() < deadline, "gave up waiting for {what}");
            harness.step();
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    step_until(&mut harness, "the table shared to remote players", &|app| {
        app.state.table.as_ref().is_some_and(|t| t.scene.is_some()) && app.state.share.is_on()
    });
    let link = format!(
        "http://127.0.0.1:{}/vedette/remote.html#broker={}&table=demo&token=british-link-for-the-app-test&user=players&password={}",
        club.websockets,
        club.pages_broker().replace(':', "%3A").replace('/', "%2F"),
        club.logins.as_ref().expect("the club's accounts").players
    );
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let browser = runtime.block_on(Browser::open(Setup {
        width: 1366,
        height: 900,
        emulated: true,
        patience: Duration::from_secs(90),
        docs: false,
    }));
    runtime.block_on(async {
        browser.client.goto(&link).await.expect("the page opens");
        browser
            .until("the page shows its seat", "return !document.getElementById('remote').hidden && page.view !== null")
            .await;
        browser
            .js("const [id, u] = Object.entries(page.view.units).find(([, u]) => u.side === 'british'); \
                 const a = u.facing * Math.PI / 180; \
                 link.order(id, [u.leader[0] + 3 * Math.cos(a), u.leader[1] + 3 * Math.sin(a)], u.facing); \
                 link.point([30, 20]); return id")
            .await;
    });
    step_until(
        &mut harness,
        "the order and the pointer on the host's app",
        &|app| {
            let board = app.state.desk.board();
            !board.orders.is_empty() && !board.pointers.is_empty()
        },
    );
    let board = harness.state().state.desk.board();
    assert_eq!(board.orders[0].by, "british's player");
    assert_eq!(board.orders[0].side, "british");
    let picture = harness.render().expect("the app renders");
    picture
        .save(common::scratch("app-remote").join("remote-order-on-the-app.png"))
        .expect("saved");
    runtime.block_on(browser.close());
}
