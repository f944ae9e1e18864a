// Vedette's table page: the plan, the camera with its overlay, each unit's rulings, a tape,
// pushed live over a WebSocket; and, for a recorded game, its timeline to look back along.
// Plain JS and SVG, served from the binary; nothing to build.
"use strict";

// As the app marks them: a penalty still acts under command, a test is a roll to pass.
const MARK = { yes: "✔", penalty: "➖", test: "🎲", no: "✖", borderline: "?", unchecked: "•" };

// `view` is what is drawn: the live table (`live`), or a moment of the past while looking back.
const page = {
  view: null, live: null, seq: 0, role: "viewer",
  selected: null, turn: 0, tape: null, tapeMode: false, caseMode: null, videoTimer: null,
};

// ---- the link to the table -------------------------------------------------------------------

// How the page reaches its table. On the room's network (here): a WebSocket for the live table
// and plain GETs for the record. From afar, through an MQTT broker: remote.js sets
// `window.VEDETTE_LINK` before this file runs, with the same calls.
function roomLink() {
  const token = location.pathname.split("/")[2] || "";
  const link = { remote: false, socket: null, backoff: 500, lastHeard: 0 };
  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/t/${token}/ws`);
    link.socket = socket;
    setStatus("connecting…", "connecting");
    socket.onmessage = (event) => {
      link.lastHeard = Date.now();
      let message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      receive(message);
    };
    socket.onclose = () => {
      if (link.socket !== socket) return;
      link.socket = null;
      showBanner("Connection lost — reconnecting…");
      setStatus("reconnecting…", "lost");
      setTimeout(connect, link.backoff);
      link.backoff = Math.min(link.backoff * 2, 5000);
    };
    socket.onerror = () => socket.close();
  };
  const open = () => link.socket && link.socket.readyState === WebSocket.OPEN;
  link.start = () => {
    connect();
    // A connection that has gone quiet (a phone asleep, a dead Wi-Fi) is dropped and made again.
    setInterval(() => {
      if (!open()) return;
      if (Date.now() - link.lastHeard > 40000) { link.socket.close(); return; }
      link.send({ do: "ping" });
    }, 15000);
  };
  link.heard = () => { link.backoff = 500; };
  link.send = (request) => { if (open()) link.socket.send(JSON.stringify(request)); };
  const get = async (path) => {
    const response = await fetch(`/t/${token}/${path}`, { cache: "no-store" });
    if (response.ok) return { status: response.status, json: await response.json() };
    return { status: response.status, text: (await response.text()).trim() };
  };
  link.timeline = (since) => get(`record/timeline${since === null ? "" : `?since=${since}`}`);
  link.moment = (t) => get(`record/at?t=${t}`);
  link.picture = (width, frame) => `/t/${token}/frame.jpg?w=${width}&f=${frame}`;
  link.kept = async (at) => `/t/${token}/record/picture?t=${at}`;
  return link;
}

const link = window.VEDETTE_LINK || roomLink();

function receive(message) {
  switch (message.type) {
    case "hello":
      page.role = message.role;
      // The umpire's tools act on the room's server; from afar the umpire orders and points.
      $("umpire").hidden = message.role !== "umpire" || link.remote;
      break;
    case "full":
      // From afar, a whole view older than the patches taken since (the broker's kept view)
      // is not news — unless no news has come for a while (the host started again, counting
      // from 1).
      if (link.remote && page.live && message.seq < page.seq && !page.behind
        && Date.now() - page.news < 3000) return;
      page.news = Date.now();
      page.live = message.view;
      page.seq = message.seq;
      page.behind = false;
      link.heard();
      hideBanner();
      if (!lookingBack()) page.view = page.live;
      loadTurn();
      drawSoon();
      break;
    case "patch":
      if (!page.live || message.seq <= page.seq) return;
      // One lost on the way (the broker drops what a slow page cannot take): wait for a whole
      // view rather than draw a table missing a change.
      if (link.remote && message.seq > page.seq + 1) { page.behind = true; return; }
      applyPatch(page.live, message.patch);
      page.seq = message.seq;
      page.news = Date.now();
      // While looking back the live table is kept up to date, and drawn again on ● Live.
      if (!lookingBack()) drawSoon();
      break;
    case "said":
      if (message.text !== "pong") toast(message.text);
      break;
    case "refused":
      toast(message.text, true);
      break;
  }
}

function applyPatch(view, patch) {
  for (const [id, unit] of Object.entries(patch.units)) view.units[id] = unit;
  for (const id of patch.gone) { delete view.units[id]; delete view.rulings[id]; }
  for (const [id, rulings] of Object.entries(patch.rulings)) view.rulings[id] = rulings;
  if (patch.status) view.status = patch.status;
  if (patch.motion) view.motion = patch.motion;
  if (patch.remote) view.remote = patch.remote;
}

// ---- lengths and the plan's frame -----------------------------------------------------------

function length(inches) {
  const t = page.view.table;
  const value = (inches * t.per_inch).toFixed(t.decimals);
  return t.unit === '"' ? `${value}"` : `${value} ${t.unit}`;
}

