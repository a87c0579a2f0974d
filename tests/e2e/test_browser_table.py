"""The match page as a card table, at the sizes people play on (a 360×740 and a 390×844
phone, a 1366×768 desktop) and in the site's three languages: in every phase of both
games the hand, the trick, the whose-move cue and the action buttons lie inside the
screen with nothing over them, and so does every joker menu; tapping a card one may not
play shows the engine's own reason in the page's language; at a table with bots a
finished trick stays on the table over a second (measured); a whole classic deal and a
whole Japanese deal are played with the keyboard alone."""

import re

import pytest
from django.utils import translation
from playwright.sync_api import expect

from e2e.deals import deal_seed, joker_lead_seed
from e2e.layout import PHONE_LANDSCAPE, assert_nothing_cut_off
from e2e.match_play import (
    MATCH,
    centre_of,
    everyone_at,
    expect_newer_than,
    expect_table_at_rest,
    phase_of,
    version_of,
)
from e2e.tables import match_of, seat_members

CLOCK_SECONDS = 120
SCROLLS_BY_ITSELF = [".score-scroll", ".match-extras"]


def screen(width, height, phone):
    size = {"width": width, "height": height}
    extra = {"device_scale_factor": 2, "is_mobile": True, "has_touch": True} if phone else {}
    return {"viewport": size, "screen": size, **extra}


SIZES = {
    "phone-360": screen(360, 740, True),
    "phone-390": screen(390, 844, True),
    "desktop-1366": screen(1366, 768, False),
    "phone-landscape": PHONE_LANDSCAPE,
}
# Each size once, each language once (and Georgian on the desktop too): the run stays short.
LOOKS = [("phone-360", "ka"), ("phone-390", "ru"), ("desktop-1366", "en"), ("desktop-1366", "ka"),
         ("phone-landscape", "ru")]
LOCALES = {"ka": "ka-GE", "ru": "ru-RU", "en": "en-GB"}

# Each element: inside the viewport, and what a tap on its visible part reaches (an
# overlapped card shows its left edge; the next card lies over its right part).
_OUT_OF_SIGHT = """
(selectors) => selectors.flatMap((selector) => {
  const found = [...document.querySelectorAll(selector)].filter((el) => el.getClientRects().length);
  if (!found.length) return [`nothing visible matches ${selector}`];
  return found.flatMap((el) => {
    const box = el.getBoundingClientRect();
    const name = `${selector} ${el.querySelector('[data-card]')?.dataset.card || el.textContent.trim().slice(0, 20)}`;
    if (box.left < 0 || box.top < 0 || box.right > innerWidth + 0.5 || box.bottom > innerHeight + 0.5) {
      return [`${name} lies at x=${Math.round(box.left)}..${Math.round(box.right)}, y=${Math.round(box.top)}..${Math.round(box.bottom)} in ${innerWidth}x${innerHeight}`];
    }
    const x = box.left + Math.min(8, box.width / 2), y = box.top + Math.min(box.height / 2, 30);
    const hit = document.elementFromPoint(x, y);
    if (hit && (el.contains(hit) || hit.contains(el))) return [];
    return [`${name} is covered by ${hit ? hit.outerHTML.slice(0, 90) : 'nothing'}`];
  });
})
"""


def expect_in_sight(page, *selectors):
    expect_table_at_rest(page)
    problems = page.evaluate(_OUT_OF_SIGHT, [f"{MATCH} {s}" for s in selectors])
    assert not problems, "out of sight or covered:\n  " + "\n  ".join(problems)
    assert_nothing_cut_off(page, allow=SCROLLS_BY_ITSELF)


def expect_every_joker_menu_in_sight(page):
    """Open each joker menu the page offers, check it lies inside the screen (each step of a
    lead's), close it."""
    jokers = page.locator(f"{MATCH} details.joker-choice")
    for index in range(jokers.count()):
        joker = jokers.nth(index)
        joker.locator("summary").click(position={"x": 8, "y": 30})
        expect(joker.locator(".joker-menu")).to_be_visible()
        expect_in_sight(page, "details.joker-choice[open] .joker-menu", "details.joker-choice[open] .joker-menu button")
        calls = joker.locator(".joker-call-choice")
        for call in range(calls.count()):  # a lead's second step, the suits, for each call
            calls.nth(call).click()
            expect(joker.locator(".joker-suits:visible button[ws-send]")).to_have_count(4)
            expect_in_sight(page, "details.joker-choice[open] .joker-menu button")
            joker.locator(".joker-suits:visible [data-joker-back]").click()
        page.keyboard.press("Escape")
        expect(joker.locator(".joker-menu")).to_be_hidden()


