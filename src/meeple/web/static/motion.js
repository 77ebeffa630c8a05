// The others' moves one at a time (issue #43 item 1). The table's script (app.js) hands this the answer of
// GET /tables/ID/boards?since=V: each move since the board the page shows, with the board its reader saw then, the
// move in words and the keys (data-key) of what it acted on; and the board now. Each move of another player is shown
// for a moment (the speed setting, remembered in the browser: instant, fast, normal 0.6 s, slow), its words in the
// prompt; then the board now, with the prompt and the moves. "Skip" shows the rest at once. What the others' moves
// acted on stays marked, and their sentences stay in the turn summary, until this reader's next decision. Under
// prefers-reduced-motion nothing moves (app.js), the marks stay. No inline script or style (the pages' CSP).
(function () {
  "use strict";

  window.MeepleMotion = function (board, swap, settled) {
    const root = document.getElementById("table");
    const speed = document.getElementById("pace");
    const texts = root.dataset;
    const SUMMARY_MAX = 40;  // sentences kept in the turn summary (the log holds them all)
    let queue = [], latest = null, playing = false, timer = null, version = null;
    let marks = new Set(), sentences = [];

    // the panel: "showing the others' moves" with Skip, and the turn summary; moved into each board's summary slot
    const panel = document.createElement("div");
    panel.className = "motion";
    const playingLine = document.createElement("p");
    playingLine.className = "playing";
    playingLine.hidden = true;
    playingLine.setAttribute("role", "status");
    const playingWords = document.createElement("span");
    playingWords.textContent = texts.playing || "";
    const skip = document.createElement("button");
    skip.type = "button";
    skip.className = "skip";
    skip.textContent = texts.skip || "Skip";
    playingLine.append(playingWords, " ", skip);
    const summary = document.createElement("details");
    summary.className = "turn-summary";
    summary.id = "turn-summary";
    summary.open = window.matchMedia("(min-width: 700px)").matches;  // a phone keeps its turn bar short: folded
    summary.hidden = true;
    const summaryTitle = document.createElement("summary");
    const list = document.createElement("ol");
    summary.append(summaryTitle, list);
    panel.append(playingLine, summary);

    function pace() {
      const stored = localStorage.getItem("meeple-pace");
      const value = stored !== null ? stored : (speed ? speed.value : "600");
      return Math.max(0, Number(value) || 0);
    }
    if (speed) {
      const stored = localStorage.getItem("meeple-pace");
      if (stored !== null && speed.querySelector("option[value=\"" + CSS.escape(stored) + "\"]")) speed.value = stored;
      speed.addEventListener("change", function () {
        localStorage.setItem("meeple-pace", speed.value);
        if (pace() === 0) finish();
      });
    }
    skip.addEventListener("click", finish);

    function attach() {
      const slot = board.querySelector(".summary-slot");
      if (slot && panel.parentNode !== slot) slot.appendChild(panel);
      board.querySelectorAll(".marked, .changed").forEach(function (e) { e.classList.remove("marked", "changed"); });
      marks.forEach(function (key) {
        board.querySelectorAll("[data-key=\"" + CSS.escape(key) + "\"]").forEach(function (e) { e.classList.add("marked"); });
      });
    }
    function flash(keys) {
      keys.forEach(function (key) {
        board.querySelectorAll("[data-key=\"" + CSS.escape(key) + "\"]").forEach(function (e) { e.classList.add("changed"); });
      });
    }
    function showSummary() {
      list.replaceChildren();
      sentences.slice(-SUMMARY_MAX).forEach(function (words) {
        const item = document.createElement("li");
        item.textContent = words;
        list.appendChild(item);
      });
      summaryTitle.textContent = (texts.summary || "{n}").replace("{n}", String(sentences.length));
      summary.hidden = sentences.length === 0;
    }

    // a move's words and marks join the summary (the reader's own moves are not news to it)
    function note(frame) {
      if (frame.own || frame.actor < 0) return;
      frame.marks.forEach(function (key) { marks.add(key); });
      frame.sentences.forEach(function (words) { sentences.push(words); });
      showSummary();
    }

    function next() {
      timer = null;
      while (queue.length) {
        const frame = queue.shift();
        note(frame);
        if (frame.board && !frame.own && frame.actor >= 0 && pace() > 0 && !document.hidden) {
          playing = true;
          playingLine.hidden = false;
          swap(frame.board);
          attach();
          flash(frame.marks);
          timer = setTimeout(next, pace());
          return;
        }
      }
      playing = false;
      playingLine.hidden = true;
      if (latest !== null) {
        const html = latest;
        latest = null;
        swap(html);
        attach();
        settled();
      }
    }

    // skip: the moves left go to the summary and the marks, the board now comes at once
    function finish() {
      if (timer !== null) clearTimeout(timer);
      queue.forEach(note);
      queue = [];
      next();
    }

    return {
      // the version of the newest board received (the next fetch asks for what came after it)
      asked: function (shown) { return version === null ? shown : version; },
      // an answer of /boards: play its frames after those still queued, then show its board
      add: function (answer) {
        if (version !== null && answer.version < version) {  // moves were taken back: the board now, at once
          queue = [];
          if (timer !== null) clearTimeout(timer);
          timer = null;
        }
        version = answer.version;
        queue = queue.concat(answer.frames);
        latest = answer.board;
        if (!playing) next();
      },
      // the board was replaced outside a playback (the page's first board): keep the panel and marks on it
      attach: attach,
      playing: function () { return playing; },
      // whether the moves to come will be shown one at a time (else their boards are not needed)
      boards: function () { return pace() > 0 && !document.hidden; },
      // this reader decided: the others' last round is no longer news
      decided: function () {
        marks.clear();
        sentences = [];
        showSummary();
        attach();
      },
    };
  };
})();
