"use strict";
// The table view: public facts only, drawn large (a spectator: a client with no seat).
function colourName(pub, colour) {
  const seat = pub.seats.find((s) => s.colour === colour);
  return seat ? seat.name : colour;
}
function areaCard(pub, area, snap) {
  const items = [];
  if (area === "quarantia") {
    // The three are identical (rules.md 1.2): two of one colour in one district show as one line, counted.
    const counts = new Map();
    for (const a of snap.advisors.quarantia) {
      const key = a.controller + " " + a.area;
      counts.set(key, { ...a, n: (counts.get(key)?.n || 0) + 1 });
    }
    for (const a of counts.values()) {
      items.push(h("div", { class: a.controller }, "♦" + (a.n > 1 ? " ×" + a.n : "") + " → " + pub.areas[a.area]));
    }
  } else {
    const d = snap.districts[area];
    for (const [colour, n] of Object.entries(d.houses)) items.push(h("div", { class: colour }, "■ ×" + n));
    if (d.palaces.length) items.push(h("div", {}, d.palaces.map((c) => h("span", { class: c }, "▲ "))));
    const adv = snap.advisors[area];
    if (adv) items.push(h("div", { class: adv.controller }, "♦ → " + pub.areas[adv.area]));
  }
  const stack = snap.stacks[area];
  if (stack) items.push(h("div", { class: "dim" }, t("counts") + ": " +
    Object.entries(stack).map(([c, n]) => colourName(pub, c) + " " + n).join(", ")));
  return h("div", { class: "area" + (snap.area === area ? " now" : ""), "data-area": area },
    h("strong", {}, pub.areas[area]), ...items);
}
function draw(pub) {
  LANG = pub.language || LANG;
  document.documentElement.lang = LANG;
  const snap = pub.snapshot;
  if (!snap) {
    render([h("h1", {}, "Doge — " + t("setup")), ...pub.seats.map((s) => h("p", { class: s.colour }, s.name))]);
    return;
  }
  const rows = pub.seats.map((seat, i) => {
    const p = snap.players[seat.colour];
    const waiting = snap.awaiting.some((a) => a.player === seat.colour);
    const state = pub.locked[i] ? t("lockedin") : (waiting ? t("choosing") : "");
    return h("tr", { class: seat.colour }, h("td", {}, seat.name), h("td", {}, String(p.markers)),
      h("td", {}, String(p.houses)), h("td", {}, String(p.palaces)), h("td", { class: "state" }, state));
  });
  const areas = Object.keys(pub.areas);
  render([
    h("h1", {}, headline(pub)),
    noticeBox(pub),
    h("div", { class: "board", id: "board" }, areas.map((a) => areaCard(pub, a, snap))),
    h("div", { class: "columns" },
      h("div", {}, h("h2", {}, t("order")), h("p", { id: "order" }, orderText(pub)),
        h("h2", {}, t("next")), h("p", { id: "next" }, snap.order.next_year.map((a) => pub.areas[a]).join(" → ") || "—")),
      h("div", {}, h("table", { id: "players" }, h("tr", {}, h("th", {}, t("player")), h("th", {}, t("left")),
        h("th", {}, t("houses")), h("th", {}, t("palaces")), h("th", {}, "")), rows))),
  ]);
}
// While the companion cannot be reached (a restart, the Wi-Fi), the page says so and greys out what it last showed.
connect("/ws?table=1", (data) => { if (data.t === "table" && data.public) draw(data.public); }, (state) => {
  const lost = state !== "open";
  document.body.classList.toggle("lost", lost);
  const status = document.getElementById("status");
  status.textContent = lost ? t("connecting") : "";
  status.hidden = !lost;
});
