// The summary after a deal (games/templates/games/_deal_summary.html): the server sends the
// last scored deal with every position; this shows it when a new deal has just been scored
// (or, on opening the page, when nobody has acted in the next deal yet), for its few
// seconds or until the player closes it. Every live update replaces the element, so the
// state lives here, by deal number.
(function () {
  "use strict";
  var seenDeal = null;      // the deal of the summary the page had before this update
  var shownSince = {};      // deal number -> when its summary was first shown
  var closed = {};          // deal number -> closed by the player
  var timer = null;

  function summary() { return document.getElementById("deal-summary"); }

  function update() {
    var box = summary();
    if (!box) {
      if (seenDeal === null) seenDeal = 0;  // no deal scored yet: the first one will be new
      return;
    }
    var deal = Number(box.getAttribute("data-deal"));
    var seconds = Number(box.getAttribute("data-seconds")) || 6;
    var isNew = seenDeal === null ? box.hasAttribute("data-fresh") : deal > seenDeal;
    seenDeal = deal;
    if (isNew && !(deal in shownSince)) shownSince[deal] = Date.now();
    var left = deal in shownSince ? shownSince[deal] + seconds * 1000 - Date.now() : 0;
    var show = left > 0 && !closed[deal];
    box.hidden = !show;
    if (timer) clearTimeout(timer);
    timer = show ? setTimeout(update, left + 20) : null;
  }

  function close(deal) {
    closed[deal] = true;
    update();
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-dismiss-summary]");
    var box = summary();
    if (button && box) close(Number(box.getAttribute("data-deal")));
  });
  document.addEventListener("keydown", function (event) {
    var box = summary();
    if (event.key === "Escape" && box && !box.hidden) close(Number(box.getAttribute("data-deal")));
  });
  document.addEventListener("htmx:wsAfterMessage", update);
  document.addEventListener("htmx:afterSettle", update);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", update);
  else update();
})();
