// The replay's keyboard: ← → step, Page Up / Page Down jump between deals, Home / End.
// Each key presses the matching step link, which htmx turns into an in-place swap
// (and which, without JavaScript, is an ordinary link to ?step=N).
(function () {
  "use strict";

  var KEYS = ["ArrowLeft", "ArrowRight", "PageUp", "PageDown", "Home", "End"];

  function typingIn(target) {
    return target && (target.isContentEditable || /^(INPUT|SELECT|TEXTAREA|BUTTON)$/.test(target.tagName));
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (KEYS.indexOf(event.key) < 0 || typingIn(event.target)) return;
    var replay = document.getElementById("replay");
    if (!replay) return;
    var link = replay.querySelector('a[data-key="' + event.key + '"]');
    if (!link) return;
    event.preventDefault();
    link.click();
  });

  // The score sheet stands open beside the replay (the live table folds it for Japanese Joker).
  function openScoreSheet() {
    document.querySelectorAll("#replay details.score-sheet").forEach(function (sheet) { sheet.open = true; });
  }
  document.addEventListener("DOMContentLoaded", openScoreSheet);
  document.addEventListener("htmx:afterSettle", openScoreSheet);
})();
