"""Hypothesis strategies for websocket frames a hostile or broken client might send.

Each strategy draws a `Frame`: what to send (text or bytes), the answers it may
get (`expect`: refusal codes; "later" for a frame whose shape is right, which a
handler refuses after reading the database), and the `id` it carries, if any.
Frames that could be honest moves are never drawn: a fuzzed match must not change.
"""

import json
from dataclasses import dataclass, field

from hypothesis import strategies as st

from games.frames import MAX_DEPTH, MAX_FRAME_CHARS
from games.protocol import LANGUAGES, message_fields

MESSAGE_FIELDS_ALL = message_fields()  # the match's messages and its parts' (chat, quick play)

ABSENT = object()  # a message without an id (an id may be null)
LATER = "later"
BIGINT = 2 ** 63


@dataclass(frozen=True)
class Frame:
    text: str | None = None
    data: bytes | None = None
    expect: frozenset = field(default_factory=frozenset)
    id: object = ABSENT

    def __repr__(self):
        shown = self.text if self.text is not None else self.data
        return f"Frame({shown[:300]!r}{'...' if len(shown) > 300 else ''}, expect={sorted(self.expect)})"


def _frame(text, *codes, ident=ABSENT):
    return Frame(text=text, expect=frozenset(codes), id=ident)


# JSON values of every kind, kept small: drawing is most of a fuzz's time.
nulls, bools = st.none(), st.booleans()
ints = st.integers() | st.integers(-2 ** 70, 2 ** 70)
floats = st.floats(allow_nan=False, allow_infinity=False)
texts = st.text(max_size=8)
json_leaves = nulls | bools | ints | floats | texts
json_lists = st.lists(json_leaves, max_size=3)
json_objects = st.dictionaries(texts, json_leaves | json_lists, max_size=3)
json_values = json_leaves | json_lists | json_objects
ids = st.just(ABSENT) | json_values


def _with_id(message: dict, ident) -> dict:
    return message if ident is ABSENT else {**message, "id": ident}


# --- frames nothing can read ----------------------------------------------------------------
# Strategies are built once, here: building one inside a composite on every draw costs more
# than the draw (hypothesis analyses each new strategy, filters' lambdas included).

random_text = st.text(max_size=200).map(lambda text: _frame(text, "bad_json", "unknown_type"))
binary = st.binary(max_size=200).map(lambda data: Frame(data=data, expect=frozenset({"bad_json"})))
oversized = st.integers(MAX_FRAME_CHARS, 3 * MAX_FRAME_CHARS).map(
    lambda size: _frame(json.dumps({"type": "ping", "pad": "x" * size}), "bad_json"))

# Shallow; around the reader's limit; deep enough to exhaust Python's recursion (about 1,000)
# yet short enough to be parsed (2,040 pairs fit in a frame); longer than a frame. Hypothesis
# favours small numbers in a wide range, so each band is a range of its own.
depths = (st.integers(1, 40) | st.integers(MAX_DEPTH - 2, MAX_DEPTH + 2) | st.integers(1000, 2040)
          | st.integers(2041, 3000))
brackets = st.sampled_from([("[", "]"), ('{"k":', "}"), ('{"type":', "}")])
nest_places = st.sampled_from(["alone", "action", "id"])


@st.composite
def nested(draw):
    """Brackets or objects nested to any depth, alone or as a field of a message."""
    depth, (opener, closer), where = draw(depths), draw(brackets), draw(nest_places)
    value = opener * depth + "0" + closer * depth
    if where == "alone":
        text, total_depth = value, depth
        shallow = "bad_json" if opener == "[" else "unknown_type"
    elif where == "action":
        text, total_depth = '{"type": "act", "match": 1, "version": 0, "action": ' + value + "}", depth + 1
        shallow = "bad_message" if opener == "[" else LATER  # an action object is read by the engine
    else:
        text, total_depth = '{"type": "act", "match": "none", "version": "none", "id": ' + value + "}", depth + 1
        shallow = "bad_message"
    if total_depth > MAX_DEPTH or len(text) > MAX_FRAME_CHARS:
        return _frame(text, "bad_json")
    return _frame(text, shallow, "unknown_type", "bad_json")


