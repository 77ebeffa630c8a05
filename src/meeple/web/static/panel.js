// The side panel's bar on a phone (issue #43 item 2): a tap on the bar opens or closes the players and the log. The
// board is swapped after every move (app.js, replay.js): a new panel takes the state the player chose. On a desktop
// the panel is always open (style.css) and the bar is not shown. No inline script (the pages' CSP).
(function () {
  "use strict";
  let open = false;
  function apply() {
    document.querySelectorAll(".side-panel").forEach(function (panel) {
      if (panel.classList.contains("open") !== open) panel.classList.toggle("open", open);
      const toggle = panel.querySelector(".panel-toggle");
      if (toggle && toggle.getAttribute("aria-expanded") !== String(open)) toggle.setAttribute("aria-expanded", String(open));
    });
  }
  document.addEventListener("click", function (event) {
    if (!event.target.closest || !event.target.closest(".panel-toggle")) return;
    open = !open;
    apply();
  });
  new MutationObserver(apply).observe(document.body, { childList: true, subtree: true });
  apply();
})();
