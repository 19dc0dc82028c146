// The Wuzi board: the page holds the game; the server judges positions,
// searches, and reads and writes records. Searches report on this tab's
// event stream.
"use strict";

const $ = (id) => document.getElementById(id);
const SVGNS = "http://www.w3.org/2000/svg";
const CELL = 32;
const MARGIN = 30;
const LETTERS = "abcdefghijklmnopqrstuvwxyz";

const S = {
  session: Math.random().toString(36).slice(2) + Date.now().toString(36),
  ready: false,
  size: 15,
  rule: "freestyle",
  stones: [], // {x, y, c: "b" | "w"} in the order placed
  redo: [],
  sideOverride: null, // "black" | "white" after editing
  state: null, // the server's ruling on the position
  resigned: null, // the colour that resigned
  players: { black: "human", white: "engine" },
  request: 0, // id of the latest search request
  pending: null, // {id, kind} of the search running
  analysis: null, // the latest info event
  analysing: false,
  solution: null, // the latest solve event
  hint: null,
  edit: false,
  swap2: null, // {phase, opener}
  message: null, // {text, error}
};

// ---- the server ----------------------------------------------------------

function squareName(x, y) {
  return LETTERS[x] + (y + 1);
}

function colorsText() {
  return S.stones.map((s) => s.c).join("");
}

function positionFields(stones = S.stones, side = S.sideOverride) {
  const fields = {
    size: S.size,
    rule: S.rule,
    stones: stones.map((s) => squareName(s.x, s.y)).join(""),
    colors: stones.map((s) => s.c).join(""),
  };
  if (side) fields.side = side;
  return fields;
}

async function post(name, fields) {
  const body = new URLSearchParams(fields);
  let response;
  try {
    response = await fetch("/api/" + name, { method: "POST", body });
  } catch (e) {
    return { error: "the server does not answer (is pbrain-wuzi gui still running?)" };
  }
  try {
    return await response.json();
  } catch (e) {
    return { error: "bad answer from the server (" + response.status + ")" };
  }
}

function startSearch(kind, fields) {
  const id = ++S.request;
  S.pending = { id, kind };
  fields = Object.assign({ session: S.session, id }, positionFields(), fields);
  post(kind, fields).then((answer) => {
    if (answer.error && S.pending && S.pending.id === id) {
      S.pending = null;
      S.analysing = false;
      say(answer.error, true);
      render();
    }
  });
  render();
  return id;
}

function stopSearch() {
  if (S.pending) post("stop", { session: S.session });
  S.pending = null;
  S.analysing = false;
}

function connect() {
  const events = new EventSource("/api/events?session=" + S.session);
  const mine = (data) => S.pending && data.id === S.pending.id;
  events.addEventListener("ready", () => {
    S.ready = true;
    S.pending = null;
    S.analysing = false;
    $("connection").textContent = "connected";
    $("connection").classList.remove("lost");
    refresh();
  });
  events.onerror = () => {
    S.ready = false;
    $("connection").textContent = "connection lost: retrying…";
    $("connection").classList.add("lost");
  };
  events.addEventListener("move", (e) => {
    const data = JSON.parse(e.data);
    if (!mine(data)) return;
    S.pending = null;
    if (!data.at) return say("The engine found no move.", true);
    const side = S.state.side;
    S.lastEngine = `${side} ${squareName(...data.at)} (score ${data.scoreText}, depth ${data.depth})`;
    addStone(data.at[0], data.at[1]);
  });
  events.addEventListener("hint", (e) => {
    const data = JSON.parse(e.data);
    if (!mine(data)) return;
    S.pending = null;
    S.hint = data.at;
    say(data.at ? `Hint: ${squareName(...data.at)} (score ${data.scoreText}; line ${data.pvText})` : "No hint: no move left.");
    render();
  });
  events.addEventListener("info", (e) => {
    const data = JSON.parse(e.data);
    if (!mine(data)) return;
    S.analysis = data;
    render();
  });
  events.addEventListener("done", (e) => {
    const data = JSON.parse(e.data);
    if (!mine(data)) return;
    S.pending = null;
    S.analysing = false;
    render();
  });
  events.addEventListener("solve", (e) => {
    const data = JSON.parse(e.data);
    if (!mine(data)) return;
    S.pending = null;
    S.solution = data;
    if (data.kind) say(`${cap(data.side)} wins by ${data.kind}: ${data.lineText}`);
    else say(`No VCF or VCT found for ${data.side} (${data.nodes} nodes).`);
    render();
  });
  events.addEventListener("swap2", (e) => {
    const data = JSON.parse(e.data);
    if (!mine(data)) return;
    S.pending = null;
    swap2Answer(data);
  });
  events.addEventListener("failed", (e) => {
    const data = JSON.parse(e.data);
    if (!mine(data)) return;
    S.pending = null;
    S.analysing = false;
    say(data.error, true);
  });
}

