// The scoring page when the network is weak or away.
//
// - A service worker (/sw.js) keeps the page and its files, so the page opens offline.
// - The match as the server last said it (its hands, version, names, and the catalogue
//   of translated refusals) is kept in IndexedDB (idb-keyval, vendored).
// - With no network (or while hands wait), a saved hand goes into a queue on the
//   device with a key and the match version it was entered against, is shown as
//   "waiting to send", and the next hand is entered against the device's state.
// - The rules engine itself (allfives in Pyodide, in a worker) is fetched after the
//   page is usable; once there, an offline hand is checked on the device and refused
//   in the server's own words. Before that, hands queue unchecked.
// - While a tie is played off (the rules' tie_break, as the server or the engine on the
//   device last said), the form offers no "target reached" end and says why.
// - Once time is called (R24), the clock box says what the hands kept on the device have
//   left: the last hand to finish, the tie played off, or the match ended.
// - The board follows the totals the engine on the device gives the kept hands: points,
//   tally and bar as the server's page draws them, and the count of hands.
// - Once the engine on the device judges a kept hand to end the match, the form and the
//   switch between entry modes are hidden, the winning side's box is marked, and the
//   page says who won and that the hands go when the network is back.
// - When the network is back the queue is sent in order, each hand under its key
//   (a resend records nothing twice). A conflict or a refusal stops it and shows both
//   versions for the scorer to choose.
// Every text shown comes from data-* attributes of #sk-offline, in the page's language.
import { get, set } from "../vendor/idb-keyval.js";

const bar = document.getElementById("sk-offline");

function label(name) {
  return (bar && bar.dataset[`label${name}`]) || "";
}

const MATCH = bar ? bar.dataset.match : "";
const QUEUE_KEY = `queue:${MATCH}`;
const STATE_KEY = `state:${MATCH}`;
const TILE = /^[0-6]-[0-6]$/;

let state = null; // {match, catalogue, engine, language}
let items = []; // the queue, oldest first
let device = "";
let engine = null;
let sending = false;
let conflict = null;

// --- Kept on the device -----------------------------------------------------------------

async function loadKept() {
  state = (await get(STATE_KEY)) || null;
  items = (await get(QUEUE_KEY)) || [];
  device = await get("device");
  if (!device) {
    device = crypto.randomUUID();
    await set("device", device);
  }
}

async function keepQueue() {
  await set(QUEUE_KEY, items);
  render();
}

async function refreshState() {
  if (!navigator.onLine) {
    return;
  }
  try {
    const response = await fetch(bar.dataset.stateUrl, { credentials: "same-origin" });
    if (response.ok) {
      state = await response.json();
      await set(STATE_KEY, state);
    }
  } catch {
    // the network went away meanwhile: keep what the device has
  }
}

// --- The engine on the device -----------------------------------------------------------

function startEngine() {
  if (engine || !state || !state.engine || typeof Worker === "undefined") {
    return;
  }
  const worker = new Worker(bar.dataset.workerUrl);
  engine = { worker, ready: false, pending: new Map(), next: 1 };
  worker.addEventListener("message", (event) => {
    const data = event.data || {};
    if (data.type === "ready") {
      engine.ready = true;
      document.documentElement.dataset.engine = "ready";
      render();
    } else if (data.type === "failed") {
      document.documentElement.dataset.engine = "failed";
      engine = null;
    } else if (data.id && engine.pending.has(data.id)) {
      const { resolve, reject } = engine.pending.get(data.id);
      engine.pending.delete(data.id);
      if (data.error) {
        reject(new Error(data.error));
      } else {
        resolve(data.verdict);
      }
    }
  });
  document.documentElement.dataset.engine = "loading";
  window.kelipatanEngine.startedAt = performance.now();
  worker.postMessage({ type: "load", ...state.engine });
}

function judge(document_, names) {
  if (!engine || !engine.ready) {
    return Promise.reject(new Error("the engine is not loaded"));
  }
  const id = engine.next;
  engine.next += 1;
  return new Promise((resolve, reject) => {
    engine.pending.set(id, { resolve, reject });
    engine.worker.postMessage({
      type: "judge",
      id,
      document: document_,
      names: names || state.match.names,
      catalogue: state.catalogue,
    });
  });
}

// For tests and the curious: the same engine the page checks hands with.
window.kelipatanEngine = { judge, isReady: () => Boolean(engine && engine.ready) };

