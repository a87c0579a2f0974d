/* A tap that comes before the page's scripts have wired its buttons (docs/live-match.md,
   "Taps before the scripts"). A move's button (button[ws-send]) is shown with the HTML, but htmx
   sends it only once it has processed the page; on a slow phone the scripts may come a while
   after the buttons. Such a tap did nothing, or, once match.js had come but not htmx, laid
   the card on the table while nothing was sent. Loaded in the head, not deferred, so it is
   listening before any button can be tapped: it holds the last such tap and makes it again
   as soon as htmx has processed the page (htmx sends it when the socket opens). */
(function () {
  "use strict";
  var wired = false;
  var held = null;  // the button of the last tap that came too early

  document.addEventListener("click", function (event) {
    if (wired) return;
    var button = event.target.closest && event.target.closest("button[ws-send]");
    if (!button) return;
    event.preventDefault();
    event.stopImmediatePropagation();  // match.js must not answer a move nobody sends
    held = button;
  }, true);

  document.addEventListener("htmx:load", function (event) {
    if (wired || event.target !== document.body) return;  // the first: htmx processed the page
    wired = true;
    // Nothing redraws the page before htmx has processed it (the socket is not open yet), so
    // the button tapped is still the one on the page.
    if (held && held.isConnected && !held.disabled) held.click();
    held = null;
  });
})();
