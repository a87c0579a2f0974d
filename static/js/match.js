// The live table's small helpers: the move clock countdown and tidy joker menus.
// Everything else is server-rendered HTML that htmx swaps in over the websocket.
(function () {
  "use strict";

  function secondsUntil(iso) {
    return Math.max(0, Math.ceil((Date.parse(iso) - Date.now()) / 1000));
  }

  // "30 წმ", "30 с", "30s": the page's own words (the browser's Intl may lack Georgian).
  function secondsText(n) {
    var page = document.querySelector("[data-seconds-format]");
    var format = page ? page.getAttribute("data-seconds-format") : "{n}s";
    return format.replace("{n}", String(n));
  }

  function tickClock() {
    var match = document.getElementById("match");
    if (!match) return;
    var clock = match.querySelector(".clock-value");
    var deadline = match.getAttribute("data-deadline");
    if (clock && deadline) {
      var left = secondsUntil(deadline);
      clock.textContent = secondsText(left);
      clock.parentElement.classList.toggle("clock-low", left <= 5);
    }
    match.querySelectorAll(".disconnected-note[data-until]").forEach(function (note) {
      var out = note.querySelector(".grace");
      if (out) out.textContent = secondsText(secondsUntil(note.getAttribute("data-until")));
    });
  }
  setInterval(tickClock, 250);

  // A joker's menu closes when another one opens.
  document.addEventListener("toggle", function (event) {
    var opened = event.target;
    if (!opened.classList || !opened.classList.contains("joker-choice") || !opened.open) return;
    document.querySelectorAll("details.joker-choice[open]").forEach(function (other) {
      if (other !== opened) other.open = false;
    });
  }, true);

  // No resync request on (re)connecting: the server sends the current position on every
  // connect, and a second copy would replace the match area again while someone taps it.

  // A sent move disables the buttons until the new position arrives (no double plays).
  document.addEventListener("htmx:wsAfterSend", function () {
    var match = document.getElementById("match");
    if (match) match.classList.add("waiting-for-server");
  });
})();