function matchDocument(hands) {
  const document_ = {
    format: "allfives/1",
    players: state.match.players,
    rules: state.match.rules,
    hands,
  };
  if (state.match.time_called_after) {
    document_.time_called_after = state.match.time_called_after; // the round clock (R24)
  }
  return document_;
}

// --- The form's text as a scoresheet hand (as matches/forms.py reads it) ----------------

function seatOf(text, count) {
  if (!/^\d+$/.test(text)) {
    return null;
  }
  const seat = Number(text);
  return seat >= 1 && seat <= count ? seat - 1 : null;
}

function leftOf(text) {
  const value = (text || "").trim();
  if (!value) {
    return undefined;
  }
  if (/^-?\d+$/.test(value)) {
    return Number(value);
  }
  const tiles = value.split(/[\s,;]+/).filter(Boolean);
  return tiles.every((t) => TILE.test(t)) ? tiles : null;
}

function movesOf(text, count) {
  const moves = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim()) {
      continue;
    }
    const tokens = line.trim().split(/\s+/);
    const seat = seatOf(tokens[0], count);
    if (seat === null || tokens.length < 2) {
      return null;
    }
    const word = tokens[1].toLowerCase();
    if (word === "pass" && tokens.length === 2) {
      moves.push({ seat, pass: true });
    } else if (word === "draw" && tokens.length <= 3) {
      const face = tokens[2] || null;
      if (face !== null && !TILE.test(face)) {
        return null;
      }
      moves.push({ seat, draw: face });
    } else if (TILE.test(tokens[1]) && tokens.length <= 3) {
      const move = { seat, play: tokens[1] };
      if (tokens.length === 3) {
        const end = tokens[2].toUpperCase();
        if (!["W", "E", "N", "S"].includes(end)) {
          return null;
        }
        move.end = end;
      }
      moves.push(move);
    } else {
      return null;
    }
  }
  return moves;
}

function handOf(fields) {
  const count = state ? state.match.players : 0;
  if (!count || !/^\d+$/.test(fields.leader || "")) {
    return null;
  }
  const left = {};
  for (const [name, value] of Object.entries(fields)) {
    const seat = /^left_(\d+)$/.exec(name);
    if (seat) {
      const parsed = leftOf(value);
      if (parsed === null) {
        return null;
      }
      if (parsed !== undefined) {
        left[seat[1]] = parsed;
      }
    }
  }
  const hand = { leader: Number(fields.leader) };
  if ("moves" in fields) {
    const moves = movesOf(fields.moves || "", count);
    if (moves === null) {
      return null;
    }
    hand.moves = moves;
    if (Object.keys(left).length) {
      hand.left = left;
    }
    return hand;
  }
  const scores = [];
  for (const token of (fields.scores || "").trim().split(/[\s,;]+/).filter(Boolean)) {
    const play = /^(\d+):(-?\d+)$/.exec(token);
    const seat = play ? seatOf(play[1], count) : null;
    if (seat === null) {
      return null;
    }
    scores.push([seat, Number(play[2])]);
  }
  hand.scores = scores;
  const end = fields.end || "";
  if (end.startsWith("domino:")) {
    hand.end = { domino: Number(end.split(":")[1]) };
  } else if (end === "blocked") {
    hand.end = { blocked: true };
  } else if (end === "target") {
    hand.end = { target: true };
  } else {
    return null;
  }
  if (Object.keys(left).length && end !== "target") {
    hand.left = left;
  }
  return hand;
}

// --- The page ---------------------------------------------------------------------------

function entryForm() {
  return document.querySelector("#scorekeeper form.sk-entry[data-draft-key]");
}

function fieldsOf(form) {
  const fields = {};
  for (const field of form.elements) {
    if (!field.name || !/^(leader|scores|moves|end|left_\d+)$/.test(field.name)) {
      continue;
    }
    if (field.type === "radio") {
      if (field.checked) {
        fields[field.name] = field.value;
      }
    } else {
      fields[field.name] = field.value;
    }
  }
  return fields;
}

function base() {
  return { version: state.match.version, number: state.match.next_hand };
}

function nextNumber() {
  const editing = items.find((item) => item.editing);
  if (editing) {
    return editing.number;
  }
  return items.length ? items[items.length - 1].number + 1 : base().number;
}

// Points (halves allowed) as the server writes them (league/points.py): 7.5 → "7½".
function points(value) {
  const x2 = Math.round(2 * Number(value));
  const sign = x2 < 0 ? "-" : "";
  const whole = Math.floor(Math.abs(x2) / 2);
  if (Math.abs(x2) % 2 === 0) {
    return `${sign}${whole}`;
  }
  return whole ? `${sign}${whole}½` : `${sign}½`;
}

