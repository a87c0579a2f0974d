/* The header's friends online and notices menus (templates/_header_social.html):
   one open at a time, Escape or a click elsewhere closes it and gives focus back,
   and focus stays in the notices list when a notice there is marked read. */
(function () {
  "use strict";
  function menus() { return document.querySelectorAll(".social-menu"); }
  function closeAll(except) {
    menus().forEach(function (menu) { if (menu !== except) menu.open = false; });
  }
  document.addEventListener("toggle", function (event) {
    if (event.target.classList && event.target.classList.contains("social-menu") && event.target.open) {
      closeAll(event.target);
    }
  }, true);
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var open = document.querySelector(".social-menu[open]");
    if (!open) return;
    open.open = false;
    open.querySelector("summary").focus();
  });
  document.addEventListener("click", function (event) {
    if (!event.target.closest || !event.target.closest(".social-menu")) closeAll(null);
  });
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (!target || target.id !== "notices-list") return;
    var active = document.activeElement;
    if (!active || active === document.body) {
      var menu = target.closest(".social-menu");
      if (menu && menu.open) {
        var first = target.querySelector("a, button");
        (first || menu.querySelector("summary")).focus();
      }
    }
  });
}());
