"use strict";
// The phone pad: this player's own markers, areas, keyed ballot and decisions; presses go to the companion as keys,
// each naming the view it was pressed on (a stale or repeated press is refused there, so it counts once).
let view = null;
let socket = null;
let pending = false;
let message = "";
let acted = false;
let joined = false;
let flashed = "";  // the key last refused, flashed once on the next drawing
let warned = false;  // the message is a refused key's (shown as a warning until the next view)

function press(key) {
  if (!socket || !view || pending) return;
  pending = true;
  socket.send(JSON.stringify({ t: "press", key: key, v: view.v }));
  draw();
}
function ask(colour) {
  if (!socket) return;
  socket.send(JSON.stringify({ t: "take", colour: colour }));
  message = t("asked");
  draw();
}
function button(label, key, props) {
  return h("button", Object.assign({ onclick: () => press(key), disabled: pending, "data-key": key }, props || {}),
    label);
}

function setupPart(pub, mine) {
  if (!mine) return pub.seats.length < 4 ? [button(t("sit"), "ok", { class: "main", id: "sit" })] : [h("p", {}, t("full"))];
  return [
    h("p", { id: "seat" }, t("you", { name: mine.name })),
    h("div", { class: "row" }, button("◀ " + t("colour"), "left"), button(t("colour") + " ▶", "right")),
    h("div", { class: "row" }, button(t("leave"), "back")),
    h("p", { class: "dim" }, t("waiting")),
  ];
}

function ballotPart(pub, mine) {
  if (mine.locked) {  // a ballot locked in on another phone (a takeover) shows only that it is
    return [h("p", { id: "locked" }, mine.pending ? t("locked", { area: pub.areas[mine.pending.area],
      markers: mine.pending.markers.join(" + ") }) : t("lockedonly"))];
  }
  const keyed = mine.keyed || { area: null, markers: [] };
  const complete = keyed.area !== null && keyed.markers.length > 0;
  const areas = Object.keys(pub.areas).map((area) => button(pub.areas[area], "area:" + area,
    { class: keyed.area === area ? "on" : "", disabled: pending || mine.used.includes(area) }));
  const held = [0, 1, 2, 3].map((value) => {
    const count = mine.markers.filter((m) => m === value).length;
    const chosen = keyed.markers.filter((m) => m === value).length;
    const classes = [chosen ? "on" : "", count && chosen === count ? "out" : "",  // all keyed: another is refused
      flashed === "marker:" + value ? "refused" : ""];
    return button(value + " ×" + count + (chosen ? " ✓" + chosen : ""), "marker:" + value,
      { class: classes.filter(Boolean).join(" "), disabled: pending || count === 0 });
  });
  const keyedText = keyed.area ? t("keyed", { area: pub.areas[keyed.area], markers: keyed.markers.join(" + ") }) : "";
  return [
    h("h2", {}, t("areas")), h("div", { class: "grid", id: "areas" }, areas),
    h("h2", {}, t("markers")), h("div", { class: "markers", id: "markers" }, held),
    h("p", { id: "keyed" }, keyedText),
    h("div", { class: "row" }, button(t("undo"), "back"),
      button(t("lockin"), "ok", { class: "main", id: "lockin", disabled: pending || !complete })),
  ];
}

function menuPart(menu) {
  // Each option with its one line of what it does (the hint the LCD shows under the highlighted option).
  const hints = menu.hints || [];
  const options = menu.options.map((label, index) => button(
    [label, hints[index] ? h("small", { class: "hint" }, hints[index]) : null], "pick:" + index, { class: "option" }));
  return [
    h("h2", { id: "menu-title" }, menu.title),
    h("div", { id: "menu" }, options),
    menu.depth > 1 ? h("div", { class: "row" }, button(t("back"), "back")) : null,
  ];
}

function donePart(mine) {
  // The notice waits for this player's pieces (or a computer's, which anyone moves): the pad's ok says done.
  return [h("p", { id: "todo" }, t(mine.done === "*" ? "doneanyone" : "doneyours")),
    button(t("done"), "ok", { class: "main", id: "done" })];
}

function endPart(pub) {
  // The winners and the tie-break as the device says them (the table view has the standings and the chart).
  if (!pub.ending) return [h("p", {}, t("over"))];
  const [winners, tieBreak] = pub.ending.result;
  return [h("h2", { class: winners.colour || "", id: "winners" }, winners.text),
    tieBreak ? h("p", {}, tieBreak.text) : null];
}