// The label's form for `count` (the page's plural rules pick "one" or the other).
function plural(count, one, other) {
  const form = new Intl.PluralRules(document.documentElement.lang || undefined).select(count);
  return label(form === "one" ? one : other).replace("{n}", String(count));
}

function endText(fields) {
  const end = fields.end || "";
  if (end.startsWith("domino:")) {
    const seat = end.split(":")[1];
    return `${label("EndDomino")}: ${state.match.names[seat] || ""}`;
  }
  if (end === "blocked") {
    return label("EndBlocked");
  }
  return end === "target" ? label("EndTarget") : "";
}

function itemText(item) {
  const leader = state ? state.match.names[item.fields.leader] || "" : "";
  const plays = "moves" in item.fields ? "" : item.fields.scores || "";
  return [`${label("Hand")} ${item.number}`, leader, plays, endText(item.fields)]
    .filter(Boolean)
    .join(" · ");
}

function serverHandText(hand) {
  const leader = state.match.names[String(hand.leader)] || "";
  const sides = Object.entries(hand.points || {})
    .map(([side, value]) => {
      const names = state.match.seats
        .filter((seat) => String(seat.side) === side)
        .map((seat) => seat.name);
      return `${names.join(" & ")} +${value}`;
    })
    .join(", ");
  return [`${label("Hand")} ${hand.number}`, leader, sides].filter(Boolean).join(" · ");
}

function renderQueue() {
  const history = document.querySelector("#scorekeeper .sk-history");
  if (!history) {
    return;
  }
  let list = history.querySelector(".sk-queue");
  if (!items.length) {
    if (list) {
      list.remove();
    }
    return;
  }
  if (!list) {
    list = document.createElement("ul");
    list.className = "sk-queue";
    list.setAttribute("data-testid", "queue");
    history.querySelector("h2").after(list);
  }
  list.replaceChildren(
    ...[...items].reverse().map((item) => {
      const row = document.createElement("li");
      row.className = "sk-queued";
      row.setAttribute("data-testid", `queued-${item.number}`);
      const badge = document.createElement("span");
      badge.className = "sk-badge";
      badge.textContent = label("Waiting");
      row.append(`${itemText(item)} `, badge);
      return row;
    }),
  );
}

// The last word on the hands before hand `number`: the last hand kept here that the
// engine judged, or null (then the server's word stands).
function lastJudged(number) {
  const judged = items.filter((item) => item.number < number && item.verdict);
  return judged.length ? judged[judged.length - 1] : null;
}

// A tie played off (the rules' tie_break): no play ends such a hand, so "target reached"
// is no end for it, and the page says why, as the server's page does.
function playingOff(number) {
  const judged = lastJudged(number);
  return judged ? Boolean(judged.verdict.playing_off) : Boolean(state.match.playing_off);
}

// The hand kept here that the engine judged to end the match, when it comes before the
// hand the form would take next: then there is no next hand to enter.
function decidingItem() {
  if (!state || !items.length) {
    return null;
  }
  const judged = lastJudged(nextNumber());
  return judged && judged.verdict.finished ? judged : null;
}

function renderPlayOff(form, on) {
  const target = form.querySelector('input[name="end"][value="target"]');
  if (target) {
    if (on) {
      target.checked = false;
    }
    target.disabled = on;
    (target.closest("label") || target).hidden = on;
  }
  // No play ends a play-off hand, so the pips left are always asked for.
  const hint = form.querySelector('[data-testid="left-target-hint"]');
  if (hint) {
    hint.hidden = on;
  }
  const panel = document.getElementById("scorekeeper");
  let notice = panel.querySelector('[data-testid="play-off"]');
  if (on && !notice) {
    notice = document.createElement("p");
    notice.className = "sk-play-off";
    notice.setAttribute("role", "alert");
    notice.setAttribute("data-testid", "play-off");
    const title = document.createElement("b");
    title.textContent = label("PlayOffTitle");
    notice.append(title, ` ${label("PlayOff")}`);
    (panel.querySelector(".sk-clock") || panel.querySelector(".sk-board")).after(notice);
  }
  if (notice) {
    notice.hidden = !on;
  }
}

// The clock box as the server rendered it, kept per box (htmx brings a new one), to put
// back while time is not called or no hand kept here has been judged.
const serverClocks = new WeakMap();