// ---- the game ------------------------------------------------------------

function cap(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function say(text, error = false) {
  S.message = text ? { text, error } : null;
  render();
}

function sideToMove() {
  return S.state ? S.state.side : "black";
}

function over() {
  return S.resigned || (S.state && S.state.result);
}

function enginesTurn() {
  return !over() && !S.edit && !S.swap2 && S.players[sideToMove()] === "engine";
}

function nextColor() {
  return sideToMove() === "black" ? "b" : "w";
}

// Position changes run one after another: `make` reads the game as the
// earlier changes left it and returns [stones, side] (or null: no change);
// the server judges the position, and a legal one is adopted.
let chain = Promise.resolve(true);
function change(make) {
  const run = chain.then(() => {
    const next = make();
    return next ? adopt(next[0], next[1]) : false;
  });
  chain = run.catch(() => false);
  return run;
}

// Judges the position as it stands (or these stones, this side to move).
function refresh(stones, side) {
  return change(() => [stones || S.stones, side === undefined ? S.sideOverride : side]);
}

async function adopt(stones, side) {
  const state = await post("state", positionFields(stones, side));
  if (state.error) {
    // A refused new move: "h8 (7,7) is forbidden …" without "stone 9: ".
    const added = stones.length === S.stones.length + 1;
    say(added ? state.error.replace(/^stone \d+: /, "") : state.error, true);
    return false;
  }
  S.stones = stones;
  S.sideOverride = side;
  S.state = state;
  S.hint = null;
  S.solution = null;
  S.analysis = null;
  if (S.analysing && !enginesTurn() && !over()) startSearch("analyse", { nbest: $("nbest").value, time: 0 });
  render();
  afterMove();
  return true;
}

function afterMove() {
  if (S.swap2 && swap2Step()) return;
  const busy = () => S.pending && S.pending.kind !== "analyse";
  if (!S.ready || busy() || !enginesTurn()) return;
  const bothEngines = S.players.black === "engine" && S.players.white === "engine";
  const go = () => {
    if (!busy() && enginesTurn()) {
      startSearch("move", { strength: $("strength").value, time: $("time").value });
    }
  };
  if (bothEngines) setTimeout(go, 250);
  else go();
}

async function addStone(x, y, c) {
  if (await change(() => [S.stones.concat([{ x, y, c: c || nextColor() }]), null])) {
    S.redo = [];
    S.message = null;
    render();
  }
}

function clickCell(x, y) {
  if (!S.state) return;
  if (S.edit) return editCell(x, y);
  if (S.resigned || S.state.result) return say("The game is over: New starts another, Undo takes back.", true);
  if (S.pending && S.pending.kind !== "analyse") return say("Wait: the engine is thinking.", true);
  if (S.players[sideToMove()] === "engine" && !S.swap2) return say(`It is the engine's turn (${sideToMove()}).`, true);
  if (S.swap2 && !swap2Placing()) return say("Choose with the swap2 buttons first.", true);
  addStone(x, y);
}

function undo() {
  stopSearch();
  S.resigned = null;
  S.lastEngine = null;
  const popped = [];
  change(() => {
    if (!S.stones.length) return null;
    const stones = S.stones.slice();
    popped.push(stones.pop());
    // Take back the engine's reply and the person's move together.
    const people = ["black", "white"].filter((c) => S.players[c] === "human");
    if (people.length === 1) {
      const person = people[0][0];
      while (stones.length && popped[popped.length - 1].c !== person) popped.push(stones.pop());
    }
    return [stones, null];
  }).then((ok) => {
    if (ok) S.redo = S.redo.concat(popped);
    render();
  });
}

function redo() {
  stopSearch();
  let redo;
  change(() => {
    if (!S.redo.length) return null;
    redo = S.redo.slice();
    const stones = S.stones.slice();
    stones.push(redo.pop());
    // Bring back the engine's reply too.
    while (redo.length && S.players[redo[redo.length - 1].c === "b" ? "black" : "white"] === "engine") {
      stones.push(redo.pop());
    }
    return [stones, null];
  }).then((ok) => {
    if (ok) S.redo = redo;
    render();
  });
}

function readSettings() {
  const size = parseInt($("size").value, 10);
  if (!(size >= 5 && size <= 22)) {
    say("The board size goes from 5 to 22.", true);
    return false;
  }
  S.size = size;
  S.rule = $("rule").value;
  S.players = { black: $("black").value, white: $("white").value };
  return true;
}

function newGame() {
  if (!readSettings()) return;
  stopSearch();
  S.stones = [];
  S.redo = [];
  S.sideOverride = null;
  S.resigned = null;
  S.analysis = null;
  S.solution = null;
  S.hint = null;
  S.message = null;
  S.swap2 = null;
  S.lastEngine = null;
  const opener = $("swap2").value;
  if (opener) {
    // The colours are settled by the opening: one person against the engine.
    S.swap2 = { opener, phase: opener === "engine" ? "engine-three" : "person-three" };
    S.players = { black: "human", white: "human" };
  }
  refresh([], null);
}

function resign() {
  if (over() || !S.state) return;
  stopSearch();
  const people = ["black", "white"].filter((c) => S.players[c] === "human");
  S.resigned = people.length === 1 ? people[0] : sideToMove();
  render();
}

// ---- swap2 ---------------------------------------------------------------
// The opener places three stones (black, white, black); the other side takes
// black, takes white, or places two more and lets the opener choose.

function swap2Placing() {
  const n = S.stones.length;
  const phase = S.swap2.phase;
  return (phase === "person-three" && n < 3) || (phase === "person-two" && n < 5);
}

// Moves the opening on after a position change; true while it goes on.
function swap2Step() {
  const sw = S.swap2;
  const n = S.stones.length;
  if (sw.phase === "engine-three" && n === 0 && !S.pending) {
    startSearch("swap2", { time: $("time").value });
  } else if (sw.phase === "person-three" && n === 3 && !S.pending) {
    sw.phase = "engine-decides";
    startSearch("swap2", { time: $("time").value });
  } else if (sw.phase === "person-two" && n === 5 && !S.pending) {
    sw.phase = "engine-chooses";
    startSearch("swap2", { time: $("time").value });
  }
  render();
  return true;
}

function swap2Answer(data) {
  const sw = S.swap2;
  if (!sw) return;
  const put = () => {
    const stones = S.stones.slice();
    for (const [x, y] of data.stones) stones.push({ x, y, c: stones.length % 2 ? "w" : "b" });
    return [stones, null];
  };
  if (data.answer === "propose" || data.answer === "two") {
    sw.phase = data.answer === "propose" ? "person-chooses-three" : "person-chooses-five";
    return change(put);
  }
  // "swap": the engine takes black; "move": it stays white and plays.
  const engine = data.answer === "swap" ? "black" : "white";
  S.players = { black: engine === "black" ? "engine" : "human", white: engine === "white" ? "engine" : "human" };
  S.swap2 = null;
  say(data.answer === "swap" ? "The engine takes black: you play white." : "The engine stays white and plays on: you are black.");
  change(put);
}

function swap2Choose(choice) {
  const sw = S.swap2;
  if (!sw || !sw.phase.startsWith("person-chooses")) return;
  if (choice === "two") {
    if (sw.phase !== "person-chooses-three") return;
    sw.phase = "person-two";
    return render();
  }
  S.players = { black: choice === "black" ? "human" : "engine", white: choice === "white" ? "human" : "engine" };
  S.swap2 = null;
  say(`You play ${choice}.`);
  change(() => [S.stones, null]);
}

function swap2Text() {
  const sw = S.swap2;
  switch (sw.phase) {
    case "engine-three": return "Swap2: the engine places the first three stones…";
    case "person-three": return `Swap2: place three stones (black, white, black): ${S.stones.length} of 3.`;
    case "engine-decides": return "Swap2: the engine decides…";
    case "person-chooses-three": return "Swap2: take black, take white (you play next), or place two more stones.";
    case "person-two": return `Swap2: place a white and a black stone: ${S.stones.length - 3} of 2.`;
    case "engine-chooses": return "Swap2: the engine chooses its colour…";
    case "person-chooses-five": return "Swap2: the engine placed two more; take black or white.";
  }
  return "";
}

// ---- editing -------------------------------------------------------------

function editColor() {
  return document.querySelector("input[name=edit-color]:checked").value;
}

function editCell(x, y) {
  const color = editColor();
  S.redo = [];
  change(() => {
    const at = S.stones.findIndex((s) => s.x === x && s.y === y);
    const stones = S.stones.slice();
    if (at >= 0) {
      const same = stones[at].c === color;
      stones.splice(at, 1);
      if (!same && color !== "x") stones.push({ x, y, c: color });
    } else if (color !== "x") {
      stones.push({ x, y, c: color });
    }
    return [stones, $("edit-side").value];
  });
}

function toggleEdit() {
  stopSearch();
  S.edit = !S.edit;
  S.swap2 = null;
  S.resigned = null;
  if (S.edit) {
    $("edit-side").value = sideToMove();
    say("Editing: click to place or remove stones; choose the side to move.");
  } else {
    say("Position set: play on from here.");
    refresh();
  }
  render();
}

// ---- records -------------------------------------------------------------

async function importRecord() {
  if (!readSettings()) return;
  stopSearch();
  const answer = await post("import", { text: $("record").value, size: S.size, rule: S.rule });
  if (answer.error) return say(answer.error, true);
  S.size = answer.size;
  $("size").value = answer.size;
  const stones = parseMoves(answer.stones);
  S.redo = [];
  S.resigned = null;
  S.swap2 = null;
  if (await refresh(stones, null)) say(`Imported ${stones.length} moves.`);
}

function parseMoves(text) {
  const stones = [];
  const re = /([a-z])(\d+)/g;
  let m;
  while ((m = re.exec(text || ""))) {
    stones.push({ x: LETTERS.indexOf(m[1]), y: parseInt(m[2], 10) - 1, c: stones.length % 2 ? "w" : "b" });
  }
  return stones;
}

async function exportRecord(format) {
  const fields = Object.assign(positionFields(), { format, black: S.players.black, white: S.players.white });
  const answer = await post("export", fields);
  if (answer.error) return say(answer.error, true);
  $("record").value = answer.text;
  const link = $("download");
  if (format === "psq") {
    link.href = URL.createObjectURL(new Blob([answer.text], { type: "text/plain" }));
    link.hidden = false;
  } else {
    link.hidden = true;
  }
  say(format === "psq" ? "The game as a Piskvork .psq record." : "The game as a move string.");
}

function linkText() {
  const p = new URLSearchParams({ size: S.size, rule: S.rule, moves: S.stones.map((s) => squareName(s.x, s.y)).join("") });
  const alternating = S.stones.every((s, i) => s.c === (i % 2 ? "w" : "b"));
  if (!alternating) p.set("colors", colorsText());
  if (S.sideOverride) p.set("side", S.sideOverride);
  return location.origin + location.pathname + "#" + p.toString();
}

function shareLink() {
  const url = linkText();
  $("record").value = url;
  history.replaceState(null, "", url);
  if (navigator.clipboard) navigator.clipboard.writeText(url).catch(() => {});
  say("A link that reopens this position (copied if the browser allows).");
}

function loadFromLink() {
  if (!location.hash) return;
  const p = new URLSearchParams(location.hash.slice(1));
  const size = parseInt(p.get("size") || "15", 10);
  if (size >= 5 && size <= 22) { S.size = size; $("size").value = size; }
  if (p.get("rule")) { S.rule = p.get("rule"); $("rule").value = S.rule; }
  const stones = parseMoves(p.get("moves"));
  const colors = p.get("colors") || "";
  if (colors.length === stones.length) stones.forEach((s, i) => { s.c = colors[i] === "w" ? "w" : "b"; });
  S.stones = stones;
  S.sideOverride = p.get("side");
  // A shared position is for looking at: nobody is an engine until New.
  S.players = { black: "human", white: "human" };
  $("black").value = "human";
  $("white").value = "human";
}

// ---- drawing -------------------------------------------------------------

function el(name, attrs, parent, text) {
  const node = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

function px(x) { return MARGIN + x * CELL; }
function py(y) { return MARGIN + (S.size - 1 - y) * CELL; }

function starPoints(n) {
  if (n < 9) return [];
  const d = n >= 13 ? 3 : 2;
  const c = (n - 1) / 2;
  const points = [[d, d], [n - 1 - d, d], [d, n - 1 - d], [n - 1 - d, n - 1 - d]];
  if (n % 2) points.push([c, c]);
  return points;
}

function drawBoard() {
  const svg = $("board");
  const n = S.size;
  const side = 2 * MARGIN + (n - 1) * CELL;
  svg.setAttribute("viewBox", `0 0 ${side} ${side}`);
  svg.textContent = "";
  const defs = el("defs", {}, svg);
  const g1 = el("radialGradient", { id: "g-black", cx: "35%", cy: "35%", r: "65%" }, defs);
  el("stop", { offset: "0%", "stop-color": "#666" }, g1);
  el("stop", { offset: "100%", "stop-color": "#080808" }, g1);
  const g2 = el("radialGradient", { id: "g-white", cx: "35%", cy: "35%", r: "65%" }, defs);
  el("stop", { offset: "0%", "stop-color": "#ffffff" }, g2);
  el("stop", { offset: "100%", "stop-color": "#d6d6d6" }, g2);
  el("rect", { class: "wood", x: 0, y: 0, width: side, height: side, rx: 6 }, svg);
  for (let i = 0; i < n; i++) {
    el("line", { class: "grid-line", x1: px(0), y1: py(i), x2: px(n - 1), y2: py(i) }, svg);
    el("line", { class: "grid-line", x1: px(i), y1: py(0), x2: px(i), y2: py(n - 1) }, svg);
    el("text", { class: "label", x: px(i), y: side - MARGIN / 2 + 3 }, svg, LETTERS[i]);
    el("text", { class: "label", x: MARGIN / 2 - 3, y: py(i) }, svg, String(i + 1));
  }
  for (const [x, y] of starPoints(n)) el("circle", { class: "star", cx: px(x), cy: py(y), r: 3 }, svg);
  const occupied = new Set(S.stones.map((s) => s.x + "," + s.y));
  // Candidates and the line the engine expects, under the real stones.
  const ghosts = S.solution && S.solution.kind ? S.solution.line : S.analysis ? S.analysis.pv : [];
  const firstColor = nextColor();
  ghosts.forEach(([x, y], i) => {
    if (occupied.has(x + "," + y)) return;
    const c = i % 2 ? (firstColor === "b" ? "w" : "b") : firstColor;
    el("circle", { class: `ghost stone-${c}`, cx: px(x), cy: py(y), r: CELL * 0.4 }, svg);
    el("text", { class: `ghost-number number-${c}`, x: px(x), y: py(y) }, svg, String(i + 1));
  });
  if (S.analysis && S.analysis.best.length > 1) {
    for (const b of S.analysis.best) {
      const [x, y] = b.at;
      el("circle", { class: "candidate-ring", cx: px(x), cy: py(y), r: CELL * 0.47 }, svg);
      el("rect", { class: "candidate", x: px(x) - 13, y: py(y) + 4, width: 26, height: 11, rx: 2 }, svg);
      el("text", { class: "candidate-text", x: px(x), y: py(y) + 9.5 }, svg, b.scoreText);
    }
  }
  // Black's forbidden points (renju).
  if (S.state && !S.edit) {
    for (const [x, y] of S.state.forbidden) {
      const r = 6;
      const g = el("g", { class: "forbidden-mark", "data-x": x, "data-y": y }, svg);
      el("line", { class: "forbidden", x1: px(x) - r, y1: py(y) - r, x2: px(x) + r, y2: py(y) + r }, g);
      el("line", { class: "forbidden", x1: px(x) - r, y1: py(y) + r, x2: px(x) + r, y2: py(y) - r }, g);
    }
  }
  S.stones.forEach((s) => {
    el("circle", { class: `stone stone-${s.c}`, "data-x": s.x, "data-y": s.y, "data-color": s.c, cx: px(s.x), cy: py(s.y), r: CELL * 0.46 }, svg);
  });
  // The five, as a line through its stones, under the move numbers.
  if (S.state && S.state.line.length >= 5) {
    const key = ([x, y]) => x * 100 + y;
    const line = S.state.line.slice().sort((a, b) => key(a) - key(b));
    const [a, b] = [line[0], line[line.length - 1]];
    el("line", { class: "five", id: "five-line", x1: px(a[0]), y1: py(a[1]), x2: px(b[0]), y2: py(b[1]) }, svg);
  }
  const numbers = $("numbers").checked;
  if (numbers) {
    S.stones.forEach((s, i) => el("text", { class: `number number-${s.c}`, x: px(s.x), y: py(s.y) }, svg, String(i + 1)));
  }
  const last = S.stones[S.stones.length - 1];
  if (last) el("circle", { class: "last", cx: px(last.x), cy: py(last.y), r: numbers ? CELL * 0.5 : 5 }, svg);
  if (S.hint) el("circle", { class: "hint", id: "hint-mark", cx: px(S.hint[0]), cy: py(S.hint[1]), r: CELL * 0.42 }, svg);
  // The clickable cells, on top.
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const cell = el("rect", { class: "cell", "data-x": x, "data-y": y, x: px(x) - CELL / 2, y: py(y) - CELL / 2, width: CELL, height: CELL }, svg);
      cell.addEventListener("click", () => clickCell(x, y));
      el("title", {}, cell, squareName(x, y));
    }
  }
}

