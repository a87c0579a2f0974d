"""`{% pure_include "template" name=value ... %}`: an include whose output depends on nothing
but the values it is given and the language, rendered once per process for each set of them.

A live table draws mostly what it drew a move ago (a score sheet's finished deals, the
other seats): every seat's page re-renders on every move, so the pieces that did not
change come from here instead of the template engine. The template sees only the values
passed (as with `include ... only`), and the values must be plain data (strings, numbers,
booleans, None, and lists, tuples and dicts of them): their text is the key, and an
object's text would not say what it shows.

`stamp=` passes a whole number that changes on every move (the match's version in a
card's button): it is not part of the key. The piece is drawn once with a marker in its
place, and each use writes the number over the marker, so the template may only write
`{{ stamp }}` as it is (no filter, no arithmetic).
"""

import json

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from joker_site.process_memo import ProcessMemo

register = template.Library()

_rendered = ProcessMemo(20_000)  # pieces kept per process (a few MB)


STAMP_MARKER = "\ue000stamp\ue000"  # a private-use character: no text the site writes holds it


@register.simple_tag(name="pure_include")
def pure_include(template_name, stamp=None, **values):
    key = (get_language(), template_name, _text_of(values), stamp is not None)
    html = _rendered.get(key)
    if html is None:
        drawn = render_to_string(template_name, values if stamp is None else {**values, "stamp": STAMP_MARKER})
        # Kept as a plain str: a SafeString has a __dict__, so the garbage collector would
        # walk every kept piece on each full collection (joker_site/heap.py).
        html = str.__str__(drawn)  # a plain copy (str() keeps the SafeString)
        _rendered.put(key, html)
    if stamp is not None:
        if type(stamp) is not int:
            raise TypeError(f"pure_include stamps a whole number only, not {stamp!r}")
        html = html.replace(STAMP_MARKER, str(stamp))
    return mark_safe(html)


def _text_of(values: dict) -> str:
    # JSON refuses anything but plain data, and writes it fast.
    return json.dumps(values, sort_keys=True, separators=(",", ":"), default=_refuse)


def _refuse(value):
    raise TypeError(f"pure_include takes plain data only, not {type(value).__name__}: {value!r}")