// What the clock box says after the hands kept here, in the words of the server's page
// (templates/matches/includes/scorekeeper_panel.html): {alert, title, text}, or null
// while time is not called or the engine has judged none of them.
function clockWords() {
  const last = state.match.time_called_after;
  const judged = [...items].reverse().find((item) => item.verdict);
  if (!last || !judged) {
    return null;
  }
  const { number, verdict } = judged;
  const words = (name) => label(name).replace("{n}", String(last)).replace("{m}", String(number));
  if (verdict.finished) {
    const name = number > last ? "ClockPlayedOff" : "ClockEnded";
    return { alert: false, title: "", text: words(name) };
  }
  if (verdict.playing_off) {
    return { alert: false, title: "", text: words("ClockPlayingOff") };
  }
  return { alert: true, title: label("ClockCalled"), text: words("ClockFinish") };
}

function renderClock() {
  const box = document.querySelector('#scorekeeper [data-testid="clock"]');
  if (!box || !state) {
    return;
  }
  if (!serverClocks.has(box)) {
    serverClocks.set(box, { className: box.className, children: [...box.childNodes] });
  }
  const words = clockWords();
  if (!words) {
    const kept = serverClocks.get(box);
    box.className = kept.className;
    box.replaceChildren(...kept.children);
    return;
  }
  box.classList.add("sk-time-called");
  const line = document.createElement("p");
  line.setAttribute("role", words.alert ? "alert" : "status");
  if (words.title) {
    const title = document.createElement("b");
    title.textContent = words.title;
    line.append(title, " ");
  }
  line.append(words.text);
  box.replaceChildren(line);
}

// The engine's winner: a side, or for a tie the tied sides (as strings).
function winningSides(winner) {
  if (winner === undefined || winner === null) {
    return [];
  }
  return (Array.isArray(winner) ? winner : [winner]).map(String);
}

// The match ended on the device: the form and the switch between entry modes are hidden
// and, in the words of the server's page for a decided match, the page says who won, and
// that the hands kept here go to the server when the network is back. Otherwise both are
// shown as the server rendered them (it renders them only for a match still going on).
function renderOver() {
  const panel = document.getElementById("scorekeeper");
  if (!panel) {
    return;
  }
  const deciding = decidingItem();
  const form = entryForm();
  if (form) {
    form.hidden = Boolean(deciding);
  }
  // The switch between entry modes, which the server's page leaves out once it is over.
  const modes = panel.querySelector('.sk-actions select[name="entry_mode"]');
  if (modes && modes.form) {
    modes.form.hidden = Boolean(deciding);
  }
  let notice = panel.querySelector('[data-testid="over-on-phone"]');
  if (!deciding) {
    if (notice) {
      notice.remove();
    }
    return;
  }
  if (!notice) {
    notice = document.createElement("p");
    notice.className = "sk-winner";
    notice.setAttribute("role", "status");
    notice.setAttribute("data-testid", "over-on-phone");
    const after =
      panel.querySelector('[data-testid="play-off"]') ||
      panel.querySelector(".sk-clock") ||
      panel.querySelector(".sk-board");
    after.after(notice);
  }
  const parts = [];
  const { winner } = deciding.verdict;
  const sides = winningSides(winner);
  if (sides.length) {
    const tie = Array.isArray(winner);
    const names = state.match.seats
      .filter((seat) => sides.includes(String(seat.side)))
      .map((seat) => seat.name);
    const who = document.createElement("b");
    who.textContent = names.join(" & ");
    parts.push(`${label(tie ? "Tie" : "Winner")}: `, who, document.createElement("br"));
  }
  const why = document.createElement("small");
  why.textContent = label("Over");
  parts.push(why);
  notice.replaceChildren(...parts);
}

// The board's "n hands" as the server rendered it, kept per line (htmx brings a new one),
// to put back while no hand is kept here.
const serverCounts = new WeakMap();

function renderCount() {
  const shown = document.querySelector('#scorekeeper [data-testid="hands-count"]');
  if (!shown || !state) {
    return;
  }
  if (!serverCounts.has(shown)) {
    serverCounts.set(shown, shown.textContent);
  }
  if (!items.length) {
    shown.textContent = serverCounts.get(shown);
    return;
  }
  // The kept hands follow the server's (or replace them from the first one kept).
  const count = items[items.length - 1].number;
  shown.textContent = plural(count, "HandsOne", "HandsOther");
}

