"""Worked examples: every example block on the rules pages follows the schema,
each page carries the same examples in all three languages, and the outcome each
example states is the outcome the rules engine gives."""

import json

import pytest

from rules_pages import content
from rules_pages.engine_bridge import outcome_from_engine
from rules_pages.examples import ExampleError, parse_example, stated_outcome

LANGS = content.LANGUAGES
RULES_PAGES_WITH_BOARDS = ("classic", "japanese")


def examples_of(lang, slug):
    return content.load_page(lang, slug).examples


# Examples the engine gets wrong by rules.md (example id -> the rule, expected, actual). The page
# keeps the right outcome and its check is an expected failure until the engine is fixed.
ENGINE_DISAGREES: dict[str, str] = {}

ALL_EXAMPLES = [
    pytest.param(
        example, id=f"{lang}-{slug}-{example.id}",
        marks=[pytest.mark.xfail(strict=True, reason=ENGINE_DISAGREES[example.id])] if example.id in ENGINE_DISAGREES else [],
    )
    for lang in LANGS for slug in content.PAGE_SLUGS for example in examples_of(lang, slug)
]


@pytest.mark.parametrize("slug", content.PAGE_SLUGS)
def test_each_page_has_the_same_examples_in_every_language(slug):
    english = [example.machine_data() for example in examples_of("en", slug)]
    for lang in LANGS:
        assert [example.machine_data() for example in examples_of(lang, slug)] == english, lang


@pytest.mark.parametrize("slug", ["classic", "japanese", "classic-vs-japanese", "khishti"])
def test_rules_pages_carry_worked_examples(slug):
    assert len(examples_of("en", slug)) >= 2


@pytest.mark.parametrize("slug", RULES_PAGES_WITH_BOARDS)
def test_each_rules_page_has_a_try_it_board(slug):
    for lang in LANGS:
        assert [e.kind for e in examples_of(lang, slug)].count("try") == 1


@pytest.mark.parametrize("example", ALL_EXAMPLES)
def test_every_example_block_renders_as_an_example_box(example):
    for lang in LANGS:
        for slug in content.PAGE_SLUGS:
            if example in examples_of(lang, slug):
                assert f'id="example-{example.id}"' in content.load_page(lang, slug).html


def test_the_worked_scores_of_rules_md_are_on_the_classic_page():
    by_id = {example.id: example for example in examples_of("en", "classic")}
    expected = {  # rules.md 2.7, "Worked checks"
        "score-made-two": 150, "score-made-three": 200, "score-all-nine": 900,
        "score-all-four": 400, "score-one-too-many": 20, "score-pass-broken": 10, "score-pass-made": 50,
    }
    assert {key: stated_outcome(by_id[key])["score"] for key in expected} == expected


GOOD = {"id": "x", "kind": "trick", "variant": "classic", "trump": "H", "leader": 0,
        "plays": [{"card": "KS"}, {"card": "AH"}, {"card": "X1", "joker": "take"}, {"card": "9S"}], "winner": 2}


def block(**changes):
    data = {**GOOD, **changes}
    return json.dumps({k: v for k, v in data.items() if v is not None})


def test_a_good_block_parses_to_its_stated_outcome():
    example = parse_example(block())
    assert (example.id, example.kind) == ("x", "trick")
    assert stated_outcome(example) == {"winner": 2}


