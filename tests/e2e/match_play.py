"""Playing at a live table like a person: read the moves the page marks, click one,
wait until everyone's page shows the new position.

The page says whose turn it is (`#match.my-turn`), which position it shows
(`#match[data-version]`, one more after every accepted move) and its phase
(`data-phase`: trump, bid, play). The moves a person may make are the marked
buttons: `button.trump-choice`, `button.bid-choice` (a forbidden bid is
`disabled`), `button.card-button.legal`, and a joker's `details.joker-choice`
menu (take/discard; leading, two steps: the call, high or let it take, then the suit). Each sends its `hx-vals` over the
table's websocket.
"""

import json
import re

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

MATCH = "#match"
EXPECT_TIMEOUT_MS = 10_000  # expect()'s, for every check of the browser tests (tests/e2e/conftest.py)
# The table's waits are checked in the page this often. expect() polls after 100, 250 and
# 500 ms, then each second: a move's answer, on the page within 100-300 ms, was seen after
# 0.5-1 s, and a whole deal of the browser tests took half a minute of such slack.
POLL_MS = 30
# Every move button carries its action as JSON in hx-vals (the resign button too).
MOVE_BUTTONS = f"{MATCH} [ws-send][hx-vals]"


# -- reading the page ---------------------------------------------------------------
def version_of(page) -> int:
    return int(page.locator(MATCH).get_attribute("data-version"))


def phase_of(page) -> str:
    return page.locator(MATCH).get_attribute("data-phase")


def is_my_turn(page) -> bool:
    return page.locator(f"{MATCH}.my-turn").count() == 1


# The page's script has run and laid the page out (it is deferred), and no card is
# travelling (`html.table-moving`). A check on a busy machine once found the score sheet
# over the hand: the drawer then slid from its place in the page off the screen as the
# script started (static/js/match.js, "drawer-ready").
_TABLE_SHOWS = """(wanted) => {
  const match = document.querySelector("#match"), html = document.documentElement.classList;
  if (wanted.atRest && (!html.contains("drawer-ready") || html.contains("table-moving"))) return false;
  if (wanted.newerThan !== undefined) return !!match && match.dataset.version !== wanted.newerThan;
  if (wanted.version !== undefined) return !!match && match.dataset.version === wanted.version;
  return true;
}"""


def _wait_for(page, wanted, timeout, what):
    try:
        page.wait_for_function(_TABLE_SHOWS, arg=wanted, polling=POLL_MS, timeout=timeout or EXPECT_TIMEOUT_MS)
    except PlaywrightTimeoutError:
        shown = page.evaluate("""() => [document.querySelector("#match")?.dataset.version ?? "no table",
                                        document.documentElement.className]""")
        raise AssertionError(f"the page never showed {what}: it shows version {shown[0]}, "
                             f"html classes {shown[1]!r}") from None


def expect_version(page, version, timeout=None):
    """Wait until the page shows the position of `version` (a card may still be travelling)."""
    _wait_for(page, {"version": str(version)}, timeout, f"version {version}")


def expect_newer_than(page, version, timeout=None) -> int:
    """Wait until the page shows a position after `version`, laid on the table; return its version."""
    _wait_for(page, {"newerThan": str(version), "atRest": True}, timeout,
              f"a position after version {version}, at rest")
    return version_of(page)


def expect_move_answered(page, version) -> int:
    """Wait for the position after the move just clicked. A click that sent nothing (the
    table had been redrawn under the finger in that instant: no `waiting-for-server`, still
    the same position and this page's turn) is made once more, as a person taps again."""
    try:
        return expect_newer_than(page, version, timeout=5000)
    except AssertionError:
        unsent = (version_of(page) == version and is_my_turn(page)
                  and page.locator(f"{MATCH}.waiting-for-server").count() == 0)
        if not unsent:
            return expect_newer_than(page, version)
    make_a_move(page)
    return expect_newer_than(page, version)


def expect_table_at_rest(page, timeout=None):
    _wait_for(page, {"atRest": True}, timeout, "the table at rest")


def everyone_at(pages, version):
    for page in pages:
        expect_version(page, version)



def marked_moves(page) -> list[dict]:
    """The moves the page offers, as the actions its buttons would send (disabled ones left out)."""
    values = page.locator(MOVE_BUTTONS).evaluate_all(
        "buttons => buttons.filter(b => !b.disabled).map(b => b.getAttribute('hx-vals'))"
    )
    return [json.loads(v) for v in values if json.loads(v).get("type") == "act"]


def legal_cards(page) -> list[str]:
    """The cards marked playable, in the order the page shows them."""
    return page.locator(f"{MATCH} .card-button.legal svg[data-card]").evaluate_all(
        "faces => faces.map(face => face.dataset.card)"
    )


def hand_of(page) -> list[str]:
    return page.locator(f"{MATCH} .hand svg[data-card]").evaluate_all("faces => faces.map(f => f.dataset.card)")