def engine_reason(match_id, seat, card, language):
    """The engine's refusal of `card`, in `language`: what the page must say."""
    from games.engine_messages import message_for
    from games.models import Match
    from games.services.matches import load_state
    from games.services.presenter import card_refusals

    refusal = card_refusals(load_state(Match.objects.get(pk=match_id)), seat)[card]
    with translation.override(language):
        return message_for(refusal)


def expect_illegal_card_explained(page, match_id, seat, language, snap, name):
    illegal = page.locator(f"{MATCH} .card-button.illegal")
    if not illegal.count():
        return False
    card = illegal.first.locator("svg[data-card]").get_attribute("data-card")
    reason = engine_reason(match_id, seat, card, language)
    expect(illegal.first).to_be_disabled()  # aria-disabled: named, focusable, not playable
    expect(illegal.first).to_have_accessible_description(reason)
    illegal.first.click(position={"x": 8, "y": 30}, force=True)  # a tap on a card that looks unplayable
    expect(page.locator("#card-reason")).to_have_text(reason)
    snap(page, name)
    return True


def practice_table(new_member, size, language):
    """A classic nines table of the person and three bots, open in the person's browser."""
    page = new_member("tamar", locale=LOCALES[language], **SIZES[size])
    table_id = seat_members("classic", ["tamar"], game_type="nines", fill_with_bots=True,
                            clock_seconds=CLOCK_SECONDS)
    page.goto(f"/{language}/tables/{table_id}/")
    return page, match_of(table_id)


def click_for_the_next_position(page, selector, phase=None):
    """Click a move button; wait for the position after it (in `phase`, when given)."""
    version = version_of(page)
    page.locator(f"{MATCH} {selector}").first.click()
    expect_newer_than(page, version)
    if phase:
        expect(page.locator(MATCH)).to_have_attribute("data-phase", phase)


@pytest.mark.parametrize(("size", "language"), LOOKS, ids=[f"{s}-{lang}" for s, lang in LOOKS])
@pytest.mark.site_settings(TEST_DEAL_SEED=deal_seed())
def test_a_classic_table_fits_the_screen_in_every_phase(new_member, snap, size, language):
    page, match_id = practice_table(new_member, size, language)
    expect(page.locator("html")).to_have_attribute("lang", language)

    # Bidding as the dealer: the bid that would make the bids add up to nine is disabled.
    expect(page.locator(f"{MATCH}.my-turn")).to_be_visible()
    expect(page.locator(MATCH)).to_have_attribute("data-phase", "bid")
    expect(page.locator(f"{MATCH} button.bid-choice[disabled]")).to_have_count(1)
    expect(page.get_by_role("group", name=translated(language, "Your hand")).get_by_role("button")).to_have_count(9)
    expect_in_sight(page, ".hand .card-button", ".trick", ".whose-move.mine", ".action-panel button")
    snap(page, "bid-as-dealer")

    click_for_the_next_position(page, "button.bid-choice:not([disabled])", "play")
    # My move with nine cards, the bots' cards of the first trick on the table.
    expect(page.locator(f"{MATCH}.my-turn")).to_be_visible()
    expect(page.locator(f"{MATCH} .hand .card-button")).to_have_count(9)
    expect_in_sight(page, ".hand .card-button", ".trick", ".trick > .trick-slot", ".whose-move.mine",
                    ".player.mine .clock")
    snap(page, "my-move-nine-cards")
    expect_every_joker_menu_in_sight(page)
    expect_illegal_card_explained(page, match_id, 0, language, snap, "illegal-card-explained")

    # The drawer with the score sheet is one tap away on a phone (beside the table on a desktop).
    if page.locator(f"{MATCH} .extras-toggle").is_visible():
        page.locator(f"{MATCH} .extras-toggle").click()
        expect(page.locator(f"{MATCH} .score-sheet")).to_be_in_viewport()
        snap(page, "score-sheet-drawer")
        page.locator(f"{MATCH} .extras-close").click()
    else:
        expect(page.locator(f"{MATCH} .score-sheet")).to_be_in_viewport()


# Every transition the score sheet's drawer starts, from the page's first moment.
_DRAWER_TRANSITIONS = """
window.drawerTransitions = [];
document.addEventListener("transitionrun", (event) => {
  if (event.target.classList && event.target.classList.contains("match-extras")) {
    window.drawerTransitions.push(event.propertyName);
  }
}, true);
"""