// The tally of a total in half-points, drawn as matches/templatetags/tally.py draws it
// (R23): a large X with a small x in each of its spaces for every 50 points, a stroke
// for every 5, a gap after every five strokes, and a half point noted after them.
const TALLY = { height: 24, cross: 24, strokeGap: 6, groupGap: 6, padding: 2 };
const SVG = "http://www.w3.org/2000/svg";

function tallyLabel(crosses, strokes, restX2, totalX2) {
  const parts = [
    plural(crosses, "TallyCrossesOne", "TallyCrossesOther"),
    plural(strokes, "TallyStrokesOne", "TallyStrokesOther"),
  ];
  if (restX2) {
    parts.push(label("TallyAnd").replace("{p}", points(restX2 / 2)));
  }
  return label("TallyPoints")
    .replace("{points}", points(totalX2 / 2))
    .replace("{parts}", parts.join(", "));
}

function tallyOf(totalX2) {
  const value = Math.max(0, totalX2);
  const crosses = Math.floor(value / 100);
  const strokes = Math.floor((value % 100) / 10);
  const restX2 = value % 10;
  const { height, cross, strokeGap, groupGap, padding } = TALLY;
  const lines = [];
  let x = padding;
  for (let index = 0; index < crosses; index += 1) {
    lines.push([x + 1, 1, x + cross - 1, height - 1, false]);
    lines.push([x + cross - 1, 1, x + 1, height - 1, false]);
    const mid = cross / 2;
    for (const [cx, cy] of [
      [mid, 5],
      [cross - 5, mid],
      [mid, height - 5],
      [5, mid],
    ]) {
      lines.push([x + cx - 2, cy - 2, x + cx + 2, cy + 2, true]);
      lines.push([x + cx + 2, cy - 2, x + cx - 2, cy + 2, true]);
    }
    x += cross + strokeGap;
  }
  for (let index = 0; index < strokes; index += 1) {
    lines.push([x, 3, x, height - 3, false]);
    x += strokeGap + (index % 5 === 4 ? groupGap : 0);
  }
  const width = Math.max(x + padding, 2 * padding);
  const words = tallyLabel(crosses, strokes, restX2, value);
  const tally = document.createElement("span");
  tally.className = "tally";
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "tally-strokes");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", words);
  svg.setAttribute("width", String(width));
  svg.setAttribute("height", String(height));
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const title = document.createElementNS(SVG, "title");
  title.textContent = words;
  svg.append(title);
  for (const [x1, y1, x2, y2, small] of lines) {
    const line = document.createElementNS(SVG, "line");
    for (const [name, number] of Object.entries({ x1, y1, x2, y2 })) {
      line.setAttribute(name, String(number));
    }
    line.setAttribute("stroke", "currentColor");
    line.setAttribute("stroke-width", small ? "1.2" : "2");
    line.setAttribute("stroke-linecap", "round");
    svg.append(line);
  }
  tally.append(svg);
  if (restX2) {
    const half = document.createElement("span");
    half.className = "tally-half";
    half.title = words;
    half.textContent = `+${points(restX2 / 2)}`;
    tally.append(half);
  }
  return tally;
}

// Python's round(): halves to the even neighbour, as the server rounds the bar's width.
function roundEven(value) {
  const floor = Math.floor(value);
  const rest = value - floor;
  if (rest === 0.5) {
    return floor % 2 === 0 ? floor : floor + 1;
  }
  return Math.round(value);
}

// Each side's box on the board as the server rendered it, kept per box (htmx brings new
// ones), to put back while no hand kept here has been judged.
const serverSides = new WeakMap();