// Table inches to plan coordinates: y flipped (the near edge at the bottom), then turned a
// quarter at a time about the table's centre, so the viewer's own edge is at the bottom.
function toPlan(p) {
  const { width: w, depth: d } = page.view.table;
  const [x, y] = [p[0], d - p[1]];
  switch (page.turn) {
    case 1: return [d - y, x];
    case 2: return [w - x, d - y];
    case 3: return [y, w - x];
    default: return [x, y];
  }
}

function fromPlan(q) {
  const { width: w, depth: d } = page.view.table;
  let x, y;
  switch (page.turn) {
    case 1: [x, y] = [q[1], d - q[0]]; break;
    case 2: [x, y] = [w - q[0], d - q[1]]; break;
    case 3: [x, y] = [w - q[1], q[0]]; break;
    default: [x, y] = q;
  }
  return [x, d - y];
}

function loadTurn() {
  const saved = Number(localStorage.getItem(`vedette-turn-${page.view.table.name}`));
  page.turn = Number.isInteger(saved) ? saved % 4 : 0;
}

// ---- drawing ---------------------------------------------------------------------------------

function points(list, map) {
  return list.map((p) => map(p).map((v) => v.toFixed(3)).join(",")).join(" ");
}

// Draw the table once before the next screen refresh, however many updates come before it: a
// slow phone (or a page far behind a busy broker) draws the newest table, not every one.
function drawSoon() {
  if (page.drawing) return;
  page.drawing = true;
  requestAnimationFrame(() => {
    page.drawing = false;
    render();
  });
}

function render() {
  const view = page.view;
  if (!view) return;
  $("table-name").textContent = view.table.name;
  $("ruleset").textContent = view.table.ruleset_name;
  document.title = `Vedette — ${view.table.name}`;
  const s = view.status;
  if (lookingBack()) setStatus(`at ${clock(past.at)} — looking back; live game goes on`, "past");
  else if (s.failing) setStatus("camera lost", "lost");
  else if (s.frozen) setStatus("frozen by the umpire", "frozen");
  else liveStatus(s);
  $("freeze").textContent = s.frozen ? "Unfreeze" : "Freeze";
  // The umpire acts on the live table only: not on a moment of the past drawn in its place.
  for (const id of ["freeze", "mark-turn", "case"]) $(id).disabled = lookingBack();
  drawPlan();
  drawArmies();
  drawList();
  drawSelected();
  drawMoves();
  drawOrders();
  drawCare();
  if (!$("video-box").hidden) drawVideoOverlay();
}

function drawPlan() {
  const view = page.view;
  const svg = $("plan");
  const { width: w, depth: d } = view.table;
  const [vw, vh] = page.turn % 2 ? [d, w] : [w, d];
  const pad = 1;
  svg.setAttribute("viewBox", `${-pad} ${-pad} ${vw + 2 * pad} ${vh + 2 * pad}`);
  svg.setAttribute("data-turn", String(page.turn));
  svg.replaceChildren();
  const size = Math.max(w, d);
  // Names stay readable on a phone: never under 11 screen pixels.
  const perInch = svg.clientWidth / (vw + 2 * pad) || 1;
  const font = Math.max(size / 55, 11 / perInch);
  el("rect", { x: 0, y: 0, width: vw, height: vh, class: "cloth" }, svg);
  drawGrid(svg, vw, vh);
  const terrain = el("g", { class: "terrain" }, svg);
  for (const piece of view.terrain) {
    const colour = TERRAIN[piece.kind] || "#646464";
    const attributes = { points: points(piece.points, toPlan), "data-id": piece.id };
    if (piece.area) el("polygon", { ...attributes, fill: colour, "fill-opacity": 0.55 }, terrain);
    else el("polyline", { ...attributes, stroke: colour, "stroke-width": size / 120, fill: "none" }, terrain);
  }
  if (page.selected) drawShapes(svg, page.view.rulings[page.selected] || [], toPlan, size / 400, font);
  const units = el("g", { class: "units" }, svg);
  const labels = el("g", { class: "labels" }, svg);
  // The selected unit's name first, so it is never the one left out.
  const order = Object.entries(view.units).sort(([a], [b]) => (b === page.selected) - (a === page.selected));
  for (const [id, unit] of order) {
    const g = el("g", { class: `unit ${unit.sighting}`, "data-id": id, "data-leader": unit.leader.join(",") }, units);
    if (id === page.selected || (page.caseMode || []).includes(id)) g.classList.add("selected");
    for (const stand of unit.stands) {
      el("polygon", { points: points(stand, toPlan), fill: unit.colour }, g);
      el("line", front(stand, toPlan), g);
    }
    const centre = unit.stands.flat().reduce((s, p) => [s[0] + p[0], s[1] + p[1]], [0, 0])
      .map((v) => v / (unit.stands.length * 4));
    const at = toPlan(centre);
    const label = el("text", { x: at[0], y: at[1] + font * 0.35, "font-size": font, class: "label", "data-id": id }, labels);
    label.textContent = unit.name;
  }
  drawGhosts(svg, toPlan, () => 0, size / 300, font);
  drawDesk(svg, toPlan, size / 300, font);
  placeLabels(svg, labels, { x: -pad, y: -pad, width: vw + 2 * pad, height: vh + 2 * pad }, size / 600);
  if (page.tape && page.tape.length) drawTape(svg, font);
}