function statusText() {
  if (S.message && S.message.error) return S.message.text;
  const parts = [];
  if (S.resigned) {
    const winner = S.resigned === "black" ? "white" : "black";
    parts.push(`${cap(S.resigned)} resigned: ${winner} wins.`);
  } else if (S.state && S.state.result) {
    // "result: black wins (five d3 e4 f5 g6 h7)" -> "Black wins: five d3 e4 f5 g6 h7."
    const why = (S.state.resultText.match(/\((.*)\)$/) || [])[1];
    const head = S.state.result === "draw" ? "Draw" : `${cap(S.state.result)} wins`;
    parts.push(why ? `${head}: ${why}.` : `${head}.`);
  } else if (S.edit) {
    parts.push(`Editing (${sideToMove()} to move).`);
  } else if (S.swap2) {
    parts.push(swap2Text());
  } else if (S.state) {
    const side = sideToMove();
    const who = S.players[side] === "engine" ? "engine" : "person";
    if (S.pending && S.pending.kind === "move") parts.push(`The engine (${side}) is thinking…`);
    else parts.push(`${cap(side)} to move (${who}).`);
    if (S.lastEngine && S.stones.length) parts.push(`Engine played ${S.lastEngine}.`);
  }
  if (S.message) parts.push(S.message.text);
  return parts.join(" ");
}