@pytest.mark.parametrize("text,message", [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "must be a JSON object"),
    (block(id="Bad Id"), "'id' must be"),
    (block(kind="poker"), "'kind' must be one of"),
    (block(winner=4), "'winner' must be a whole number from 0 to 3"),
    (block(trump="X"), "'trump' must be one of"),
    (block(plays=[{"card": "KS"}, {"card": "AH"}, {"card": "9S"}]), "has 4 cards, this one has 3"),
    (block(plays=[{"card": "6S"}, {"card": "AH"}, {"card": "9H"}, {"card": "9S"}]), "not in the Joker deck"),
    (block(plays=[{"card": "KS"}, {"card": "KS"}, {"card": "9H"}, {"card": "9S"}]), "appears twice"),
    (block(plays=[{"card": "KS"}, {"card": "AH"}, {"card": "X1"}, {"card": "9S"}]), "plays\\[2\\].joker"),
    (block(plays=[{"card": "X1", "joker": "take"}, {"card": "AH"}, {"card": "9H"}, {"card": "9S"}]), "plays\\[0\\].suit"),
    (block(plays=[{"card": "KS", "joker": "take"}, {"card": "AH"}, {"card": "9H"}, {"card": "9S"}]), "only a joker"),
    (block(colour="red"), "unknown key"),
    (block(winner=None), "missing key"),
    (block(names=["a", "b"]), "'names' must list 4 names"),
    (json.dumps({"id": "x", "kind": "legal", "variant": "classic", "trump": "S", "hand": ["AS"], "trick": [{"card": "KS"}],
                 "legal": ["QS"]}), "'legal' must name at least one card, all from 'hand'"),
    (json.dumps({"id": "x", "kind": "score", "deal_size": 3, "bid": 4, "tricks": 0, "score": 0}), "'bid' must be"),
    (json.dumps({"id": "x", "kind": "score", "deal_size": 3, "bid": 1, "tricks": 0, "khishti": 300, "score": -300}),
     "'khishti' must be one of"),
    (json.dumps({"id": "x", "kind": "japanese_deal", "tricks": [10, 7], "points": [3, 0]}), "18 tricks in all"),
    (json.dumps({"id": "x", "kind": "match", "target": 21, "deals": [[11, 7]], "points": [[4, 0]], "totals": [5, 0],
                 "winner": None}), "sum of 'points'"),
    (json.dumps({"id": "x", "kind": "pulka", "setting": "premium_moshla", "deal_sizes": [1],
                 "bids": [[0], [0], [0], [1]], "tricks": [[0], [0], [0], [1]], "deal_scores": [[50], [50], [50], [100]],
                 "bonus": [50, 50, 50, 100]}), "can never add up to the deal size"),
    (json.dumps({"id": "x", "kind": "try", "variant": "classic", "trump": "C", "leader": 3,
                 "trick": [{"card": "X1", "joker": "take", "suit": "H"}], "hand": ["QH", "9H"],
                 "after": [{"card": "AH"}, {"card": "7C"}], "legal": ["QH"], "winners": {"QH": 3}}), "needs 'why'"),
    (json.dumps({"id": "x", "kind": "try", "variant": "classic", "trump": "C", "leader": 3, "why": "w",
                 "trick": [{"card": "X1", "joker": "take", "suit": "H"}], "hand": ["QH", "X2"],
                 "after": [{"card": "AH"}, {"card": "7C"}], "legal": ["QH", "X2"], "winners": {"QH": 3, "X2": 0}}),
     "X2:take, X2:discard"),
])
def test_a_block_that_breaks_the_schema_is_refused_with_a_clear_error(text, message):
    with pytest.raises(ExampleError, match=message):
        parse_example(text)


def test_a_bad_example_block_stops_the_page_with_its_location():
    source = '---\ntitle: T\ndescription: D\n---\n\n```example\n{"id": "x", "kind": "poker"}\n```\n'
    with pytest.raises(content.ContentError, match=r"en/test\.md, line 6 'x': 'kind' must be one of"):
        content.render_source(source, "en", "en/test.md")


def test_an_example_id_is_used_once_per_page():
    box = '```example\n{"id": "x", "kind": "bid", "deal_size": 1, "bids": [0, 0, 0], "forbidden": 1}\n```\n'
    with pytest.raises(content.ContentError, match="used twice"):
        content.render_source("---\ntitle: T\ndescription: D\n---\n\n" + box + "\n" + box, "en", "en/test.md")


# --- The pages and the engine agree ---------------------------------------------------------
# rules_pages.engine_bridge plays every example out in a real game of the engine
# (tests/test_rules_pages_engine_bridge.py checks the bridge itself).


@pytest.mark.parametrize("example", ALL_EXAMPLES)
def test_the_engine_gives_the_outcome_the_page_states(example):
    assert outcome_from_engine(example) == stated_outcome(example)
