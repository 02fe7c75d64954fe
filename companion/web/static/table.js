"use strict";
// The table view: public facts only, drawn large (a spectator: a client with no seat).
function colourName(pub, colour) {
  const seat = pub.seats.find((s) => s.colour === colour);
  return seat ? seat.name : colour;
}
// A player's mark (● ■ ▲ ◆, display/marks.py): a shape beside their colour, so no piece is told by colour alone.
function markOf(pub, colour) {
  const seat = pub.seats.find((s) => s.colour === colour);
  return seat ? seat.mark : "?";
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
      items.push(h("div", { class: a.controller },
        markOf(pub, a.controller) + " ♟" + (a.n > 1 ? " ×" + a.n : "") + " → " + pub.areas[a.area]));
    }
  } else {
    const d = snap.districts[area];
    for (const [colour, n] of Object.entries(d.houses)) {
      items.push(h("div", { class: colour }, markOf(pub, colour) + " ⌂ ×" + n));
    }
    if (d.palaces.length) {
      items.push(h("div", {}, "♜ ", d.palaces.map((c) => h("span", { class: c }, markOf(pub, c) + " "))));
    }
    const adv = snap.advisors[area];
    if (adv) {
      items.push(h("div", { class: adv.controller }, markOf(pub, adv.controller) + " ♟ → " + pub.areas[adv.area]));
    }
  }
  const stack = snap.stacks[area];
  if (stack) items.push(h("div", { class: "dim" }, t("counts") + ": " +
    Object.entries(stack).map(([c, n]) => colourName(pub, c) + " " + n).join(", ")));
  return h("div", { class: "area" + (snap.area === area ? " now" : ""), "data-area": area },
    h("strong", {}, pub.areas[area]), ...items);
}
// The symbols the board uses, once under it (⌂ ♜ ♟, the outline of the area being elected, each player's mark).
function mapKey(pub) {
  return h("div", { class: "key", id: "key" }, h("strong", {}, t("key")), h("span", {}, "⌂ " + t("keyhouses")),
    h("span", {}, "♜ " + t("keypalaces")), h("span", {}, "♟ " + t("keyadvisor")), h("span", {}, "▢ " + t("keynow")),
    pub.seats.map((s) => h("span", { class: s.colour }, s.mark + " " + s.name)));
}
// The device's palace chart (display/chart.py) as SVG: one line per player, each a little above or below its
// neighbour and with its own mark, so that players with the same palaces stay visible.
const MARKS = ["circle", "square", "triangle", "diamond"];  // for a series without its player's (s.mark)
function svg(tag, props, ...children) {
  const element = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(props || {})) element.setAttribute(name, value);
  for (const child of children.flat()) element.append(child);
  return element;
}
function mark(kind, x, y, r, colour) {
  const props = { class: colour + " mark" };
  if (kind === "circle") return svg("circle", { ...props, cx: x, cy: y, r: r });
  if (kind === "square") return svg("rect", { ...props, x: x - r, y: y - r, width: 2 * r, height: 2 * r });
  const points = kind === "triangle" ? [[x, y - r * 1.2], [x + r * 1.2, y + r], [x - r * 1.2, y + r]]
    : [[x, y - r * 1.3], [x + r * 1.3, y], [x, y + r * 1.3], [x - r * 1.3, y]];
  return svg("polygon", { ...props, points: points.map((p) => p.join(",")).join(" ") });
}
function chart(series) {
  const width = 800, height = 330, left = 40, top = 50, right = 790, bottom = 290;
  const years = Math.max(0, ...series.map((s) => s.palaces.length));
  const most = Math.max(8, ...series.flatMap((s) => s.palaces));
  const palace = (bottom - top) / most;
  const step = 3 * (series.length - 1) <= palace / 2 ? 3 : 1.5;
  const xOf = (year) => left + (right - left) * (year + 1) / (years + 1);
  const yOf = (value, index) => bottom - palace * value + (index - (series.length - 1) / 2) * step;
  const parts = [];
  let x = left;
  series.forEach((s, index) => {  // the legend: each player's mark, name and last count
    const label = s.name + " " + (s.palaces.length ? s.palaces[s.palaces.length - 1] : 0);
    parts.push(mark(s.mark || MARKS[index % MARKS.length], x + 9, 20, 8, s.colour),
      svg("text", { x: x + 22, y: 30, class: s.colour }, label));
    x += 40 + label.length * 15;
  });
  parts.push(svg("line", { x1: left, y1: bottom, x2: right, y2: bottom, class: "axis" }),
    svg("line", { x1: left, y1: top, x2: left, y2: bottom, class: "axis" }));
  for (const value of [0, Math.floor(most / 2), most]) {
    parts.push(svg("text", { x: left - 8, y: bottom - palace * value + 9, class: "tick", "text-anchor": "end" },
      String(value)));
  }
  const every = [1, 2, 5, 10, 20, 50, 100].find((n) => years / n <= 12) || 100;  // as the device's: 1, 3, 5... or 1, 5, 10...
  for (let year = 1; year <= years; year += 1) {
    if (every <= 2 ? (year - 1) % every === 0 : year === 1 || year % every === 0) {
      parts.push(svg("text", { x: xOf(year - 1), y: height - 8, class: "tick", "text-anchor": "middle" }, String(year)));
    }
  }
  series.forEach((s, index) => {
    const points = s.palaces.map((value, year) => [xOf(year), yOf(value, index)]);
    if (points.length > 1) {
      parts.push(svg("polyline", { class: s.colour + " series", points: points.map((p) => p.join(",")).join(" ") }));
    }
    for (const [px, py] of points) parts.push(mark(s.mark || MARKS[index % MARKS.length], px, py, 5, s.colour));
  });
  return svg("svg", { id: "chart", viewBox: "0 0 " + width + " " + height, role: "img" }, parts);
}
function lines(list, id) {
  return h("div", { id: id }, list.map((line) => h("p", { class: (line.colour || "") + " " + line.size }, line.text)));
}
// The end as the device shows it: the winners, the tie-break, the standings and the palace chart (pub.ending).
function ending(pub) {
  const end = pub.ending;
  return h("div", { class: "columns", id: "ending" },
    lines(end.result.slice(1), "result"),
    h("h2", {}, end.standings.title), lines(end.standings.lines, "standings"),
    h("h2", {}, end.chart.title), chart(end.chart.series));
}
function draw(pub) {
  LANG = pub.language || LANG;
  document.documentElement.lang = LANG;
  const snap = pub.snapshot;
  if (!snap) {
    render([h("h1", {}, "Doge — " + t("setup")),
      ...pub.seats.map((s) => h("p", { class: s.colour }, s.mark + " " + s.name))]);
    return;
  }
  const rows = pub.seats.map((seat, i) => {
    const p = snap.players[seat.colour];
    const waiting = snap.awaiting.some((a) => a.player === seat.colour);
    const state = pub.locked[i] ? t("lockedin") : (waiting ? t("choosing") : "");
    return h("tr", { class: seat.colour }, h("td", {}, seat.mark + " " + seat.name), h("td", {}, String(p.markers)),
      h("td", {}, String(p.houses)), h("td", {}, String(p.palaces)), h("td", { class: "state" }, state));
  });
  const areas = Object.keys(pub.areas);
  const board = h("div", {}, h("div", { class: "board", id: "board" }, areas.map((a) => areaCard(pub, a, snap))),
    mapKey(pub));
  if (pub.ending) {
    const winners = pub.ending.result[0];
    render([h("h1", { id: "headline" }, pub.ending.title + " · ", h("span", { class: winners.colour || "" },
      winners.text)), board, ending(pub)]);
    return;
  }
  render([
    h("h1", { id: "headline" }, headline(pub)),
    noticeBox(pub),
    board,
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