def boxes_of(page, selector) -> list[dict]:
    """The boxes ({x, y, width, height}) of the elements matching `selector`, in the page's
    order (one not laid out, say hidden, is all zeros).

    Found and measured in one turn of the page's script: an update may replace the whole
    table at any moment (a socket's first draw, a presence change), and Playwright's own
    locator-then-measure could find an element, lose it to the swap and measure nothing."""
    return page.evaluate("""(selector) => Array.from(document.querySelectorAll(selector))
      .map((element) => element.getBoundingClientRect())
      .map((box) => ({x: box.x, y: box.y, width: box.width, height: box.height}))""", selector)


def centre_of(page, selector) -> tuple[float, float]:
    """Where the first laid-out element matching `selector` stands, for a pointer to go down on."""
    boxes = [box for box in boxes_of(page, selector) if box["width"] and box["height"]]
    assert boxes, f"nothing laid out on the page matches {selector!r}"
    return boxes[0]["x"] + boxes[0]["width"] / 2, boxes[0]["y"] + boxes[0]["height"] / 2


def position_as_seen(page) -> dict:
    """What a person sees of the position: enough to tell whether two views are the same.

    Texts are read from textContent with whitespace collapsed, not innerText: the socket's
    first message after a page load swaps #match for the same position, and innerText of
    the element it just replaced (no longer rendered) would keep the template's raw
    whitespace."""
    return page.locator(MATCH).evaluate(
        """match => {
        const text = (el) => el.textContent.replace(/\\s+/g, ' ').trim();
        return {
          version: match.dataset.version,
          phase: match.dataset.phase,
          myTurn: match.classList.contains('my-turn'),
          hand: [...match.querySelectorAll('.hand svg[data-card]')].map(f => f.dataset.card),
          legal: [...match.querySelectorAll('.card-button.legal svg[data-card]')].map(f => f.dataset.card),
          columns: [...match.querySelectorAll('.columns')].map(side =>
              [...side.querySelectorAll('.column')].map(c =>
                  [...c.querySelectorAll('svg[data-card]')].map(f => f.dataset.card).join(' '))),
          trick: [...match.querySelectorAll('.trick > .trick-slot')].map(slot =>
              slot.dataset.seat + ' ' + slot.dataset.card),
          stats: [...match.querySelectorAll('.player-stats')].map(text),
          trump: text(match.querySelector('.trump-box')),
        }; }"""
    )


# -- the server's side, for checking the page against it ----------------------------
def engine_moves(match_id, seat) -> list[dict]:
    """The seat's legal moves in the match's current position, as the server knows them."""
    from games.models import Match
    from games.services.matches import load_state

    match = Match.objects.get(pk=match_id)
    view = load_state(match).view(seat)
    return [{k: v for k, v in action.items() if k != "seat"} for action in view["legal_actions"]]


def expect_marked_moves_are_the_legal_ones(page, match_id, seat):
    """The page marks exactly the seat's legal moves, each made against the position it shows."""
    version = version_of(page)
    offered = marked_moves(page)
    assert all(move["version"] == version for move in offered), offered
    as_actions = sorted(
        json.dumps({k: v for k, v in move.items() if k not in ("type", "version")}, sort_keys=True)
        for move in offered
    )
    legal = sorted(json.dumps(move, sort_keys=True) for move in engine_moves(match_id, seat))
    assert as_actions == legal, f"the page offers {as_actions}, the rules allow {legal}"


# -- clicking ---------------------------------------------------------------------
def card_button(page, card):
    return page.locator(f"{MATCH} button.card-button.legal:has(svg[data-card='{card}'])")


# The hand overlaps its cards when they do not fit one row: the next card covers a card's
# right part, never its left edge, where a person taps it.
ON_THE_VISIBLE_EDGE = {"x": 8, "y": 30}


def play_card(page, card):
    """Click a marked ordinary card."""
    card_button(page, card).click(position=ON_THE_VISIBLE_EDGE)


def play_a_marked_plain_card(page, *, tap=False) -> str:
    """Play the first marked card of the hand that is not a joker (a joker opens a menu), by a
    tap (a phone) or a click; returns the card once the table has moved."""
    card = page.locator(f"{MATCH} .hand button.card-button.legal:not(:has(svg[data-card^='X']))").first
    played = card.locator("svg[data-card]").get_attribute("data-card")
    version = version_of(page)
    card.tap() if tap else card.click()
    expect_newer_than(page, version)
    return played


def open_joker_menu(page, card):
    menu = page.locator(f"{MATCH} details.joker-choice:has(svg[data-card='{card}'])")
    menu.locator("summary").click(position=ON_THE_VISIBLE_EDGE)
    expect(menu.locator(".joker-menu")).to_be_visible()
    return menu