// Units on their way (in a hand, slid along the cloth), dashed where they are seen: the plan
// and the video keep them where they rest for the rules until they are put down and left.
function drawGhosts(svg, map, lift, stroke, font) {
  for (const ghost of page.view.motion.travelling) {
    const unit = page.view.units[ghost.unit];
    const colour = unit ? unit.colour : "#ffffff";
    const g = el("g", { class: `ghost ${ghost.in_hand ? "in-hand" : "moving"}`, "data-id": ghost.unit }, svg);
    const at = (p) => map(p, lift(ghost));
    const corners = [];
    for (const stand of ghost.stands) {
      const outline = stand.map(at);
      if (outline.some((q) => !q)) continue;
      el("polygon", { points: outline.map((q) => q.join(",")).join(" "), stroke: colour, "stroke-width": stroke, "stroke-dasharray": `${stroke * 4} ${stroke * 3}` }, g);
      corners.push(...outline);
    }
    // A unit sliding is plain from its dashes; one in a hand says so.
    if (!corners.length || !ghost.in_hand) continue;
    const centre = corners.reduce((s, q) => [s[0] + q[0], s[1] + q[1]], [0, 0]).map((v) => v / corners.length);
    const label = el("text", { x: centre[0], y: centre[1] - font * 0.6, "font-size": font, class: "label ghost-label" }, g);
    label.textContent = `${unit ? unit.name : ghost.unit} — in hand`;
  }
}

// A list item for a verdict (a ruling, a move's check): coloured by it, its mark first.
function verdictItem(verdict) {
  const li = document.createElement("li");
  li.className = `ruling ${verdict}`;
  const mark = document.createElement("span");
  mark.className = "mark";
  mark.textContent = MARK[verdict];
  li.append(mark);
  return li;
}

// The latest moves, newest first, each with its check.
function drawMoves() {
  const moves = page.view.motion.moves;
  const key = JSON.stringify(moves);
  if (key === page.movesKey) return;
  page.movesKey = key;
  $("moves").hidden = moves.length === 0;
  const list = $("move-list");
  list.replaceChildren();
  for (const move of moves.slice().reverse()) {
    const li = verdictItem(move.verdict);
    li.dataset.id = move.unit;
    li.append(`${move.name} ${length(move.straight)} ${move.how}`);
    if (move.checks.length) {
      const checks = document.createElement("span");
      checks.className = "rule";
      checks.textContent = move.checks.join(" ");
      li.append(checks);
    }
    li.addEventListener("click", () => select(move.unit));
    list.appendChild(li);
  }
}

// Tags whose look calls for a remedy, in words.
function drawCare() {
  const care = page.view.motion.care;
  const box = $("care");
  box.hidden = care.length === 0;
  const text = care.map((line) => `⚠ ${line}`).join("\n");
  if (box.textContent !== text) box.textContent = text;
}

// Place the labels drawn on `svg`: the rulings' figures first, then the selected unit's name,
// then the others'; each at the nearest spot inside `bounds` that covers no label placed before
// it and no stand, with a thin line back to its place when it had to go further than a line.
// A figure with no such spot takes the one that covers least; a name with none is left out (it
// is in the list below the plan).
function placeLabels(svg, group, bounds, stroke) {
  const stands = Array.from(svg.querySelectorAll("g.unit polygon")).map(boxOf).filter(Boolean);
  const figures = Array.from(svg.querySelectorAll("text.measure"));
  // Above the units, whatever group drew them.
  for (const figure of figures) group.append(figure);
  const names = Array.from(group.querySelectorAll("text.label"));
  const placed = [];
  for (const node of [...figures, ...names]) {
    const box = boxOf(node);
    if (!box) continue;
    const always = node.classList.contains("measure") || node.dataset.id === page.selected;
    const spot = freeSpot(box, bounds, placed, stands, always);
    if (!spot) {
      node.remove();
      continue;
    }
    node.setAttribute("x", Number(node.getAttribute("x")) + spot.x - box.x);
    node.setAttribute("y", Number(node.getAttribute("y")) + spot.y - box.y);
    placed.push(spot);
    const from = [box.x + box.width / 2, box.y + box.height / 2];
    const to = [clamp(from[0], spot.x, spot.x + spot.width), clamp(from[1], spot.y, spot.y + spot.height)];
    if (Math.hypot(to[0] - from[0], to[1] - from[1]) > box.height) {
      const line = el("line", { x1: from[0], y1: from[1], x2: to[0], y2: to[1], class: "leader", "stroke-width": stroke }, group);
      group.insertBefore(line, group.firstChild);
    }
  }
}

function boxOf(node) {
  try {
    const b = node.getBBox();
    return b.width > 0 ? { x: b.x, y: b.y, width: b.width, height: b.height } : null;
  } catch (e) {
    return null;
  }
}

function clamp(v, lo, hi) { return Math.min(Math.max(v, lo), hi); }