// The board after the hands kept here, as the server's page draws it for its totals
// (templates/matches/includes/scorekeeper_panel.html): the points, their tally, the bar
// towards the target, and the winning side's box marked once the match is decided.
function renderBoard() {
  if (!state) {
    return;
  }
  const boxes = document.querySelectorAll('#scorekeeper .sk-board [data-testid^="side-"]');
  const last = [...items].reverse().find((item) => item.verdict);
  const deciding = decidingItem();
  const winners = deciding ? winningSides(deciding.verdict.winner) : [];
  for (const box of boxes) {
    if (!serverSides.has(box)) {
      serverSides.set(box, { className: box.className, children: [...box.childNodes] });
    }
    const kept = serverSides.get(box);
    const side = box.dataset.testid.slice("side-".length);
    if (!last || !(side in (last.verdict.totals || {}))) {
      box.className = kept.className;
      box.replaceChildren(...kept.children);
      continue;
    }
    const totalX2 = Math.round(2 * Number(last.verdict.totals[side]));
    const names = kept.children.find(
      (node) => node.classList && node.classList.contains("sk-names"),
    );
    const total = document.createElement("div");
    total.className = "sk-total";
    const shown = document.createElement("span");
    shown.className = "sk-points";
    shown.setAttribute("data-testid", `total-${side}`);
    shown.textContent = points(totalX2 / 2);
    total.append(shown);
    const progress = document.createElement("div");
    progress.className = "sk-progress";
    progress.setAttribute("aria-hidden", "true");
    const fill = document.createElement("span");
    fill.style.width = `${Math.min(100, roundEven((50 * totalX2) / state.match.target))}%`;
    progress.append(fill);
    const drawn = [total, tallyOf(totalX2), progress];
    box.replaceChildren(...(names ? [names.cloneNode(true), ...drawn] : drawn));
    box.className = kept.className.replace(/\s*\bsk-winner-side\b/, "");
    box.classList.toggle("sk-winner-side", winners.includes(side));
  }
}

function renderForm() {
  const form = entryForm();
  if (!form || !state || (!items.length && navigator.onLine)) {
    return;
  }
  const number = nextNumber();
  renderPlayOff(form, playingOff(number));
  const editing = items.find((item) => item.editing);
  const version = editing ? editing.version : base().version + (number - base().number);
  form.elements.number.value = String(number);
  form.elements.version.value = String(version);
  const title = form.querySelector("h2");
  if (title) {
    title.textContent = title.textContent.replace(/\d+/, String(number));
  }
  form.dataset.draftKey = `kelipatan:draft:${MATCH}:${number}`;
}

function render() {
  if (!bar) {
    return;
  }
  bar.hidden = false;
  const status = bar.querySelector(".sk-net");
  const parts = [];
  if (!navigator.onLine) {
    parts.push(label("Offline"));
  } else if (sending) {
    parts.push(label("Sending"));
  }
  if (items.length) {
    parts.push(`${label("Queued")}: ${items.length}.`);
  }
  if (!navigator.onLine && engine && engine.ready) {
    parts.push(label("Engine"));
  }
  status.textContent = parts.join(" ");
  renderQueue();
  renderForm();
  renderOver();
  renderBoard();
  renderCount();
  renderClock();
}

function clearForm(form, nextLeader) {
  for (const field of form.elements) {
    if (!field.name) {
      continue;
    }
    if (field.type === "radio") {
      field.checked = field.name === "leader" && Number(field.value) === nextLeader;
    } else if (/^(scores|moves|tile|left_\d+)$/.test(field.name)) {
      field.value = "";
    }
  }
  for (const error of form.querySelectorAll(".sk-device-error, .sk-field-error, .sk-errors")) {
    error.remove();
  }
}

function deviceError(form, message) {
  for (const old of form.querySelectorAll(".sk-device-error")) {
    old.remove();
  }
  const box = document.createElement("div");
  box.className = "sk-device-error";
  box.setAttribute("role", "alert");
  box.setAttribute("data-testid", "device-error");
  box.textContent = message;
  form.querySelector("h2").after(box);
}

async function saveOffline(form) {
  const fields = fieldsOf(form);
  const tally = !("moves" in fields);
  if (!fields.leader || (tally && !fields.end)) {
    deviceError(form, label("Incomplete"));
    return;
  }
  const number = nextNumber();
  const editing = items.find((item) => item.editing);
  const hand = state ? handOf(fields) : null;
  const before = items.filter((item) => item.number < number);
  let verdict = null;
  if (hand && engine && engine.ready && before.every((item) => item.hand)) {
    const hands = [
      ...state.match.hands.filter((h) => h.number < base().number).map((h) => h.entry),
      ...before.map((item) => item.hand),
      hand,
    ];
    const judged = await judge(matchDocument(hands));
    if (!judged.ok) {
      if (judged.hand === null || judged.hand >= number - 1) {
        let message = judged.message;
        if (judged.move !== null && "moves" in hand) {
          message = state.catalogue.move
            .replace("%(n)d", String(judged.move + 1))
            .replace("%(message)s", message);
        }
        deviceError(form, message);
        return;
      }
    } else {
      verdict = {
        totals: judged.totals,
        next_leader: judged.next_leader,
        playing_off: judged.playing_off,
        finished: judged.finished,
        winner: judged.winner,
      };
    }
  }
  const item = {
    key: crypto.randomUUID(),
    number,
    version: editing ? editing.version : base().version + (number - base().number),
    fields,
    hand,
    verdict,
    queued_at: editing ? editing.queued_at : new Date().toISOString(),
  };
  if (editing) {
    items[items.indexOf(editing)] = item;
  } else {
    items.push(item);
  }
  try {
    window.localStorage.removeItem(form.dataset.draftKey);
  } catch {
    // storage switched off: nothing was kept
  }
  clearForm(form, verdict ? verdict.next_leader : null);
  await keepQueue();
  const status = bar.querySelector(".sk-net");
  status.textContent = `${label("Kept").replace("{n}", String(number))} ${
    verdict ? "" : label("Unchecked")
  } ${status.textContent}`.trim();
  if (navigator.onLine) {
    sendQueue();
  }
}

