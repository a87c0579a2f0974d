"""Every tap counts and the cue tells the truth, at the site's default pace (one second
between the bots' cards): a person who taps a card (or a bid) the instant the page says
"Your move" plays it, every time; the move clock shown at that instant is the table's whole
move time (the server starts it when the page has laid the bots' cards, games/pacing.py);
and the moment a card is tapped it leaves the hand and the cue stops saying "Your move" —
it names who acts next until it is the person's turn again.

The taps are real touches (Playwright's touchscreen) on the card's visible edge, so they go
through the browser's own hit testing: a View Transition in the way would swallow them."""

import json
import re

import pytest
from playwright.sync_api import expect

from e2e.match_play import MATCH, POLL_MS, version_of
from e2e.tables import match_of, seat_members
from e2e.test_browser_table import LOCALES, SIZES

CLOCK_SECONDS = 30
# The cue and the card, checked by the page itself in the tap's own click (after match.js's
# handler, before anything else can run): not a matter of time.
_WATCH_TAPS = r"""
() => {
  window.tapChecks = [];
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("#match [ws-send]");
    if (!button) return;
    const action = JSON.parse(button.getAttribute("hx-vals"));
    const card = action.play && document.getElementById("card-" + action.play);
    window.tapChecks.push({
      action,
      yourMove: !!document.querySelector("#match .whose-move.mine"),
      cue: (document.querySelector("#match .whose-move") || {}).textContent || "",
      cardInHand: !!card && card.getClientRects().length > 0,
      at: performance.now(),
    });
  });
  window.cueSeenAt = null;
  new MutationObserver(() => {
    const gone = !document.querySelector("#match .whose-move.mine");
    if (window.lastTouch && gone && window.cueGoneAfter === null) window.cueGoneAfter = performance.now() - window.lastTouch;
  }).observe(document.documentElement, {subtree: true, childList: true, attributes: true, characterData: true});
  document.addEventListener("pointerup", () => { window.lastTouch = performance.now(); window.cueGoneAfter = null; }, true);
  // When each position arrived (before the page lays its cards).
  window.arrivals = {};
  document.addEventListener("htmx:wsBeforeMessage", (event) => {
    const found = /id="match"[^>]*data-version="(\d+)"/.exec(event.detail.message || "");
    if (found && !(found[1] in window.arrivals)) window.arrivals[found[1]] = performance.now();
  }, true);
}
"""

# What to tap now, and where: the trump or the first bid allowed, else the first legal card
# that is not a joker, else a joker (its menu then), at the left edge the next card leaves
# uncovered.
_TARGET = """
() => {
  const where = (element, kind) => {
    const box = element.getBoundingClientRect();
    return {x: box.left + Math.min(10, box.width / 2), y: box.top + Math.min(box.height / 2, 30), kind};
  };
  const button = document.querySelector("#match button.trump-choice, #match button.bid-choice[ws-send]");
  if (button) return where(button, "button");
  const mine = "#match .hand .card-button.legal, #match .columns.mine .card-button.legal";
  const cards = [...document.querySelectorAll(mine)];
  const plain = cards.find((el) => el.tagName === "BUTTON");
  if (plain) return where(plain, "card");
  return cards.length ? where(cards[0], "joker") : null;
}
"""
# In an open joker menu, the next step to tap: the call (a lead), then the suit or the call.
_JOKER_STEP = """
() => {
  const menu = document.querySelector("#match details.joker-choice[open] .joker-menu");
  const step = menu && [...menu.querySelectorAll("button")].find((el) => el.getClientRects().length &&
    !el.hasAttribute("data-joker-back"));
  if (!step) return null;
  const box = step.getBoundingClientRect();
  return {x: box.left + box.width / 2, y: box.top + box.height / 2, sends: step.hasAttribute("ws-send")};
}
"""


def _seconds_on_my_clock(page):
    text = page.locator(f"{MATCH} .player.mine .clock .clock-value").text_content()
    return int(re.search(r"\d+", text).group())


def _tap(page, point):
    """A finger on a phone, the mouse on a desktop: the browser's own hit testing either way."""
    if page.context_has_touch:
        page.touchscreen.tap(point["x"], point["y"])
    else:
        page.mouse.click(point["x"], point["y"])


