// The table's WebSocket: hello with the seat's token, reconnect with exponential backoff;
// the seats' tokens this browser holds (localStorage).

const FINAL_CLOSES = new Set([4000, 4001, 4004, 4009, 4029]);  // 4009: replaced by a newer tab

/** Tokens live in localStorage, by table id: {token, seat, host}. */
export function seatOf(tableId) {
  try {
    const all = JSON.parse(localStorage.getItem("toepen.seats") || "{}");
    return all[tableId] || null;
  } catch { return null; }
}

export function saveSeat(tableId, joined) {
  const all = JSON.parse(localStorage.getItem("toepen.seats") || "{}");
  all[tableId] = { token: joined.token, seat: joined.seat, host: !!joined.host };
  localStorage.setItem("toepen.seats", JSON.stringify(all));
}

export function forgetSeat(tableId) {
  const all = JSON.parse(localStorage.getItem("toepen.seats") || "{}");
  delete all[tableId];
  localStorage.setItem("toepen.seats", JSON.stringify(all));
}

/**
 * One logical connection to a table that survives drops and server restarts.
 * handlers: onMessage(msg), onStatus("connecting"|"open"|"reconnecting"|"closed", detail)
 */
export class Connection {
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.h = handlers;
    this.delay = 250;
    this.ws = null;
    this.stopped = false;
    this.timer = null;
    this.nextId = 1;
    this.attempts = 0;
    this.connect();
    window.addEventListener("online", () => this.retryNow());
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws/${encodeURIComponent(this.tableId)}`;
  }

  connect() {
    if (this.stopped) return;
    this.h.onStatus(this.attempts ? "reconnecting" : "connecting");
    let ws;
    try { ws = new WebSocket(this.url()); } catch { this.schedule(); return; }
    this.ws = ws;
    ws.onopen = () => {
      const hello = { v: 1, type: "hello" };
      if (this.token) hello.token = this.token;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === "welcome") {
        this.delay = 250;
        this.attempts = 0;
        this.h.onStatus("open");
      }
      this.h.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (FINAL_CLOSES.has(ev.code) || this.stopped) {
        this.stopped = true;
        this.h.onStatus("closed", ev.code);
        return;
      }
      this.schedule();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  schedule() {
    if (this.stopped) return;
    this.attempts += 1;
    this.h.onStatus("reconnecting", this.delay);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), this.delay);
    this.delay = Math.min(this.delay * 2, 5000);
  }

  retryNow() {
    if (this.stopped || (this.ws && this.ws.readyState <= 1)) return;
    clearTimeout(this.timer);
    this.delay = 250;
    this.connect();
  }

  get open() { return !!this.ws && this.ws.readyState === WebSocket.OPEN; }

  /** Send a message; false if the socket is not open now (the caller may retry later). */
  send(msg) {
    if (!this.open) return false;
    msg.v = 1;
    if (msg.id === undefined) msg.id = this.nextId++;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close(1000);
  }
}
