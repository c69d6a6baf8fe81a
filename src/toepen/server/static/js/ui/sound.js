// Sounds of the table, synthesised with WebAudio (no files): a knock on the table, your
// turn, a trick taken. Off by a switch that is remembered (localStorage "toepen.sound").

let ctx = null;
/** The sounds played so far (for the browser tests: what the page asked the speaker for). */
export const played = [];
window.toepenSounds = played;

export function soundOn() { return localStorage.getItem("toepen.sound") !== "0"; }
export function setSoundOn(on) { localStorage.setItem("toepen.sound", on ? "1" : "0"); }

function audio() {
  if (!ctx) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    ctx = new AC();
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}
// browsers start audio only after a gesture: wake it on the first one
document.addEventListener("pointerdown", () => { if (soundOn()) audio(); }, { once: true });

function tone(a, freq, start, length, type = "sine", gain = 0.2) {
  const o = a.createOscillator();
  const g = a.createGain();
  o.type = type;
  o.frequency.setValueAtTime(freq, a.currentTime + start);
  g.gain.setValueAtTime(0.0001, a.currentTime + start);
  g.gain.exponentialRampToValueAtTime(gain, a.currentTime + start + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, a.currentTime + start + length);
  o.connect(g).connect(a.destination);
  o.start(a.currentTime + start);
  o.stop(a.currentTime + start + length + 0.02);
}

/** A knuckle on wood: a short burst of noise through a low filter, twice. */
function knock(a) {
  for (const start of [0, 0.14]) {
    const n = Math.floor(a.sampleRate * 0.06);
    const buf = a.createBuffer(1, n, a.sampleRate);
    const data = buf.getChannelData(0);
    for (let i = 0; i < n; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / n) ** 3;
    const src = a.createBufferSource();
    src.buffer = buf;
    const f = a.createBiquadFilter();
    f.type = "lowpass";
    f.frequency.value = 500;
    const g = a.createGain();
    g.gain.value = 0.9;
    src.connect(f).connect(g).connect(a.destination);
    src.start(a.currentTime + start);
    tone(a, 110, start, 0.08, "sine", 0.35);
  }
}

const SOUNDS = {
  knock,
  turn: (a) => { tone(a, 660, 0, 0.18); tone(a, 880, 0.12, 0.25); },
  trick: (a) => { tone(a, 320, 0, 0.12, "triangle", 0.12); tone(a, 240, 0.06, 0.16, "triangle", 0.1); },
};

/** Play one of the table's sounds (knock, turn, trick), unless sound is off. */
export function sound(name) {
  if (!soundOn() || !(name in SOUNDS)) return;
  played.push(name);
  try {
    const a = audio();
    if (a) SOUNDS[name](a);
  } catch { /* no audio here: the table works without */ }
}
