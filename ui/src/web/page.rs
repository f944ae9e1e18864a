//! The pages, compiled into the binary: plain HTML, JS and CSS, no build step.

/// The table's page (the token is read from its address by its script).
pub const TABLE_HTML: &str = include_str!("page/table.html");

/// The hub's page.
pub const HUB_HTML: &str = include_str!("page/hub.html");

/// The scripts and styles under `/assets/`, by name, with their content type.
const ASSETS: [(&str, &str, &str); 4] = [
    (
        "common.js",
        "text/javascript; charset=utf-8",
        include_str!("page/common.js"),
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