function overlap(a, b) {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

// The nearest spot for a label's box: up to six lines up or down, half its width or a whole one
// aside, slid inside the view; see placeLabels.
function freeSpot(box, bounds, placed, stands, always) {
  const tries = [];
  for (let line = -6; line <= 6; line++) {
    for (const k of [0, 0.5, -0.5, 1, -1]) tries.push([k * box.width, line * box.height * 1.05]);
  }
  tries.sort((a, b) => Math.hypot(...a) - Math.hypot(...b) || a[1] - b[1]);
  let best = null;
  let bestCost = null;
  for (const [dx, dy] of tries) {
    const spot = {
      x: clamp(box.x + dx, bounds.x, bounds.x + bounds.width - box.width),
      y: clamp(box.y + dy, bounds.y, bounds.y + bounds.height - box.height),
      width: box.width,
      height: box.height,
    };
    const cost = [placed, stands].map((list) => list.reduce((sum, other) => sum + overlap(spot, other), 0));
    if (cost[0] === 0 && cost[1] === 0) return spot;
    if (always && (!bestCost || cost[0] < bestCost[0] || (cost[0] === bestCost[0] && cost[1] < bestCost[1]))) {
      best = spot;
      bestCost = cost;
    }
  }
  return best;
}

function front(stand, map) {
  const [a, b] = [map(stand[0]), map(stand[1])];
  return { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "front" };
}

function drawGrid(svg, vw, vh) {
  // Every 6" for Black Powder, 10 cm, 100 mm or 100 m in the others: the app's grid.
  const t = page.view.table;
  const step = t.unit === '"' ? 6 : (t.unit === "cm" ? 10 : 100) / t.per_inch;
  const grid = el("g", { class: "grid" }, svg);
  for (let x = step; x < vw; x += step) el("line", { x1: x, y1: 0, x2: x, y2: vh }, grid);
  for (let y = step; y < vh; y += step) el("line", { x1: 0, y1: vh - y, x2: vw, y2: vh - y }, grid);
}

function drawShapes(parent, rulings, map, stroke, font) {
  const g = el("g", { class: "shapes" }, parent);
  for (const ruling of rulings) {
    for (const shape of ruling.shapes) {
      if (shape.shape === "polygon") {
        const p = shape.points.map(map);
        if (p.some((q) => !q)) continue;
        el("polygon", { points: p.map((q) => q.join(",")).join(" "), class: `shape ${shape.role} ${ruling.verdict}`, "stroke-width": stroke }, g);
      } else {
        const [a, b] = [map(shape.from), map(shape.to)];
        if (!a || !b) continue;
        el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: `shape ${shape.role} ${ruling.verdict}`, "stroke-width": stroke * 2 }, g);
        if (shape.label) {
          const text = el("text", { x: (a[0] + b[0]) / 2, y: (a[1] + b[1]) / 2, "font-size": font * 0.8, class: "measure" }, g);
          text.textContent = shape.label;
        }
      }
    }
  }
}

function drawTape(svg, font) {
  const [a, b] = page.tape;
  const [pa, pb] = [toPlan(a), toPlan(b || a)];
  const g = el("g", { class: "tape" }, svg);
  el("circle", { cx: pa[0], cy: pa[1], r: font / 3 }, g);
  if (!b) return;
  el("circle", { cx: pb[0], cy: pb[1], r: font / 3 }, g);
  el("line", { x1: pa[0], y1: pa[1], x2: pb[0], y2: pb[1] }, g);
  const text = el("text", { x: (pa[0] + pb[0]) / 2, y: (pa[1] + pb[1]) / 2 - font / 2, "font-size": font * 1.2, id: "tape-length" }, g);
  text.textContent = length(Math.hypot(b[0] - a[0], b[1] - a[1]));
}

// Each army by name in its colour, under the plan: which stands are whose, at a glance.
function drawArmies() {
  const sides = new Map();
  for (const unit of Object.values(page.view.units)) {
    if (!sides.has(unit.army)) sides.set(unit.army, { colour: unit.colour, units: 0 });
    sides.get(unit.army).units += 1;
  }
  const key = JSON.stringify([...sides]);
  if (key === page.armiesKey) return;
  page.armiesKey = key;
  const legend = $("armies");
  legend.replaceChildren();
  for (const [side, { colour, units }] of [...sides].sort(([a], [b]) => a.localeCompare(b))) {
    const army = document.createElement("span");
    army.className = "army";
    const dot = document.createElement("span");
    dot.className = "dot";
    dot.style.background = colour;
    army.append(dot, `${side} `);
    const count = document.createElement("span");
    count.className = "dim";
    count.textContent = `${units} unit${units === 1 ? "" : "s"}`;
    army.append(count);
    legend.append(army);
  }
}

function drawList() {
  const units = Object.entries(page.view.units)
    .sort(([, a], [, b]) => a.side.localeCompare(b.side) || a.name.localeCompare(b.name));
  // Rebuilt only when what it shows changes, so that a tap is never lost to a live update.
  const key = JSON.stringify(units.map(([id, u]) => [id, u.name, u.kind, u.formation, u.sighting, u.colour]));
  if (key === page.listKey) return;
  page.listKey = key;
  const list = $("units");
  list.replaceChildren();
  for (const [id, unit] of units) {
    const li = document.createElement("li");
    li.dataset.id = id;
    li.className = unit.sighting;
    const dot = document.createElement("span");
    dot.className = "dot";
    dot.style.background = unit.colour;
    li.append(dot, `${unit.name} `);
    const facts = document.createElement("span");
    facts.className = "dim";
    facts.textContent = `${unit.kind}, ${unit.formation.replace("-", " ")}${sightingWords(unit)}`;
    li.append(facts);
    li.addEventListener("click", () => select(id));
    list.appendChild(li);
  }
}