function stepOffline(form, action) {
  if (action.startsWith("add:")) {
    const [, seat, scored] = action.split(":");
    const input = form.elements.scores;
    input.value = `${input.value.trim()} ${Number(seat) + 1}:${scored}`.trim();
  } else if (action === "undo") {
    if (form.elements.scores) {
      const tokens = form.elements.scores.value.trim().split(/\s+/).filter(Boolean);
      form.elements.scores.value = tokens.slice(0, -1).join(" ");
    } else if (form.elements.moves) {
      const lines = form.elements.moves.value.split(/\r?\n/).filter((l) => l.trim());
      form.elements.moves.value = lines.slice(0, -1).join("\n");
    }
  } else if (action !== "show") {
    deviceError(form, label("Steps"));
    return;
  }
  form.dispatchEvent(new Event("input", { bubbles: true }));
}

function onSubmit(event) {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.matches("#scorekeeper form.sk-entry")) {
    return;
  }
  if (!form.dataset.draftKey || (navigator.onLine && !items.length && !conflict)) {
    return; // online with nothing waiting: the page posts as it always does
  }
  event.preventDefault();
  event.stopImmediatePropagation();
  if (!state || decidingItem()) {
    return; // no hand follows one that ended the match
  }
  const action = (event.submitter && event.submitter.value) || "save";
  if (action === "save") {
    saveOffline(form);
  } else {
    stepOffline(form, action);
  }
}

// --- Sending, and the two versions ------------------------------------------------------

function csrfToken() {
  const field = document.querySelector('input[name="csrfmiddlewaretoken"]');
  return field ? field.value : "";
}

async function post(url, body) {
  return fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: JSON.stringify(body),
  });
}

async function reportQueue() {
  if (!navigator.onLine || !device) {
    return;
  }
  try {
    await post(bar.dataset.reportUrl, {
      device,
      queued: items.length,
      offline_since: items.length ? items[0].queued_at : null,
    });
  } catch {
    // the next heartbeat tells
  }
}

function sameHand(a, b) {
  return a !== null && b !== null && JSON.stringify(a) === JSON.stringify(b);
}

async function sendQueue() {
  if (sending || conflict || !navigator.onLine || !items.length || items[0].editing) {
    return;
  }
  sending = true;
  render();
  let drained = false;
  try {
    while (items.length && !items[0].editing) {
      const item = items[0];
      const response = await post(bar.dataset.sendUrl, {
        key: item.key,
        fields: { ...item.fields, number: String(item.number), version: String(item.version) },
        replace: Boolean(item.replace),
        device,
        queued: items.length - 1,
        offline_since: items.length > 1 ? items[1].queued_at : null,
      });
      const body = await response.json();
      if (response.status === 200 || response.status === 201) {
        items.shift();
        state.match = body.match;
        await set(STATE_KEY, state);
        await keepQueue();
        drained = !items.length;
        continue;
      }
      if (response.status === 409) {
        const stored = body.match.hands.find((h) => h.number === item.number);
        if (stored && sameHand(stored.entry, item.hand) && !item.replace) {
          // this very hand reached the server before (its answer was lost)
          items.shift();
          rebase(body.match);
          await keepQueue();
          drained = !items.length;
          continue;
        }
        showConflict(body, "conflict");
      } else if (response.status === 400 && body.refused) {
        showConflict(body, "refused");
      } else {
        bar.querySelector(".sk-net").textContent = body.message || String(response.status);
      }
      break;
    }
  } catch {
    // the network dropped again: the queue stays, and goes when it is back
  } finally {
    sending = false;
    render();
  }
  if (drained) {
    await reportQueue();
    bar.querySelector(".sk-net").textContent = label("Sent");
    window.location.reload();
  }
}

