"""The arena's extras in real browsers: on a phone in Georgian a member says "I'll come" on
/tournaments/ and, when the tournament starts (beat's tick in the site's worker), the header's
bell brings the notice without a reload, whose link opens the tournament; on a laptop in
Russian a player berserks the instant the button appears at the arena table, and the ⚔ shows
beside the name at the table (both players' pages) and in a visitor's standings; a player writes
in the tournament chat on a laptop in Russian and a visitor on a phone in Georgian reads it live."""

import re
from datetime import timedelta

from django.utils import timezone, translation
from playwright.sync_api import expect

from e2e.layout import PHONE, assert_nothing_cut_off
from e2e.match_play import MATCH

LAPTOP = {"viewport": {"width": 1366, "height": 768}}
TABLE_URL = re.compile(r"/tables/\d+/$")


def words(language, text):
    with translation.override(language):
        return translation.gettext(text)


def test_say_ill_come_on_a_phone_in_georgian_and_the_bell_tells_when_it_starts(new_member, snap, browser_problems):
    from tournaments.models import Status, Tournament

    arena = Tournament.objects.create(name="Japanese evening arena", variant="japanese", minutes=60, rated=False,
                                      entry_fee=25, starts_at=timezone.now() + timedelta(hours=1),
                                      status=Status.UPCOMING)
    shown_name = words("ka", "Japanese evening arena")
    tamar = new_member("tamar", **PHONE)
    tamar.goto("/ka/tournaments/")
    coming = tamar.locator(f"#coming-{arena.pk}")
    coming.get_by_role("button", name=words("ka", "I'll come"), exact=True).click()
    expect(coming).to_contain_text(words("ka", "You said you will come: we will tell you when it starts."))
    expect(coming.get_by_role("button", name=words("ka", "I won't come after all"))).to_be_visible()
    assert_nothing_cut_off(tamar)
    snap(tamar, "ill-come-ka-phone")

    Tournament.objects.filter(pk=arena.pk).update(starts_at=timezone.now())  # the hour came: beat's tick starts it
    bell = tamar.locator("header .notices-menu")
    expect(bell.locator("#notices-count")).to_contain_text("1")
    bell.locator("summary").click()
    notice = bell.locator(".notice-tournament_starts")
    expect(notice).to_contain_text(shown_name)
    assert_nothing_cut_off(tamar)
    snap(tamar, "started-notice-ka-phone")
    notice.get_by_role("link", name=words("ka", "Go to the tournament")).click()
    expect(tamar).to_have_url(re.compile(rf"/ka/tournaments/{arena.pk}/$"))
    expect(tamar.get_by_role("button", name=words("ka", "Join the arena"))).to_be_visible()
    expect(tamar.locator("#arena-fee")).to_contain_text("50 %")  # the prize split, before joining
    assert_nothing_cut_off(tamar)
    snap(tamar, "tournament-prizes-ka-phone")