function sightingWords(unit) {
  if (unit.sighting === "held") return " — not seen now, where it was last seen";
  if (unit.sighting === "partial") return " — partly seen";
  return "";
}

function drawSelected() {
  const id = page.selected;
  const unit = id && page.view.units[id];
  $("selected").hidden = !unit;
  $("list").hidden = !!unit;
  if (!unit) return;
  const rulings = page.view.rulings[id] || [];
  const key = JSON.stringify([id, unit.name, unit.formation, unit.sighting, rulings.map((r) => [r.verdict, r.explanation, r.rule])]);
  if (key === page.selectedKey) return;
  page.selectedKey = key;
  $("unit-name").textContent = unit.name;
  $("unit-facts").textContent = `${unit.army} · ${unit.kind} in ${unit.formation.replace("-", " ")}${sightingWords(unit)}`;
  const list = $("rulings");
  list.replaceChildren();
  for (const ruling of rulings) {
    const li = verdictItem(ruling.verdict);
    li.dataset.topic = ruling.topic;
    const words = document.createElement("span");
    words.className = "explanation";
    words.textContent = ruling.explanation;
    li.append(words);
    if (ruling.verdict === "borderline") {
      const flag = document.createElement("span");
      flag.className = "flag";
      flag.textContent = "BORDERLINE — players decide";
      li.append(flag);
    }
    const rule = document.createElement("span");
    rule.className = "rule";
    rule.textContent = `[${ruling.rule}]`;
    li.append(rule);
    list.appendChild(li);
  }
}

// ---- the camera ------------------------------------------------------------------------------

// The calibrated camera's projection, as calibration::Camera computes it (OpenCV's model).
function project(camera, p, height) {
  const [x, y, z] = [p[0], p[1], height];
  const R = camera.rotation, t = camera.translation;
  const cz = R[2][0] * x + R[2][1] * y + R[2][2] * z + t[2];
  if (cz <= 1e-9) return null;
  const xn = (R[0][0] * x + R[0][1] * y + R[0][2] * z + t[0]) / cz;
  const yn = (R[1][0] * x + R[1][1] * y + R[1][2] * z + t[1]) / cz;
  const r2 = xn * xn + yn * yn;
  if (camera.fold !== null && r2 >= camera.fold) return null;
  const [k1, k2, p1, p2, k3] = camera.distortion;
  const radial = 1 + r2 * (k1 + r2 * (k2 + r2 * k3));
  const xd = xn * radial + 2 * p1 * xn * yn + p2 * (r2 + 2 * xn * xn);
  const yd = yn * radial + p1 * (r2 + 2 * yn * yn) + 2 * p2 * xn * yn;
  return [camera.fx * xd + camera.cx, camera.fy * yd + camera.cy];
}

// Straight table edges are bent by the lens: project them in short pieces.
function bent(list, closed, map) {
  const out = [];
  const n = list.length;
  for (let i = 0; i < (closed ? n : n - 1); i++) {
    const [a, b] = [list[i], list[(i + 1) % n]];
    for (let k = 0; k < 8; k++) {
      const f = k / 8;
      out.push(map([a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f]));
    }
  }
  if (!closed) out.push(map(list[n - 1]));
  return out.some((q) => !q) ? null : out;
}

function showVideo(on) {
  $("video-box").hidden = !on;
  $("plan-box").hidden = on;
  $("show-video").classList.toggle("on", on);
  $("show-plan").classList.toggle("on", !on);
  clearInterval(page.videoTimer);
  if (on) {
    refreshPicture();
    page.videoTimer = setInterval(refreshPicture, 500);
    drawVideoOverlay();
  }
}

function refreshPicture() {
  const view = page.view;
  if (lookingBack()) { showKeptPicture(); return; }
  past.picture = null;
  if (!view || !view.status.picture) {
    $("video-note").textContent = "No camera picture yet.";
    return;
  }
  const width = Math.round($("video-box").clientWidth * (window.devicePixelRatio || 1));
  // From afar the pictures come by themselves (link.onPicture), as the host sends them.
  const url = link.picture(width, view.status.frame);
  if (!url) return;
  const next = new Image();
  next.onload = () => { if (!lookingBack()) $("video").src = next.src; };
  next.src = url;
}

// A picture pushed by a remote table.
function showPicture(url) {
  if (lookingBack() || $("video-box").hidden) return false;
  $("video").src = url;
  return true;
}

