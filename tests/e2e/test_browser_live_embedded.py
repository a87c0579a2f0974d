"""`make run` is live: under the embedded default (SQLite, no Redis, the Celery worker
in a process of its own) what the worker does reaches both players' pages at once —
the move it makes when a clock runs out, and the forfeit when a player who closed
the page does not come back within the grace time. A refusal shown to a stale tab
goes away with the next position."""

import json
import time

import pytest
from django.conf import settings
from playwright.sync_api import expect

from e2e.match_play import MATCH, everyone_at, expect_version, is_my_turn, make_a_move

pytestmark = pytest.mark.embedded_site

CLOCK_SECONDS = 8  # long enough to open both pages before it runs out
GRACE_SECONDS = 3
LIVE_WITHIN_SECONDS = 2
BROWSER_SLACK_SECONDS = 1  # the page's own swap and Playwright's polling

SEAT_TWO_MEMBERS = """
import json
from accounts.players import player_for_user
from django.contrib.auth import get_user_model
from games.models import Match
from games.services import tables
from games.services.tables import TableSettings

host, guest = (player_for_user(get_user_model().objects.get(username=name)) for name in ({host!r}, {guest!r}))
table = tables.create_table(host, TableSettings(variant="japanese", clock_seconds={clock}))
tables.sit(table.pk, guest)
match = Match.objects.select_related("table").get(table=table)
print(json.dumps({{"table": table.pk, "deadline": match.turn_started_at.timestamp() + {clock}}}))
"""


def _seconds_left(until):
    return max(0.0, until - time.time())


def _ms(seconds):
    return int(seconds * 1000)


@pytest.mark.site_settings(DISCONNECT_GRACE_SECONDS=GRACE_SECONDS)
def test_under_make_run_a_clock_move_and_a_forfeit_appear_live_on_the_players_pages(
        live_site, new_embedded_member, snap):
    host, guest = new_embedded_member("tamar"), new_embedded_member("levan")
    table = json.loads(live_site.run_python(
        SEAT_TWO_MEMBERS.format(host="tamar", guest="levan", clock=CLOCK_SECONDS)).strip().splitlines()[-1])
    pages = [host, guest]
    for page in pages:
        page.goto(f"/ka/tables/{table['table']}/")
    everyone_at(pages, 1)
    snap(host, "declarer-does-not-choose")

    # Nobody chooses the trump: when the clock runs out the worker does, and both pages show it.
    within = _seconds_left(table["deadline"]) + LIVE_WITHIN_SECONDS + BROWSER_SLACK_SECONDS
    for page in pages:
        expect_version(page, 2, timeout=_ms(within))
        expect(page.locator(MATCH)).to_have_attribute("data-phase", "play")
    snap(host, "the-clock-chose-the-trump")

    # A tap against the old position is refused with a note, which the next position clears.
    declarer = next(page for page in pages if is_my_turn(page))
    button = declarer.locator(f"{MATCH} button.card-button.legal").first
    stale = {**json.loads(button.get_attribute("hx-vals")), "version": 1}
    button.evaluate("(b, vals) => b.setAttribute('hx-vals', vals)", json.dumps(stale))
    button.click()
    banner = declarer.locator("#match-error")
    expect(banner).not_to_be_empty()
    snap(declarer, "stale-tap-refused")
    make_a_move(declarer)
    everyone_at(pages, 3)
    expect(banner).to_be_empty()

    # The opponent closes the page: the worker ends the match at the end of the grace time.
    opponent = guest if declarer is host else host
    stays = host if opponent is guest else guest
    opponent.close()
    closed = time.time()
    expect(stays.locator(f"{MATCH} .disconnected-note")).to_be_visible()
    end = stays.locator(f"{MATCH} .match-end")
    grace = GRACE_SECONDS + settings.EVERYONE_GONE_WINDOW_SECONDS  # the server acts after both (docs/conduct.md)
    expect(end).to_be_visible(timeout=_ms(_seconds_left(closed + grace) + LIVE_WITHIN_SECONDS
                                          + BROWSER_SLACK_SECONDS))
    expect(stays.locator(f"{MATCH} .card-button.legal")).to_have_count(0)
    snap(stays, "won-by-forfeit-live")