def test_berserk_before_the_first_move_on_a_laptop_in_russian_and_see_the_mark(new_member, new_person, snap,
                                                                               browser_problems):
    from tournaments.models import Status, Tournament

    arena = Tournament.objects.create(name="Evening arena", variant="japanese", minutes=60, rated=False,
                                      bank_seconds=60, starts_at=timezone.now() - timedelta(minutes=1),
                                      status=Status.RUNNING)
    tamar = new_member("tamar", locale="ru-RU", **LAPTOP)
    levan = new_member("levan", locale="ru-RU", **LAPTOP)
    visitor = new_person("visitor", locale="ru-RU", **LAPTOP)
    for player in (tamar, levan):
        player.goto(f"/ru/tournaments/{arena.pk}/")
        player.get_by_role("button", name=words("ru", "Join the arena")).click()
    for player in (tamar, levan):
        expect(player).to_have_url(TABLE_URL)
        expect(player.locator(MATCH)).to_have_attribute("data-version", re.compile(r"^\d+$"))

    berserk = levan.get_by_role("button", name=re.compile(words("ru", "Berserk: halve my bank")))
    berserk.click()  # the instant it appears, as a quick player taps
    mark_title = words("ru", "Berserk: this player halved their bank")
    expect(levan.locator(".player.mine .berserk-mark")).to_have_attribute("title", mark_title)
    expect(berserk).to_have_count(0)  # once only
    expect(levan.locator(".player.mine .bank")).to_have_attribute("data-bank", "30.0")
    expect(tamar.locator(".player:not(.mine) .berserk-mark")).to_have_count(1)  # the other page, live
    expect(tamar.locator(".player.mine .berserk-mark")).to_have_count(0)
    assert_nothing_cut_off(levan)
    snap(levan, "berserk-ru-laptop")

    visitor.goto(f"/ru/tournaments/{arena.pk}/")
    levan_row = visitor.locator("#arena-standings tbody tr", has_text="levan")
    expect(levan_row.locator(".arena-berserk")).to_have_text("⚔")
    expect(visitor.locator("#arena-standings tbody tr", has_text="tamar").locator(".arena-berserk")).to_have_count(0)
    snap(visitor, "standings-berserk-ru-laptop")


def test_the_tournament_chat_sends_and_shows_a_message_to_a_reader_live(new_member, new_person, snap,
                                                                         browser_problems):
    from tournaments.models import Status, Tournament

    arena = Tournament.objects.create(name="Evening arena", variant="japanese", minutes=60, rated=False,
                                      starts_at=timezone.now() + timedelta(hours=1), status=Status.UPCOMING)
    tamar = new_member("tamar", locale="ru-RU", **LAPTOP)
    visitor = new_person("visitor", **PHONE)
    tamar.goto(f"/ru/tournaments/{arena.pk}/")
    tamar.get_by_role("button", name=words("ru", "Join the arena")).click()
    expect(tamar.locator("#chat-text")).to_be_visible()  # a player of the tournament writes
    visitor.goto(f"/ka/tournaments/{arena.pk}/")
    expect(visitor.locator("#chat-title")).to_have_text(words("ka", "Tournament chat"))
    expect(visitor.locator("#chat-text")).to_have_count(0)  # a visitor reads only

    tamar.locator("#chat-text").fill("Всем удачи в 21:00!")
    tamar.locator("#chat .chat-form button[type=submit]").click()
    expect(tamar.locator("#chat-log .chat-msg").last).to_contain_text("Всем удачи в 21:00!")
    expect(visitor.locator("#chat-log .chat-msg").last).to_contain_text("Всем удачи в 21:00!")
    expect(visitor.locator("#chat-log .chat-msg").last).to_contain_text("tamar")
    assert_nothing_cut_off(tamar)
    snap(tamar, "chat-ru-laptop")
    snap(visitor, "chat-ka-phone")

    # A player on a Georgian phone: the quick phrases took five rows there (nine of them then), and
    # the box, of a fixed height, let the message's field and button hang out of it over the footer.
    levan = new_member("levan", **PHONE)
    levan.goto(f"/ka/tournaments/{arena.pk}/")
    levan.get_by_role("button", name=words("ka", "Join the arena")).click()
    expect(levan.locator("#chat-text")).to_be_visible()
    boxes = levan.evaluate("""() => [document.querySelector('#chat .chat-sheet'), document.querySelector('#chat .chat-form'),
        document.querySelector('#chat .chat-phrases')].map((e) => { const r = e.getBoundingClientRect();
        return {top: r.top + scrollY, bottom: r.bottom + scrollY}; })""")
    sheet, form, phrases = boxes
    assert sheet["top"] <= phrases["top"] and form["bottom"] <= sheet["bottom"] + 0.5, boxes
    expect(levan.locator("#chat-log .chat-msg").last).to_contain_text("Всем удачи в 21:00!")
    assert_nothing_cut_off(levan)
    snap(levan, "chat-ka-phone-player")
