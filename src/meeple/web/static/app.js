// meeple's browser client: one WebSocket per table page (docs/server.md), the board re-rendered by the server.
// On each "state" frame the page fetches /tables/ID/board (the same view, as HTML) and swaps it in; a click on an
// element with data-action-code sends that move with the version of the board it was drawn from.
// The client's duties (docs/server.md): a move is kept until its "ack" comes and sent again, with the same move_id,
// after a reconnection or a "server_error"; a "ping" every few seconds notices a dead connection, which is reopened.
(function () {
  "use strict";
  // the replay's step and view controls submit their form when changed (no inline handlers: the CSP forbids them)
  document.querySelectorAll("[data-submit]").forEach(function (e) {
    e.addEventListener("change", function () { e.form.submit(); });
  });
  const root = document.getElementById("table");
  if (!root) return;
  const table = root.dataset.table, lang = root.dataset.lang;
  const board = document.getElementById("board"), note = document.getElementById("connection");
  const error = document.getElementById("error");
  // the seat is the page's HttpOnly cookie, sent with the board fetches and the WebSocket: no token in any URL
  const query = "?lang=" + encodeURIComponent(lang);
  let socket = null, retry = 500, pending = null, loading = false, again = false, fresh = false, heard = 0;
  const PING = 5000;  // ms between pings; a connection silent for 2.5 of them is closed and reopened

  function version() {
    const section = board.querySelector("[data-version]");
    return section ? Number(section.dataset.version) : 0;
  }

  async function refresh() {
    if (loading) { again = true; return; }
    loading = true;
    try {
      const answer = await fetch("/tables/" + encodeURIComponent(table) + "/board" + query, { cache: "no-store" });
      board.removeAttribute("aria-busy");
      if (answer.ok) { board.innerHTML = await answer.text(); showTurn(); }
    } finally {
      loading = false;
      if (again) { again = false; refresh(); }
    }
  }

  // whose turn: the board carries "my-turn" when this seat has legal moves; the tab's title says so too, so that a
  // player in another tab sees it
  const title = document.title;
  function showTurn() {
    const mine = board.querySelector("section.board.my-turn") !== null;
    document.title = (mine ? "● " : "") + title;
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/api/tables/" + encodeURIComponent(table) + "/ws" + query);
    socket.onopen = function () { note.textContent = ""; fresh = true; heard = Date.now(); };
    socket.onmessage = function (event) {
      const message = JSON.parse(event.data);
      heard = Date.now();
      if (message.type === "state") {
        if (fresh && pending) send(pending);  // reconnected: the move may not have reached the server
        fresh = false; retry = 500;  // served again: the next loss retries quickly (a 1013 close backs off)
        error.hidden = true; refresh();
      } else if (message.type === "ack") {
        if (pending && message.move_id === pending.move_id) pending = null;
      } else if (message.type === "error") {
        error.textContent = message.message; error.hidden = false;
        if (pending && message.move_id === pending.move_id && message.code === "server_error") {
          const move = pending;
          setTimeout(function () { if (pending === move) send(move); }, 1000);  // not committed: once more
          return;
        }
        if (pending && message.move_id === pending.move_id) pending = null;
        board.removeAttribute("aria-busy");
        refresh();  // the refused move's board comes back clickable
      }
    };
    socket.onclose = function () {
      note.textContent = note.dataset.lost || "…";
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 10000);
    };
  }

  function send(move) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(move));
  }

  setInterval(function () {
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    if (Date.now() - heard > 2.5 * PING) { socket.close(); return; }  // silent: onclose reconnects
    send({ type: "ping" });
  }, PING);

  function play(element) {
    if (!socket || socket.readyState !== WebSocket.OPEN || pending) return;
    pending = {
      type: "move", version: version(), action: Number(element.dataset.actionCode),
      move_id: Math.random().toString(16).slice(2),
    };
    send(pending);
    // at once, before the server answers: the chosen move is marked and the others wait for the new board
    element.classList.add("chosen");
    board.setAttribute("aria-busy", "true");
    board.querySelectorAll("[data-action-code]").forEach(function (e) { e.setAttribute("aria-disabled", "true"); });
  }

  board.addEventListener("click", function (event) {
    const element = event.target.closest("[data-action-code]");
    if (element && element.getAttribute("aria-disabled") !== "true") play(element);
  });
  board.addEventListener("keydown", function (event) {
    const element = event.target.closest("[data-action-code]");
    if (element && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); play(element); }
  });
  // the running clock counts down from its deadline (the server's clock decides; this only shows it)
  setInterval(function () {
    board.querySelectorAll(".clock[data-deadline]").forEach(function (e) {
      const left = Math.max(0, Math.round(Number(e.dataset.deadline) - Date.now() / 1000));
      e.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    });
  }, 1000);
  showTurn();
  connect();
})();
