// The lesson works without this file. With it (and htmx), after the board is swapped the
// host's answer gets the focus, so it is read out and scrolled into view; and only one
// joker menu is open at a time.
(function () {
  "use strict";
  document.addEventListener("htmx:afterSwap", function (event) {
    var verdict = document.getElementById("lesson-verdict");
    if (verdict) {
      verdict.focus({ preventScroll: true });
      verdict.scrollIntoView({ block: "nearest", behavior: "smooth" });
    }
  });
  document.addEventListener("toggle", function (event) {
    var opened = event.target;
    if (!opened.matches || !opened.matches("details.joker-choice") || !opened.open) return;
    document.querySelectorAll("details.joker-choice[open]").forEach(function (other) {
      if (other !== opened) other.open = false;
    });
  }, true);
})();
