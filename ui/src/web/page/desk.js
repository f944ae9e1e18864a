// The remote players' desk on a table's page: the pointers players put on the table and the
// moves they ordered, drawn on the plan and on the camera's picture for every page; and, on a
// remote player's page, pointing and ordering. Loaded before table.js, whose drawing calls it.
"use strict";

// How long a pointer stays, ms (the host keeps it as long: live::orders::POINTER_LIFE).
const POINTER_LIFE = 5000;

const desk = {
  mode: null, // "point", "order" or null
  draft: null, // the order being drawn: {unit, leader, facing}
  dragging: false,
  seen: new Map(), // a pointer's id → when this page first saw it (ms, its own clock)
  timer: null,
};

// The remote player's name, as the page keeps it.
function playerName() {
  const input = document.getElementById("player-name");
  const typed = input && input.value.trim();
  return (typed || localStorage.getItem("vedette-player") || "").slice(0, 40);
}

// The host said which seat this page's link gives.
function seated(seat) {
  const remote = document.getElementById("remote");
  if (!remote) return;
  remote.hidden = false;
  const words = seat.role === "umpire" ? "You are the umpire: you may order any unit."
    : `You play ${seat.side}: you may order its units.`;
  $("seat").textContent = words;
  const input = $("player-name");
  if (!input.value) input.value = localStorage.getItem("vedette-player") || (seat.side ? `${seat.side}'s player` : "umpire");
}

// ---- drawing (every page) --------------------------------------------------------------------

// Pointers and orders on a drawing whose table points `map` places (plan or picture).
function drawDesk(svg, map, stroke, font) {
  const remote = page.view && page.view.remote;
  if (!remote) return;
  const g = el("g", { class: "desk" }, svg);
  for (const order of remote.orders) drawOrder(g, order, map, stroke, font);
  if (desk.draft) drawDraft(g, map, stroke, font);
  const now = Date.now();
  for (const pointer of remote.pointers) {
    if (!desk.seen.has(pointer.id)) desk.seen.set(pointer.id, now - pointer.age_s * 1000);
    const left = 1 - (now - desk.seen.get(pointer.id)) / POINTER_LIFE;
    const at = map(pointer.at);
    if (left <= 0 || !at) continue;
    const mark = el("g", { class: "pointer", "data-by": pointer.by, opacity: left.toFixed(2) }, g);
    el("circle", { cx: at[0], cy: at[1], r: font * 0.9, stroke: pointer.colour, "stroke-width": stroke * 3, fill: "none" }, mark);
    el("circle", { cx: at[0], cy: at[1], r: font * 0.2, fill: pointer.colour }, mark);
    const label = el("text", { x: at[0] + font, y: at[1] - font, "font-size": font, class: "label" }, mark);
    label.textContent = pointer.by;
  }
  // Fading pointers are drawn again until they are gone.
  clearTimeout(desk.timer);
  if (remote.pointers.length) desk.timer = setTimeout(drawSoon, 250);
}

function outline(stand, map) {
  const corners = stand.map(map);
  return corners.some((q) => !q) ? null : corners.map((q) => q.join(",")).join(" ");
}

function drawOrder(g, order, map, stroke, font) {
  const placed = order.placed !== null;
  const o = el("g", { class: `order ${order.verdict}${placed ? " placed" : ""}`, "data-id": String(order.id), "data-unit": order.unit }, g);
  for (const stand of order.ghost) {
    const points = outline(stand, map);
    if (points) el("polygon", { points, stroke: order.colour, "stroke-width": stroke * 2, "stroke-dasharray": `${stroke * 6} ${stroke * 3}`, fill: order.colour, "fill-opacity": 0.15 }, o);
  }
  const at = map(order.leader);
  if (!at) return;
  // Placed clear of the other labels with the rulings' figures (table.js's placeLabels).
  const label = el("text", { x: at[0], y: at[1] - font * 0.8, "font-size": font, class: "measure order-label" }, o);
  label.textContent = placed ? `${order.name}: ${order.placed}` : `${MARK[order.verdict]} ${order.name} — ordered by ${order.by} (${order.seat})`;
}

