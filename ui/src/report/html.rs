//! The report as one HTML page that needs nothing beside it: the plans are inline SVG, the
//! pictures `data:` URIs, the style in the page. Read on a phone, posted on a forum, printed
//! (one turn to an A4 landscape page: the PDF is this page printed).

use std::fmt::Write as _;

use record::Carriage;

use super::markup::{escape, jpeg_uri};
use super::model::{Report, TurnReport};
use super::palette::{CHARGE, MOVE};
use super::turns;

const STYLE: &str = r#"
:root { color-scheme: light; --ink: #1f2328; --quiet: #5f6670; --rule: #e3e5e8; --charge: #b8470a; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, "DejaVu Sans", Helvetica, Arial, sans-serif; color: var(--ink);
  background: #fff; margin: 0 auto; max-width: 1280px; padding: 24px; }
header.game h1 { font-size: 30px; margin: 0 0 6px; }
.facts { color: var(--quiet); margin: 2px 0; }
ul.sides { list-style: none; padding: 0; margin: 12px 0 6px; display: flex; flex-wrap: wrap; gap: 6px 22px; }
.swatch { display: inline-block; width: 14px; height: 14px; border-radius: 3px; margin-right: 6px;
  vertical-align: -2px; border: 1px solid rgba(0, 0, 0, 0.35); }
p.key { font-size: 13px; color: var(--quiet); margin: 6px 0; }
p.key svg { vertical-align: -3px; }
p.note { background: #fff6e0; border-left: 4px solid #e0a800; padding: 6px 10px; margin: 10px 0; }
section.turn { border-top: 2px solid var(--rule); margin-top: 26px; padding-top: 14px; }
section.turn h2 { font-size: 22px; margin: 0 0 10px; break-after: avoid; }
h2 .span { font-size: 14px; font-weight: normal; color: var(--quiet); margin-left: 10px; }
.body { display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 1fr); gap: 14px 22px;
  grid-template-areas: "plan camera" "plan said"; grid-template-rows: auto 1fr; align-items: start; }
.plan-box { grid-area: plan; break-inside: avoid; }
figure.camera { grid-area: camera; margin: 0; break-inside: avoid; }
.said { grid-area: said; }
svg.plan { display: block; width: 100%; height: auto; }
img.camera { display: block; width: 100%; height: auto; border-radius: 4px; }
figcaption { font-size: 12px; color: var(--quiet); margin-top: 3px; }
.said h3 { font-size: 15px; margin: 0 0 4px; }
ul.rulings { list-style: none; padding: 0; margin: 0; }
ul.rulings > li { font-size: 14px; padding: 4px 0; border-bottom: 1px solid var(--rule); break-inside: avoid; }
ul.rulings > li.more { color: var(--quiet); font-style: italic; border-bottom: none; }
ul.rulings ul { margin: 2px 0 0 1.6em; padding: 0; font-size: 13px; color: var(--quiet); }
.symbol { display: inline-block; width: 1.4em; text-align: center; }
li.contact, tr.charge td.unit { color: var(--charge); }
time { color: var(--quiet); font-size: 12px; font-variant-numeric: tabular-nums; margin-right: 4px; }
p.quiet { color: var(--quiet); font-size: 14px; margin: 0; }
details.moves { margin-top: 12px; }
details.moves summary { cursor: pointer; color: var(--quiet); font-size: 14px; }
table.moves { border-collapse: collapse; width: 100%; margin-top: 6px; font-size: 13px; }
table.moves th { text-align: left; font-weight: 600; color: var(--quiet); border-bottom: 1px solid #c9ccd1; }
table.moves th, table.moves td { padding: 3px 8px; vertical-align: top; }
table.moves td { border-bottom: 1px solid var(--rule); }
table.moves .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.charge td.unit { font-weight: 600; }
footer { margin-top: 30px; font-size: 12px; color: var(--quiet); }
@media screen and (max-width: 820px) {
  body { padding: 12px; }
  .body { grid-template-columns: minmax(0, 1fr); grid-template-areas: "plan" "camera" "said"; }
}
@page { size: A4 landscape; margin: 10mm; }
@media print {
  body { max-width: none; padding: 0; font-size: 10pt; }
  header.game h1 { font-size: 20pt; margin: 0; }
  p.key, .facts { font-size: 9pt; }
  section.turn { border-top: none; margin-top: 4mm; padding-top: 0; }
  section.turn + section.turn { break-before: page; margin-top: 0; }
  section.turn h2 { font-size: 15pt; margin-bottom: 2mm; }
  .body { grid-template-columns: minmax(0, 62fr) minmax(0, 38fr); grid-template-areas: "plan camera" "said said";
    grid-template-rows: auto auto; gap: 3mm 6mm; }
  ul.rulings { columns: 3; column-gap: 6mm; }
  ul.rulings > li { font-size: 8.5pt; padding: 1px 0; }
  details.moves { display: none; }
  footer { margin-top: 4mm; font-size: 8pt; }
}
"#;

/// The whole page.
pub fn page(report: &Report) -> String {
    let mut out = String::new();
    let title = escape(&report.title());
    let _ = write!(
        out,
        r#"<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="generator" content="Vedette {}"><title>{title} — battle report</title><style>{STYLE}</style></head><body>"#,
        env!("CARGO_PKG_VERSION")
    );
    header(&mut out, report);
    for turn in &report.turns {
        section(&mut out, turn);
    }
    let _ = write!(
        out,
        "<footer>Battle report written by Vedette {} from the game’s record. Plans show the table as each turn left it; arrows run from where a unit’s leader stood to where it came to rest.</footer></body></html>",
        env!("CARGO_PKG_VERSION")
    );
    out
}

fn header(out: &mut String, report: &Report) {
    let _ = write!(
        out,
        r#"<header class="game"><h1>{}</h1><p class="facts">{} · {}</p>"#,
        escape(&report.title()),
        escape(&report.date()),
        escape(&report.facts())
    );
    let mut about = Vec::new();
    if let Some(scenario) = &report.scenario
        && scenario.trim() != report.title()
    {
        about.push(escape(scenario));
    }
    if let Some(ruleset) = &report.ruleset {
        about.push(escape(ruleset));
    }
    if !report.info.source.trim().is_empty() {
        about.push(format!("filmed from {}", escape(&report.info.source)));
    }
    if !about.is_empty() {
        let _ = write!(out, r#"<p class="facts">{}</p>"#, about.join(" · "));
    }
    if !report.sides.is_empty() {
        out.push_str(r#"<ul class="sides">"#);
        for side in &report.sides {
            let _ = write!(
                out,
                r#"<li><span class="swatch" style="background:{}"></span>{} — {} units</li>"#,
                side.fill,
                escape(&side.name),
                side.units
            );
        }
        out.push_str("</ul>");
    }
    let _ = write!(
        out,
        r#"<p class="key">{} a move, from where the unit’s leader stood to where it came to rest · {} a charge (it ended in contact) · names in bold moved that turn · grid squares are a foot</p>"#,
        key_arrow(MOVE),
        key_arrow(CHARGE)
    );
    if let Some(note) = report.cutting_note() {
        let _ = write!(out, r#"<p class="note">{}</p>"#, escape(&note));
    }
    if !report.damage.is_empty() {
        let _ = write!(
            out,
            r#"<p class="note">Part of the record could not be read, and is left out: {}</p>"#,
            escape(&report.damage.join("; "))
        );
    }
    out.push_str("</header>");
}

/// A small arrow for the key, as the plans draw it.
fn key_arrow(colour: &str) -> String {
    format!(
        r#"<svg width="34" height="14" viewBox="0 0 34 14" aria-hidden="true"><line x1="2" y1="7" x2="24" y2="7" stroke="{colour}" stroke-width="3"/><path d="M22,1 L33,7 L22,13 z" fill="{colour}"/></svg>"#
    )
}

fn section(out: &mut String, turn: &TurnReport) {
    let _ = write!(
        out,
        r#"<section class="turn" id="turn-{}"><h2>{}<span class="span">{}</span></h2><div class="body"><div class="plan-box">{}</div>"#,
        turn.number,
        escape(&turn.turn.title),
        escape(&turn.summary()),
        turn.plan(&format!(
            r#"role="img" aria-label="The table at the end of {}""#,
            escape(&turn.turn.title)
        ))
    );
    if let Some(picture) = &turn.picture {
        let _ = write!(
            out,
            r#"<figure class="camera"><img class="camera" alt="The camera’s picture at {at}" src="{}"><figcaption>The camera at {at}</figcaption></figure>"#,
            jpeg_uri(&picture.jpeg),
            at = turns::clock(picture.at),
        );
    }
    rulings(out, turn);
    out.push_str("</div>");
    moves(out, turn);
    out.push_str("</section>");
}

fn rulings(out: &mut String, turn: &TurnReport) {
    out.push_str(r#"<div class="said"><h3>What the rules said</h3>"#);
    if turn.notables.is_empty() {
        out.push_str(r#"<p class="quiet">No contact, charge reach or case this turn.</p></div>"#);
        return;
    }
    out.push_str(r#"<ul class="rulings">"#);
    for notable in &turn.notables.listed {
        let _ = write!(
            out,
            r#"<li class="{}"><span class="symbol">{}</span><time>{}</time>{}"#,
            notable.class(),
            notable.symbol(),
            escape(&notable.at),
            escape(&notable.text)
        );
        if !notable.rulings.is_empty() {
            out.push_str("<ul>");
            for ruling in &notable.rulings {
                let _ = write!(out, "<li>{}</li>", escape(ruling));
            }
            out.push_str("</ul>");
        }
        out.push_str("</li>");
    }
    for more in turn.notables.more_lines() {
        let _ = write!(out, r#"<li class="more">{}</li>"#, escape(&more));
    }
    out.push_str("</ul></div>");
}

fn moves(out: &mut String, turn: &TurnReport) {
    if turn.moves.is_empty() {
        out.push_str(r#"<p class="quiet">No unit moved.</p>"#);
        return;
    }
    let _ = write!(
        out,
        r#"<details class="moves"><summary>{} in detail</summary>"#,
        match turn.moves.len() {
            1 => "The move".to_owned(),
            n => format!("The {n} moves"),
        }
    );
    out.push_str(
        r#"<table class="moves"><thead><tr><th class="num">Ended</th><th>Unit</th><th class="num">Moved</th><th>How</th><th>Against its allowance</th></tr></thead><tbody>"#,
    );
    for (made, charge) in &turn.moves {
        let how = match made.carriage {
            Carriage::Slid => "slid",
            Carriage::Carried => "carried",
            Carriage::Unseen => "unseen",
        };
        let _ = write!(
            out,
            r#"<tr{}><td class="num">{}</td><td class="unit">{}{}</td><td class="num">{}</td><td>{how}</td><td>{}</td></tr>"#,
            if *charge { r#" class="charge""# } else { "" },
            turns::clock(made.ended),
            if *charge { "⚔ " } else { "" },
            escape(&made.name),
            escape(&turn.length(made.path)),
            escape(made.check.as_deref().unwrap_or("—")),
        );
    }
    out.push_str("</tbody></table></details>");
}
