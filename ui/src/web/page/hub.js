// Vedette's hub page: every table of the hall, live, from the broker, on one screen.
"use strict";

const token = location.pathname.split("/")[2] || "";
let backoff = 500;

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/h/${token}/ws`);
  socket.onmessage = (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch (e) { return; }
    if (message.type !== "hall") return;
    backoff = 500;
    $("banner").hidden = true;
    $("status").textContent = `${message.tables.length} table(s)`;
    $("status").className = "live";
    draw(message.tables);
  };
  socket.onclose = () => {
    $("banner").textContent = "Connection to the hub lost — reconnecting…";
    $("banner").hidden = false;
    $("status").textContent = "reconnecting…";
    $("status").className = "lost";
    setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 5000);
  };
}

function stateOf(table) {
  if (!table.online) return "offline";
  if (table.age === null || table.age > 10) return "stale";
  return "live";
}

function draw(tables) {
  $("empty").hidden = tables.length > 0;
  const hall = $("hall");
  hall.replaceChildren();
  for (const table of tables) {
    const state = stateOf(table);
    const card = document.createElement("section");
    card.className = `table-card ${state}`;
    card.dataset.table = table.name;
    const title = document.createElement("h2");
    const name = document.createElement("span");
    const plan = table.plan;
    name.textContent = plan && plan.table ? `${plan.table.name} · ${plan.table.ruleset_name}` : table.name;
    const badge = document.createElement("span");
    badge.className = `state ${state}`;
    badge.textContent = state === "stale" && table.age !== null ? `quiet ${Math.round(table.age)} s` : state;
    title.append(name, badge);
    card.append(title);
    if (plan && plan.table) card.append(miniPlan(plan));
    card.append(gameLine(table.game));
    hall.appendChild(card);
  }
}

// The table's game: its record's file, and links to the table's page, live and looking back
// over the game from its beginning (`#replay`). The hub checked the link is a table's page.
function gameLine(game) {
  const line = document.createElement("p");
  line.className = "game dim";
  if (!game) {
    line.textContent = "Game: not said by this table.";
    return line;
  }
  line.dataset.recorded = String(game.recorded);
  line.append(game.recorded ? `Game: ${game.file}` : "Game: not recorded");
  if (game.page && /^https?:\/\//.test(game.page)) {
    const link = (text, href, kind) => {
      const a = document.createElement("a");
      a.href = href;
      a.target = "_blank";
      a.rel = "noopener";
      a.className = kind;
      a.textContent = text;
      return a;
    };
    line.append(" · ", link("table", game.page, "live"));
    if (game.recorded) line.append(" · ", link("⏮ the game from its start", `${game.page}#replay`, "replay"));
  }
  return line;
}

function miniPlan(plan) {
  const { width: w, depth: d } = plan.table;
  const svg = el("svg", { viewBox: `0 0 ${w} ${d}`, role: "img" });
  el("rect", { x: 0, y: 0, width: w, height: d, class: "cloth" }, svg);
  const flip = (p) => `${p[0].toFixed(2)},${(d - p[1]).toFixed(2)}`;
  for (const piece of plan.terrain || []) {
    const colour = TERRAIN[piece.kind] || "#646464";
    const points = piece.points.map(flip).join(" ");
    if (piece.area) el("polygon", { points, fill: colour, "fill-opacity": 0.55 }, svg);
    else el("polyline", { points, stroke: colour, "stroke-width": w / 120, fill: "none" }, svg);
  }
  for (const unit of Object.values(plan.units || {})) {
    for (const stand of unit.stands) {
      el("polygon", { points: stand.map(flip).join(" "), fill: unit.colour, stroke: "#111", "stroke-width": w / 400, "fill-opacity": unit.sighting === "held" ? 0.35 : 0.9 }, svg);
    }
  }
  return svg;
}

connect();
