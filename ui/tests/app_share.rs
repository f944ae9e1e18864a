//! The app's Share button: the table served to phones from the app itself, its link and QR code
//! on screen, and a page connected to it counted.

use std::time::{Duration, Instant};

mod common;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use futures_util::StreamExt;
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;
use vedette_ui::app::headless::WINDOW;
use vedette_ui::app::{Settings, VedetteApp};

fn step_until(
    harness: &mut Harness<'_, VedetteApp>,
    what: &str,
    done: impl Fn(&Harness<'_, VedetteApp>) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(180);
    while !done(harness) {
        assert!(Instant::now() < deadline, "gave up waiting for {what}");
        harness.step();
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn has_text(harness: &Harness<'_, VedetteApp>, text: &str) -> bool {
    harness.query_all_by_label_contains(text).next().is_some()
}

#[test]
fn share_serves_the_table_with_a_qr_code_and_counts_the_pages_watching() {
    let mut harness = Harness::builder().with_size(WINDOW).build_eframe(|cc| {
        VedetteApp::new(&cc.egui_ctx, Settings::default())
            .sharing_with(vedette_ui::serve::starter(None))
    });
    step_until(&mut harness, "the demo table", |h| {
        h.state()
            .state
            .table
            .as_ref()
            .is_some_and(|t| t.scene.is_some())
    });
    harness.get_by_label("📱 Share").click();
    step_until(&mut harness, "the share window", |h| {
        has_text(h, "page(s) watching")
    });
    let link = harness
        .state()
        .state
        .share
        .links()
        .map(|l| l.viewer.clone())
        .expect("shared");
    assert!(has_text(&harness, &link), "the link is not on screen");
    assert!(link.starts_with("http://") && link.ends_with('/'), "{link}");
    assert!(has_text(&harness, "0 page(s) watching"));

    // A phone opens the link: it is sent the table, and the app counts it.
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let url = format!("{}ws", link.replacen("http://", "ws://", 1));
    let mut page = runtime.block_on(async {
        let (page, _) = connect_async(url).await.expect("the page connects");
        page
    });
    let full = runtime.block_on(async {
        tokio::time::timeout(Duration::from_secs(90), async {
            while let Some(Ok(message)) = page.next().await {
                if let Message::Text(text) = message
                    && text.contains("\"type\":\"full\"")
                {
                    return true;
                }
            }
            false
        })
        .await
    });
    assert_eq!(full, Ok(true));
    step_until(&mut harness, "the page counted", |h| {
        has_text(h, "1 page(s) watching")
    });
    let picture = harness.render().expect("the app renders");
    picture
        .save(common::scratch("app-share").join("share.png"))
        .expect("saved");

    // Stop sharing: the link no longer answers.
    harness.get_by_label("📱 Shared").click();
    step_until(&mut harness, "the window closed", |h| {
        !has_text(h, "page(s) watching")
    });
    let url = format!("{}ws", link.replacen("http://", "ws://", 1));
    let refused = runtime.block_on(async {
        tokio::time::timeout(Duration::from_secs(30), connect_async(url)).await
    });
    assert!(!matches!(refused, Ok(Ok(_))), "still served after Stop");
}