def _tap_at_once(page, moves, snap):
    """Wait for "Your move" and tap at once, `moves` times. Returns what each tap found."""
    taps = []
    while len(taps) < moves and not page.locator(f"{MATCH} .match-end").count():
        page.wait_for_function("() => !!document.querySelector('#match.my-turn .whose-move.mine')",
                               polling="raf", timeout=30_000)
        target = page.evaluate(_TARGET)
        assert target is not None, "the cue says 'Your move' with nothing to tap"
        clock = _seconds_on_my_clock(page)
        version = version_of(page)
        _tap(page, target)
        if target["kind"] == "joker":  # its calls open over the hand; tap through them
            for _ in range(3):
                step = None
                page.wait_for_function(f"() => !!({_JOKER_STEP})()", polling=POLL_MS, timeout=5_000)
                step = page.evaluate(_JOKER_STEP)
                _tap(page, step)
                if step["sends"]:
                    break
        try:
            page.wait_for_function("() => (window.tapChecks || []).length > 0", polling=POLL_MS, timeout=5_000)
        except Exception:
            pytest.fail(f"tap {len(taps) + 1} at the cue ({target}) made no move; under it now: "
                        + page.evaluate("([x, y]) => document.elementFromPoint(x, y)?.outerHTML.slice(0, 120)",
                                        [target["x"], target["y"]]))
        checks = page.evaluate("() => window.tapChecks.splice(0)")
        assert len(checks) == 1, f"the tap at the cue made {len(checks)} moves: {checks}"
        taps.append({"clock": clock, "version": version, **target, **checks[0],
                     "cueGoneAfter": page.evaluate("() => window.cueGoneAfter"),
                     "touchedAt": page.evaluate("() => window.lastTouch")})
        if len(taps) == 1:
            snap(page, "the-cue-names-who-acts-after-my-move")
        # The server took the move: the position moves on, and the page shows no refusal.
        page.wait_for_function("(v) => Number(document.querySelector('#match').dataset.version) > v",
                               arg=version, polling=POLL_MS, timeout=20_000)
        expect(page.locator("#match-error")).to_be_empty()
    return taps


def _my_moves(match_id, seat):
    from games.models import Match

    record = Match.objects.get(pk=match_id).record
    return [action for deal in record["deals"] for action in deal["actions"] if action["seat"] == seat]


@pytest.mark.parametrize(("variant", "size", "language", "moves"), [
    ("japanese", "phone-360", "ka", 20),
    ("classic", "phone-360", "ru", 6),
    ("japanese", "desktop-1366", "ru", 6),
], ids=["japanese-phone-ka-20", "classic-phone-ru-6", "japanese-desktop-ru-6"])
@pytest.mark.site_settings(BOT_PACE_SECONDS=1)
def test_a_tap_the_instant_the_cue_appears_plays_and_the_cue_and_clock_tell_the_truth(
        new_member, snap, variant, size, language, moves):
    settings = {"game_type": "nines"} if variant == "classic" else {}
    page = new_member("tamar", locale=LOCALES[language], **SIZES[size])
    table_id = seat_members(variant, ["tamar"], fill_with_bots=True, clock_seconds=CLOCK_SECONDS, **settings)
    page.goto(f"/{language}/tables/{table_id}/")
    expect(page.locator(MATCH)).to_be_visible()
    page.context_has_touch = SIZES[size].get("has_touch", False)
    page.evaluate(_WATCH_TAPS)
    opened_at = version_of(page)  # its clock ran while the page opened
    taps = _tap_at_once(page, moves, snap)
    snap(page, f"after-{len(taps)}-quick-taps")

    # Every tap was a move the server took: the record holds each, in order.
    made = _my_moves(match_of(table_id), 0)
    assert len(taps) == moves
    kinds = ("play", "bid", "trump")
    assert [{key: action[key] for key in kinds if key in action} for action in made[-moves:]] == \
        [{key: tap["action"][key] for key in kinds if key in tap["action"]} for tap in taps]
    arrivals = page.evaluate("() => window.arrivals")
    answers = []
    for before, tap in zip([None, *taps], taps, strict=False):
        # At the tap's own click, the cue says "Your move" no more and the card has left the hand.
        assert not tap["yourMove"], tap
        assert not tap["cardInHand"], tap
        # The clock at the cue is the table's whole move time: the bots' cards laid before it
        # (a second each, a taken trick 1.65 s) were not taken from it. What the server's
        # answer took to arrive is (the position's time runs from the server's move): the
        # answer to the tap before, timed in the page, bounds it.
        if before is None or tap["version"] != before["version"] + 1 or tap["version"] <= opened_at:
            continue
        answered = (arrivals[str(tap["version"])] - before["touchedAt"]) / 1000
        answers.append(answered)
        assert CLOCK_SECONDS - 1 - answered <= tap["clock"] <= CLOCK_SECONDS, (tap, answered)
    gone = sorted(tap["cueGoneAfter"] for tap in taps if tap["cueGoneAfter"] is not None)
    answers.sort()
    print(f"{variant} {size} {language}: {len(taps)} taps at the cue, all played; clocks at the cue "
          f"{sorted({tap['clock'] for tap in taps})} of {CLOCK_SECONDS} s; 'Your move' gone after the touch: "
          f"median {gone[len(gone) // 2]:.0f} ms, max {gone[-1]:.0f} ms; the server's answer arrived after "
          f"median {answers[len(answers) // 2]:.2f} s, max {answers[-1]:.2f} s")
    assert len(answers) >= moves // 2, "too few cues right after a tap to judge the clock"


