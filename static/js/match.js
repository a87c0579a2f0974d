// The live table in the browser. The server renders every position (games/_match.html)
// and pushes it over the websocket; this script only presents it:
// - it takes over htmx's handling of the socket's messages, so that the cards that arrived
//   in one update (bots, the server's moves) are laid on the table one by one at a
//   person's pace (data-pace, BOT_PACE_SECONDS), a finished trick stays on the table at
//   least a second with its taker marked and then goes to them; then the new position is
//   swapped in (a View Transition where the browser has one, so my card travels);
// - sounds (Web Audio, made here; a mute switch remembered in localStorage), the tab's
//   title while it is in the background, announcements for screen readers;
// - a card I may not play says why (its reason is in the page: the engine's refusal);
//   arrow keys move between my cards; focus stays in place across updates;
// - the move clocks, the drawer with the score sheet, tidy joker menus.
// It decides nothing: every move is checked by the server.
(function () {
  "use strict";

  document.documentElement.classList.add("js");
  // The drawer slides only once the page is laid out with this script: it would otherwise
  // slide from its place in the page (where it is without script) off the screen, the score
  // sheet flashing over the hand as the table opens.
  requestAnimationFrame(function () {
    requestAnimationFrame(function () { document.documentElement.classList.add("drawer-ready"); });
  });
  var reducedMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)");

  function match() { return document.getElementById("match"); }
  function wait(ms) { return new Promise(function (resolve) { setTimeout(resolve, ms); }); }
  function moving() { return !(reducedMotion && reducedMotion.matches); }

  // --- sounds -------------------------------------------------------------------
  var SOUND_KEY = "joker-sound";
  var audio = null;
  function soundOn() {
    try { return localStorage.getItem(SOUND_KEY) !== "off"; } catch (e) { return true; }
  }
  function setSound(on) {
    try { localStorage.setItem(SOUND_KEY, on ? "on" : "off"); } catch (e) { /* private mode */ }
    syncSoundToggle();
  }
  function syncSoundToggle() {
    document.querySelectorAll(".sound-toggle").forEach(function (button) {
      button.setAttribute("aria-pressed", soundOn() ? "true" : "false");
    });
  }
  // Each sound is a few short tones: [frequency Hz, start s, length s, wave].
  var SOUNDS = {
    card: [[520, 0, 0.06, "triangle"]],
    trick: [[392, 0, 0.08, "triangle"], [523, 0.07, 0.1, "triangle"]],
    turn: [[660, 0, 0.12, "sine"], [880, 0.13, 0.16, "sine"]],
    low: [[880, 0, 0.07, "square"], [880, 0.15, 0.07, "square"]],
    deal: [[523, 0, 0.12, "sine"], [659, 0.12, 0.12, "sine"], [784, 0.24, 0.22, "sine"]],
    refused: [[220, 0, 0.12, "sawtooth"]]
  };
  // Browsers let a page make sound only after the person has touched it: until then,
  // no audio context is made at all (no warnings about a blocked one).
  var touched = false;
  ["pointerdown", "keydown"].forEach(function (type) {
    document.addEventListener(type, function () { touched = true; }, { capture: true, passive: true });
  });
  function play(name) {
    if (!touched || !soundOn() || !SOUNDS[name]) return;
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      audio = audio || new Context();
      if (audio.state === "suspended") audio.resume().catch(function () {});
      var now = audio.currentTime;
      SOUNDS[name].forEach(function (tone) {
        var osc = audio.createOscillator();
        var gain = audio.createGain();
        osc.type = tone[3];
        osc.frequency.value = tone[0];
        gain.gain.setValueAtTime(0.0001, now + tone[1]);
        gain.gain.exponentialRampToValueAtTime(0.12, now + tone[1] + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + tone[1] + tone[2]);
        osc.connect(gain).connect(audio.destination);
        osc.start(now + tone[1]);
        osc.stop(now + tone[1] + tone[2] + 0.02);
      });
    } catch (e) { /* no sound is no harm */ }
  }

  // --- announcements and the tab's title ----------------------------------------
  // What is said in one moment is read as one message.
  var toSay = [];
  function announce(text) {
    var region = document.getElementById("table-announcer");
    if (!region || !text) return;
    if (!toSay.length) {
      setTimeout(function () {
        region.textContent = toSay.join(" ");
        toSay = [];
      }, 30);
    }
    toSay.push(text);
  }
  var pageTitle = document.title;
  function updateTitle() {
    var m = match();
    var cue = m && m.classList.contains("my-turn") && m.querySelector(".whose-move.mine");
    document.title = cue && document.hidden ? "● " + cue.textContent.trim() + " · " + pageTitle : pageTitle;
  }
  document.addEventListener("visibilitychange", updateTitle);

  // --- whether the page is in sight ---------------------------------------------------
  // The server counts a seat's page as in sight from its connection; the page tells it when
  // it goes out of sight and comes back, so a member away from the match gets "your move" as
  // a push (push/receivers.py) and one looking at it does not.
  var tableSocket = null;
  function sayInSight() {
    if (tableSocket) tableSocket.send(JSON.stringify({ type: "visibility", visible: !document.hidden }));
  }
  document.addEventListener("htmx:wsOpen", function (event) {
    if (event.target.closest && event.target.closest(".social")) return;  // the header's own socket
    tableSocket = event.detail.socketWrapper;
    if (document.hidden) sayInSight();
    if (hintWanted) askForHint();
    askForReview();
  });
  document.addEventListener("visibilitychange", sayInSight);

  // --- the clocks -----------------------------------------------------------------
  function secondsUntil(iso) {
    return Math.max(0, Math.ceil((Date.parse(iso) - Date.now()) / 1000));
  }

  // "30 წმ", "30 с", "30s": the page's own words (the browser's Intl may lack Georgian).
  function secondsText(n) {
    var page = document.querySelector("[data-seconds-format]");
    var format = page ? page.getAttribute("data-seconds-format") : "{n}s";
    return format.replace("{n}", String(n));
  }

  var warnedFor = null;
  function tickClocks() {
    var m = match();
    if (!m) return;
    m.querySelectorAll(".clock[data-deadline]").forEach(function (clock) {
      var deadline = clock.getAttribute("data-deadline");
      var left = secondsUntil(deadline);
      var value = clock.querySelector(".clock-value");
      if (value) value.textContent = secondsText(left);
      var low = left <= 5;
      clock.classList.toggle("clock-low", low);
      if (low && left > 0 && warnedFor !== deadline && clock.closest(".player.mine")) {
        warnedFor = deadline;
        play("low");
      }
    });
    // A seat's bank: the server's figure; the seat to act spends it once its move time is over.
    m.querySelectorAll(".bank[data-until]").forEach(function (bank) {
      var left = Math.max(0, (Date.parse(bank.getAttribute("data-until")) - Date.now()) / 1000);
      var full = parseFloat(bank.getAttribute("data-bank"));
      var shown = Math.ceil(Math.min(full, left));
      var value = bank.querySelector(".bank-value");
      if (value) value.textContent = secondsText(shown);
      bank.classList.toggle("bank-running", Date.now() > Date.parse(bank.getAttribute("data-move-until")));
      bank.classList.toggle("bank-empty", shown <= 0);
    });
    m.querySelectorAll(".disconnected-note[data-until]").forEach(function (note) {
      var out = note.querySelector(".grace");
      if (out) out.textContent = secondsText(secondsUntil(note.getAttribute("data-until")));
    });
  }
  setInterval(tickClocks, 250);

  // --- what the page keeps across updates -----------------------------------------
  var extrasOpen = false;
  // The panels a player opens and closes, each as they last left it (an id not here: as the page
  // draws it). Every update draws the table anew: a score sheet just opened closed again at the
  // next move.
  var KEPT_PANELS = ["fair-deal", "score-sheet"];
  var panelOpen = {};
  function myCards(root) {
    return Array.prototype.slice.call((root || document).querySelectorAll(
      "#match .columns.mine .card-button:not(span), #match .hand .card-button:not(span)"));
  }
  function restoreUi(m) {
    m.classList.toggle("extras-open", extrasOpen);
    var toggle = m.querySelector(".extras-toggle");
    if (toggle) toggle.setAttribute("aria-expanded", extrasOpen ? "true" : "false");
    KEPT_PANELS.forEach(function (id) {
      var panel = m.querySelector("#" + id);
      if (panel && id in panelOpen) panel.open = panelOpen[id];
    });
    syncSoundToggle();
    tickClocks();
    updateTitle();
  }

  // --- laying an update on the table ---------------------------------------------
  // The server sends, with a new version, how to lay its cards (games/pacing.py: each step
  // at its time, the cards of other seats a person's pace apart, a finished trick held with
  // its taker marked, then sent to them); the move clock of the seat to act starts when the
  // laying ends, so the page follows the schedule as it is and shows the new position then.
  var queue = [];
  var busy = false;

  function parse(html) {
    var template = document.createElement("template");
    template.innerHTML = html;
    return template.content;
  }

  function slotCards(container) {
    if (!container) return [];
    return Array.prototype.map.call(container.querySelectorAll(":scope > .trick-slot"), function (slot) {
      return slot.getAttribute("data-card");
    });
  }

  // The steps of `next` when it is the version right after the one on the table.
  function layingOf(fragment, old) {
    var element = fragment.querySelector("#match-laying");
    if (!element || !old) return [];
    if (parseInt(element.getAttribute("data-version"), 10) !== parseInt(old.getAttribute("data-version"), 10) + 1) return [];
    try { return JSON.parse(element.getAttribute("data-steps")) || []; } catch (e) { return []; }
  }

  // The cue names who acts: "Bot 2 is thinking…" (the seat's own sentence, in the page).
  function setCue(m, text, seat) {
    var cue = m.querySelector(".whose-move");
    if (!cue) {
      var area = m.querySelector(".action-area");
      if (!area) return;
      cue = document.createElement("p");
      cue.className = "whose-move";
      cue.id = "whose-move";
      area.insertBefore(cue, area.firstChild);
    }
    cue.textContent = text;
    cue.classList.remove("mine");
    m.classList.remove("my-turn");
    m.querySelectorAll(".player.to-act").forEach(function (player) { player.classList.remove("to-act"); });
    var acting = seat === undefined ? null : m.querySelector('.player[data-seat="' + seat + '"]');
    if (acting) acting.classList.add("to-act");
    updateTitle();
  }

  function cueSeat(m, seat) {
    var player = m.querySelector('.player[data-seat="' + seat + '"]');
    setCue(m, (player && player.getAttribute("data-thinking")) || m.getAttribute("data-wait") || "…", seat);
  }

  // The card `step.seat` played, from its place in the new position: the trick just taken
  // or the trick on the table (the seat's view, which the server drew, says which card).
  function layCard(trick, next, step) {
    trick.querySelectorAll(":scope > .taken-trick.showing").forEach(function (shown) { shown.remove(); });
    if (trick.querySelector(':scope > .trick-slot[data-seat="' + step.seat + '"]')) return;  // my own, laid at once
    var from = next.querySelector(step["in"] === "taken" ? ".taken-trick" : ".trick");
    var slot = from && from.querySelector('.trick-slot[data-seat="' + step.seat + '"]');
    if (!slot) return;
    var copy = slot.cloneNode(true);
    copy.style.viewTransitionName = "none";
    copy.classList.add("arrived");
    trick.appendChild(copy);
    play("card");
    announce(copy.getAttribute("data-said"));
  }

  // The trick just taken (with its taker) in place of its cards, until it leaves.
  function showTaken(trick, next) {
    trick.querySelectorAll(":scope > .trick-slot").forEach(function (slot) { slot.remove(); });
    var taken = next.querySelector(".taken-trick");
    if (!taken) return;
    var shown = taken.cloneNode(true);
    shown.hidden = false;
    shown.classList.add("showing");
    shown.querySelectorAll(".trick-slot").forEach(function (slot) { slot.style.viewTransitionName = "none"; });
    trick.appendChild(shown);
    play("trick");
    announce(shown.getAttribute("data-said"));
  }

  // Follow the schedule; the cue names the seat whose card comes next.
  function lay(old, next, steps) {
    var trick = old.querySelector(".trick");
    if (!steps.length || !trick || !moving() || document.hidden) return Promise.resolve(false);
    old.classList.add("laying");
    var started = performance.now();
    var chain = Promise.resolve();
    steps.forEach(function (step, index) {
      chain = chain.then(function () {
        return step.at > 0 ? wait(step.at - (performance.now() - started)) : null;
      }).then(function () {
        if (step.seat !== undefined) layCard(trick, next, step);
        else if (step.taken) showTaken(trick, next);
        else if (step.leaves) trick.querySelectorAll(".taken-trick.showing").forEach(function (shown) { shown.classList.add("leaving"); });
        var coming = steps.slice(index + 1).filter(function (later) { return later.seat !== undefined; })[0];
        if (coming) cueSeat(old, coming.seat);
      });
    });
    return chain.then(function () { return true; });
  }

  // Boxes that scroll inside the table (the phone's drawer, a sheet wider than its column):
  // an update draws them anew, scrolled to their start under the reader's eyes.
  var SCROLLING_BOXES = [".match-extras", ".score-scroll"];
  function rememberScroll(m) {
    return SCROLLING_BOXES.map(function (selector) {
      var box = m && m.querySelector(selector);
      return box ? { top: box.scrollTop, left: box.scrollLeft } : null;
    });
  }
  function restoreScroll(m, was) {
    SCROLLING_BOXES.forEach(function (selector, index) {
      var box = m.querySelector(selector);
      if (box && was[index]) { box.scrollTop = was[index].top; box.scrollLeft = was[index].left; }
    });
  }

  function swapIn(fragment) {
    var old = match();
    var focus = rememberFocus();
    var scrolled = rememberScroll(old);
    Array.prototype.slice.call(fragment.children).forEach(function (element) {
      var target = element.id && document.getElementById(element.id);
      // Every element of a message replaces the one with its id (what htmx's ws extension
      // does with hx-swap-oob="true"); the attribute goes, or htmx.swap would swap it twice.
      element.removeAttribute("hx-swap-oob");
      if (target && staleHint(element)) return;
      if (target) htmx.swap(target, element.outerHTML, { swapStyle: "outerHTML" });
    });
    var now = match();
    if (now && now !== old) {
      now.querySelectorAll(".trick > .trick-slot").forEach(function (slot) {
        if (!old || !old.querySelector('.trick > .trick-slot[data-card="' + slot.getAttribute("data-card") + '"]')) {
          slot.classList.add("arrived");
        }
      });
      restoreUi(now);
      restoreScroll(now, scrolled);
      restoreFocus(focus);
      playKeptCard();
    }
    askForReview();
  }

  // --- a hint ---------------------------------------------------------------------------
  // The hint button asks the server (games/_hint.html comes back beside the hand). It is no
  // move: not a ws-send button, so nothing here takes it for one (no card laid, no wait).
  // A tap before the table's socket has opened (the page shows the button first) is kept and
  // sent when it opens: a CI run lost such a tap.
  var hintWanted = false;
  function askForHint() {
    hintWanted = !tableSocket;
    if (tableSocket) tableSocket.send(JSON.stringify({ type: "hint" }));
  }
  document.addEventListener("click", function (event) {
    var ask = event.target.closest && event.target.closest("#match .hint-ask");
    if (ask && !ask.disabled) askForHint();
  });

  // --- the review of the deal just over ---------------------------------------------
  // The summary's review box (games/_deal_review.html) is worked out when the player opens the
  // summary, once per deal: the server keeps it, and every redraw after shows it.
  var reviewAsked = {};
  function askForReview() {
    var box = document.getElementById("deal-summary");
    var review = document.getElementById("deal-review");
    if (!box || !box.open || !review || !review.hasAttribute("data-ask-review") || !tableSocket) return;
    var deal = review.getAttribute("data-deal");
    if (reviewAsked[deal]) return;
    reviewAsked[deal] = true;
    tableSocket.send(JSON.stringify({ type: "review", deal: Number(deal) }));
  }
  document.addEventListener("toggle", function (event) {
    if (event.target.id === "deal-summary") askForReview();
  }, true);

  // A hint worked out for a position the table has already left (the answer crossed a move).
  function staleHint(element) {
    var m = match();
    return element.id === "match-hint" && element.hasAttribute("data-version") && m &&
      m.getAttribute("data-version") !== element.getAttribute("data-version");
  }

  function takenKey(root) {
    var taken = root && root.querySelector(".taken-trick");
    return taken ? taken.getAttribute("data-key") : null;
  }

  function noticeChanges(old, next, laid) {
    if (!old || !next) return;
    var myTurnNow = next.classList.contains("my-turn");
    if (!laid && takenKey(next) && takenKey(next) !== takenKey(old)) {
      play("trick");  // a trick laid by the schedule said so as it was held
      announce(next.querySelector(".taken-trick").getAttribute("data-said"));
    }
    if (old.getAttribute("data-deal") !== next.getAttribute("data-deal")) play("deal");
    if (myTurnNow && !old.classList.contains("my-turn")) {
      play("turn");
      var cue = next.querySelector(".whose-move");
      if (cue) announce(cue.textContent.trim());
    }
  }

  var transition = null;  // the View Transition running, if any

  function show(html) {
    var fragment = parse(html);
    var next = fragment.querySelector("#match");
    var old = match();
    if (!next || !old) {
      swapIn(fragment);
      return Promise.resolve();
    }
    var newVersion = old.getAttribute("data-version") !== next.getAttribute("data-version");
    var before = slotCards(old.querySelector(".trick"));
    return lay(old, next, layingOf(fragment, old)).then(function (laid) {
      var lone = laid ? [] : slotCards(next.querySelector(".trick")).filter(function (card) {
        return before.indexOf(card) < 0;
      });
      noticeChanges(old, next, laid);
      if (newVersion && lone.length) {
        play("card");
        announce(next.querySelector('.trick > .trick-slot[data-card="' + lone[lone.length - 1] + '"]').getAttribute("data-said"));
      }
      // A View Transition never stands in the way of a tap: the cards in it (they have
      // view-transition names) take no taps while it runs, so a position that is mine is
      // shown at once, ending one still running; other taps go through to the new table
      // (table.css: ::view-transition).
      if (transition) transition.skipTransition();
      transition = null;
      if (newVersion && moving() && document.startViewTransition && !document.hidden && !next.classList.contains("my-turn")) {
        var running = transition = document.startViewTransition(function () { swapIn(fragment); });
        [running.ready, running.finished, running.updateCallbackDone].forEach(function (promise) {
          if (promise) promise.catch(function () {});
        });
        running.finished.then(function () { if (transition === running) transition = null; }, function () {});
        return running.updateCallbackDone.catch(function () {});
      }
      swapIn(fragment);
      return null;
    });
  }

  // While an update is being laid on the table <html> carries "table-moving" (tests wait
  // for the table to be at rest before they measure it).
  function pump() {
    if (busy) return;
    document.documentElement.classList.toggle("table-moving", queue.length > 0);
    if (!queue.length) return;
    busy = true;
    var html = queue.shift();
    Promise.resolve().then(function () { return show(html); }).catch(function (error) {
      // Whatever went wrong in presenting, the position itself must still arrive.
      try { swapIn(parse(html)); } catch (e) { /* nothing more to try */ }
      if (window.console) console.warn("match.js:", error);
    }).then(function () { busy = false; pump(); });
  }

  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    if (typeof event.detail.message !== "string") return;
    if (event.target.closest && event.target.closest(".social")) return;  // the header's own socket (social.js)
    event.preventDefault();  // presented here, in order, one after the other
    queue.push(event.detail.message);
    pump();
  });

  // --- focus across updates, and the keys ------------------------------------------
  function rememberFocus() {
    var active = document.activeElement;
    var m = match();
    if (!active || !m || !m.contains(active)) return null;
    return { id: active.id, index: myCards().indexOf(active), inCards: myCards().indexOf(active) >= 0 };
  }
  function restoreFocus(was) {
    if (!was) return;
    var m = match();
    if (!m || (document.activeElement && m.contains(document.activeElement))) return;
    var target = (was.id && document.getElementById(was.id)) || null;
    var cards = myCards();
    if (!target && was.inCards && cards.length) target = cards[Math.min(was.index, cards.length - 1)];
    if (!target) target = m.querySelector(".action-panel button:not([disabled])") || m.querySelector(".card-button.legal") || cards[0];
    if (target) target.focus({ preventScroll: true });
  }

  document.addEventListener("keydown", function (event) {
    var card = event.target.closest && event.target.closest(".card-button");
    if (card && ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].indexOf(event.key) >= 0) {
      var cards = myCards();
      var at = cards.indexOf(card);
      if (at < 0) return;
      var to = { ArrowLeft: at - 1, ArrowUp: at - 1, ArrowRight: at + 1, ArrowDown: at + 1, Home: 0, End: cards.length - 1 }[event.key];
      to = (to + cards.length) % cards.length;
      cards[to].focus();
      event.preventDefault();
      return;
    }
    if (event.key === "Escape") {
      var open = document.querySelector("details.joker-choice[open]");
      if (open) {
        open.open = false;
        open.querySelector("summary").focus();
      } else if (extrasOpen) {
        setExtras(false);
      }
    }
  });

  // --- clicks: reasons, the drawer, the sound switch ----------------------------
  function setExtras(open) {
    extrasOpen = open;
    var m = match();
    if (m) restoreUi(m);
    if (m && open) {
      var close = m.querySelector(".extras-close");
      if (close) close.focus({ preventScroll: true });
    }
  }
  document.addEventListener("click", function (event) {
    var target = event.target;
    var refused = target.closest && target.closest(".card-button.illegal");
    if (refused) {
      var out = document.getElementById("card-reason");
      if (out) out.textContent = refused.getAttribute("data-reason");
      refused.classList.remove("refused");
      void refused.offsetWidth;  // restart the shake
      refused.classList.add("refused");
      play("refused");
      return;
    }
    var call = target.closest(".joker-call-choice");
    if (call) { showJokerStep(call.closest(".joker-menu"), call.getAttribute("data-joker-step")); return; }
    if (target.closest("[data-joker-back]")) { showJokerStep(target.closest(".joker-menu"), null); return; }
    if (target.closest(".extras-toggle")) { setExtras(!extrasOpen); return; }
    if (target.closest(".extras-close")) {
      setExtras(false);
      var toggle = document.querySelector(".extras-toggle");
      if (toggle) toggle.focus({ preventScroll: true });
      return;
    }
    if (target.closest(".sound-toggle")) { setSound(!soundOn()); if (soundOn()) play("turn"); }
  });

  document.addEventListener("toggle", function (event) {
    var opened = event.target;
    if (!opened.classList) return;
    if (KEPT_PANELS.indexOf(opened.id) >= 0) {
      panelOpen[opened.id] = opened.open;
      // A tap just before an update toggles the panel the update then replaces: the new one follows it.
      var current = document.getElementById(opened.id);
      if (current && current !== opened) current.open = opened.open;
    }
    // A joker's menu closes when another one opens, and its first call takes the focus.
    if (!opened.classList.contains("joker-choice") || !opened.open) return;
    document.querySelectorAll("details.joker-choice[open]").forEach(function (other) {
      if (other !== opened) other.open = false;
    });
    var menu = opened.querySelector(".joker-menu");
    if (menu.querySelector(".joker-calls")) showJokerStep(menu, null, false);
    keepInside(menu);
    if (opened.querySelector("summary") === document.activeElement) {
      var first = opened.querySelector(".joker-menu button");
      if (first) first.focus({ preventScroll: true });
    }
  }, true);

  // A joker's lead is two small steps: the call (high / let it take), then the suit; `mode`
  // null shows the calls again. The first button of the step takes the focus, so keys walk
  // through the steps as taps do.
  function showJokerStep(menu, mode, focus) {
    if (!menu) return;
    menu.querySelectorAll(".joker-step").forEach(function (step) {
      var wanted = mode === null ? step.classList.contains("joker-calls")
        : step.classList.contains("joker-suits") && step.getAttribute("data-joker-step") === mode;
      step.hidden = !wanted;
    });
    keepInside(menu);
    var first = menu.querySelector(".joker-step:not([hidden]) button");
    if (first && focus !== false) first.focus({ preventScroll: true });
  }

  // The menu stands just above my hand, so it never covers the cards (CSS places it there
  // roughly; the hand's height varies, one row or two); then inside the window's edges.
  function keepInside(menu) {
    if (!menu) return;
    menu.style.top = "";
    menu.style.bottom = "";
    var hand = document.querySelector("#match .hand");
    var handTop = hand ? hand.getBoundingClientRect().top : window.innerHeight;
    if (handTop > 0 && handTop <= window.innerHeight) menu.style.bottom = (window.innerHeight - handTop + 4) + "px";
    var box = menu.getBoundingClientRect();
    if (box.top < 4) { menu.style.top = "4px"; menu.style.bottom = "auto"; }
    else if (box.bottom > window.innerHeight - 4) { menu.style.bottom = "4px"; }
  }

  // --- a tap that a redraw cut in two -------------------------------------------------
  // An update replaces the whole table. A finger that went down on a move's button before
  // it and comes up after it is on a new button: the browser sends no click, as the two
  // ends of the tap are on different elements, and the tap is lost. When the new table has
  // the same button (the same action at the same version: the position drawn again, say
  // for a presence change) and the finger is still on it, it is pressed. A newer version
  // is a different position: the tap is not carried over to it.
  var pressed = null;  // {button, vals} of the last pointerdown on a move's button
  document.addEventListener("pointerdown", function (event) {
    var button = event.target.closest && event.target.closest("#match [ws-send]");
    pressed = button ? { button: button, vals: button.getAttribute("hx-vals") } : null;
  }, { capture: true, passive: true });
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("[ws-send]")) pressed = null;  // it came after all
  }, true);
  document.addEventListener("pointerup", function (event) {
    var was = pressed;
    if (!was || was.button.isConnected) return;  // no redraw in between: the click comes as usual
    setTimeout(function () {  // after the click the browser may still send for this tap
      if (pressed !== was) return;
      pressed = null;
      var m = match();
      var again = m && Array.prototype.find.call(m.querySelectorAll("[ws-send]"), function (button) {
        return button.getAttribute("hx-vals") === was.vals;
      });
      var under = document.elementFromPoint(event.clientX, event.clientY);
      if (again && !again.disabled && !m.classList.contains("waiting-for-server") && again.contains(under)) {
        again.click();
      }
    }, 0);
  }, { capture: true, passive: true });

  // --- my own move, at once, and a tap made while cards are being laid -------------------
  // Before the server answers, the page shows what a tap did: my card leaves my hand for the
  // table, and the cue names who acts next (or asks for a moment). The server's next position
  // replaces all of it; a refused move comes back with the position the server sends with it.
  function actionOf(button) {
    try { return JSON.parse(button.getAttribute("hx-vals")) || {}; } catch (e) { return {}; }
  }

  function answerAtOnce(m, action) {
    var trick = m.querySelector(".trick");
    var card = action.play && document.getElementById("card-" + action.play);
    var completes = false;
    if (card && trick) {
      var seats = m.querySelectorAll(".player").length;
      completes = slotCards(trick).length + 1 >= seats;
      var slot = document.createElement("div");
      slot.className = "trick-slot pos-me arrived";
      slot.setAttribute("data-card", action.play);
      var mine = m.querySelector(".player.mine");
      if (mine) slot.setAttribute("data-seat", mine.getAttribute("data-seat"));
      var face = card.firstElementChild;
      if (face) slot.appendChild(face.cloneNode(true));
      trick.querySelectorAll(":scope > .taken-trick.showing").forEach(function (shown) { shown.remove(); });
      trick.appendChild(slot);
      (card.closest("details.joker-choice") || card).classList.add("played-away");
      play("card");
    }
    m.querySelectorAll(".action-panel").forEach(function (panel) { panel.hidden = true; });
    var nextSeat = m.querySelector(".felt > .player");
    if (nextSeat && !completes && m.getAttribute("data-phase") !== "trump") cueSeat(m, nextSeat.getAttribute("data-seat"));
    else setCue(m, m.getAttribute("data-wait") || "…");
    m.classList.add("laying");
  }

  // A card tapped while the cards before my turn are still being laid is kept, and played
  // when the new position is mine and the card may be played there.
  var keptCard = null;
  document.addEventListener("click", function (event) {
    var m = match();
    var button = event.target.closest && event.target.closest("#match [ws-send]");
    if (button && m && !m.classList.contains("waiting-for-server") && !button.disabled) {
      answerAtOnce(m, actionOf(button));
      return;
    }
    var card = event.target.closest && event.target.closest("#match .hand .card-button, #match .columns.mine .card-button");
    if (card && m && document.documentElement.classList.contains("table-moving") && !m.classList.contains("my-turn")) {
      keptCard = (card.id || "").replace(/^card-/, "") || null;
      event.preventDefault();
      event.stopPropagation();  // not a refused card: a card played as soon as it may be
      if (keptCard) card.classList.add("kept");
    }
  }, true);

  function playKeptCard() {
    var wanted = keptCard;
    keptCard = null;
    var m = match();
    if (!wanted || !m || !m.classList.contains("my-turn")) return;
    var again = document.getElementById("card-" + wanted);
    if (again && again.classList.contains("legal")) again.click();  // a joker opens its calls
  }

  // A sent move disables the buttons until the new position arrives (no double plays).
  document.addEventListener("htmx:wsAfterSend", function () {
    var m = match();
    if (m) m.classList.add("waiting-for-server");
    var out = document.getElementById("card-reason");
    if (out) out.textContent = "";
  });

  document.addEventListener("DOMContentLoaded", function () {
    var m = match();
    if (m) restoreUi(m);
  });
  // No resync request on (re)connecting: the server sends the current position on every
  // connect, and a second copy would replace the match area again while someone taps it.
})();
