// The home page's quick play panel (quickplay/templates/quickplay/_panel.html). The server
// sends the panel again whenever something changes (websocket, ws/quickplay/); between
// those, the seconds waited, the widening range of ratings and the bots' countdowns tick
// here, and the offer of a game with bots appears when its wait is over. When the server
// says the game has started, the page goes to its table.
(function () {
  "use strict";

  function clock(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    return Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
  }

  // Seconds since the element arrived, added to the figure the server rendered into it.
  function since(element, attribute) {
    if (!element.dataset.quickplayArrived) element.dataset.quickplayArrived = String(Date.now());
    return Number(element.getAttribute(attribute)) + (Date.now() - Number(element.dataset.quickplayArrived)) / 1000;
  }

  // The offer asks for a choice against a countdown: on a phone its buttons lay below the
  // screen's edge while the player watched the wait. When it appears to a player looking at the
  // wait (the panel on the screen, not scrolled away to the lobby), the page moves just enough
  // to show its buttons.
  let offerShown = false;
  function showOffer() {
    const offer = document.querySelector("[data-quickplay-offer]:not([hidden])");
    if (!offer) { offerShown = false; return; }
    if (offerShown) return;
    offerShown = true;
    const panel = offer.closest(".quickplay-panel").getBoundingClientRect();
    const watched = panel.bottom > 0 && panel.top < window.innerHeight;
    const buttons = offer.querySelector(".quickplay-offer-buttons");
    if (watched && buttons) buttons.scrollIntoView({ block: "nearest" });
  }

  function tick() {
    const go = document.querySelector("[data-quickplay-go]");
    if (go && !go.dataset.quickplayGoing) {
      go.dataset.quickplayGoing = "yes";
      window.location.assign(go.dataset.quickplayGo);
      return;
    }
    document.querySelectorAll("[data-quickplay-waited]").forEach(function (element) {
      element.textContent = clock(since(element, "data-quickplay-waited"));
    });
    document.querySelectorAll("[data-quickplay-countdown]").forEach(function (element) {
      const initial = Number(element.getAttribute("data-quickplay-countdown"));
      element.textContent = clock(2 * initial - since(element, "data-quickplay-countdown"));
    });
    // The offer of a game with bots appears when its wait is over (the server takes the tap).
    document.querySelectorAll("[data-quickplay-offer]").forEach(function (offer) {
      const initial = Number(offer.getAttribute("data-quickplay-offer"));
      if (offer.hidden && 2 * initial - since(offer, "data-quickplay-offer") <= 0) {
        offer.hidden = false;
        const before = offer.parentElement.querySelector("[data-quickplay-before-offer]");
        if (before) before.hidden = true;
      }
    });
    showOffer();
    document.querySelectorAll("[data-quickplay-range]").forEach(function (element) {
      const rating = Number(element.getAttribute("data-quickplay-range"));
      const waited = Math.floor(since(element, "data-waited"));
      const spread = Number(element.dataset.start) + Math.floor(Number(element.dataset.perSecond) * waited);
      element.textContent = (rating - spread) + "–" + (rating + spread);
    });
  }

  setInterval(tick, 1000);
  document.addEventListener("htmx:load", tick);
  document.addEventListener("htmx:oobAfterSwap", tick);
})();
