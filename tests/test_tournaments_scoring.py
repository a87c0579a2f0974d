"""The arena's scoring (tournaments/scoring.py, docs/tournaments.md): points by result, the
streak that doubles a win after two wins in a row, leavers scoring 0, ties sharing a place,
and the pairing's plain function (nobody twice, last opponents and frequent tablemates avoided)."""

from tournaments import pairing, scoring
from tournaments.scoring import Outcome


def run(variant, outcomes):
    """Points of a run of matches from no streak: the list of (points, doubled)."""
    streak, got = 0, []
    for outcome in outcomes:
        scored = scoring.score(variant, outcome, streak)
        streak = scored.streak
        got.append((scored.points, scored.doubled))
    return got


def test_japanese_wins_score_two_and_double_after_two_wins_in_a_row_until_a_loss():
    win, loss = Outcome(place=1), Outcome(place=2)
    assert run("japanese", [win, win, win, win, loss, win]) == [
        (2, False), (2, False), (4, True), (4, True), (0, False), (2, False)]


def test_a_resignation_or_forfeit_scores_nothing_and_ends_the_streak():
    win, left = Outcome(place=1), Outcome(place=2, left=True)
    assert run("japanese", [win, win, left, win, win, win]) == [
        (2, False), (2, False), (0, False), (2, False), (2, False), (4, True)]
    assert scoring.score("classic", Outcome(place=4, left=True), 5) == scoring.Scored(0, False, 0)


def test_classic_scores_by_place_and_only_firsts_keep_the_streak():
    first, second, third, fourth = (Outcome(place=p) for p in (1, 2, 3, 4))
    assert run("classic", [first, first, first, second, third, fourth, first]) == [
        (4, False), (4, False), (8, True), (2, False), (1, False), (0, False), (4, False)]


def test_a_person_alone_with_bots_scores_nothing_and_keeps_the_streak():
    scored = scoring.score("classic", Outcome(place=1, alone_with_bots=True), 2)
    assert scored == scoring.Scored(points=0, doubled=False, streak=2)


def test_equal_totals_share_the_better_place_and_leavers_come_last():
    assert scoring.people_places({0: 90, 1: 90, 2: 40, 3: 10}, set()) == {0: 1, 1: 1, 2: 3, 3: 4}
    assert [scoring.score("classic", Outcome(place=p), 0).points for p in (1, 1, 3, 4)] == [4, 4, 1, 0]
    # seat 0 left with the highest total (its bot played on): last, whatever it scored
    assert scoring.people_places({0: 300, 1: 90, 2: 40}, {0}) == {0: 3, 1: 1, 2: 2}


def waiting(key, score, rating=1000, last=(), met=None):
    return pairing.Waiting(key=key, score=score, rating=rating, last_opponents=frozenset(last), met=met or {})


def test_pairs_follow_the_score_and_nobody_is_in_two_groups():
    players = [waiting(key, score) for key, score in ((1, 10), (2, 0), (3, 8), (4, 2), (5, 9))]
    made = pairing.groups(players, 2)
    assert made == [[1, 5], [3, 4]]
    seated = [key for group in made for key in group]
    assert len(seated) == len(set(seated))


def test_japanese_does_not_pair_the_last_opponents_again_when_anyone_else_waits():
    players = [waiting(1, 4, last=[2]), waiting(2, 4, last=[1]), waiting(3, 0)]
    assert pairing.groups(players, 2) == [[1, 3]]
    assert pairing.groups([waiting(1, 4, last=[2]), waiting(2, 4, last=[1])], 2) == [[1, 2]]


def test_classic_avoids_two_players_who_sat_together_three_times_when_others_can_sit():
    often = {2: pairing.MAX_MEETINGS}
    players = [waiting(1, 9, met=often), waiting(2, 8, met={1: pairing.MAX_MEETINGS}),
               waiting(3, 7), waiting(4, 6), waiting(5, 5)]
    assert pairing.groups(players, 4) == [[1, 3, 4, 5]]