NOT_JSON_NUMBERS = ["NaN", "-NaN", "Infinity", "-Infinity", "1e400", "-1e999", "1E309"]
# Not JSON at all, or more digits than any bigint (19 nines already are), up to past the frame's size.
huge_numbers = (st.sampled_from(NOT_JSON_NUMBERS) | st.integers(19, 4200).map(lambda n: "9" * n)
                | st.integers(19, 4200).map(lambda n: "-" + "9" * n))
number_fields = st.sampled_from([(kind, name) for kind, fields in MESSAGE_FIELDS_ALL.items()
                                 for name, (field_kind, _required) in fields.items() if field_kind == "whole"])


@st.composite
def special_numbers(draw):
    """NaN, infinities, floats too large, and integers too large for any id, in a message's number field."""
    (kind, name), literal = draw(number_fields), draw(huge_numbers)
    text = '{"type": "%s", "%s": %s, "action": {"bid": %s}}' % (kind, name, literal, literal)  # noqa: UP031
    if len(text) > MAX_FRAME_CHARS or literal in NOT_JSON_NUMBERS:
        return _frame(text, "bad_json")
    return _frame(text, "bad_message")


repeatable_keys = st.sampled_from(["type", "id", "match"])


@st.composite
def repeated_keys(draw):
    """A key given twice (which one counts would be a guess)."""
    ident, key = draw(json_values), draw(repeatable_keys)
    body = json.dumps({"type": "ping", "id": ident, "match": 1})[1:-1]
    return _frame("{" + body + ", " + json.dumps(key) + ": " + json.dumps(ident) + "}", "bad_json")


surrogates = st.integers(0xD800, 0xDFFF)
surrogate_places = st.sampled_from([
    '{"type": "ping", "id": "%s"}',
    '{"type": "ping", "%s": 1}',
    '{"type": "act", "match": 1, "version": 0, "action": {"play": "A%s"}}',
])


@st.composite
def not_unicode(draw):
    """Lone surrogates: escaped inside JSON strings (keys or values), or raw in the text."""
    surrogate = draw(surrogates)
    if draw(bools):
        return _frame(draw(surrogate_places) % ("\\u%04x" % surrogate), "bad_json")  # noqa: UP031
    return _frame('{"type": "ping", "id": "' + chr(surrogate) + '"}', "bad_json")


# --- messages of the wrong shape ---------------------------------------------------------

not_a_type = (st.just(ABSENT) | nulls | bools | ints | floats | json_lists | json_objects
              | texts.filter(lambda v: v not in MESSAGE_FIELDS_ALL))


@st.composite
def unknown_types(draw):
    message, kind, ident = draw(json_objects), draw(not_a_type), draw(ids)
    message.pop("id", None)
    if kind is ABSENT:
        message.pop("type", None)
    else:
        message["type"] = kind
    return _frame(json.dumps(_with_id(message, ident)), "unknown_type", "bad_json", ident=ident)


# For each kind of field, every JSON value that is not of that kind (null means "absent").
WRONG = {
    "whole": bools | floats | texts | json_lists | json_objects
             | st.integers(min_value=BIGINT) | st.integers(max_value=-BIGINT - 1),
    "text": bools | ints | floats | json_lists | json_objects,
    "object": bools | ints | floats | texts | json_lists,
    "language": bools | ints | floats | texts.filter(lambda v: v not in LANGUAGES) | json_lists | json_objects,
    "flag": ints | floats | texts | json_lists | json_objects,
}
types_with_fields = st.sampled_from([kind for kind, fields in MESSAGE_FIELDS_ALL.items() if fields])
field_choices = {kind: st.sampled_from(sorted(fields)) for kind, fields in MESSAGE_FIELDS_ALL.items() if fields}


@st.composite
def wrong_fields(draw):
    """A known type with at least one field of the wrong kind (other fields anything or absent)."""
    kind = draw(types_with_fields)
    wrong_name = draw(field_choices[kind])
    message = {"type": kind}
    for name, (field_kind, _required) in MESSAGE_FIELDS_ALL[kind].items():
        if name == wrong_name:
            message[name] = draw(WRONG[field_kind])
        elif draw(bools):
            message[name] = draw(json_values)
    ident = draw(ids)
    return _frame(json.dumps(_with_id(message, ident)), "bad_message", ident=ident)


