// The table chat panel (chat/templates/chat/_panel.html). Its messages arrive on the table's
// socket as <div class="chat-frame" data-chat="..."> frames: this script takes them before
// match.js (which lays out positions) and applies them here. On a phone the panel is a
// button with the count of unread messages that opens a sheet; on a wide screen a column.
(function () {
  "use strict";

  function panel() { return document.getElementById("chat"); }
  function log() { return document.getElementById("chat-log"); }
  function status(text, isError) {
    var line = document.getElementById("chat-status");
    if (!line) return;
    line.textContent = text || "";
    line.classList.toggle("error", !!isError);
  }

  var unread = 0;

  function sheetShown() {
    var p = panel();
    if (!p) return false;
    var sheet = p.querySelector(".chat-sheet");
    return !!sheet && window.getComputedStyle(sheet).display !== "none";
  }

  function showUnread() {
    var p = panel();
    if (!p) return;
    var badge = p.querySelector(".chat-unread");
    var said = p.querySelector(".chat-unread-said");
    badge.hidden = unread === 0;
    badge.textContent = unread > 99 ? "99+" : String(unread);
    said.textContent = unread ? said.getAttribute("data-format").replace("{n}", unread) : "";
  }

  function scrollDown() {
    var list = log();
    if (list) list.scrollTop = list.scrollHeight;
  }

  function setOpen(open) {
    var p = panel();
    if (!p) return;
    p.classList.toggle("open", open);
    p.querySelector(".chat-toggle").setAttribute("aria-expanded", open ? "true" : "false");
    if (open) {
      unread = 0;
      showUnread();
      scrollDown();
      var first = p.querySelector("#chat-text") || p.querySelector(".chat-phrase");
      if (first) first.focus({ preventScroll: true });
    } else {
      p.querySelector(".chat-toggle").focus({ preventScroll: true });
    }
  }

  function idOf(item) { return Number(item.getAttribute("data-id")); }

  // The room's last messages, sent each time the socket opens: what was said while it was
  // closed goes in its place by id, and what the moderators hid meanwhile goes away.
  function catchUp(list, frame) {
    var items = Array.prototype.slice.call(frame.querySelectorAll("li"));
    // An empty list: the room has nothing left to show, so all this page shows was hidden.
    var oldest = items.length ? idOf(items[0]) : -Infinity;
    var kept = {};
    items.forEach(function (item) { kept[item.id] = true; });
    Array.prototype.forEach.call(list.querySelectorAll("li.chat-msg"), function (shown) {
      if (idOf(shown) >= oldest && !kept[shown.id]) shown.remove();
    });
    emptied();
    var inserted = 0, fromOthers = 0;
    items.forEach(function (item) {
      if (document.getElementById(item.id)) return;
      var later = Array.prototype.find.call(list.querySelectorAll("li.chat-msg"), function (shown) {
        return idOf(shown) > idOf(item);
      });
      list.insertBefore(item, later || null);
      htmx.process(item);
      inserted += 1;
      if (!item.classList.contains("mine")) fromOthers += 1;
    });
    if (inserted) arrived(fromOthers);
  }

  // After messages left the log: with none left, the "no messages yet" line is back.
  function emptied() {
    var empty = panel().querySelector(".chat-empty");
    if (empty && !log().querySelector("li.chat-msg")) empty.hidden = false;
  }

  // After messages went into the log: the "no messages yet" line goes, the ones from others
  // count as unread while the phone's sheet is closed, and the log shows the newest.
  function arrived(fromOthers) {
    var empty = panel().querySelector(".chat-empty");
    if (empty) empty.hidden = true;
    if (fromOthers && !sheetShown()) {
      unread += fromOthers;
      showUnread();
    }
    scrollDown();
  }

  function apply(frame) {
    var action = frame.getAttribute("data-chat");
    var note = frame.getAttribute("data-note") || "";
    var list = log();
    if (!list) return;
    if (action === "add") {
      var item = frame.querySelector("li");
      if (!item || document.getElementById(item.id)) return;
      list.appendChild(item);
      htmx.process(item);
      var mine = !!frame.getAttribute("data-mine");
      if (mine) {
        var input = document.getElementById("chat-text");
        if (input && !item.hasAttribute("data-phrase") && !item.classList.contains("phrase")) input.value = "";
        status(note, false);
      }
      arrived(mine ? 0 : 1);
    } else if (action === "refused") {
      status(note, true);
    } else if (action === "reported") {
      var reported = document.getElementById("chat-msg-" + frame.getAttribute("data-id"));
      var button = reported && reported.querySelector(".chat-report");
      if (button) {
        var done = document.createElement("span");
        done.className = "chat-reported";
        done.textContent = button.getAttribute("data-done") || "✓";
        button.replaceWith(done);
      }
      status(note, false);
    } else if (action === "history") {
      catchUp(list, frame);
    } else if (action === "remove") {
      var gone = document.getElementById("chat-msg-" + frame.getAttribute("data-id"));
      if (gone) gone.remove();
      emptied();
    }
  }

  // Before match.js (a listener on the window, in the capture phase, runs first).
  window.addEventListener("htmx:wsBeforeMessage", function (event) {
    var message = event.detail && event.detail.message;
    if (typeof message !== "string" || message.lastIndexOf('<div class="chat-frame"', 0) !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    var holder = document.createElement("template");
    holder.innerHTML = message;
    Array.prototype.forEach.call(holder.content.querySelectorAll(".chat-frame"), apply);
  }, true);

  document.addEventListener("click", function (event) {
    if (event.target.closest(".chat-toggle")) setOpen(!panel().classList.contains("open"));
    else if (event.target.closest(".chat-close")) setOpen(false);
  });

  document.addEventListener("keydown", function (event) {
    var p = panel();
    if (event.key === "Escape" && p && p.classList.contains("open") && p.contains(event.target)) setOpen(false);
  });

  document.addEventListener("DOMContentLoaded", scrollDown);
})();
