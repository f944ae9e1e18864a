// The remote player's link to the table: through the MQTT broker the host publishes the table
// to (see ui/src/serve/remote/mod.rs for the topics). The page's address carries, after `#`,
// the broker's WebSockets address, the table's name and the player's token; a fragment never
// reaches the server that hosts this page. The token never leaves the page either: what the
// page sends is sealed with a key made from it (seal.js), numbered, and bound to this run of
// the host (its epoch), so another player reading the broker can neither speak for this seat
// nor send one of its messages again.
"use strict";

window.VEDETTE_LINK = (() => {
  const given = new URLSearchParams(location.hash.slice(1));
  const broker = given.get("broker") || "";
  const table = given.get("table") || "";
  const token = given.get("token") || "";
  const root = `vedette/${table}`;
  const random = (n) => Array.from(crypto.getRandomValues(new Uint8Array(n)), (b) => b.toString(16).padStart(2, "0")).join("");
  // This page's own address for answers: random, letters and digits.
  const me = `p-${random(8)}`;
  const key = Seal.key(token, table);
  const link = { remote: true, me, seat: null, asked: new Map(), hostOnline: null, epoch: null };
  // The broker's name for this page's connection: random too, and never sent to anyone (a
  // client that took it would knock this page off the broker).
  const client = new Mqtt(broker, {
    clientId: `vedette-${random(12)}`,
    username: given.get("user") || "",
    password: given.get("password") || "",
  });

  // Every message numbered above the last, for this run of the host, sealed. Nothing goes
  // before the host's epoch is known (what the player did waits in `pending`).
  let seq = 0;
  const ask = (what, id, q) => {
    if (!link.epoch) return false;
    seq += 1;
    const body = JSON.stringify({ page: me, epoch: link.epoch, seq, name: playerName(), ask: what, id, q });
    return client.publish(`${root}/in`, Seal.seal(key, body));
  };
  // What the player does (a pointer, an order, a withdrawal) is numbered and sent again until
  // the host says it took it: a broker that blinks loses none of it. A pointer too late to
  // show is let go.
  const pending = new Map();
  let acts = 0;
  const act = (what) => {
    acts += 1;
    pending.set(acts, { what, at: Date.now() });
    ask(what, acts);
  };
  setInterval(() => {
    if (!client.connected) return;
    for (const [id, { what, at }] of pending) {
      if (what.do === "point" && Date.now() - at > 4000) pending.delete(id);
      else ask(what, id);
    }
  }, 2000);
  // A question whose answer comes back on this page's own topic, numbered: the answer carries
  // its number back, so a refresh the page asked and one a player asked never cross.
  let questions = 0;
  const question = (kind, what) => new Promise((resolve) => {
    questions += 1;
    const q = questions;
    link.asked.set(q, { kind, resolve });
    if (!ask(what, undefined, q)) {
      link.asked.delete(q);
      resolve({ status: 503, text: "The broker cannot be reached just now." });
    }
    setTimeout(() => {
      if (link.asked.delete(q)) resolve({ status: 504, text: "The table did not answer: is its host still there?" });
    }, 10000);
  });
  // An answer to question `q`; without a number (a kept picture comes bare), to the oldest
  // question of its kind.
  const answer = (kind, response, q) => {
    let key = q;
    if (key === undefined || key === null) {
      key = [...link.asked].find(([, asked]) => asked.kind === kind)?.[0];
    }
    const asked = link.asked.get(key);
    if (!asked || asked.kind !== kind) return;
    link.asked.delete(key);
    asked.resolve(response);
  };

  const text = (bytes) => new TextDecoder().decode(bytes);
  // Messages taken, by topic: what the page can say of its link when asked.
  link.counts = {};
  // The host sends every message in parts under 4 kB (ui/src/serve/remote/parts.rs): each
  // with an 8-byte head — its message's number, its place, the count of parts. A message is
  // taken once all its parts are in; one left incomplete by a newer one is dropped.
  const assembling = new Map();
  client.onMessage = (topic, part) => {
    // The host's presence is the broker's own word (its last will), its epoch its own: one
    // small message each.
    if (topic === `${root}/online` || topic === `${root}/host`) { deliver(topic, part); return; }
    if (topic === `${root}/live` && text(part) === probe) { writable(); return; }
    if (part.length < 8) return;
    const head = new DataView(part.buffer, part.byteOffset, 8);
    const [id, index, count] = [head.getUint32(0), head.getUint16(4), head.getUint16(6)];
    let message = assembling.get(topic);
    if (!message || message.id !== id) {
      message = { id, count, parts: new Array(count), got: 0 };
      assembling.set(topic, message);
    }
    if (index >= message.count || message.parts[index]) return;
    message.parts[index] = part.slice(8);
    message.got += 1;
    if (message.got < message.count) return;
    assembling.delete(topic);
    deliver(topic, concatenated(message.parts));
  };

  const concatenated = (parts) => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) { out.set(p, at); at += p.length; }
    return out;
  };

  // The whole table, asked for at most once a second (a page starting, or one behind).
  let viewAsked = 0;
  const askView = () => {
    if (Date.now() - viewAsked < 1000) return;
    viewAsked = Date.now();
    ask({ do: "view" });
  };

  // When each message came, for `vedette bench remote` (the latest few thousand).
  link.log = [];
  const note = (leaf, bytes, seq) => {
    if (link.log.length >= 20000) link.log.splice(0, 10000);
    link.log.push({ leaf, at: Date.now(), bytes: bytes.length, seq });
  };
  const deliver = (topic, bytes) => {
    const leaf = topic.slice(root.length + 1);
    link.counts[leaf] = (link.counts[leaf] || 0) + 1;
    if (topic === `${root}/live`) {
      let message;
      try { message = JSON.parse(text(bytes)); } catch (e) { return; }
      note(leaf, bytes, message.seq);
      if (message.type === "patch" && !page.live) { askView(); return; }
      receive(message);
      if (page.behind) askView();
    } else if (topic === `${root}/picture`) {
      note(leaf, bytes);
      const url = URL.createObjectURL(new Blob([bytes], { type: "image/jpeg" }));
      const before = link.pictureUrl;
      link.pictureUrl = url;
      link.pictures = (link.pictures || 0) + 1;
      link.pictureBytes = bytes.length;
      showPicture(url);
      if (before) setTimeout(() => URL.revokeObjectURL(before), 1000);
    } else if (topic === `${root}/host`) {
      let host;
      try { host = JSON.parse(text(bytes)); } catch (e) { return; }
      if (typeof host.epoch !== "string" || host.epoch === link.epoch) return;
      // The host (re)started: say hello to this run of it, and ask for its table.
      link.epoch = host.epoch;
      if (client.connected) greet();
    } else if (topic === `${root}/online`) {
      link.hostOnline = text(bytes) === "true";
      if (!link.hostOnline) showBanner("The table's host is not connected — waiting for it…");
      else if (client.connected) { hideBanner(); askView(); }
    } else if (topic === `${root}/to/${me}/kept`) {
      answer("kept", URL.createObjectURL(new Blob([bytes], { type: "image/jpeg" })));
    } else if (leaf.startsWith("ping/")) {
      note(leaf, bytes);
    } else if (topic === `${root}/to/${me}`) {
      let reply;
      try { reply = JSON.parse(text(bytes)); } catch (e) { return; }
      take(reply);
    }
  };

  const take = (reply) => {
    switch (reply.type) {
      case "hello":
        link.seat = reply;
        clearTimeout(link.unanswered);
        receive({ type: "hello", role: reply.role });
        seated(reply);
        break;
      case "timeline": answer("timeline", { status: 200, json: reply.reading }, reply.q); break;
      case "no-timeline": answer("timeline", { status: 404, text: reply.text }, reply.q); break;
      case "moment": answer("moment", { status: 200, json: reply.answer }, reply.q); break;
      case "refused": {
        // A refused question is answered with its reason (a kept picture with none).
        const asked = reply.q == null ? null : link.asked.get(reply.q);
        if (asked) answer(asked.kind, asked.kind === "kept" ? null : { status: 400, text: reply.text }, reply.q);
        receive({ type: "refused", text: reply.text });
        break;
      }
      case "said": receive(reply); break;
      case "full": receive(reply); break;
      case "done": pending.delete(reply.id); break;
    }
  };

  // Hello and the whole table; if no hello comes back the link is not this table's seat.
  const greet = () => {
    ask({ do: "hello" });
    viewAsked = 0;
    askView();
    clearTimeout(link.unanswered);
    link.unanswered = setTimeout(() => {
      if (!link.seat && client.connected && link.hostOnline !== false) {
        showBanner("The table does not answer this link: ask its host for your side's link (it may have changed).");
      }
    }, 8000);
  };

  // A broker that lets players write the table's own topics lets any of them show every page
  // a false table: the page tries once, with a message no page takes, and says so if it could.
  const probe = `w-${random(2)}`;
  const writable = () => {
    link.warning = "Warning: this broker lets any player write the table's topics, so what this page shows could be forged. Ask the host to set the broker up with `vedette remote-broker`.";
    showBanner(link.warning);
  };

  client.onConnect = () => {
    setStatus("live", "live");
    if (link.hostOnline !== false) hideBanner();
    if (link.epoch) greet();
    client.publish(`${root}/live`, probe);
  };
  client.onClose = () => {
    showBanner("The broker cannot be reached — reconnecting…");
    setStatus("reconnecting…", "lost");
  };

  link.start = () => {
    if (!broker || !table || !token) {
      showBanner("This link names no broker, table or token: ask the table's host for your side's link.");
      return;
    }
    setStatus("connecting…", "connecting");
    for (const leaf of ["host", "live", "picture", "online", `to/${me}`, `to/${me}/kept`]) client.subscribe(`${root}/${leaf}`);
    client.connect();
    // "Still here": the host sends pictures while remote pages are there.
    setInterval(() => { if (client.connected) ask({ do: "hello" }); }, 10000);
  };
  link.heard = () => {};
  link.send = () => toast("From afar the umpire points and orders; the room's umpire page freezes and marks turns.", true);
  link.timeline = (since) => question("timeline", { do: "timeline", since });
  link.moment = (t) => question("moment", { do: "moment", t });
  link.picture = () => link.pictureUrl || null;
  link.kept = (at) => question("kept", { do: "kept", t: at });
  link.point = (at) => act({ do: "point", at });
  link.order = (unit, leader, facing) => act({ do: "order", unit, leader, facing });
  link.withdraw = (id) => act({ do: "withdraw", id });
  link.pending = pending;
  link.ask = ask;
  link.client = client;
  link.root = root;
  return link;
})();