// Black's winning chance from a score for the side to move.
function blackChance() {
  const result = S.resigned ? (S.resigned === "black" ? "white" : "black") : S.state && S.state.result;
  if (result) return result === "black" ? 1 : result === "white" ? 0 : 0.5;
  const a = S.analysis;
  if (!a) return 0.5;
  let p;
  if (a.scoreText.startsWith("+W")) p = 1;
  else if (a.scoreText.startsWith("-L")) p = 0;
  else p = 1 / (1 + Math.exp(-a.score / 250));
  return sideToMove() === "black" ? p : 1 - p;
}

function render() {
  drawBoard();
  const status = $("status");
  status.textContent = statusText();
  status.classList.toggle("error", !!(S.message && S.message.error));
  status.classList.toggle("over", !!over());
  $("bar-black").style.width = (100 * blackChance()).toFixed(1) + "%";
  const thinking = !!S.pending;
  $("undo").disabled = !S.stones.length || S.edit;
  $("redo").disabled = !S.redo.length || S.edit;
  $("hint").disabled = !!over() || S.edit || thinking;
  $("resign").disabled = !!over() || S.edit || !!S.swap2 || !S.stones.length;
  // The player selects follow the game (swap2 settles them).
  if (!S.swap2) {
    $("black").value = S.players.black;
    $("white").value = S.players.white;
  }
  $("analyse").classList.toggle("active", S.analysing);
  $("analyse").textContent = S.analysing ? "Analysing…" : "Analyse";
  $("stop").disabled = !thinking;
  $("solve").disabled = !!over() || thinking;
  $("edit-toggle").textContent = S.edit ? "Done editing" : "Start editing";
  $("edit-toggle").classList.toggle("active", S.edit);
  const a = S.analysis;
  $("a-depth").textContent = a ? a.depth : "–";
  $("a-score").textContent = a ? a.scoreText : "–";
  $("a-nps").textContent = a ? `${a.nps.toLocaleString("en")} (${a.nodes.toLocaleString("en")} nodes)` : "–";
  $("a-pv").textContent = a ? a.pvText : S.solution && S.solution.kind ? `${S.solution.kind}: ${S.solution.lineText}` : "–";
  const panel = $("swap2-panel");
  panel.hidden = !S.swap2;
  if (S.swap2) {
    $("swap2-text").textContent = swap2Text();
    const choosing = S.swap2.phase.startsWith("person-chooses");
    $("swap-black").disabled = !choosing;
    $("swap-white").disabled = !choosing;
    $("swap-two").disabled = S.swap2.phase !== "person-chooses-three";
  }
}

