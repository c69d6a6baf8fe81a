// Every state this browser received, kept in IndexedDB, so that a finished game can be
// replayed from the seat it was watched from even where the server has no replay endpoint.

const DB = "toepen";
const STORE = "states";
let dbPromise = null;

function open() {
  if (!dbPromise) {
    dbPromise = new Promise((resolve, reject) => {
      const req = indexedDB.open(DB, 1);
      req.onupgradeneeded = () => {
        const os = req.result.createObjectStore(STORE, { keyPath: ["table", "who", "state"] });
        os.createIndex("table", "table");
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  }
  return dbPromise;
}

/** Keep one state message ("who" is the seat number, or "spectator"). */
export async function keepState(table, who, msg) {
  try {
    const db = await open();
    const os = db.transaction(STORE, "readwrite").objectStore(STORE);
    const row = { table, who: String(who), state: msg.state, view: msg.view, events: msg.events, last: msg.last };
    if (msg.events.length) { os.put(row); return; }
    // a fresh state after a reconnect carries no events: keep those seen the first time
    const req = os.get([row.table, row.who, row.state]);
    req.onsuccess = () => { if (!req.result) os.put(row); };
  } catch { /* private mode or full: the replay endpoint is still there */ }
}

/** The kept states of a table: {who: [steps in state order]}. */
export async function keptStates(table) {
  try {
    const db = await open();
    const rows = await new Promise((resolve, reject) => {
      const req = db.transaction(STORE).objectStore(STORE).index("table").getAll(table);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const out = {};
    for (const r of rows.sort((a, b) => a.state - b.state)) (out[r.who] ||= []).push(r);
    return out;
  } catch { return {}; }
}
