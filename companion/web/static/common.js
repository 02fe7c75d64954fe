"use strict";
// Shared by the phone pad and the table view: words in en/de/it, safe DOM building, a socket that comes back.
const WORDS = {
  en: { join: "Scan the QR code on the companion to join.", connecting: "Connecting…", you: "You are {name}",
        noneleft: "No {value}-marker left to add: a marker key only ever adds one. “{undo}” takes the last key back.",
        fourkeyed: "Four markers keyed, the most a ballot holds. “{undo}” takes the last key back.",
        nokey: "That key does nothing now.",
        colour: "Colour", leave: "Leave", sit: "Sit down", waiting: "Waiting for the host to start.",
        full: "The table is full.", ask: "Ask for {name}'s seat", asked: "Asked: the host confirms on the device.",
        refused: "The host kept the seat.", revoked: "Another phone has this seat now.", markers: "Your markers",
        seated: "You already have {name}'s seat: a phone has one seat.", noseat: "That seat cannot be given now.",
        lockedonly: "Locked in.", tableview: "Table view:", copied: "Your seat is also open on another device. If that is not you, tell the host.",
        areas: "Choose an area", lockin: "Lock in", undo: "Undo a key", locked: "Locked in: {area} with {markers}.",
        nothing: "Nothing to do now.", order: "This year's order", next: "Next year", year: "Year {year}",
        round: "round {round}", election: "election in {area}", lockedin: "locked in", choosing: "choosing",
        back: "Back", player: "Player", left: "markers", houses: "houses in hand", palaces: "palaces in hand", counts: "Counts",
        over: "The game is over.", quarantia: "Quarantia", yourturn: "Your turn", keyed: "Keyed: {area} {markers}",
        pad: "Pad keys", table: "The table", setup: "Setting up",
        done: "Done", yourpieces: "your pieces", doneyours: "Move your pieces as the notice says, then press Done.",
        doneanyone: "A computer player's pieces: move them as the notice says, then press Done.", key: "Key",
        keyhouses: "houses (×: how many)", keypalaces: "palaces, in building order",
        keyadvisor: "an advisor, with its controller's mark → the area it stands in",
        keynow: "outlined: the area being elected" },
  de: { join: "Scanne den QR-Code am Begleiter, um mitzuspielen.", connecting: "Verbinde…", you: "Du bist {name}",
        noneleft: "Kein {value}er-Marker mehr übrig: eine Markertaste legt immer nur einen dazu. „{undo}“ macht die letzte Taste rückgängig.",
        fourkeyed: "Vier Marker eingegeben, mehr fasst ein Stimmzettel nicht. „{undo}“ macht die letzte Taste rückgängig.",
        nokey: "Diese Taste geht gerade nicht.",
        colour: "Farbe", leave: "Aufstehen", sit: "Hinsetzen", waiting: "Warte, bis der Gastgeber startet.",
        full: "Der Tisch ist voll.", ask: "Platz von {name} erbitten", asked: "Gefragt: der Gastgeber bestätigt am Gerät.",
        refused: "Der Gastgeber hat den Platz nicht vergeben.", revoked: "Ein anderes Handy hat jetzt diesen Platz.",
        seated: "Du hast schon den Platz von {name}: ein Handy hat einen Platz.",
        noseat: "Dieser Platz kann jetzt nicht vergeben werden.", lockedonly: "Festgelegt.", tableview: "Tischansicht:",
        copied: "Dein Platz ist auch auf einem anderen Gerät offen. Wenn du das nicht bist, sag es dem Gastgeber.",
        markers: "Deine Marker", areas: "Wähle ein Gebiet", lockin: "Festlegen", undo: "Taste zurück",
        locked: "Festgelegt: {area} mit {markers}.", nothing: "Gerade nichts zu tun.", order: "Reihenfolge dieses Jahr",
        next: "Nächstes Jahr", year: "Jahr {year}", round: "Runde {round}", election: "Wahl in {area}",
        lockedin: "festgelegt", choosing: "wählt", back: "Zurück", player: "Spieler", left: "Marker",
        houses: "Häuser im Vorrat", palaces: "Palazzi im Vorrat", counts: "Zählung", over: "Das Spiel ist vorbei.",
        quarantia: "Quarantia", yourturn: "Du bist dran", keyed: "Eingegeben: {area} {markers}", pad: "Tasten",
        table: "Der Tisch", setup: "Aufbau",
        done: "Fertig", yourpieces: "deine Teile", doneyours: "Setze deine Teile, wie die Meldung sagt, dann Fertig.",
        doneanyone: "Teile eines Computerspielers: setze sie, wie die Meldung sagt, dann Fertig.", key: "Legende",
        keyhouses: "Häuser (×: wie viele)", keypalaces: "Palazzi, in der Reihenfolge des Baus",
        keyadvisor: "ein Berater, mit dem Zeichen seines Besitzers → das Gebiet, in dem er steht",
        keynow: "umrandet: das Gebiet der laufenden Wahl" },
  it: { join: "Inquadra il codice QR sul companion per giocare.", connecting: "Connessione…", you: "Sei {name}",
        noneleft: "Nessun segnalino da {value} rimasto: un tasto segnalino ne aggiunge sempre uno. «{undo}» toglie l'ultimo tasto.",
        fourkeyed: "Quattro segnalini inseriti, il massimo per una scheda. «{undo}» toglie l'ultimo tasto.",
        nokey: "Quel tasto ora non vale.",
        colour: "Colore", leave: "Alzati", sit: "Siediti", waiting: "In attesa che l'ospite inizi.",
        full: "Il tavolo è pieno.", ask: "Chiedi il posto di {name}", asked: "Chiesto: l'ospite conferma sul dispositivo.",
        refused: "L'ospite ha tenuto il posto.", revoked: "Ora un altro telefono ha questo posto.",
        seated: "Hai già il posto di {name}: un telefono ha un posto.",
        noseat: "Quel posto non può essere dato ora.", lockedonly: "Confermato.", tableview: "Vista del tavolo:",
        copied: "Il tuo posto è aperto anche su un altro dispositivo. Se non sei tu, dillo all'ospite.",
        markers: "I tuoi segnalini", areas: "Scegli un'area", lockin: "Conferma", undo: "Annulla un tasto",
        locked: "Confermato: {area} con {markers}.", nothing: "Niente da fare ora.", order: "Ordine di quest'anno",
        next: "Anno prossimo", year: "Anno {year}", round: "turno {round}", election: "elezione a {area}",
        lockedin: "confermato", choosing: "sceglie", back: "Indietro", player: "Giocatore", left: "segnalini",
        houses: "case in riserva", palaces: "palazzi in riserva", counts: "Conteggi", over: "La partita è finita.", quarantia: "Quarantia",
        yourturn: "Tocca a te", keyed: "Inserito: {area} {markers}", pad: "Tasti", table: "Il tavolo",
        setup: "Preparazione",
        done: "Fatto", yourpieces: "i tuoi pezzi", doneyours: "Muovi i tuoi pezzi come dice l'avviso, poi premi Fatto.",
        doneanyone: "Pezzi di un giocatore computer: muovili come dice l'avviso, poi premi Fatto.", key: "Legenda",
        keyhouses: "case (×: quante)", keypalaces: "palazzi, nell'ordine di costruzione",
        keyadvisor: "un consigliere, con il segno di chi lo controlla → l'area in cui si trova",
        keynow: "bordata: l'area in elezione" },
};
let LANG = (navigator.language || "en").slice(0, 2);
function t(key, values) {
  const words = WORDS[LANG] || WORDS.en;
  let text = words[key] || WORDS.en[key] || key;
  for (const [name, value] of Object.entries(values || {})) text = text.replace("{" + name + "}", String(value));
  return text;
}
// Elements from text only (never innerHTML): nothing a server string holds can become markup.
function h(tag, props, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props || {})) {
    if (name === "onclick") element.addEventListener("click", value);
    else if (name === "disabled") element.disabled = Boolean(value);
    else element.setAttribute(name, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return element;
}
function render(children) {
  const app = document.getElementById("app");
  app.replaceChildren(...children.filter(Boolean));
}
// A socket that reconnects (a phone asleep, Wi-Fi gone): waits grow from 0.5 s to 5 s.
function connect(path, onMessage, onState) {
  let wait = 500;
  let opened = false;
  function open() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(scheme + location.host + path);
    socket.onopen = () => { wait = 500; opened = true; onState("open", socket); };
    socket.onmessage = (event) => onMessage(JSON.parse(event.data), socket);
    socket.onclose = () => {
      onState(opened ? "lost" : "refused", null);
      opened = false;
      setTimeout(open, wait);
      wait = Math.min(5000, wait * 2);
    };
  }
  open();
}
function orderText(pub) {
  const snap = pub.snapshot;
  if (!snap) return "";
  return snap.order.this_year.map((a) => pub.areas[a]).join(" → ");
}
function headline(pub) {
  const snap = pub.snapshot;
  if (!snap) return t("setup");
  if (pub.stage === "over") return t("over");
  let text = t("year", { year: snap.year });
  if (snap.phase === "ballot") text += ", " + t("round", { round: snap.round });
  if (snap.area) text += ", " + t("election", { area: pub.areas[snap.area] });
  return text;
}
function noticeBox(pub) {
  if (!pub.notice) return null;
  return h("div", { class: "notice", id: "notice" }, h("strong", {}, pub.notice.title),
    ...pub.notice.lines.map((line) => h("div", {}, line)));
}
