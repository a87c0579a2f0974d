/* The theme and the card faces (docs/accounts.md, "Appearance"). Loaded in the head, not
   deferred, so the page is painted in its colours from the start.
   <html data-theme> is light, dark or system, <html data-deck> the card faces; this script
   settles data-scheme (light or dark, what the stylesheets read) from the theme and the
   device's setting, and follows the device when it changes. A member's choice comes with
   the page (data-appearance-remembered) and is saved on the server; anyone else's lives
   in this browser's storage. */
(function () {
  "use strict";
  var root = document.documentElement;
  var STORAGE = { theme: "joker.theme", deck: "joker.deck" };
  var deviceDark = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  var remembered = root.hasAttribute("data-appearance-remembered");

  function stored(key) {
    try { return window.localStorage.getItem(key); } catch (error) { return null; }
  }
  function store(key, value) {
    try { window.localStorage.setItem(key, value); } catch (error) { /* this page only */ }
  }
  function settleScheme() {
    var theme = root.getAttribute("data-theme");
    var dark = theme === "dark" || (theme === "system" && deviceDark !== null && deviceDark.matches);
    root.setAttribute("data-scheme", dark ? "dark" : "light");
  }

  if (!remembered) {
    ["theme", "deck"].forEach(function (name) {
      var value = stored(STORAGE[name]);
      if (value) root.setAttribute("data-" + name, value);
    });
  }
  settleScheme();
  if (deviceDark !== null && deviceDark.addEventListener) deviceDark.addEventListener("change", settleScheme);

  function choose(form, name) {
    var value = form.elements[name].value;
    root.setAttribute("data-" + name, value);
    if (!remembered) store(STORAGE[name], value);
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("form.appearance");
    if (!form) return;
    ["theme", "deck"].forEach(function (name) {
      var select = form.elements[name];
      var value = root.getAttribute("data-" + name);
      if (select.querySelector('option[value="' + value + '"]')) select.value = value;
    });
    // Each choice takes effect as it is made: the button is for pages without scripts.
    form.classList.add("appearance--live");
    form.addEventListener("change", function () {
      choose(form, "theme");
      choose(form, "deck");
      settleScheme();
      if (remembered) {
        fetch(form.action, {
          method: "POST", body: new FormData(form), credentials: "same-origin",
          headers: { "X-Requested-With": "fetch" },
        }).catch(function () { /* offline: the choice holds on this page, the next save keeps it */ });
      }
    });
  });
})();