no_variant = (nulls | bools | ints | floats | json_lists | json_objects
              | texts.filter(lambda v: v not in ("japanese", "classic")))


@st.composite
def wrong_tables(draw):
    """create_table with a variant that does not exist (and options of any shape)."""
    message = {"type": "create_table", "variant": draw(no_variant)}
    if draw(bools):
        message["options"] = draw(json_values)
    ident = draw(ids)
    return _frame(json.dumps(_with_id(message, ident)), LATER, ident=ident)


unreadable = st.one_of(random_text, binary, oversized, nested(), repeated_keys(), not_unicode())
_garbage = st.one_of(unreadable, special_numbers(), unknown_types(), wrong_fields(), wrong_tables())


def garbage() -> st.SearchStrategy:
    """Every frame that the pure checks alone refuse (or pass to a handler that refuses it)."""
    return _garbage


# --- messages of the right shape that a seated player's program may not send ------------------

ACTION_KEYS = ["play", "bid", "trump", "joker", "suit", "seat", "pass"]
actions = (st.dictionaries(st.sampled_from(ACTION_KEYS) | texts, json_values, max_size=3)
           | st.fixed_dictionaries({"play": st.text(max_size=3)})
           | st.fixed_dictionaries({"bid": st.integers(-3, 12)})
           | st.fixed_dictionaries({"trump": st.sampled_from(["S", "C", "D", "H", "none", "X"])}))
any_bigint = st.integers(-BIGINT, BIGINT - 1)
small_ids = st.integers(1, 50)
table_messages = st.sampled_from(["act", "act_any_version", "resync", "join_table", "leave_table", "rematch",
                                  "resign"])


def refused_at_the_table(match_id, table_id, version):
    """Well-formed messages a waiting seat's program sends, each refused after a database read:
    an action out of turn, against an old version, or of any shape; another match's or table's id."""
    other_matches = (any_bigint | small_ids).filter(lambda n: n != match_id)
    other_tables = (any_bigint | small_ids).filter(lambda n: n != table_id)

    @st.composite
    def refused(draw):
        which, ident = draw(table_messages), draw(ids)
        if which.startswith("act"):
            at = version if which == "act" else draw(any_bigint)
            message = {"type": "act", "match": match_id, "version": at, "action": draw(actions)}
        elif which in ("resync", "resign"):
            message = {"type": which, "match": draw(other_matches)}
        else:
            message = {"type": which, "table": draw(other_tables)}
        return _frame(json.dumps(_with_id(message, ident)), LATER, ident=ident)

    return refused()


# --- the browser's table socket -------------------------------------------------------------

BROWSER_FIELDS = ["version", "play", "bid", "joker", "suit", "trump"]
browser_forms = st.dictionaries(st.sampled_from(BROWSER_FIELDS) | texts, json_values, max_size=4)
browser_types = st.just(ABSENT) | st.just("act") | json_values.filter(lambda v: v not in ("resync", "resign"))
browser_kinds = st.sampled_from(["unreadable", "numbers", "form", "form"])


@st.composite
def _browser_frames(draw):
    kind = draw(browser_kinds)
    if kind == "unreadable":
        frame = draw(unreadable)
        return Frame(text=frame.text, data=frame.data)
    if kind == "numbers":
        literal = draw(huge_numbers)
        return Frame(text='{"type": "act", "version": %s, "bid": %s}' % (literal, literal))  # noqa: UP031
    message, kind = draw(browser_forms), draw(browser_types)
    if kind is ABSENT:
        message.pop("type", None)
    else:
        message["type"] = kind
    if message.get("type", "act") in ("resync", "resign"):  # a random key may have spelt one
        message["type"] = "act"
    return Frame(text=json.dumps(message))


_browser = _browser_frames()


def browser_frames() -> st.SearchStrategy:
    """What a page's socket may be sent: the same unreadable frames, numbers no JSON reader
    should take, and act forms of any shape (never a resync or a resign: honest requests)."""
    return _browser