function drawDraft(g, map, stroke, font) {
  const unit = page.view.units[desk.draft.unit];
  if (!unit) return;
  const d = el("g", { class: "draft" }, g);
  for (const stand of moved(unit, desk.draft.leader, desk.draft.facing)) {
    const points = outline(stand, map);
    if (points) el("polygon", { points, stroke: "#ffffff", "stroke-width": stroke * 2, "stroke-dasharray": `${stroke * 3} ${stroke * 3}`, fill: unit.colour, "fill-opacity": 0.35 }, d);
  }
  const [from, to] = [map(unit.leader), map(desk.draft.leader)];
  if (from && to) el("line", { x1: from[0], y1: from[1], x2: to[0], y2: to[1], stroke: "#ffffff", "stroke-width": stroke }, d);
}

// The unit's stands moved whole: turned about its leader to `facing`, its leader at `leader`
// (as rules::order::moved_to moves them).
function moved(unit, leader, facing) {
  const turn = ((facing - unit.facing) * Math.PI) / 180;
  const [c, s] = [Math.cos(turn), Math.sin(turn)];
  return unit.stands.map((stand) => stand.map(([x, y]) => {
    const [dx, dy] = [x - unit.leader[0], y - unit.leader[1]];
    return [leader[0] + c * dx - s * dy, leader[1] + s * dx + c * dy];
  }));
}

// The orders in the panel: each with its check and, once moved, how well it was placed.
function drawOrders() {
  const box = document.getElementById("orders");
  if (!box) return;
  const orders = (page.view.remote || { orders: [] }).orders;
  const key = JSON.stringify(orders.map((o) => [o.id, o.verdict, o.placed]));
  box.hidden = orders.length === 0;
  if (key === desk.ordersKey) return;
  desk.ordersKey = key;
  const list = $("order-list");
  list.replaceChildren();
  for (const order of [...orders].reverse()) {
    const li = verdictItem(order.placed === null ? order.verdict : order.as_ordered ? "yes" : "borderline");
    li.dataset.id = String(order.id);
    const words = document.createElement("span");
    words.className = "explanation";
    words.textContent = order.placed === null
      ? `${order.name}, ordered by ${order.by} (${order.seat}): ${order.checks.map(([, w]) => w).join(" ")}`
      : `${order.name}, ordered by ${order.by} (${order.seat}): ${order.placed}.`;
    li.append(words);
    const mine = link.remote && link.seat && (link.seat.role === "umpire" || link.seat.side === order.side);
    if (order.placed === null && mine) {
      const withdraw = document.createElement("button");
      withdraw.type = "button";
      withdraw.className = "withdraw";
      withdraw.textContent = "Withdraw";
      withdraw.addEventListener("click", () => link.withdraw(order.id));
      li.append(withdraw);
    }
    list.append(li);
  }
}

// ---- pointing and ordering (a remote player's page) ------------------------------------------

// A tap at table point `p` in pointing or ordering: true if the desk took it.
function deskTap(p) {
  if (!link.remote || !desk.mode || !p) return false;
  if (desk.mode === "point") {
    link.point([round(p[0]), round(p[1])]);
    return true;
  }
  if (!desk.draft) {
    const id = unitAt(p);
    const unit = id && page.view.units[id];
    if (!unit) { toast("Tap one of your units to order it."); return true; }
    const seat = link.seat || {};
    if (seat.role !== "umpire" && unit.side !== seat.side) { toast(`${unit.name} is not one of your units.`, true); return true; }
    desk.draft = { unit: id, leader: unit.leader.slice(), facing: unit.facing };
    draftWords();
    render();
    return true;
  }
  desk.draft.leader = p;
  draftWords();
  render();
  return true;
}

function round(v) { return Math.round(v * 1000) / 1000; }

function draftWords() {
  const draft = desk.draft;
  $("order-draft").hidden = !draft;
  if (!draft) return;
  const unit = page.view.units[draft.unit];
  const [dx, dy] = [draft.leader[0] - unit.leader[0], draft.leader[1] - unit.leader[1]];
  const turned = Math.round(Math.abs((((draft.facing - unit.facing) % 360) + 540) % 360 - 180));
  $("draft-words").textContent = `${unit.name}: ${length(Math.hypot(dx, dy))} from where it stands, turned ${turned}°. Drag or tap where it should go.`;
}

