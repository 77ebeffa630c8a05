// Tap, then tap (issue #43 item 3): a move that takes a piece somewhere is played by tapping the piece (an element
// with data-pick="KEY": a tower's top piece, a building, a roof, a card) and then one of its destinations (buttons
// with data-for="KEY", hidden until their piece is picked, each a legal move with its data-action-code). Only the
// picked piece's destinations are shown, one button each, and the places they stand in (their data-key element) are
// marked. Tapping the piece again, Escape, or another piece changes the choice; a board with one piece to pick
// has it picked already. The moves' list under the board
// stays the fallback (and what screen readers read in one go). No inline script or style (the pages' CSP).
(function () {
  "use strict";

  window.MeepleTaps = function (board) {
    let picked = null;

    function reset() {
      if (picked !== null) {
        board.querySelectorAll("[data-pick].picked").forEach(function (e) {
          e.classList.remove("picked");
          e.setAttribute("aria-expanded", "false");
        });
        board.querySelectorAll("[data-for]").forEach(function (e) { e.hidden = true; });
        board.querySelectorAll(".destination").forEach(function (e) { e.classList.remove("destination"); });
      }
      picked = null;
    }

    function show(piece) {
      const key = piece.dataset.pick;
      picked = key;
      piece.classList.add("picked");
      piece.setAttribute("aria-expanded", "true");
      let first = null;
      board.querySelectorAll("[data-for]").forEach(function (e) {
        if (e.dataset.for !== key) return;
        e.hidden = false;
        first = first || e;
        const place = e.closest("[data-key]");
        if (place) place.classList.add("destination");
      });
      if (first && piece.matches(":focus-visible")) first.focus();  // a keyboard user goes on to the destinations
      return first;
    }
    // none of the destinations on the screen (a Capital above the hand, on a phone): the first one comes into view
    function reveal(first) {
      const shown = Array.from(board.querySelectorAll("[data-for]:not([hidden])")).some(function (e) {
        const box = e.getBoundingClientRect();
        return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
      });
      if (first && !shown) first.scrollIntoView({ block: "center" });
    }

    return {
      reset: reset,
      // a new board: when only one piece may be picked, it is picked already (its destinations show at once)
      fresh: function () {
        reset();
        const pieces = board.querySelectorAll("[data-pick]:not([aria-disabled=true])");
        const keys = new Set(Array.from(pieces).map(function (e) { return e.dataset.pick; }));
        if (keys.size === 1) show(pieces[0]);
      },
      // a tap on a piece (or inside one): pick it, or drop it if it was picked; true when the tap was for a piece
      pick: function (target, disabled) {
        const piece = target.closest("[data-pick]");
        if (!piece || target.closest("[data-for]")) return false;
        if (disabled || piece.getAttribute("aria-disabled") === "true") return false;
        const again = picked === piece.dataset.pick;
        reset();
        if (!again) reveal(show(piece));
        return true;
      },
    };
  };
})();
