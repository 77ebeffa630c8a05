// meeple's browser client: one WebSocket per table page (docs/server.md), the board re-rendered by the server.
// Its state frames are slim (?view=web: version, seat to move, status); on each one the page fetches
// /tables/ID/board once (the same view, as HTML) and swaps it in, keeping open panels and scroll positions and
// marking what changed; a click on an element with data-action-code sends that move with the version of the board it was drawn from. No inline script or style
// (the pages' Content-Security-Policy forbids them).
// The client's duties (docs/server.md): a move is kept until its "ack" comes and sent again, with the same move_id,
// after a reconnection or a "server_error"; a "ping" every few seconds notices a dead connection, which is reopened.
// Issue #43: the others' moves are played back one at a time (motion.js, from GET /tables/ID/boards?since=V); moves
// that take a piece somewhere are played by tapping the piece, then its destination (taps.js); Undo; a lost
// connection is a banner fixed in view, the board inert until the page is back in step; the first decision in view.
(function () {
  "use strict";
  const root = document.getElementById("table");
  if (!root) return;
  const table = root.dataset.table, lang = root.dataset.lang;
  const board = document.getElementById("board"), note = document.getElementById("connection");
  const error = document.getElementById("error"), toggle = document.getElementById("alert-toggle");
  let socket = null, retry = 500, pending = null, loading = false, again = false, lost = false, first = true;
  let fresh = false, heard = 0, mine = false, behind = false;
  const seat = root.dataset.seat === "" ? null : Number(root.dataset.seat);
  const PING = 5000;  // ms between pings; a connection silent for 2.5 of them is closed and reopened

  // the query of the board fetches and the WebSocket: the seat is the page's HttpOnly cookie, never in a URL
  function seatQuery() {
    return "?lang=" + encodeURIComponent(lang);
  }

  function version() {
    const section = board.querySelector("[data-version]");
    return section ? Number(section.dataset.version) : 0;
  }

  function myTurn() { return board.querySelector("section.board.my-turn") !== null; }

  // what survives a refresh: open <details> (by id), scroll positions of scrolled panels, the page's own scroll
  function keep() {
    const open = new Set(), scroll = {};
    board.querySelectorAll("details[id]").forEach(function (d) { if (d.open) open.add(d.id); });
    board.querySelectorAll("[id]").forEach(function (e) { if (e.scrollTop) scroll[e.id] = e.scrollTop; });
    return { open: open, scroll: scroll };
  }
  function restore(kept) {
    board.querySelectorAll("details[id]").forEach(function (d) { d.open = kept.open.has(d.id); });
    Object.keys(kept.scroll).forEach(function (id) {
      const e = document.getElementById(id);
      if (e) e.scrollTop = kept.scroll[id];
    });
  }

  // pieces move (issue #33 item 5): a piece is an element with data-piece (a key stable across boards) and
  // data-kind (what it is). After a swap, a piece whose key was there before flies from its old place and one whose
  // size (data-size: floors) changed grows; a new piece flies from a vanished piece of its kind, else from a source
  // of its kind (data-source: a supply), else drops in. The Web Animations API (no style attribute: the CSP holds);
  // nothing moves under prefers-reduced-motion.
  const still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  function places() {
    const found = {};
    board.querySelectorAll("[data-piece]").forEach(function (e) {
      const box = e.getBoundingClientRect();
      if (box.width) found[e.dataset.piece] = { box: box, kind: e.dataset.kind || "", size: e.dataset.size };
    });
    return found;
  }
  // every box is read before any animation starts (reads then writes: one layout, not one per piece), and a piece
  // off screen both before and after is not animated (nobody sees it; a long Capitol board has many)
  function onScreen(box) {
    return box.bottom > 0 && box.top < window.innerHeight && box.right > 0 && box.left < window.innerWidth;
  }
  function move(before) {
    if (still || !Element.prototype.animate) return;
    const now = new Set(), plans = [], fresh = [];
    board.querySelectorAll("[data-piece]").forEach(function (e) {
      now.add(e.dataset.piece);
      const old = before[e.dataset.piece];
      if (!old) { fresh.push(e); return; }
      const grows = old.size && e.dataset.size && Number(e.dataset.size) > Number(old.size);
      plans.push({ e: e, from: old.box, to: e.getBoundingClientRect(),
        ratio: grows ? Number(old.size) / Number(e.dataset.size) : 0 });
    });
    const gone = Object.keys(before).filter(function (k) { return !now.has(k); }).map(function (k) { return before[k]; });
    fresh.forEach(function (e) {
      const kind = e.dataset.kind || "";
      const i = kind ? gone.findIndex(function (g) { return g.kind === kind; }) : -1;
      let from = null;
      if (i >= 0) { from = gone[i].box; gone.splice(i, 1); } else {
        const source = kind ? board.querySelector("[data-source=\"" + CSS.escape(kind) + "\"]") : null;
        if (source) from = source.getBoundingClientRect();
      }
      plans.push({ e: e, from: from, to: e.getBoundingClientRect(), ratio: 0, drop: from === null });
    });
    plans.forEach(function (p) {
      if (!onScreen(p.to) && !(p.from && onScreen(p.from))) return;
      if (p.drop) {  // no scale: a move's tap target keeps its size while it drops in
        p.e.animate([{ opacity: 0, transform: "translateY(-12px)" }, { opacity: 1, transform: "none" }],
          { duration: 400, easing: "ease-out" });
        return;
      }
      const dx = p.from.left - p.to.left, dy = p.from.top - p.to.top;
      if (Math.abs(dx) >= 1 || Math.abs(dy) >= 1) {
        p.e.animate([{ transform: "translate(" + dx + "px, " + dy + "px)" }, { transform: "none" }],
          { duration: 450, easing: "ease-in-out" });
      }
      if (p.ratio) {
        p.e.animate([{ transform: "scaleY(" + p.ratio + ")", transformOrigin: "bottom" },
          { transform: "none", transformOrigin: "bottom" }], { duration: 450, easing: "ease-out" });
      }
    });
  }

  // catch up: the moves since the newest board the page has, each with its board then, and the board now; motion.js
  // plays them back (issue #43) and calls settled() once the board now is in
  // the table's end under the board (GET /tables/ID/endgame): resign while live, the rematch once finished
  let endStatus = null;
  async function endgame() {
    const slot = document.getElementById("endgame");
    if (!slot) return;
    try {
      const answer = await fetch("/tables/" + encodeURIComponent(table) + "/endgame?lang=" + encodeURIComponent(lang),
        { credentials: "same-origin" });
      if (!answer.ok) return;
      // while the game goes on, the folded Resign sits under the board (nothing above it moves the moves played
      // back); once it is over, the rematch offer comes above the board, where the end screen is read
      const board = document.getElementById("board"), over = endStatus !== "live" && endStatus !== "waiting";
      if (board) board.parentNode.insertBefore(slot, over ? board : board.nextSibling);
      slot.innerHTML = await answer.text();
    } catch (e) { /* the next message tries again */ }
  }

  async function refresh() {
    if (loading) { again = true; return; }
    loading = true;
    try {
      const since = motion.asked(version());
      const address = "/tables/" + encodeURIComponent(table) + "/boards" + seatQuery() + "&since=" + since +
        (motion.boards() ? "" : "&boards=0");  // the others' moves at once: their words and marks, no board
      const answer = await fetch(address, { cache: "no-store" });
      if (answer.status === 429) {  // past the server's quotas (boards, reads): ask again when it says
        const wait = Math.min(Number(answer.headers.get("Retry-After")) || 5, 60);
        setTimeout(refresh, wait * 1000);
      } else if (answer.ok) {
        const data = await answer.json();
        if (seat === null && !motion.playing()) motion.decided();  // a spectator: the marks of the latest moves
        motion.add(data);
      }
    } catch (e) {
      // the server is gone: the socket's close says so, and a reconnection asks again
    } finally {
      loading = false;
      if (again) { again = false; refresh(); }
    }
  }

  // one board replaces the other: open panels and scroll positions kept, pieces fly (move), the swap measured
  function swap(html) {
    const start = performance.now();
    const kept = keep(), before = places();
    board.innerHTML = html;
    board.removeAttribute("aria-busy");
    restore(kept);
    move(before);
    if (lost) inert(true);
    taps.fresh();
    ownBadge();
    // the swap's own cost, for benchmarks/web_weight.py (a bounded list of User Timing entries)
    if (performance.getEntriesByName("meeple:swap").length > 200) performance.clearMeasures("meeple:swap");
    performance.measure("meeple:swap", { start: start });
  }

  // the board now is in (after the others' moves were played back)
  function settled() {
    const wasMine = mine;
    showTurn(wasMine);
    if (behind && !lost) {  // reconnected: the board is the server's again, and the page says so
      behind = false;
      say(note.dataset.back || "", false);
    }
  }

  // whose turn: the board carries "my-turn" when this seat has legal moves; the tab's title says so too, so that a
  // player in another tab sees it; and, if the player asked for it, a sound and a notification while away
  const title = document.title;
  let viewed = null;
  function showTurn(wasMine) {
    mine = myTurn();
    document.title = (mine ? "● " : "") + title;
    if (mine) {
      if (!wasMine && document.hidden && alertsOn()) alertTurn();
      // every decision, the first one on load too (issue #43 item 7); once each: a refresh of the same decision
      // (a badge, a clock) leaves the page where its reader scrolled it
      if (version() !== viewed) { viewed = version(); bringIntoView(); }
    }
  }
  // a decision: if none of its moves is wholly on screen (below the sticky turn bar, or in it), the first one of the
  // board (a hand, a zone...) comes into view
  function bringIntoView() {
    const moves = Array.from(board.querySelectorAll("[data-action-code]:not(.moves *), [data-pick]"));
    const bar = board.querySelector(".turnbar");
    const top = bar ? bar.getBoundingClientRect().bottom : 0;
    const seen = moves.some(function (e) {
      const box = e.getBoundingClientRect();
      const below = box.top >= top - 1 && box.bottom <= window.innerHeight + 1;
      return box.height > 0 && (below || (bar !== null && bar.contains(e)));
    });
    const first = moves.find(function (e) { return !e.closest(".turnbar") && e.getBoundingClientRect().height > 0; });
    if (!seen && first) first.scrollIntoView({ block: "center", behavior: still ? "auto" : "smooth" });
  }
  function alertsOn() { return toggle && toggle.checked; }
  function alertTurn() {
    const words = board.dataset.yourTurn || "";
    const prompt = board.querySelector("#prompt");
    if ("Notification" in window && Notification.permission === "granted") {
      new Notification(title, { body: prompt ? prompt.textContent.trim() : words, tag: "meeple-" + table });
    }
    try {
      const audio = new (window.AudioContext || window.webkitAudioContext)();
      const tone = audio.createOscillator(), gain = audio.createGain();
      tone.frequency.value = 660; gain.gain.value = 0.08;
      tone.connect(gain); gain.connect(audio.destination);
      tone.start(); tone.stop(audio.currentTime + 0.18);
    } catch (e) { /* no sound: the title still says it */ }
  }
  if (toggle) {
    toggle.checked = localStorage.getItem("meeple-alerts") === "on";
    toggle.addEventListener("change", function () {
      localStorage.setItem("meeple-alerts", toggle.checked ? "on" : "off");
      // asked once, when the player turns the alerts on (never on page load)
      if (toggle.checked && "Notification" in window && Notification.permission === "default") {
        Notification.requestPermission();
      }
    });
  }

  // the connection (issue #43 item 6): a banner fixed in view, the board inert while the socket is down (its moves
  // disabled; a tap is refused with a word), this seat's badge following the socket, and once back, the board caught
  // up and the page saying so
  let hide = null;
  function say(words, isLost) {
    if (hide !== null) clearTimeout(hide);
    note.textContent = words;
    note.classList.toggle("lost", isLost);
    note.hidden = false;
    hide = isLost ? null : setTimeout(function () { if (!lost) note.hidden = true; }, 3000);
  }
  function connection(isLost) {
    if (isLost === lost) return;
    lost = isLost;
    inert(isLost);
    ownBadge();
    if (isLost) {
      behind = true;
      say(note.dataset.lost || "…", true);
    } else {
      say(note.dataset.syncing || "", false);  // "Connected again — bringing the board up to date…"
    }
  }
  function inert(isLost) {
    document.body.classList.toggle("offline", isLost);
    const bar = board.querySelector(".turnbar"), said = board.querySelector(".offline-note");
    if (isLost && bar && !said) {  // the turn bar says so too: not "your turn" while no move can be sent
      const line = document.createElement("p");
      line.className = "offline-note";
      line.textContent = note.dataset.inert || "";
      bar.insertBefore(line, bar.querySelector("#prompt"));
    } else if (!isLost && said) {
      said.remove();
    }
    board.querySelectorAll("[data-action-code], [data-pick], [data-undo]").forEach(function (e) {
      if (isLost) e.setAttribute("aria-disabled", "true");
      else if (!pending) e.removeAttribute("aria-disabled");
    });
  }
  // this seat's own badge says what its socket says (the page's first board was drawn before the socket opened)
  function ownBadge() {
    if (seat === null) return;
    const badge = board.querySelector(".badge.mine"), words = board.querySelector("ul.seats");
    const status = badge ? badge.querySelector(".online, .offline") : null;
    if (!status || !words) return;
    const online = !lost && socket !== null && socket.readyState === WebSocket.OPEN;
    status.className = online ? "online" : "offline";
    status.textContent = online ? words.dataset.online : words.dataset.away;
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/api/tables/" + encodeURIComponent(table) + "/ws" + seatQuery() + "&view=web");
    socket.onopen = function () {
      fresh = true; heard = Date.now(); connection(false); ownBadge();
      if (chatMute && chatMute.checked) send({ type: "mute", spectators: true });  // a new connection: mute again
    };
    socket.onmessage = function (event) {
      const message = JSON.parse(event.data);
      heard = Date.now();
      if (message.type === "state") {
        if (waiting && message.status !== "waiting") waiting.hidden = true;  // started: nothing left to choose
        if (message.status !== endStatus) { endStatus = message.status; endgame(); }  // resign, or the rematch
        if (fresh && pending) send(pending);  // reconnected: the move may not have reached the server
        fresh = false; retry = 500;  // served again: the next loss retries quickly (a 1013 close backs off)
        error.hidden = true;
        // the first frame after the page loaded describes the board the page came with: no second fetch of it
        // (same version and the same seat to move; a run of hidden steps keeps the version, not the mover)
        const section = board.querySelector("section.board");
        const same = first && !pending && section && message.version === version() &&
          String(message.current_player) === (section.dataset.current || "null");
        first = false;
        if (!same) refresh();
        else settled();  // the page's own board is the server's: the first decision comes into view
      } else if (message.type === "rematch") {
        endgame();  // who offered, who accepted: the end screen says it again
      } else if (message.type === "chat") {
        showChat(message);
      } else if (message.type === "ack") {
        if (pending && message.move_id === pending.move_id) pending = null;
      } else if (message.type === "undone") {
        refresh();  // moves were taken back (this page's or another's): the board as it is now
      } else if (message.type === "error") {
        error.textContent = message.message; error.hidden = false;
        if (message.code !== "server_error") say(message.message, false);  // in view, wherever the page is scrolled
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
      connection(true);
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 10000);
    };
  }

  // a waiting table's creator: start now with bots in the free seats, or keep waiting for players (quick match);
  // the seat is the page's cookie (or the account's session), sent by the browser with these same-site requests
  const waiting = document.getElementById("waiting");
  async function choose(what, button) {
    button.disabled = true;
    try {
      const answer = await fetch("/api/tables/" + encodeURIComponent(table) + "/" + what, {
        method: "POST", credentials: "same-origin", cache: "no-store",
        headers: { "Content-Type": "application/json", "Accept-Language": lang }, body: "{}",
      });
      if (answer.ok) {
        if (what === "start") waiting.hidden = true;
        else { waiting.querySelector("p").textContent = waiting.dataset.waiting || ""; button.hidden = true; }
        error.hidden = true;
        return;
      }
      const body = await answer.json().catch(function () { return {}; });
      error.textContent = typeof body.detail === "string" ? body.detail : String(answer.status);
      error.hidden = false;
    } finally {
      button.disabled = false;
    }
  }
  if (waiting) {
    [["start-now", "start"], ["keep-waiting", "wait"]].forEach(function (pair) {
      const button = document.getElementById(pair[0]);
      if (button) button.addEventListener("click", function () { choose(pair[1], button); });
    });
  }

  // the table's chat: lines are plain text (textContent, never HTML); a reconnection's history is not shown twice
  const chatLines = document.getElementById("chat-lines"), chatForm = document.getElementById("chat-form");
  const chatMute = document.getElementById("chat-mute"), chatSeen = new Set(), MUTE_KEY = "meeple-mute-spectators";
  function showChat(line) {
    if (!chatLines) return;
    const k = line.time + "|" + line.seat + "|" + line.text;
    if (chatSeen.has(k)) return;
    chatSeen.add(k);
    const item = document.createElement("li"), who = document.createElement("strong");
    who.textContent = line.name;  // a spectator's line is named "spectator" already (issue #44: not "spectator (spectator)")
    item.appendChild(who);
    item.appendChild(document.createTextNode(" " + line.text));
    chatLines.appendChild(item);
    chatLines.scrollTop = chatLines.scrollHeight;
  }
  if (chatForm) {
    chatForm.addEventListener("submit", function (event) {
      event.preventDefault();
      const input = chatForm.elements.text, text = input.value.trim();
      if (text && socket && socket.readyState === WebSocket.OPEN) {
        socket.send(JSON.stringify({ type: "chat", text: text }));
        input.value = "";
      }
    });
  }
  if (chatMute) {
    // the choice outlives a reload (issue #44): kept in this browser, sent again by every new connection
    try { chatMute.checked = localStorage.getItem(MUTE_KEY) === "1"; } catch (e) { /* no storage: not kept */ }
    chatMute.addEventListener("change", function () {
      try { localStorage.setItem(MUTE_KEY, chatMute.checked ? "1" : "0"); } catch (e) { /* no storage */ }
      if (socket && socket.readyState === WebSocket.OPEN) send({ type: "mute", spectators: chatMute.checked });
    });
  }

  function send(move) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(move));
  }

  setInterval(function () {
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    if (Date.now() - heard > 2.5 * PING) { socket.close(); return; }  // silent: onclose reconnects
    send({ type: "ping" });
  }, PING);

  // a move (or Undo) tapped: sent with the version of the board it was drawn from, kept until its ack; while the
  // connection is down the tap is refused with a word in the banner (never dropped silently)
  function play(element, undo) {
    if (lost || !socket || socket.readyState !== WebSocket.OPEN) {
      say(note.dataset.refused || note.dataset.lost || "…", true);
      return;
    }
    if (pending || element.getAttribute("aria-disabled") === "true") return;
    const id = Math.random().toString(16).slice(2);
    pending = undo ? { type: "undo", version: version(), move_id: id }
      : { type: "move", version: version(), action: Number(element.dataset.actionCode), move_id: id };
    send(pending);
    motion.decided();  // the others' last round is no longer news: their marks and summary go
    // at once, before the server answers: the chosen move is marked and the others wait for the new board
    element.classList.add("chosen");
    board.setAttribute("aria-busy", "true");
    board.querySelectorAll("[data-action-code], [data-pick], [data-undo]").forEach(function (e) {
      e.setAttribute("aria-disabled", "true");
    });
  }
  function activate(target) {
    if (lost && target.closest("[data-action-code], [data-pick], [data-undo]")) {
      say(note.dataset.refused || note.dataset.lost || "…", true);
      return true;
    }
    const undo = target.closest("[data-undo]");
    if (undo) { play(undo, true); return true; }
    if (taps.pick(target, lost)) return true;  // a piece tapped: its destinations show (taps.js)
    const element = target.closest("[data-action-code]");
    if (element) { play(element, false); return true; }
    return false;
  }

  board.addEventListener("click", function (event) {
    if (event.target.closest("#claim")) { claim(event.target.closest("#claim")); return; }
    activate(event.target);
  });
  // a rated table: claim against the player to move, away too long (POST /api/tables/ID/claim; the seat is the
  // page's cookie or the session); the button is enabled when the server's page said the claim opens
  async function claim(button) {
    if (button.disabled) return;
    button.disabled = true;
    const answer = await fetch("/api/tables/" + encodeURIComponent(table) + "/claim", {
      method: "POST", credentials: "same-origin", cache: "no-store",
      headers: { "Content-Type": "application/json", "Accept-Language": lang }, body: "{}",
    }).catch(function () { return null; });
    if (answer && answer.ok) { error.hidden = true; return; }  // the state frame that follows redraws the board
    const body = answer ? await answer.json().catch(function () { return {}; }) : {};
    error.textContent = typeof body.detail === "string" ? body.detail : String(answer ? answer.status : "");
    error.hidden = false;
    button.disabled = false;
  }
  board.addEventListener("keydown", function (event) {
    if (event.key === "Escape") { taps.reset(); return; }
    if ((event.key === "Enter" || event.key === " ") && event.target.closest("[data-action-code], [data-pick], [data-undo]")) {
      event.preventDefault();
      activate(event.target);
    }
  });
  // a clock's time as the server's page shows it (meeple.web.render.duration): m:ss, h:mm:ss, or days and hours
  function duration(left, days) {
    const two = function (n) { return String(n).padStart(2, "0"); };
    if (left >= 86400) {
      return days.replace("{days}", Math.floor(left / 86400)).replace("{hours}", Math.floor((left % 86400) / 3600));
    }
    if (left >= 3600) return Math.floor(left / 3600) + ":" + two(Math.floor((left % 3600) / 60)) + ":" + two(left % 60);
    return Math.floor(left / 60) + ":" + two(left % 60);
  }
  // the running clock counts down from its deadline (the server's clock decides; this only shows it)
  setInterval(function () {
    board.querySelectorAll(".clock[data-deadline]").forEach(function (e) {
      const left = Math.max(0, Math.round(Number(e.dataset.deadline) - Date.now() / 1000));
      e.textContent = duration(left, e.dataset.days || "{days} d {hours} h");
    });
    const claimButton = board.querySelector("#claim[data-claim-at]");
    if (claimButton && claimButton.disabled && Date.now() / 1000 >= Number(claimButton.dataset.claimAt)) {
      claimButton.disabled = false;
      claimButton.textContent = claimButton.dataset.ready || claimButton.textContent;
    }
  }, 1000);
  const taps = window.MeepleTaps(board);
  const motion = window.MeepleMotion(board, swap, settled);
  motion.attach();
  taps.fresh();
  ownBadge();
  connect();
})();
