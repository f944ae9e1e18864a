// A small MQTT 3.1.1 client over WebSockets, written for Vedette's remote page: it connects,
// subscribes, publishes at QoS 0, takes messages at QoS 0 and 1, keeps the connection alive and
// makes it again when it drops. What it publishes while the broker is away waits (a few dozen
// messages at most) and goes when the broker is back: a remote player's order is not lost to a
// blip of the broker.
"use strict";

class Mqtt {
  // `url`: ws://host:port[/path] or wss://…; options: clientId, username, password.
  constructor(url, options) {
    this.url = url;
    this.options = options;
    this.filters = [];
    this.waiting = [];
    this.socket = null;
    this.connected = false;
    this.backoff = 500;
    this.packetId = 0;
    this.onConnect = () => {};
    this.onClose = () => {};
    this.onMessage = () => {};
  }

  connect() {
    let socket;
    try {
      socket = new WebSocket(this.url, ["mqtt"]);
    } catch (e) {
      this.retry();
      return;
    }
    this.socket = socket;
    this.received = new Uint8Array(0);
    socket.binaryType = "arraybuffer";
    socket.onopen = () => socket.send(this.connectPacket());
    socket.onmessage = (event) => this.take(new Uint8Array(event.data));
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      const was = this.connected;
      this.connected = false;
      clearInterval(this.pinger);
      this.onClose(was);
      this.retry();
    };
    socket.onerror = () => socket.close();
  }

  retry() {
    setTimeout(() => this.connect(), this.backoff);
    this.backoff = Math.min(this.backoff * 2, 5000);
  }

  subscribe(filter) {
    this.filters.push(filter);
    if (this.connected) this.sendSubscribe(filter);
  }

  // Publish `payload` (a string or bytes) at QoS 0; while not connected it waits. False if
  // too many already wait.
  publish(topic, payload) {
    const bytes = typeof payload === "string" ? utf8(payload) : payload;
    const packet = frame(0x30, concat(string(topic), bytes));
    if (this.connected) {
      this.socket.send(packet);
      return true;
    }
    if (this.waiting.length >= 50) return false;
    this.waiting.push(packet);
    return true;
  }

  connectPacket() {
    const { clientId, username, password } = this.options;
    let flags = 0x02; // a clean session: subscriptions are made again on each connection
    const payload = [string(clientId)];
    if (username) { flags |= 0x80; payload.push(string(username)); }
    if (password) { flags |= 0x40; payload.push(string(password)); }
    const header = concat(string("MQTT"), Uint8Array.of(4, flags, 0, 30));
    return frame(0x10, concat(header, ...payload));
  }

  sendSubscribe(filter) {
    this.packetId = (this.packetId % 65535) + 1;
    const id = Uint8Array.of(this.packetId >> 8, this.packetId & 0xff);
    this.socket.send(frame(0x82, concat(id, string(filter), Uint8Array.of(0))));
  }

  // Bytes from the socket: whole packets taken, the rest kept for the next message.
  take(bytes) {
    let buffer = concat(this.received, bytes);
    for (;;) {
      const length = remaining(buffer);
      if (!length) break;
      const [size, used] = length;
      if (buffer.length < 1 + used + size) break;
      this.packet(buffer[0], buffer.subarray(1 + used, 1 + used + size));
      buffer = buffer.subarray(1 + used + size);
    }
    this.received = buffer.slice();
  }

  packet(first, body) {
    switch (first >> 4) {
      case 2: // CONNACK
        if (body[1] !== 0) { this.socket.close(); return; }
        this.connected = true;
        this.backoff = 500;
        for (const filter of this.filters) this.sendSubscribe(filter);
        for (const packet of this.waiting.splice(0)) this.socket.send(packet);
        clearInterval(this.pinger);
        this.pinger = setInterval(() => this.socket && this.socket.send(Uint8Array.of(0xc0, 0)), 15000);
        this.onConnect();
        break;
      case 3: { // PUBLISH
        const qos = (first >> 1) & 3;
        const topicLength = (body[0] << 8) | body[1];
        const topic = new TextDecoder().decode(body.subarray(2, 2 + topicLength));
        let at = 2 + topicLength;
        if (qos > 0) {
          if (qos === 1) this.socket.send(Uint8Array.of(0x40, 2, body[at], body[at + 1]));
          at += 2;
        }
        // A message the page cannot take must not break the stream after it.
        try {
          this.onMessage(topic, body.subarray(at));
        } catch (e) {
          this.lastError = `${topic}: ${e && e.stack ? e.stack : e}`;
          console.error(this.lastError);
        }
        break;
      }
      default: // SUBACK, PINGRESP: nothing to do
    }
  }
}

function utf8(text) { return new TextEncoder().encode(text); }

function string(text) {
  const bytes = utf8(text);
  return concat(Uint8Array.of(bytes.length >> 8, bytes.length & 0xff), bytes);
}

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) { out.set(part, at); at += part.length; }
  return out;
}

// A packet: its type byte, its length as MQTT writes it (7 bits a byte), its body.
function frame(first, body) {
  const length = [];
  let n = body.length;
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    length.push(byte);
  } while (n > 0);
  return concat(Uint8Array.of(first, ...length), body);
}

// The length of the packet at the start of `buffer` and the bytes it was written in; null
// until enough has come to read it.
function remaining(buffer) {
  let size = 0;
  for (let i = 1; i < Math.min(buffer.length, 5); i++) {
    size += (buffer[i] & 0x7f) * 128 ** (i - 1);
    if (!(buffer[i] & 0x80)) return [size, i];
  }
  return null;
}
