// Try-it boards on the rules pages: the reader plays one card of a scripted trick.
// The server (rules_pages.views.try_board) says which cards are allowed and who
// wins; this script only asks and shows. Without JavaScript the board's <noscript>
// text gives the same answer.
(function () {
  "use strict";

  function setup(board) {
    var endpoint = board.dataset.endpoint;
    var classic = board.dataset.variant === "classic";
    var buttons = Array.prototype.slice.call(board.querySelectorAll(".card-btn"));
    var message = board.querySelector(".try-board__message");
    var why = board.querySelector(".try-board__why");
    var jokerChooser = board.querySelector(".try-board__joker");
    var hint = board.querySelector(".try-board__hint");
    var reset = board.querySelector(".try-board__reset");
    var trick = board.querySelector(".try-board__trick");
    var startTrick = trick.innerHTML;
    var pendingJoker = null;

    function ask(choice) {
      var url = endpoint + (choice ? "?choice=" + encodeURIComponent(choice) : "");
      return fetch(url, { headers: { Accept: "application/json" } }).then(function (response) {
        return response.json().then(function (body) {
          if (!response.ok) { throw new Error(body.error || response.statusText); }
          return body;
        });
      });
    }

    function markLegal(legal) {
      buttons.forEach(function (button) {
        var allowed = legal.indexOf(button.dataset.card) !== -1;
        button.classList.toggle("is-legal", allowed);
        button.classList.toggle("is-illegal", !allowed);
      });
    }

    function say(text, tone) {
      message.textContent = text;
      message.dataset.tone = tone || "";
    }

    function finish(answer) {
      trick.innerHTML = answer.trick_html;
      buttons.forEach(function (button) {
        button.disabled = true;
        if (answer.choice.split(":")[0] === button.dataset.card) { button.classList.add("is-played"); }
      });
      hint.disabled = true;
      reset.hidden = false;
      why.hidden = false;
      say(answer.message, "good");
    }

    function play(choice) {
      jokerChooser.hidden = true;
      ask(choice).then(function (answer) {
        if (answer.allowed) { finish(answer); return; }
        markLegal(answer.legal);
        why.hidden = false;
        say(answer.message, "bad");
      }).catch(function (error) { say(error.message, "bad"); });
    }

    buttons.forEach(function (button) {
      button.disabled = false;
      button.addEventListener("click", function () {
        var card = button.dataset.card;
        if (classic && (card === "X1" || card === "X2")) {
          pendingJoker = card;
          jokerChooser.hidden = false;
          jokerChooser.querySelector("button").focus();
          return;
        }
        play(card);
      });
    });
    Array.prototype.forEach.call(jokerChooser.querySelectorAll("button"), function (button) {
      button.addEventListener("click", function () { play(pendingJoker + ":" + button.dataset.mode); });
    });
    hint.disabled = false;
    hint.addEventListener("click", function () {
      ask(null).then(function (answer) {
        markLegal(answer.legal);
        why.hidden = false;
      }).catch(function (error) { say(error.message, "bad"); });
    });
    reset.addEventListener("click", function () {
      trick.innerHTML = startTrick;
      buttons.forEach(function (button) {
        button.disabled = false;
        button.classList.remove("is-legal", "is-illegal", "is-played");
      });
      hint.disabled = false;
      reset.hidden = true;
      why.hidden = true;
      jokerChooser.hidden = true;
      say("");
      buttons[0].focus();
    });
  }

  function init() {
    Array.prototype.forEach.call(document.querySelectorAll(".try-board[data-endpoint]"), setup);
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); } else { init(); }
})();