# The first move's button the page shows: a trump, a bid, a card (a joker's menu is opened
# first: <details> opens without any script).
_FIRST_BUTTON = """
() => {
  const shown = (el) => el.getClientRects().length > 0;
  const buttons = () => [...document.querySelectorAll("#match button[ws-send]")];
  let button = buttons().find(shown);
  if (!button) {
    const joker = document.querySelector("#match details.joker-choice:not([open]) > summary");
    if (joker) { joker.closest("details").open = true; }
    button = buttons().find(shown);
  }
  if (!button) return null;
  return {index: buttons().indexOf(button), action: JSON.parse(button.getAttribute("hx-vals"))};
}
"""
# The page as a person first sees it: every stylesheet applied and the fonts in. Until then the
# browser paints nothing, but a script can already lay the page out, and a stylesheet or a font
# that comes a moment later moves the buttons.
_STYLED = """() => [...document.querySelectorAll('link[rel=stylesheet]')].every((link) => link.sheet)
  && document.fonts.status === 'loaded'"""
# Which move's button a tap reached (listening on the window, before the page's own listeners).
_WATCH_WHAT_IS_TAPPED = """() => {
  window.tappedButtons = [];
  window.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("button[ws-send]");
    window.tappedButtons.push(button ? button.getAttribute("hx-vals") : null);
  }, true);
}"""


@pytest.mark.parametrize(("size", "language"), [("phone-360", "ru"), ("desktop-1366", "ka")])
def test_a_tap_made_before_the_pages_scripts_have_come_is_played_once_they_have(new_member, snap, size, language):
    """On a slow phone the table's HTML, with its buttons, comes before htmx: the server holds
    htmx back here until the person has tapped. The tap is played once htmx has come, once."""
    page = new_member("tamar", locale=LOCALES[language], **SIZES[size])
    page.context_has_touch = SIZES[size].get("has_touch", False)
    table_id = seat_members("japanese", ["tamar"], fill_with_bots=True, clock_seconds=CLOCK_SECONDS)
    page.goto(f"/{language}/tables/{table_id}/")
    page.wait_for_function("() => !!document.querySelector('#match.my-turn .whose-move.mine')",
                           polling=POLL_MS, timeout=30_000)
    version = version_of(page)
    made_before = len(_my_moves(match_of(table_id), 0))

    held, releasing = [], []

    def hold_htmx(route):
        if releasing:
            route.continue_()
        else:
            held.append(route)

    page.route(re.compile(r"/htmx\.min[^/]*\.js"), hold_htmx)
    page.reload(wait_until="commit")
    page.wait_for_function(f"() => !!({_FIRST_BUTTON})()", polling=POLL_MS, timeout=20_000)
    page.wait_for_function(_STYLED, polling=POLL_MS, timeout=20_000)
    target = page.evaluate(_FIRST_BUTTON)
    page.evaluate(_WATCH_WHAT_IS_TAPPED)
    assert page.evaluate("() => typeof window.htmx") == "undefined"
    # Playwright finds the button where it is at the moment of the tap and checks that the
    # finger lands on it.
    button = page.locator("#match button[ws-send]").nth(target["index"])
    if page.context_has_touch:
        button.tap()
    else:
        button.click()
    assert page.evaluate("() => typeof window.htmx") == "undefined", "the tap came after htmx"
    assert [json.loads(vals) for vals in page.evaluate("() => window.tappedButtons")] == [target["action"]]
    snap(page, "tapped-before-the-scripts")
    releasing.append(True)
    for route in held:
        route.continue_()
    page.wait_for_function("(v) => Number(document.querySelector('#match').dataset.version) > v",
                           arg=version, polling=POLL_MS, timeout=20_000)
    expect(page.locator("#match-error")).to_be_empty()
    made = _my_moves(match_of(table_id), 0)
    assert len(made) == made_before + 1, made[made_before:]
    kinds = ("play", "trump")
    assert {key: made[-1][key] for key in kinds if key in made[-1]} == \
        {key: target["action"][key] for key in kinds if key in target["action"]}
    snap(page, "the-early-tap-played")