function gamePart(pub, mine) {
  if (pub.stage === "over") return endPart(pub);
  if (!mine) {
    return [h("h2", {}, t("table")), ...pub.seats.filter((seat) => seat.kind !== "computer").map(
      (seat) => h("button", { onclick: () => ask(seat.colour), class: seat.colour }, t("ask", { name: seat.name })))];
  }
  const snap = pub.snapshot;
  if (mine.menu) return menuPart(mine.menu);
  if (mine.done && pub.notice) return donePart(mine);
  if (snap && snap.phase === "ballot" && pub.entry === "keypads" && !pub.notice) return ballotPart(pub, mine);
  if (mine.act) {  // ballots one at a time on the device: the phone is that player's pad keys
    return [h("h2", {}, t("pad")), h("div", { class: "row" }, button("◀", "left"), button("ok", "ok"),
      button("▶", "right")), h("div", { class: "row" }, button(t("back"), "back"))];
  }
  return [h("p", { class: "dim" }, t("nothing"))];
}

function draw() {
  if (!view) {
    render([h("h1", {}, "Doge"), message ? h("p", { id: "message" }, message) : null,
      h("p", { id: "status" }, joined ? t("connecting") : t("join"))]);
    return;
  }
  const pub = view.public;
  const mine = view.mine;
  LANG = pub.language || LANG;
  document.documentElement.lang = LANG;
  const cue = mine && mine.act ? " — " + t(mine.done ? "yourpieces" : "yourturn") : "";  // done: their pieces
  const seat = mine ? pub.seats.find((s) => s.colour === mine.colour) : null;  // its mark, as on the table view
  const title = mine ? h("h1", { class: mine.colour, id: "title" }, mine.name + (seat ? " " + seat.mark : "") + cue)
    : h("h1", { id: "title" }, "Doge");
  const parts = pub.stage === "setup" ? setupPart(pub, mine) : gamePart(pub, mine);
  const copied = mine && mine.copied ? h("p", { id: "copied", class: "warning" }, t("copied")) : null;
  // The table view's address, for a tablet or TV (beside the device's QR code it would be cut off)
  const tableView = pub.stage === "setup" || !mine ? h("p", { class: "dim", id: "tableview" }, t("tableview") + " ",
    h("a", { href: "/table" }, location.host + "/table")) : null;
  const said = message ? h("p", { id: "message", class: warned ? "warning" : "" }, message) : null;
  render([title, h("p", { class: "dim", id: "headline" }, headline(pub)), copied, said, noticeBox(pub), ...parts,
    pub.snapshot ? h("p", { class: "dim" }, orderText(pub)) : null, tableView]);
  if (mine && mine.act && !acted && navigator.vibrate) navigator.vibrate([120, 60, 120]);
  acted = Boolean(mine && mine.act);
  flashed = "";
  document.body.classList.toggle("act", acted);
}

const REFUSALS = { seated: "seated", host: "refused", "no-seat": "noseat", "not-saved": "noseat" };

function received(data) {
  if (data.t === "view") {
    if (data.mine) { message = ""; warned = false; }  // a seat answers whatever was asked (no line left over)
    view = data;
    pending = false;
  } else if (data.t === "refused") {
    message = t(REFUSALS[data.why] || "refused", { name: data.colour ? colourName(view, data.colour) : "" });
  } else if (data.t === "cue") {
    refusedKey(data.key);
  } else if (data.t === "revoked") {
    message = t("revoked");  // the next view has no seat in it
  }
  draw();
}

// A key the companion refused on this phone alone (a keypad blinks that key's LED): the phone says why, buzzes
// briefly and flashes the key, and nothing keyed changes (docs/pad-protocol.md, "Keying a ballot").
function refusedKey(key) {
  const mine = view && view.mine;
  const keyed = (mine && mine.keyed) || { area: null, markers: [] };
  if (key.startsWith("marker:")) {
    message = t(keyed.markers.length >= 4 ? "fourkeyed" : "noneleft", { value: key.slice(7), undo: t("undo") });
  } else {
    message = t("nokey");
  }
  flashed = key;
  warned = true;
  if (navigator.vibrate) navigator.vibrate([40, 40, 40, 40, 40]);
}

function colourName(current, colour) {
  const seat = current ? current.public.seats.find((s) => s.colour === colour) : null;
  return seat ? seat.name : colour;
}

// This browser's own id (not a secret): a seat opened by a second browser is shown to both, and to the host.
function deviceId() {
  try {
    let id = localStorage.getItem("doge_device");
    if (!id) {
      const bytes = crypto.getRandomValues(new Uint8Array(16));
      id = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
      localStorage.setItem("doge_device", id);
    }
    return id;
  } catch (error) {
    return "";  // no storage (a private window): the server counts it as one unnamed browser
  }
}

async function start() {
  const match = location.hash.match(/j=([A-Za-z0-9_-]+)/);
  if (match) {
    history.replaceState(null, "", location.pathname);  // the join secret leaves the address bar at once
    const answer = await fetch("/api/join", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ secret: match[1] }), credentials: "same-origin" });
    joined = answer.ok;
  } else {
    joined = true;  // perhaps: a reload, with the seat's cookie
  }
  draw();
  connect("/ws?d=" + encodeURIComponent(deviceId()), received, (state, open) => {
    socket = open;
    pending = false;
    if (state === "refused") { view = null; joined = false; }
    draw();
  });
}
start();