function setMode(mode) {
  desk.mode = desk.mode === mode ? null : mode;
  desk.draft = null;
  $("point").classList.toggle("on", desk.mode === "point");
  $("order").classList.toggle("on", desk.mode === "order");
  $("order-draft").hidden = true;
  if (desk.mode === "point") toast("Tap the plan or the picture: everyone sees your pointer.");
  if (desk.mode === "order") toast("Tap one of your units, then where it should go.");
  render();
}

function turnDraft(degrees) {
  if (!desk.draft) return;
  desk.draft.facing = (desk.draft.facing + degrees + 360) % 360;
  draftWords();
  render();
}

function sendDraft() {
  const draft = desk.draft;
  if (!draft) return;
  link.order(draft.unit, [round(draft.leader[0]), round(draft.leader[1])], round(draft.facing));
  desk.draft = null;
  $("order-draft").hidden = true;
  render();
}

// The table point under a tap on the camera's picture: the ray through that pixel met with the
// table at the stands' height (the lens undone by a few rounds of OpenCV's model).
function unproject(camera, px, py, height) {
  const [k1, k2, p1, p2, k3] = camera.distortion;
  const [xd, yd] = [(px - camera.cx) / camera.fx, (py - camera.cy) / camera.fy];
  let [x, y] = [xd, yd];
  for (let i = 0; i < 10; i++) {
    const r2 = x * x + y * y;
    const radial = 1 + r2 * (k1 + r2 * (k2 + r2 * k3));
    const dx = 2 * p1 * x * y + p2 * (r2 + 2 * x * x);
    const dy = p1 * (r2 + 2 * y * y) + 2 * p2 * x * y;
    [x, y] = [(xd - dx) / radial, (yd - dy) / radial];
  }
  const R = camera.rotation, t = camera.translation;
  // The camera's centre and the ray, in table coordinates (Rᵀ of camera ones).
  const centre = [0, 1, 2].map((i) => -(R[0][i] * t[0] + R[1][i] * t[1] + R[2][i] * t[2]));
  const ray = [0, 1, 2].map((i) => R[0][i] * x + R[1][i] * y + R[2][i]);
  if (Math.abs(ray[2]) < 1e-9) return null;
  const s = (height - centre[2]) / ray[2];
  return s > 0 ? [centre[0] + s * ray[0], centre[1] + s * ray[1]] : null;
}

// A tap on the camera's picture, as a table point.
function videoPoint(event) {
  const camera = page.view && page.view.camera;
  const svg = $("video-overlay");
  const matrix = svg.getScreenCTM();
  if (!camera || !matrix) return null;
  const q = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
  return unproject(camera, q.x, q.y, camera.stand_height);
}

function wireDesk() {
  if (!document.getElementById("remote")) return;
  $("point").addEventListener("click", () => setMode("point"));
  $("order").addEventListener("click", () => setMode("order"));
  $("turn-left-15").addEventListener("click", () => turnDraft(15));
  $("turn-left-5").addEventListener("click", () => turnDraft(5));
  $("turn-right-5").addEventListener("click", () => turnDraft(-5));
  $("turn-right-15").addEventListener("click", () => turnDraft(-15));
  $("send-order").addEventListener("click", sendDraft);
  $("cancel-order").addEventListener("click", () => { desk.draft = null; $("order-draft").hidden = true; render(); });
  $("player-name").addEventListener("change", () => localStorage.setItem("vedette-player", playerName()));
  // Dragging the ghost: it follows the finger while pressed.
  const plan = $("plan");
  plan.addEventListener("pointerdown", (event) => { if (desk.draft) { desk.dragging = true; plan.setPointerCapture(event.pointerId); } });
  plan.addEventListener("pointermove", (event) => {
    if (!desk.dragging || !desk.draft) return;
    const p = planPoint(event);
    if (p) { desk.draft.leader = p; draftWords(); drawPlan(); }
  });
  plan.addEventListener("pointerup", () => { desk.dragging = false; });
  $("video-overlay").addEventListener("click", (event) => {
    if (!link.remote || !desk.mode) return;
    deskTap(videoPoint(event));
  });
}
