// The replay page: one step per numbered line of the reader's log ("Move n" is line n of the log). The view choice
// changes which log, so it reloads the page at the step showing the same number of actions. The slider goes to its
// step at once, ←/→ step, Home/End jump, and "play" steps on every second until the end. Each step is fetched and
// swapped in (the address follows), so autoplay does not reload the page. No inline script (the pages'
// Content-Security-Policy forbids it).
(function () {
  "use strict";
  const form = document.getElementById("replay");
  if (!form) return;
  const slider = document.getElementById("replay-step"), seat = document.getElementById("replay-seat");
  const play = document.getElementById("replay-play"), total = Number(form.dataset.total);
  let timer = null, busy = false;

  function address(step) {
    const params = new URLSearchParams(location.search);
    params.set("step", String(step));
    params.delete("version");
    if (seat.value === "") params.delete("seat"); else params.set("seat", seat.value);
    return location.pathname + "?" + params.toString();
  }

  async function go(step) {
    step = Math.max(0, Math.min(total, step));
    if (busy) return;
    busy = true;
    try {
      const answer = await fetch(address(step), { cache: "no-store" });
      if (!answer.ok) return;
      const page = new DOMParser().parseFromString(await answer.text(), "text/html");
      ["main"].forEach(function (selector) {
        const fresh = page.querySelector(selector + " .replay-board"), old = document.querySelector(".replay-board");
        if (fresh && old) old.replaceWith(fresh);
        const freshSecrets = page.querySelector(".secrets"), oldSecrets = document.querySelector(".secrets");
        if (freshSecrets && oldSecrets) oldSecrets.replaceWith(freshSecrets);
        const freshButtons = page.querySelector(".replay-buttons"), oldButtons = document.querySelector(".replay-buttons");
        if (freshButtons && oldButtons) {
          // keep the play button (and its listener): swap only the links' addresses
          oldButtons.querySelectorAll("a[rel]").forEach(function (a) {
            const twin = freshButtons.querySelector("a[rel=" + a.getAttribute("rel") + "]");
            if (twin) a.href = twin.getAttribute("href");
          });
        }
      });
      slider.value = String(step);
      form.querySelector("output").textContent = step + "/" + total;
      history.replaceState(null, "", address(step));
    } finally {
      busy = false;
    }
  }

  function stop() {
    if (timer) { clearInterval(timer); timer = null; }
    play.textContent = play.dataset.play;
    play.setAttribute("aria-pressed", "false");
  }
  function start() {
    if (Number(slider.value) >= total) go(0);
    play.textContent = play.dataset.pause;
    play.setAttribute("aria-pressed", "true");
    timer = setInterval(function () {
      const next = Number(slider.value) + 1;
      if (next > total) { stop(); return; }
      go(next);
    }, 1000);
  }

  slider.addEventListener("input", function () { stop(); go(Number(slider.value)); });
  seat.addEventListener("change", function () {
    stop();
    const params = new URLSearchParams(location.search), shown = document.querySelector(".replay-board");
    params.delete("step");
    params.set("version", shown ? shown.dataset.actions : "0");
    if (seat.value === "") params.delete("seat"); else params.set("seat", seat.value);
    location.href = location.pathname + "?" + params.toString();
  });
  play.addEventListener("click", function () { if (timer) stop(); else start(); });
  form.addEventListener("click", function (event) {
    const link = event.target.closest("a[rel]");
    if (!link) return;
    event.preventDefault();
    stop();
    const rel = link.getAttribute("rel"), now = Number(slider.value);
    go(rel === "first" ? 0 : rel === "last" ? total : rel === "prev" ? now - 1 : now + 1);
  });
  document.addEventListener("keydown", function (event) {
    if (event.target.closest("input, select, textarea") && event.target !== slider) return;
    const now = Number(slider.value);
    let step = null;
    if (event.key === "ArrowLeft") step = now - 1;
    else if (event.key === "ArrowRight") step = now + 1;
    else if (event.key === "Home") step = 0;
    else if (event.key === "End") step = total;
    if (step === null) return;
    event.preventDefault();
    stop();
    go(step);
  });
})();