def play_joker(page, card, mode=None, suit=None):
    """Open a joker's menu and choose how it is played: `mode` take/discard, `suit` when leading
    (None: the first choice the menu offers)."""
    menu = open_joker_menu(page, card)
    calls = menu.locator(".joker-call-choice")  # a lead: the call (high / let it take) first, then the suit
    if calls.count():
        call = menu.locator(f".joker-call-choice[data-joker-step='{mode}']") if mode else calls.first
        call.click()
    choices = menu.locator(".joker-menu button[ws-send]:visible")
    for index in range(choices.count()):
        action = json.loads(choices.nth(index).get_attribute("hx-vals"))
        if (mode is None or action.get("joker") == mode) and (suit is None or action.get("suit") == suit):
            choices.nth(index).click()
            return action
    raise AssertionError(f"no {mode or 'any'} {suit or ''} choice in the menu of {card}")


def open_the_drawer(page):
    """On a phone the score sheet, the last trick and leaving are in a drawer: open it
    (on a desktop they are beside the table, and there is no drawer to open)."""
    toggle = page.locator(f"{MATCH} .extras-toggle")
    if toggle.is_visible() and toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    expect(page.locator(f"{MATCH} .match-extras")).to_be_visible()


def make_a_move(page):
    """A sensible click for whoever's turn it is: the first trump, the first bid allowed,
    the first marked card (a joker as its menu's first choice). Returns what was clicked."""
    phase = phase_of(page)
    if phase == "trump":
        button = page.locator(f"{MATCH} button.trump-choice").first
        button.click()
        return ("trump", button)
    if phase == "bid":
        button = page.locator(f"{MATCH} button.bid-choice:not([disabled])").first
        button.click()
        return ("bid", button)
    card = legal_cards(page)[0]
    if page.locator(f"{MATCH} details.joker-choice:has(svg[data-card='{card}'])").count():
        play_joker(page, card)  # a joker with several calls (one with a single call is a plain button)
    else:
        play_card(page, card)
    return ("play", card)


def play_until(pages, done, *, match_id=None, seats=None, before_move=None, max_moves=200):
    """Whoever's turn it is makes a sensible move, until `done()` is true.

    `pages` are the seated people's pages (all are kept at the same position);
    with `match_id` and `seats` (page -> seat) every position is checked: the page
    to move marks exactly the legal moves. `before_move(page)` may make the move
    itself (returning True) instead. Returns the number of moves made."""
    version = version_of(pages[0])
    everyone_at(pages, version)
    for moves in range(max_moves):
        if done():
            return moves
        actor = next((page for page in pages if is_my_turn(page)), None)
        assert actor is not None, f"nobody's turn at version {version}"
        if match_id is not None:
            expect_marked_moves_are_the_legal_ones(actor, match_id, seats[actor])
        if not (before_move and before_move(actor)):
            make_a_move(actor)
            version = expect_move_answered(actor, version)
        else:
            version = expect_newer_than(actor, version)
        everyone_at(pages, version)
    raise AssertionError(f"still not done after {max_moves} moves")


def assert_sheet_fits_its_box(page, slack=1):
    """The score sheet does not scroll sideways in its box: every player's columns are in view
    (`slack` px for a rounding of the layout)."""
    widths = page.locator(f"{MATCH} .sheet-scroll").evaluate("(box) => [box.scrollWidth, box.clientWidth]")
    assert widths[0] <= widths[1] + slack, f"the sheet scrolls sideways: {widths[0]}px in {widths[1]}px"


def expect_deal_line_whole(page, words, phone):
    """The head's deal line is read whole: a phone shows its number ("№1/24"), where the words
    beside the trump and the tools had shown "დ…"; a wider screen shows the words."""
    line = page.evaluate("""() => { const el = document.querySelector('.match-page .deal-info');
        const words = el.querySelector('.deal-long');
        const box = el.getBoundingClientRect();
        return {shown: getComputedStyle(el, '::before').content, cut: el.scrollWidth > el.clientWidth,
                words: words.textContent, wordsWidth: words.getBoundingClientRect().width,
                left: box.left, right: box.right,
                trumpRight: document.querySelector('.match-page .trump-box').getBoundingClientRect().right,
                toolsLeft: document.querySelector('.match-page .head-tools').getBoundingClientRect().left,
                pageWidth: document.documentElement.clientWidth}; }""")
    assert not line["cut"], line
    if line["toolsLeft"] > line["left"]:  # on one line with the trump and the tools: between them
        assert line["trumpRight"] <= line["left"] and line["right"] <= line["toolsLeft"], line
    assert 0 <= line["left"] and line["right"] <= line["pageWidth"], line
    assert line["words"].startswith(words), line  # what a screen reader reads, on every screen
    if phone:
        assert re.match(r'"№\d+/\d+"', line["shown"]), line
        assert line["wordsWidth"] <= 1, line
    else:
        assert line["shown"] == "none", line
        assert line["wordsWidth"] > 40, line
