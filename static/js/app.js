/* Every page's frame (templates/base.html): the service worker, the offline note and the
   iPhone's add-to-home-screen hint (docs/pwa.md). */
(function () {
  "use strict";

  if ("serviceWorker" in navigator) {
    // A browser that refuses (a private window, storage off) simply has no offline pages.
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
  }

  // Live pages (a websocket) come back by themselves: the socket extension reconnects after
  // an abnormal close. Its own wait grows to a minute; a few seconds at most, so a table is
  // back soon after the network is.
  // (This script runs after htmx and its socket extension: all three are deferred, in order.)
  if (window.htmx) {
    window.htmx.config.wsReconnectDelay = function (retries) {
      return Math.min(500 * Math.pow(2, retries), 4000) * (0.5 + Math.random() / 2);
    };
  }

  // The offline note: shown while the browser has no network or a live page's socket was
  // cut, hidden when the network and the socket are back.
  var socketsDown = 0;
  var downSockets = new WeakSet();
  function showOfflineNote() {
    var note = document.getElementById("offline-note");
    if (note) note.hidden = navigator.onLine && socketsDown === 0;
  }
  window.addEventListener("offline", showOfflineNote);
  window.addEventListener("online", showOfflineNote);
  document.addEventListener("htmx:wsClose", function (event) {
    var code = event.detail && event.detail.event && event.detail.event.code;
    // 1006 and the server's "try again" codes are the ones the extension reconnects after.
    if ([1006, 1011, 1012, 1013].indexOf(code) >= 0 && !downSockets.has(event.target)) {
      downSockets.add(event.target);
      socketsDown += 1;
      showOfflineNote();
    }
  });
  document.addEventListener("htmx:wsOpen", function (event) {
    if (downSockets.has(event.target)) {
      downSockets.delete(event.target);
      socketsDown -= 1;
    }
    showOfflineNote();
  });
  document.addEventListener("DOMContentLoaded", showOfflineNote);

  // On a small or zoomed phone the menu is one row that scrolls sideways (site.css): the
  // page's own item may lie past the row's edge, and the reader would not see where they are.
  // Bring it into the row's view, moving the row only (scrollIntoView could move the page too).
  // Again once the web fonts are in: the Georgian font widens the items after the first layout.
  function showCurrentMenuItem() {
    var current = document.querySelector(".site-nav a[aria-current]");
    var row = current && current.closest("ul");
    if (!row || row.scrollWidth <= row.clientWidth) return;
    var item = current.getBoundingClientRect();
    var box = row.getBoundingClientRect();
    if (item.left >= box.left && item.right <= box.right) return;
    row.scrollLeft += item.left - box.left - (box.width - item.width) / 2;
  }
  document.addEventListener("DOMContentLoaded", function () {
    showCurrentMenuItem();
    if (document.fonts) document.fonts.ready.then(showCurrentMenuItem);
  });
  window.addEventListener("load", showCurrentMenuItem);

  // iPhone and iPad Safari install only through Share → Add to Home Screen (and push works
  // there only for a site added so): a short hint, once, until dismissed.
  var HINT_DISMISSED = "joker.installHintDismissed";
  function isIosSafari() {
    var agent = navigator.userAgent;
    var ios = /iPhone|iPad|iPod/.test(agent) || (/Macintosh/.test(agent) && navigator.maxTouchPoints > 1);
    return ios && /Safari/.test(agent) && !/CriOS|FxiOS|EdgiOS/.test(agent);
  }
  function isInstalled() {
    return navigator.standalone === true || window.matchMedia("(display-mode: standalone)").matches;
  }
  function remembered(key) {
    try { return window.localStorage.getItem(key); } catch (error) { return null; }
  }
  document.addEventListener("DOMContentLoaded", function () {
    var hint = document.getElementById("install-hint");
    if (!hint || !isIosSafari() || isInstalled() || remembered(HINT_DISMISSED)) return;
    hint.hidden = false;
    hint.querySelector("[data-dismiss-install-hint]").addEventListener("click", function () {
      hint.hidden = true;
      try { window.localStorage.setItem(HINT_DISMISSED, "1"); } catch (error) { /* kept for this page only */ }
    });
  });
})();