def test_the_score_sheet_drawer_does_not_slide_past_the_hand_as_a_phone_opens_the_table(new_member):
    """Without script the sheet lies in the page under the hand; the script makes it a
    drawer. It used to slide from there off the screen as the table opened, over the hand."""
    page, _match_id = practice_table(new_member, "phone-390", "ru")
    page.add_init_script(_DRAWER_TRANSITIONS)
    page.reload()
    expect(page.locator("html")).to_have_class(re.compile(r"\bdrawer-ready\b"))
    page.wait_for_timeout(500)  # longer than the drawer's slide
    assert page.evaluate("window.drawerTransitions") == []
    page.locator(f"{MATCH} .extras-toggle").click()
    expect(page.locator(f"{MATCH} .score-sheet")).to_be_in_viewport()
    assert "transform" in page.evaluate("window.drawerTransitions")  # a tap still slides it open


JOKER_LOOKS = [("phone-360", "ka"), ("desktop-1366", "ru")]


@pytest.mark.parametrize(("size", "language"), JOKER_LOOKS, ids=[f"{s}-{lang}" for s, lang in JOKER_LOOKS])
@pytest.mark.site_settings(TEST_DEAL_SEED=joker_lead_seed())
def test_a_classic_trump_choice_and_a_joker_lead_menu_fit_the_screen(new_member, snap, size, language):
    """The person after the dealer chooses trump from three cards, bids, then leads the
    first trick holding a joker: its eight calls (take or discard, naming a suit) all
    lie inside the screen."""
    page, _match_id = practice_table(new_member, size, language)
    expect(page.locator(MATCH)).to_have_attribute("data-phase", "trump")
    expect(page.locator(f"{MATCH}.my-turn")).to_be_visible()
    expect(page.locator(f"{MATCH} .hand .card-button")).to_have_count(3)
    expect_in_sight(page, ".hand .card-button", ".trick", ".whose-move.mine", ".action-panel button")
    snap(page, "classic-choose-trump")
    click_for_the_next_position(page, "button.trump-choice", "bid")
    click_for_the_next_position(page, "button.bid-choice:not([disabled])", "play")
    expect(page.locator(f"{MATCH}.my-turn")).to_be_visible()
    expect(page.locator(f"{MATCH} details.joker-choice")).not_to_have_count(0)
    page.locator(f"{MATCH} details.joker-choice summary").first.click(position={"x": 8, "y": 30})
    # Two steps: high or let it take, then one of the four suits.
    expect(page.locator(f"{MATCH} details.joker-choice[open] .joker-menu button:visible")).to_have_count(2)
    snap(page, "classic-joker-lead-menu")
    page.locator(f"{MATCH} details.joker-choice[open] .joker-call-choice").first.click()
    expect(page.locator(f"{MATCH} details.joker-choice[open] .joker-menu button[ws-send]:visible")).to_have_count(4)
    snap(page, "classic-joker-lead-suits")
    page.keyboard.press("Escape")
    expect_every_joker_menu_in_sight(page)


def translated(language, text):
    from django.utils.translation import gettext

    with translation.override(language):
        return gettext(text)


JAPANESE_LOOKS = [("phone-360", "ka"), ("phone-390", "ru"), ("desktop-1366", "en"), ("phone-landscape", "ka")]


