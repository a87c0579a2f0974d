// The summary after a deal (games/templates/games/_deal_summary.html): the server puts it
// where the trick will be, as one line, until the next deal's first card. A tap on the line
// opens the whole summary as a sheet over the table; the sheet closes with its ✕, Escape
// or a second tap on the line. Every live update replaces the element, so whether the
// player has the sheet open lives here, by deal number.
(function () {
  "use strict";
  var openDeal = null;  // the deal whose sheet the player opened

  function summary() { return document.getElementById("deal-summary"); }
  function dealOf(box) { return Number(box.getAttribute("data-deal")); }

  function update() {
    var box = summary();
    if (!box) { openDeal = null; return; }
    var open = openDeal === dealOf(box);
    if (box.open !== open) box.open = open;
  }

  function close() {
    var box = summary();
    openDeal = null;
    if (box) {
      box.open = false;
      box.querySelector("summary").focus({ preventScroll: true });
    }
  }

  document.addEventListener("toggle", function (event) {
    var box = event.target;
    if (box.id !== "deal-summary") return;
    if (box.open) openDeal = dealOf(box);
    else if (openDeal === dealOf(box)) openDeal = null;
  }, true);
  document.addEventListener("click", function (event) {
    if (!event.target.closest) return;
    if (event.target.closest("[data-dismiss-summary]")) { close(); return; }
    // Noted at the tap, not only when "toggle" comes (a task later): an update swapped in
    // between would otherwise draw the summary closed again.
    var line = event.target.closest(".deal-summary-line");
    var box = summary();
    if (line && box && box.contains(line)) openDeal = box.open ? null : dealOf(box);
  });
  document.addEventListener("keydown", function (event) {
    var box = summary();
    if (event.key === "Escape" && box && box.open) close();
  });
  document.addEventListener("htmx:wsAfterMessage", update);
  document.addEventListener("htmx:afterSettle", update);
})();
