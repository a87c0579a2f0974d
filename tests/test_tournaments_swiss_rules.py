"""The Swiss's rules as plain functions (tournaments/swiss.py, docs/tournaments.md "The Swiss"):
nobody at two tables of a round, no Japanese pair twice (and when none is possible, no
pairing at all), byes to the lowest who had none, classic tables mixing score groups as
little as the order allows, the tie-breaks of the documented worked example, late joining."""

import itertools
import random

from tournaments import swiss
from tournaments.swiss import Entrant, Meeting


def entrants(scores, met=None, had_bye=(), ratings=None):
    """Entrant k with scores[k], rating from `ratings` (1500 each by default)."""
    met = met or {}
    return [Entrant(key=k, score=s, rating=(ratings or {}).get(k, 1500), met=frozenset(met.get(k, ())),
                    had_bye=k in had_bye) for k, s in enumerate(scores)]


def repeat_free_matching_exists(keys, met):
    """Exhaustively: can `keys` be split into new pairs (one left out for a bye when odd)?"""
    def splits(rest):
        if not rest:
            return True
        first = rest[0]
        return any(splits([k for k in rest[1:] if k != other]) for other in rest[1:] if other not in met[first])
    return any(splits([k for k in keys if k != bye]) for bye in ([None] if len(keys) % 2 == 0 else keys))


def play_a_swiss(variant, players, rounds, rng):
    """Pair and play random rounds; every round's pairing checked as it comes. The rounds played."""
    scores = dict.fromkeys(range(players), 0)
    met = {k: set() for k in scores}
    had_bye = set()
    ratings = {k: rng.randrange(1200, 1800) for k in scores}
    for played in range(rounds):
        plan = swiss.pair(variant, entrants([scores[k] for k in scores], met, had_bye, ratings))
        if plan is None:
            assert variant == "japanese"
            assert not repeat_free_matching_exists(list(scores), met)
            return played
        seated = [k for table in plan.tables for k in table] + plan.byes
        assert sorted(seated) == sorted(scores)  # everyone once: nobody at two tables, nobody forgotten
        assert all(len(table) == swiss.TABLE_SIZE[variant] for table in plan.tables)
        for table in plan.tables:
            if variant == "japanese":
                a, b = table
                assert b not in met[a], "a Japanese pair met twice"
            for a in table:
                met[a] |= set(table) - {a}
            for place, key in enumerate(rng.sample(table, len(table)), start=1):
                scores[key] += swiss.points(variant, place, left=False)
        for key in plan.byes:
            scores[key] += swiss.bye_points(variant)
            had_bye.add(key)
    return rounds


def test_every_round_seats_everyone_once_and_no_japanese_pair_meets_twice():
    rng = random.Random(33)
    for players in range(2, 15):
        for rounds in (1, 3, players - 1, players + 1):
            play_a_swiss("japanese", players, max(rounds, 1), rng)


def test_a_japanese_round_with_no_new_pair_possible_is_not_paired():
    # three players after three rounds: everyone met everyone
    met = {0: {1, 2}, 1: {0, 2}, 2: {0, 1}}
    assert swiss.pair("japanese", entrants([4, 2, 0], met)) is None
    assert swiss.pair("japanese", entrants([0])) is None  # one player: no table


def test_the_japanese_pairing_searches_back_rather_than_repeat_a_pair():
    # nearest first would give 0–1 and leave 2–3, who met; the search finds 0–2, 1–3
    plan = swiss.pair("japanese", entrants([6, 4, 2, 0], met={2: {3}, 3: {2}}))
    assert plan.tables == [[0, 2], [1, 3]] and plan.byes == []


def test_pairing_is_by_score_then_rating():
    plan = swiss.pair("japanese", entrants([2, 2, 0, 0], ratings={0: 1400, 1: 1700, 2: 1500, 3: 1600}))
    assert plan.tables == [[1, 0], [3, 2]]


