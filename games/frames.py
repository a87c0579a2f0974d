"""Reading one websocket frame as a JSON object: the first step of every socket that listens.

Whatever a client sends (any bytes, any depth of nesting, any size) comes out
either as a dict or as `UnreadableFrame`; nothing else escapes. A dict that
comes out can be sent back as strict JSON in UTF-8 (a program's `id` is echoed
in the answer), so the parser refuses what strict JSON cannot carry:

- nesting deeper than `MAX_DEPTH` (Python's parser recurses: a few thousand
  `[` would raise RecursionError, and a merely deep value would make the
  answer's encoding recurse as deep);
- `NaN`, `Infinity` and numbers too large for a float (which Python reads as
  infinity), none of which is JSON;
- a key given twice in one object (which of the two counts would be a guess);
- text that is not Unicode (an escaped lone surrogate such as `"\\ud800"`),
  which no UTF-8 frame can carry back.
"""

import json
import math

MAX_FRAME_CHARS = 4096  # the largest honest message (create_table with a password) is far smaller
MAX_DEPTH = 16  # the deepest honest message, an act (message → action), is 2 deep


def reply_to(message, data: dict) -> dict:
    """A direct answer carries the `id` the client gave its message, if any."""
    if message is not None and "id" in message:
        data["id"] = message["id"]
    return data


class UnreadableFrame(ValueError):
    """The frame is not one JSON object this site can read."""


class NotAnObject(UnreadableFrame):
    """Valid JSON, but an array, a string, a number, true, false or null."""


def _refuse_constant(name):
    raise UnreadableFrame(f"{name} is not JSON")


def _finite_float(text):
    value = float(text)
    if not math.isfinite(value):
        raise UnreadableFrame("a number too large for a float")
    return value


def _object_without_repeated_keys(pairs):
    result = dict(pairs)
    if len(result) != len(pairs):
        raise UnreadableFrame("a key given twice")
    return result


def read_json_object(text_data, max_chars=MAX_FRAME_CHARS) -> dict:
    """The frame's JSON object, or UnreadableFrame (a binary frame, too long, not JSON, ...)."""
    if not isinstance(text_data, str):
        raise UnreadableFrame("not a text frame")
    if len(text_data) > max_chars:
        raise UnreadableFrame("too long")
    try:
        value = json.loads(text_data, parse_constant=_refuse_constant, parse_float=_finite_float,
                           object_pairs_hook=_object_without_repeated_keys)
    except RecursionError:
        raise UnreadableFrame("nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, too many digits, and the refusals above
        raise UnreadableFrame(str(exc)) from None
    if not isinstance(value, dict):
        raise NotAnObject("not an object")
    _check_depth_and_text(value)
    return value


def _check_depth_and_text(value) -> None:
    """Walk the value without recursing: not too deep, and every string (keys too) valid Unicode."""
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, str):
            _check_text(item)
        elif isinstance(item, (dict, list)):
            if depth > MAX_DEPTH:
                raise UnreadableFrame("nested too deeply")
            if isinstance(item, dict):
                for key in item:
                    _check_text(key)
                children = item.values()
            else:
                children = item
            pending.extend((child, depth + 1) for child in children)


def _check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise UnreadableFrame("text that is not Unicode") from None