@pytest.mark.parametrize(("size", "language"), JAPANESE_LOOKS, ids=[f"{s}-{lang}" for s, lang in JAPANESE_LOOKS])
@pytest.mark.site_settings(TEST_DEAL_SEED=deal_seed())
def test_a_japanese_table_fits_the_screen_as_the_hand_grows(new_member, snap, size, language):
    """Trump choice, the first lead with all ten columns on the table (a joker lead's menu
    too), then the whole deal, the person playing face-up cards first so that the hand
    grows: each time it is larger than ever, everything is checked again."""
    host = new_member("tamar", locale=LOCALES[language], **SIZES[size])
    guest = new_member("levan")
    table_id = seat_members("japanese", ["tamar", "levan"], clock_seconds=CLOCK_SECONDS)
    match_id = match_of(table_id)
    for page, lang in ((host, language), (guest, "en")):
        page.goto(f"/{lang}/tables/{table_id}/")
        expect(page.locator(MATCH)).to_have_attribute("data-version", "1")

    expect(host.locator(f"{MATCH}.my-turn")).to_be_visible()
    expect_in_sight(host, ".hand .card-button", ".trick", ".whose-move.mine", ".action-panel button")
    snap(host, "choose-trump")
    version = version_of(host)
    host.locator(f"{MATCH} button.trump-choice").first.click()
    expect_newer_than(host, version)

    expect(host.locator(f"{MATCH} .columns .column .face-down")).to_have_count(10)
    expect_in_sight(host, ".hand .card-button", ".columns .column", ".trick", ".whose-move.mine")
    expect_every_joker_menu_in_sight(host)
    if expect_illegal_card_explained(host, match_id, 0, language, snap, "first-card-from-the-hand"):
        # The reason takes the cue's place: the hand stays on the screen (at 360 px in Georgian
        # the reason under the cue pushed the hand's second row past the screen's edge).
        expect_in_sight(host, ".hand .card-button", ".card-reason")
        expect(host.locator(f"{MATCH} .whose-move.mine")).to_be_hidden()
    snap(host, "lead-with-ten-columns")

    largest = host.locator(f"{MATCH} .hand .card-button").count()
    for _ in range(40):
        if host.locator(MATCH).get_attribute("data-phase") != "play":
            break
        actor = host if host.locator(f"{MATCH}.my-turn").count() else guest
        version = version_of(actor)
        legal = actor.locator(f"{MATCH} .columns.mine .card-button.legal, {MATCH} .hand .card-button.legal")
        # The person plays a face-up card when allowed (the hand grows), else the first legal card.
        column_card = actor.locator(f"{MATCH} .columns.mine button.card-button.legal")
        choice = column_card.first if actor is host and column_card.count() else legal.first
        if choice.evaluate("el => el.tagName") == "SUMMARY":
            choice.click(position={"x": 8, "y": 30})
            actor.locator(f"{MATCH} details.joker-choice[open] .joker-menu button").first.click()
        else:
            choice.click(position={"x": 8, "y": 30})
        # Both pages at the new position before the next look at whose move it is (the
        # other page, a moment behind, once showed the deal before as the next one began).
        everyone_at([host, guest], expect_newer_than(actor, version))
        expect_table_at_rest(host)
        count = host.locator(f"{MATCH} .hand .card-button").count()
        if count > largest and host.locator(f"{MATCH}.my-turn").count():
            largest = count
            expect_in_sight(host, ".hand .card-button", ".trick", ".whose-move.mine")
            snap(host, f"hand-of-{largest}-cards")
    assert largest > 8, "the person's hand never grew beyond the eight cards dealt"


# -- the pace: a finished trick stays on the table over a second -------------------------
_WATCH_TAKEN_TRICK = """
() => {
  window.takenTrickShown = [];
  new MutationObserver(() => {
    const shown = document.querySelector('#match .trick > .taken-trick.showing');
    const last = window.takenTrickShown[window.takenTrickShown.length - 1];
    if (shown && (!last || last.gone)) window.takenTrickShown.push({from: performance.now()});
    if (!shown && last && !last.gone) last.gone = performance.now();
  }).observe(document.documentElement, {subtree: true, childList: true, attributes: true});
}
"""


@pytest.mark.site_settings(TEST_DEAL_SEED=deal_seed(), BOT_PACE_SECONDS=0.4)
def test_at_a_table_with_bots_a_finished_trick_stays_in_view_over_a_second(new_member, snap):
    page, _match_id = practice_table(new_member, "desktop-1366", "en")
    expect(page.locator(f"{MATCH}.my-turn")).to_be_visible()
    page.evaluate(_WATCH_TAKEN_TRICK)
    click_for_the_next_position(page, "button.bid-choice:not([disabled])", "play")
    # The person, as dealer, plays last to the first trick: their card finishes it.
    version = version_of(page)
    page.locator(f"{MATCH} .hand button.card-button.legal").first.click(position={"x": 8, "y": 30})
    winner = page.locator(f"{MATCH} .trick > .taken-trick.showing .trick-winner")
    expect(winner).to_be_visible()
    snap(page, "finished-trick-with-its-taker")
    expect_newer_than(page, version, timeout=20_000)
    held = page.evaluate("window.takenTrickShown")
    assert held and held[0].get("gone"), held
    seconds = (held[0]["gone"] - held[0]["from"]) / 1000
    print(f"the finished trick stayed {seconds:.2f} s on the table")
    assert seconds >= 1.0, f"the finished trick was on the table only {seconds:.2f} s"


# -- the keyboard alone --------------------------------------------------------------------
_FOCUSED_MATCHES = "selector => !!document.activeElement && document.activeElement.matches(selector)"


def tab_to(page, selector, presses=80):
    """Press Tab (then Shift+Tab) until the focus is on an element matching `selector`."""
    for key in ("Tab", "Shift+Tab"):
        for _ in range(presses):
            if page.evaluate(_FOCUSED_MATCHES, selector):
                return
            page.keyboard.press(key)
    raise AssertionError(f"the keyboard never reached {selector}")


MY_CARDS = f"{MATCH} .columns.mine .card-button:not(span), {MATCH} .hand .card-button:not(span)"


