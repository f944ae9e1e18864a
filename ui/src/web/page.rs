//! The pages, compiled into the binary: plain HTML, JS and CSS, no build step.

/// The table's page (the token is read from its address by its script).
pub const TABLE_HTML: &str = include_str!("page/table.html");

/// The hub's page.
pub const HUB_HTML: &str = include_str!("page/hub.html");

/// The scripts and styles under `/assets/`, by name, with their content type.
const ASSETS: [(&str, &str, &str); 8] = [
    (
        "common.js",
        "text/javascript; charset=utf-8",
        include_str!("page/common.js"),
    ),
    (
        "desk.js",
        "text/javascript; charset=utf-8",
        include_str!("page/desk.js"),
    ),
    (
        "mqtt.js",
        "text/javascript; charset=utf-8",
        include_str!("page/mqtt.js"),
    ),
    (
        "seal.js",
        "text/javascript; charset=utf-8",
        include_str!("page/seal.js"),
    ),
    (
        "remote.js",
        "text/javascript; charset=utf-8",
        include_str!("page/remote.js"),
    ),
    (
        "table.js",
        "text/javascript; charset=utf-8",
        include_str!("page/table.js"),
    ),
    (
        "hub.js",
        "text/javascript; charset=utf-8",
        include_str!("page/hub.js"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("page/style.css"),
    ),
];

/// An asset by name: its content type and text. Only the listed names are served, so no
/// request can name anything else.
pub fn asset(name: &str) -> Option<(&'static str, &'static str)> {
    ASSETS
        .iter()
        .find(|(file, _, _)| *file == name)
        .map(|(_, kind, body)| (*kind, *body))
}

/// The remote player's page: the table's page, reaching its table through an MQTT broker
/// (`remote.js`, over `mqtt.js`, sealing what it sends with `seal.js`) instead of the server that serves it, with its assets beside
/// it — so that any web server can host it (mosquitto's own, a club's site).
pub fn remote_html() -> String {
    TABLE_HTML.replace("/assets/", "").replace(
        r#"<script src="desk.js"></script>"#,
        "<script src=\"mqtt.js\"></script>\n<script src=\"seal.js\"></script>\n<script src=\"remote.js\"></script>\n<script src=\"desk.js\"></script>",
    )
}

/// The remote player's page and its assets, by file name: what `vedette remote-page` writes.
pub fn remote_files() -> Vec<(&'static str, String)> {
    let assets = [
        "common.js",
        "mqtt.js",
        "seal.js",
        "remote.js",
        "desk.js",
        "table.js",
        "style.css",
    ];
    let files = assets
        .into_iter()
        .filter_map(|name| Some((name, asset(name)?.1.to_owned())));
    [("remote.html", remote_html())]
        .into_iter()
        .chain(files)
        .collect()
}