function rebase(match) {
  state.match = match;
  set(STATE_KEY, state);
  items.forEach((item, index) => {
    item.number = Math.min(item.number, match.next_hand + index);
    item.version = match.version + index;
  });
}

function showConflict(body, kind) {
  conflict = { body, kind };
  state.match = body.match;
  set(STATE_KEY, state);
  const panel = bar.querySelector(".sk-conflict");
  panel.hidden = false;
  panel.dataset.kind = kind;
  panel.querySelector(".sk-conflict-why").textContent = body.message;
  const first = items.length ? items[0].number : body.match.next_hand;
  let theirs = body.match.hands.filter((h) => h.number >= first);
  if (!theirs.length) {
    theirs = body.match.hands.slice(-1);
  }
  panel.querySelector('[data-testid="version-server"]').replaceChildren(
    ...theirs.map((hand) => {
      const row = document.createElement("li");
      row.textContent = serverHandText(hand);
      return row;
    }),
  );
  panel.querySelector('[data-testid="version-device"]').replaceChildren(
    ...items.map((item) => {
      const row = document.createElement("li");
      row.textContent = itemText(item);
      return row;
    }),
  );
  panel.querySelector('[data-choose="device"]').textContent =
    kind === "refused" ? label("Correct") : label("KeepDevice");
  panel.scrollIntoView({ block: "start" });
}

async function choose(which) {
  if (!conflict) {
    return;
  }
  const { body, kind } = conflict;
  conflict = null;
  bar.querySelector(".sk-conflict").hidden = true;
  if (which === "server") {
    items = [];
    await keepQueue();
    await reportQueue();
    window.location.reload();
    return;
  }
  if (kind === "refused") {
    // Put the refused hand back on the form; the hands after it keep waiting.
    const refused = items[0];
    refused.editing = true;
    await keepQueue();
    const form = entryForm();
    if (form) {
      clearForm(form, null);
      for (const field of form.elements) {
        if (field.name in refused.fields) {
          if (field.type === "radio") {
            field.checked = field.value === refused.fields[field.name];
          } else {
            field.value = refused.fields[field.name];
          }
        }
      }
      render();
      deviceError(form, body.message);
    }
    return;
  }
  const start = Math.min(items[0].number, body.match.next_hand);
  items.forEach((item, index) => {
    item.number = start + index;
    item.version = body.match.version + index;
    item.replace = index === 0;
    item.key = crypto.randomUUID(); // a new request: the first one was refused
  });
  await keepQueue();
  sendQueue();
}

// --- Start ------------------------------------------------------------------------------

async function registerWorker() {
  if (!("serviceWorker" in navigator)) {
    return;
  }
  try {
    await navigator.serviceWorker.register(bar.dataset.swUrl, { scope: "/" });
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      // Wait (briefly) for the new worker to take this page, so the engine's files
      // pass through it and are kept.
      await new Promise((resolve) => {
        navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true });
        setTimeout(resolve, 3000);
      });
    }
    keepPage();
  } catch {
    // no service worker (an old browser, a private window): the page works online
  }
}

function keepPage() {
  // This copy of the page came before the worker took it: ask the worker to keep one.
  const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
  if (worker && navigator.onLine) {
    worker.postMessage({ type: "keep-page", url: window.location.href });
  }
}

function afterUsable(callback) {
  const run = () => setTimeout(callback, 0);
  if (document.readyState === "complete") {
    run();
  } else {
    window.addEventListener("load", run, { once: true });
  }
}

async function main() {
  if (!bar) {
    return;
  }
  document.addEventListener("submit", onSubmit, true);
  for (const button of bar.querySelectorAll("[data-choose]")) {
    button.addEventListener("click", () => choose(button.dataset.choose));
  }
  await loadKept();
  render();
  document.addEventListener("htmx:afterSettle", async () => {
    render();
    if (navigator.onLine && !items.length) {
      await refreshState();
      keepPage();
    }
  });
  window.addEventListener("offline", render);
  window.addEventListener("online", async () => {
    render();
    if (!items.length) {
      await refreshState();
    }
    await reportQueue();
    sendQueue();
  });
  if (navigator.onLine && !items.length) {
    await refreshState();
  }
  render();
  afterUsable(async () => {
    await registerWorker();
    startEngine();
    if (navigator.onLine) {
      await reportQueue();
      sendQueue();
    }
  });
  setInterval(reportQueue, 60000);
}

main();