def keyboard_move(page):
    """The move of whoever's page this is, by keys only: Tab to the buttons, arrows between cards, Enter."""
    version = version_of(page)
    phase = phase_of(page)
    if phase == "trump":
        tab_to(page, "button.trump-choice")
        page.keyboard.press("Enter")
    elif phase == "bid":
        tab_to(page, "button.bid-choice:not([disabled])")
        page.keyboard.press("Enter")
    else:
        tab_to(page, MY_CARDS)
        for _ in range(30):
            if page.evaluate(_FOCUSED_MATCHES, ".card-button.legal"):
                break
            page.keyboard.press("ArrowRight")
        else:
            raise AssertionError("the arrow keys never reached a legal card")
        opens_a_menu = page.evaluate("() => document.activeElement.tagName === 'SUMMARY'")
        page.keyboard.press("Enter")
        if opens_a_menu:  # a joker with several calls: its first call takes the focus
            expect(page.locator(f"{MATCH} details.joker-choice[open] .joker-menu button").first).to_be_focused()
            page.keyboard.press("Enter")
            if page.evaluate(_FOCUSED_MATCHES, ".joker-suits button"):  # a lead: then its first suit
                page.keyboard.press("Enter")
    expect_newer_than(page, version)


def deals_on_the_sheet(page):
    return page.locator(f"{MATCH} .score-sheet tr.deal-row:not(.current)").count()  # the deals scored so far


@pytest.mark.site_settings(TEST_DEAL_SEED=deal_seed())
def test_a_whole_classic_deal_is_played_with_the_keyboard_alone(new_member, snap):
    page, _match_id = practice_table(new_member, "desktop-1366", "ru")
    expect(page.locator(f"{MATCH}.my-turn")).to_be_visible()
    moves = 0
    while deals_on_the_sheet(page) == 0:
        expect(page.locator(f"{MATCH}.my-turn")).to_be_visible()
        keyboard_move(page)
        moves += 1
        assert moves <= 10, "a nines deal is one bid and nine cards"
    assert moves == 10
    snap(page, "classic-deal-played-by-keyboard")


@pytest.mark.site_settings(TEST_DEAL_SEED=deal_seed())
def test_a_whole_japanese_deal_is_played_with_the_keyboard_alone(new_member, snap):
    host = new_member("tamar", viewport={"width": 1366, "height": 768})
    guest = new_member("levan", locale="ru-RU", viewport={"width": 1366, "height": 768})
    table_id = seat_members("japanese", ["tamar", "levan"], clock_seconds=CLOCK_SECONDS)
    for page, lang in ((host, "ka"), (guest, "ru")):
        page.goto(f"/{lang}/tables/{table_id}/")
        expect(page.locator(MATCH)).to_have_attribute("data-version", "1")
    moves = 0
    while deals_on_the_sheet(host) == 0:
        actor = host if host.locator(f"{MATCH}.my-turn").count() else guest
        expect(actor.locator(f"{MATCH}.my-turn")).to_be_visible()
        keyboard_move(actor)
        expect_newer_than(host if actor is guest else guest, version_of(actor) - 1)
        moves += 1
        assert moves <= 37, "a Japanese deal is a trump choice and 36 cards"
    assert moves == 37
    snap(host, "japanese-deal-played-by-keyboard")


@pytest.mark.site_settings(TEST_DEAL_SEED=deal_seed())
def test_a_tap_cut_in_two_by_a_redraw_of_the_same_position_still_makes_the_move(new_member):
    """The finger goes down on a bid; before it comes up, the table is drawn again at the
    same version (the player opened the table in a second tab, which every page of the table
    is told of). The browser alone would send no click, as the tap began on the old button
    and ended on the new one; the page presses the new one."""
    page, _match_id = practice_table(new_member, "desktop-1366", "ru")
    expect(page.locator(f"{MATCH}.my-turn")).to_be_visible()  # bidding, as the dealer
    expect_table_at_rest(page)
    version = version_of(page)
    page.mouse.move(*centre_of(page, f"{MATCH} button.bid-choice[ws-send]"))
    page.mouse.down()
    page.evaluate("document.querySelector('#match').setAttribute('data-drawn-before-the-tap', '')")
    second_tab = page.context.new_page()
    second_tab.goto(page.url)
    expect(page.locator("#match[data-drawn-before-the-tap]")).to_have_count(0)  # drawn again
    assert version_of(page) == version  # the same position
    page.mouse.up()
    expect_newer_than(page, version)
    expect(page.locator(f"{MATCH} .player.mine .bid")).not_to_have_text("–")