def test_the_bye_goes_to_the_lowest_player_who_has_had_none():
    plan = swiss.pair("japanese", entrants([4, 2, 2, 0, 0], had_bye={4}))
    assert plan.byes == [3]  # 4 is lowest (by key among equals) but had one
    everyone_had_one = swiss.pair("japanese", entrants([4, 2, 0], had_bye={0, 1, 2}))
    assert everyone_had_one.byes == [2]
    classic = swiss.pair("classic", entrants([8, 6, 6, 4, 4, 2, 1, 0, 0], had_bye={8}))
    assert classic.byes == [7] and len(classic.tables) == 2


def test_classic_tables_follow_the_order_and_mix_score_groups_only_where_a_group_does_not_fill_a_table():
    rng = random.Random(5)
    for _ in range(200):
        scores = [rng.choice((0, 2, 4, 6, 8)) for _ in range(rng.randrange(4, 30))]
        group = {k: s for k, s in enumerate(scores)}
        plan = swiss.pair("classic", entrants(scores))
        order = [e.key for e in swiss.order(entrants(scores)) if e.key not in plan.byes]
        assert [k for table in plan.tables for k in table] == order  # cut from the top, in order
        boundaries = sum(1 for a, b in itertools.pairwise(order) if group[a] != group[b])
        mixed = sum(len({group[k] for k in table}) - 1 for table in plan.tables)
        assert mixed <= boundaries  # each change of score group splits at most one table
    assert swiss.pair("classic", entrants([4, 4, 4, 4, 2, 2, 2, 2])).tables == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_the_classic_swiss_plays_out_its_rounds_with_everyone_once_a_round():
    rng = random.Random(8)
    for players in (4, 5, 7, 9, 13):
        assert play_a_swiss("classic", players, 5, rng) == 5


def test_points_are_the_arena_table_without_streaks_and_leaving_scores_nothing():
    assert [swiss.points("japanese", place, False) for place in (1, 2)] == [2, 0]
    assert [swiss.points("classic", place, False) for place in (1, 2, 3, 4)] == [4, 2, 1, 0]
    assert swiss.points("japanese", 1, left=True) == 0
    assert (swiss.bye_points("japanese"), swiss.bye_points("classic")) == (2, 2)


def test_the_worked_tie_break_example_of_the_docs():
    """docs/tournaments.md: ana, beka, ciko, dato; round 1 ana beats beka, ciko beats dato;
    round 2 ana beats ciko, beka beats dato; round 3 dato beats ana, ciko beats beka."""
    ana, beka, ciko, dato = "ana", "beka", "ciko", "dato"
    won = [(ana, beka), (ciko, dato), (ana, ciko), (beka, dato), (dato, ana), (ciko, beka)]
    meetings = [Meeting(places={winner: 1, loser: 2}) for winner, loser in won]
    scores = {ana: 4, beka: 2, ciko: 4, dato: 2}
    breaks = swiss.tie_breaks("japanese", scores, meetings)
    assert breaks == {ana: (8, 6), ciko: (8, 4), beka: (10, 2), dato: (10, 4)}
    standings = sorted(scores, key=lambda k: (-scores[k], -breaks[k][0], -breaks[k][1]))
    assert standings == [ana, ciko, dato, beka]


def test_classic_tie_breaks_average_the_people_met_and_add_those_left_behind():
    tables = [Meeting(places={"a": 1, "b": 2, "c": 3, "d": 4}), Meeting(places={"a": 2, "e": 1, "f": 3, "g": 4})]
    scores = {"a": 6, "b": 2, "c": 1, "d": 0, "e": 4, "f": 1, "g": 0}
    breaks = swiss.tie_breaks("classic", scores, tables)
    assert breaks["a"] == (swiss.Fraction(2 + 1 + 0 + 4 + 1 + 0, 6), 2 + 1 + 0 + 1 + 0)
    assert breaks["d"] == (swiss.Fraction(6 + 2 + 1, 3), 0)


def test_late_joining_is_open_until_half_of_the_rounds_were_paired():
    assert [swiss.late_join_open(current, 5) for current in range(6)] == [True, True, True, False, False, False]
    assert [swiss.late_join_open(current, 4) for current in range(5)] == [True, True, True, False, False]


def test_a_thousand_and_one_japanese_players_are_paired_for_seven_rounds_without_a_repeat():
    assert play_a_swiss("japanese", 1001, 7, random.Random(2)) == 7  # 500 choices deep: the search keeps its own stack