// ---- wiring --------------------------------------------------------------

function wire() {
  $("new").onclick = newGame;
  $("undo").onclick = undo;
  $("redo").onclick = redo;
  $("resign").onclick = resign;
  $("hint").onclick = () => {
    stopSearch();
    startSearch("hint", { time: $("time").value });
    say("Looking for a hint…");
  };
  $("analyse").onclick = () => {
    if (S.analysing) return;
    S.analysing = true;
    S.solution = null;
    startSearch("analyse", { nbest: $("nbest").value, time: 0 });
  };
  $("stop").onclick = () => {
    post("stop", { session: S.session });
    S.analysing = false;
    render();
  };
  $("solve").onclick = () => {
    stopSearch();
    S.analysis = null;
    startSearch("solve", { time: 10 });
    say("Solving: VCF, then VCT…");
  };
  $("numbers").onchange = render;
  for (const id of ["black", "white"]) {
    $(id).onchange = () => {
      if (S.swap2) return;
      S.players[id] = $(id).value;
      render();
      afterMove();
    };
  }
  $("nbest").onchange = () => {
    if (S.analysing) startSearch("analyse", { nbest: $("nbest").value, time: 0 });
  };
  $("swap-black").onclick = () => swap2Choose("black");
  $("swap-white").onclick = () => swap2Choose("white");
  $("swap-two").onclick = () => swap2Choose("two");
  $("edit-toggle").onclick = toggleEdit;
  $("edit-side").onchange = () => { if (S.edit) refresh(undefined, $("edit-side").value); };
  $("clear").onclick = () => {
    if (!S.edit) toggleEdit();
    refresh([], $("edit-side").value);
  };
  $("import").onclick = importRecord;
  $("export-moves").onclick = () => exportRecord("moves");
  $("export-psq").onclick = () => exportRecord("psq");
  $("link").onclick = shareLink;
}

wire();
loadFromLink();
render();
connect();