function drawVideoOverlay() {
  const view = page.view;
  const svg = $("video-overlay");
  svg.replaceChildren();
  const camera = view && view.camera;
  $("video-note").textContent = camera ? keptPictureWords() : "The camera is not calibrated to the table yet: no overlay.";
  if (!camera) return;
  svg.setAttribute("viewBox", `-0.5 -0.5 ${camera.width} ${camera.height}`);
  svg.setAttribute("preserveAspectRatio", "none");
  const stroke = camera.width / 500;
  const onCloth = (p) => project(camera, p, 0);
  const onStands = (p) => project(camera, p, camera.stand_height);
  if (page.selected) {
    const rulings = view.rulings[page.selected] || [];
    drawShapes(svg, rulings, onCloth, stroke, camera.width / 60);
  }
  for (const [id, unit] of Object.entries(view.units)) {
    const g = el("g", { class: `unit ${unit.sighting}`, "data-id": id }, svg);
    if (id === page.selected) g.classList.add("selected");
    for (const stand of unit.stands) {
      const outline = bent(stand, true, onStands);
      if (!outline) continue;
      el("polygon", { points: outline.map((q) => q.join(",")).join(" "), stroke: unit.colour, "stroke-width": stroke, fill: "none" }, g);
    }
    g.addEventListener("pointerdown", (event) => { event.stopPropagation(); select(id); });
  }
  drawGhosts(svg, (p, lift) => project(camera, p, camera.stand_height + lift), (ghost) => ghost.lifted_by, stroke, camera.width / 60);
  drawDesk(svg, onStands, stroke, camera.width / 60);
  placeLabels(svg, el("g", { class: "labels" }, svg), { x: 0, y: 0, width: camera.width, height: camera.height }, stroke / 2);
}

// ---- looking back ----------------------------------------------------------------------------

// A recorded game's timeline under the table: scrub or step to any moment and the page draws
// the table as it stood then (the server rules it afresh from the record) with the drawing code
// of the live table, and the camera's picture kept nearest it. Each page looks back on its own:
// nothing it asks changes what the others see, and the live table, kept up to date meanwhile,
// is drawn again on ● Live.
const past = {
  timeline: null, // {file, until_ms, start_ms, moves, marks, keyframes}
  at: null, // the moment drawn, ms; null while live
  wanted: null, // the moment last asked for; null while live
  asking: false,
  generation: 0, // counts the returns to live: answers to questions asked before are dropped
  pictureAt: null, // when the picture kept nearest the moment was taken, ms
  picture: null, // the kept picture on the video now
  dragging: false,
  fromTheStart: location.hash === "#replay", // the hall's link: look back from the beginning
  timer: null,
};

// How often the timeline is read again: the game goes on being recorded.
const TIMELINE_EVERY = 5000;

// Marks drawn on a bar this many places wide at most, one per kind a place: a charge can bring
// a dozen units into range in one moment.
const MARK_PLACES = 200;

function lookingBack() { return past.at !== null; }

