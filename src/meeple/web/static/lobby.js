// The lobby remembers the name you typed last (this browser's local storage) for "Play now" and "Join".
// No inline script (the pages' Content-Security-Policy forbids it). The name is plain text: the server cleans and
// bounds it (docs/server.md), and the pages escape it.
(function () {
  "use strict";
  const KEY = "meeple-name";
  let saved = "";
  try { saved = localStorage.getItem(KEY) || ""; } catch (e) { /* storage off: nothing remembered */ }
  document.querySelectorAll("input.player-name").forEach(function (input) {
    if (!input.value) input.value = saved;
    input.form.addEventListener("submit", function () {
      try { localStorage.setItem(KEY, input.value.trim()); } catch (e) { /* storage off */ }
    });
  });
  // "Play now" sends its form once: a second click waits for the first (the server also seats a resent form once)
  document.querySelectorAll("form.play-now").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (form.dataset.sent) { event.preventDefault(); return; }
      form.dataset.sent = "1";
    });
  });
})();

// "invite a player by name" (a seat's choice): its username field is shown only for that choice (issue #44, item 2).
(function () {
  "use strict";
  document.querySelectorAll("select[name^='seat_']").forEach(function (select) {
    const field = select.form.querySelector("input[name='invite_" + select.name.slice(5) + "']");
    if (!field) return;
    const label = field.closest("label");
    function show() {
      const inviting = select.value === "invite";
      label.hidden = !inviting;
      field.required = inviting;
    }
    select.addEventListener("change", show);
    show();
  });
})();
