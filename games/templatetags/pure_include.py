"""`{% pure_include "template" name=value ... %}`: an include whose output depends on nothing
but the values it is given and the language, rendered once per process for each set of them.

A live table draws mostly what it drew a move ago (a score sheet's finished deals, the
other seats): every seat's page re-renders on every move, so the pieces that did not
change come from here instead of the template engine. The template sees only the values
passed (as with `include ... only`), and the values must be plain data (strings, numbers,
booleans, None, and lists, tuples and dicts of them): their text is the key, and an
object's text would not say what it shows.
"""

import json

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from joker_site.process_memo import ProcessMemo

register = template.Library()

_rendered = ProcessMemo(20_000)  # pieces kept per process (a few MB)


@register.simple_tag(name="pure_include")
def pure_include(template_name, **values):
    key = (get_language(), template_name, _text_of(values))
    html = _rendered.get(key)
    if html is None:
        # Kept as a plain str: a SafeString has a __dict__, so the garbage collector would
        # walk every kept piece on each full collection (joker_site/heap.py).
        html = str.__str__(render_to_string(template_name, values))  # a plain copy (str() keeps the SafeString)
        _rendered.put(key, html)
    return mark_safe(html)


def _text_of(values: dict) -> str:
    # JSON refuses anything but plain data, and writes it fast.
    return json.dumps(values, sort_keys=True, separators=(",", ":"), default=_refuse)


def _refuse(value):
    raise TypeError(f"pure_include takes plain data only, not {type(value).__name__}: {value!r}")