// A moment as a clock: 0:12:04.
function clock(ms) {
  const s = Math.floor(ms / 1000);
  const two = (n) => String(n).padStart(2, "0");
  return `${Math.floor(s / 3600)}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
}

// Read the timeline (what came since the last reading), then again in a few seconds. A table
// whose game is not recorded answers 404: the bar stays hidden.
async function readTimeline() {
  clearTimeout(past.timer);
  const known = past.timeline;
  let next = TIMELINE_EVERY;
  try {
    const response = await link.timeline(known ? known.until_ms : null);
    if (response.json) {
      if (!takeTimeline(response.json)) next = 0;
    } else if (response.status === 404) {
      past.timeline = null;
      drawTimeline();
    }
  } catch (e) {
    // The connection's banner says the table cannot be reached; try again later.
  }
  past.timer = setTimeout(readTimeline, next);
}

// Take a reading of the timeline; false if it does not follow the one held (another game).
function takeTimeline(reading) {
  const known = past.timeline;
  if (reading.since_ms === null) {
    past.timeline = reading;
  } else if (known && reading.file === known.file && reading.since_ms === known.until_ms) {
    known.moves.push(...reading.moves);
    known.marks.push(...reading.marks);
    known.keyframes.push(...reading.keyframes);
    known.until_ms = Math.max(known.until_ms, reading.until_ms);
    known.start_ms = reading.start_ms;
  } else {
    past.timeline = null;
    return false;
  }
  drawTimeline();
  if (past.fromTheStart) {
    past.fromTheStart = false;
    goTo(0);
  }
  return true;
}

function drawTimeline() {
  const t = past.timeline;
  const bar = $("timeline");
  bar.hidden = !t;
  if (!t) return;
  const end = Math.max(t.until_ms, 1);
  const scrub = $("scrub");
  scrub.max = String(end);
  if (!lookingBack() && !past.dragging) scrub.value = String(end);
  bar.dataset.moment = lookingBack() ? String(past.at) : "live";
  bar.dataset.moves = String(t.moves.length);
  bar.dataset.until = String(t.until_ms);
  $("tl-moment").textContent = lookingBack()
    ? `at ${clock(past.at)} — looking back; live game goes on`
    : `live · ${clock(t.until_ms)} of the game recorded`;
  $("tl-live").classList.toggle("on", !lookingBack());
  // Redrawn only when there is something new: the game's length moves every sign.
  const key = `${t.file} ${t.until_ms} ${t.moves.length} ${t.marks.length}`;
  if (key === past.marksKey) return;
  past.marksKey = key;
  const place = (ms) => Math.round((ms / end) * MARK_PLACES);
  const left = (ms) => `${((ms / end) * 100).toFixed(3)}%`;
  const strip = $("tl-marks");
  strip.replaceChildren();
  for (const at of new Set(t.moves.map((m) => place(m.at_ms)))) {
    const tick = document.createElement("span");
    tick.className = "tick";
    tick.style.left = left((at / MARK_PLACES) * end);
    strip.appendChild(tick);
  }
  const groups = new Map();
  for (const mark of t.marks) {
    const key = `${mark.kind} ${place(mark.at_ms)}`;
    const group = groups.get(key) || { ...mark, labels: [] };
    group.labels.push(mark.label);
    groups.set(key, group);
  }
  for (const group of groups.values()) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = `tl-mark ${group.kind}`;
    button.dataset.kind = group.kind;
    button.dataset.at = String(group.at_ms);
    button.style.left = left(group.at_ms);
    const more = group.labels.length > 4 ? ` and ${group.labels.length - 4} more` : "";
    button.title = `${clock(group.at_ms)} ${group.labels.slice(0, 4).join("; ")}${more}`;
    // A turn is a line across the bar (its sign, ⏵, is missing from common fonts).
    button.textContent = group.kind === "turn" ? "" : group.symbol;
    button.setAttribute("aria-label", button.title);
    button.addEventListener("click", () => goTo(group.at_ms));
    strip.appendChild(button);
  }
}

// Look back at `ms`: asked of the server, one question at a time, the latest wanted next.
function goTo(ms) {
  past.wanted = Math.max(0, Math.round(ms));
  askMoment();
}

async function askMoment() {
  if (past.asking || past.wanted === null) return;
  past.asking = true;
  const [t, generation] = [past.wanted, past.generation];
  let answer = null;
  try {
    const response = await link.moment(t);
    if (response.json) answer = response.json;
    else toast(response.text, true);
  } catch (e) {
    toast("The game's record cannot be reached just now.", true);
  }
  past.asking = false;
  const stale = generation !== past.generation;
  if (answer && answer.view && !stale) showMoment(answer);
  if (past.wanted !== null && (stale || past.wanted !== t)) askMoment();
}

function showMoment(answer) {
  past.at = answer.at_ms;
  past.pictureAt = answer.picture_ms;
  page.view = answer.view;
  if (!past.dragging) $("scrub").value = String(answer.at_ms);
  render();
  drawTimeline();
  if (!$("video-box").hidden) showKeptPicture();
}

function goLive() {
  past.generation += 1;
  past.wanted = null;
  past.at = null;
  past.pictureAt = null;
  if (page.live) page.view = page.live;
  render();
  drawTimeline();
  if (!$("video-box").hidden) refreshPicture();
}

// The moment steps start from: the one drawn, or the end of the record while live.
function stepFrom() { return lookingBack() ? past.at : past.timeline.until_ms; }

// ◀ move: just before the last move made by now (the unit where it stood); ▶ move: just after
// the next one. Past the last move is the live table.
function stepMove(forward) {
  if (!past.timeline) return;
  const at = stepFrom();
  const times = past.timeline.moves.map((m) => m.at_ms);
  if (forward) {
    const next = times.find((m) => m > at);
    if (next === undefined) goLive(); else goTo(next);
  } else {
    const made = times.filter((m) => m <= at);
    goTo(made.length ? made[made.length - 1] - 1 : 0);
  }
}

// ⇤ turn: the start of this turn, or of the one before; turn ⇥: the start of the next one. (Not
// ⏮ and ⏭: a computer with only the common fonts draws them as empty boxes.)
function stepTurn(forward) {
  if (!past.timeline) return;
  const at = stepFrom();
  const turns = past.timeline.marks.filter((m) => m.kind === "turn").map((m) => m.at_ms);
  if (forward) {
    const next = turns.find((m) => m > at);
    if (next === undefined) goLive(); else goTo(next);
  } else {
    const begun = turns.filter((m) => m < at);
    goTo(begun.length ? begun[begun.length - 1] : 0);
  }
}

// While looking back the video shows the picture kept nearest the moment, not the live one.
function showKeptPicture() {
  const at = past.pictureAt;
  if (at === null || at === undefined) {
    $("video-note").textContent = "No picture of the table was kept near this moment.";
    return;
  }
  if (past.picture === at) return;
  past.picture = at;
  link.kept(at).then((url) => {
    if (!url) return;
    const next = new Image();
    next.onload = () => { if (lookingBack() && past.picture === at) $("video").src = next.src; };
    next.src = url;
  });
}

function keptPictureWords() {
  if (!lookingBack() || past.pictureAt === null) return "";
  return `The picture kept at ${clock(past.pictureAt)} (one every 30 s, and at each turn), `
    + `with the table of ${clock(past.at)} drawn over it.`;
}

// ---- taps ------------------------------------------------------------------------------------

function planPoint(event) {
  const svg = $("plan");
  const matrix = svg.getScreenCTM();
  if (!matrix) return null;
  const q = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
  return fromPlan([q.x, q.y]);
}

// The unit under a table point: in one of its stands, or within half an inch of one (a finger
// is wider than a gun's base). Found from the geometry, not the element tapped, which a live
// update may have replaced between the finger going down and up.
function unitAt(p) {
  let best = null;
  for (const [id, unit] of Object.entries(page.view.units)) {
    for (const stand of unit.stands) {
      const d = distanceToStand(p, stand);
      if (d <= 0.5 && (!best || d < best.d)) best = { id, d };
    }
  }
  return best && best.id;
}

function distanceToStand(p, corners) {
  let inside = false;
  let nearest = Infinity;
  for (let i = 0, j = corners.length - 1; i < corners.length; j = i++) {
    const [a, b] = [corners[i], corners[j]];
    if ((a[1] > p[1]) !== (b[1] > p[1]) && p[0] < ((b[0] - a[0]) * (p[1] - a[1])) / (b[1] - a[1]) + a[0]) inside = !inside;
    const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
    const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy || 1)));
    nearest = Math.min(nearest, Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy));
  }
  return inside ? 0 : nearest;
}

function tapUnit(id, event) {
  if (page.caseMode) {
    if (!page.caseMode.includes(id)) page.caseMode.push(id);
    if (page.caseMode.length === 2) {
      const [a, b] = page.caseMode;
      page.caseMode = null;
      const note = prompt(`Note for the case between ${page.view.units[a].name} and ${page.view.units[b].name} (optional):`, "") || "";
      link.send({ do: "save-case", a, b, note: note.slice(0, 1000) });
    }
    render();
    return;
  }
  if (page.tapeMode) { tapPlan(event); return; }
  select(id);
}

function tapPlan(event) {
  if (!page.view) return;
  const p = planPoint(event);
  if (!p || deskTap(p)) return;
  if (!page.tapeMode) {
    const id = unitAt(p);
    if (id) tapUnit(id, event);
    return;
  }
  if (!page.tape || page.tape.length === 2) page.tape = [p];
  else page.tape.push(p);
  const note = $("tape-note");
  note.hidden = false;
  note.textContent = page.tape.length === 2
    ? `Tape: ${length(Math.hypot(page.tape[1][0] - page.tape[0][0], page.tape[1][1] - page.tape[0][1]))}, point to point. Tap again for a new tape.`
    : "Tape: tap the second point.";
  drawPlan();
}

function select(id) {
  page.selected = id;
  render();
}

// ---- messages --------------------------------------------------------------------------------

// Live: with several cameras, those not live named, and how many units no camera sees.
function liveStatus(s) {
  const live = s.turn > 0 ? `live · turn ${s.turn}` : "live";
  const out = (s.cameras || []).filter((c) => c.state !== "live");
  if (out.length === 0) {
    setStatus(live, "live");
    $("status").title = "";
    return;
  }
  const cameras = out.map((c) => `${c.name} ${c.state}`).join(", ");
  const unseen = (s.unseen || []).length;
  setStatus(`${live} · ${cameras}${unseen ? ` · ${unseen} unit(s) no camera sees` : ""}`, "partial");
  $("status").title = (s.unseen || []).join("\n");
}

function setStatus(text, kind) {
  const status = $("status");
  status.textContent = text;
  status.className = kind;
}

function showBanner(text) {
  const banner = $("banner");
  banner.textContent = text;
  banner.hidden = false;
}

// A standing warning (a remote page on a broker any player may write) stays when the rest
// of the banner goes.
function hideBanner() {
  if (link.warning) showBanner(link.warning);
  else $("banner").hidden = true;
}

function toast(text, bad) {
  const t = $("toast");
  t.textContent = text;
  t.className = bad ? "bad" : "";
  t.hidden = false;
  clearTimeout(page.toastTimer);
  page.toastTimer = setTimeout(() => { t.hidden = true; }, 5000);
}

// ---- wiring ----------------------------------------------------------------------------------

$("plan").addEventListener("click", tapPlan);
$("turn").addEventListener("click", () => {
  if (!page.view) return;
  page.turn = (page.turn + 1) % 4;
  localStorage.setItem(`vedette-turn-${page.view.table.name}`, String(page.turn));
  drawPlan();
});
$("tape").addEventListener("click", () => {
  page.tapeMode = !page.tapeMode;
  page.tape = null;
  $("tape").classList.toggle("on", page.tapeMode);
  $("tape-note").hidden = !page.tapeMode;
  $("tape-note").textContent = "Tape: tap the first point.";
  drawPlan();
});
$("back").addEventListener("click", () => select(null));
$("show-plan").addEventListener("click", () => showVideo(false));
$("show-video").addEventListener("click", () => showVideo(true));
$("freeze").addEventListener("click", () => link.send({ do: page.view && page.view.status.frozen ? "unfreeze" : "freeze" }));
$("mark-turn").addEventListener("click", () => link.send({ do: "mark-turn" }));
$("case").addEventListener("click", () => {
  page.caseMode = [];
  toast("Tap the two units of the dispute on the plan.");
});
window.addEventListener("resize", () => { if (page.view) drawPlan(); });
$("scrub").addEventListener("input", () => {
  past.dragging = true;
  goTo(Number($("scrub").value));
});
$("scrub").addEventListener("change", () => { past.dragging = false; });
$("tl-turn-back").addEventListener("click", () => stepTurn(false));
$("tl-move-back").addEventListener("click", () => stepMove(false));
$("tl-move-on").addEventListener("click", () => stepMove(true));
$("tl-turn-on").addEventListener("click", () => stepTurn(true));
$("tl-live").addEventListener("click", goLive);
// The hall's link opened in a page already showing the table.
window.addEventListener("hashchange", () => {
  if (location.hash !== "#replay") return;
  if (past.timeline) goTo(0); else past.fromTheStart = true;
});

wireDesk();
link.start();
readTimeline();
