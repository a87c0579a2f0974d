"""Card faces in templates.

    {% load cards %}
    {% card "AS" %}                  one card, medium size
    {% card code size="lg" %}        sizes: xs (inside a line of text), sm, md, lg
    {% card_back size="sm" %}        a face-down card
    {% cards hand size="sm" %}       a row: a list of codes or "AS KH --" ("--" is face-down)
    {% card_columns face_up %}       Japanese columns: face-down cards under these face-up ones
    {% suit "H" %}                   a suit symbol ("none" for no trump)
    {{ "QH"|card_name }}             "queen of hearts" in the current language
    {{ "QH"|card_label }}            "Queen of hearts": the name as a label begins
    {{ "H"|suit_name }}              "hearts" / "გული" / "черви"

Pages also need ``{% static 'css/cards.css' %}``. A wrong code raises an error
instead of drawing a blank card.
"""

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe

from games import card_faces
from games.models import BotLevel

register = template.Library()


@register.simple_tag
def card(code, size="md", extra_class=""):
    return card_faces.render_card(str(code), size, extra_class)


@register.simple_tag
def card_back(size="md", extra_class=""):
    return card_faces.render_back(size, extra_class)


@register.simple_tag
def cards(codes, size="md", extra_class=""):
    return card_faces.render_cards(codes, size, extra_class)


@register.simple_tag
def card_columns(face_up, size="sm", extra_class=""):
    return card_faces.render_columns(face_up, size, extra_class)


@register.simple_tag
def suit(code, extra_class=""):
    return card_faces.render_suit(str(code), extra_class)


@register.filter
def card_name(code):
    return card_faces.card_name(str(code))


@register.filter
def card_label(code):
    return card_faces.card_label(str(code))


@register.filter
def suit_name(code):
    return card_faces.suit_name(str(code))


@register.filter
def seat_name(seat):
    """A seat's name at the table: the player's, or "Bot 3" for the practice bot in seat 3
    (three bots at one table are told apart by their seats, counted from 1)."""
    from django.utils.translation import gettext

    if seat.get("name"):
        return seat["name"]
    return gettext("Bot %(seat)s") % {"seat": seat["index"] + 1}


def seat_label(seat, level_markup=None):
    """A seat's name at the table with a practice bot's level beside it ("Bot 3 · Beginner");
    the score sheet's narrow columns keep `seat_name`. `level_markup`, a format string, wraps the
    level's name (the result is then HTML: see `seat_label_html`)."""
    from django.utils.translation import gettext

    level = seat.get("bot_level")
    if seat.get("name") or not level:
        return seat_name(seat)
    level_name = BotLevel(level).label
    pattern = gettext("Bot %(seat)s · %(level)s")
    if level_markup is None:
        return pattern % {"seat": seat["index"] + 1, "level": level_name}
    # At the table no line breaks before the dot: a narrow seat left it alone on a line of its own.
    pattern = pattern.replace(" ·", "\u00a0·")
    return mark_safe(conditional_escape(pattern) % {
        "seat": seat["index"] + 1, "level": format_html(level_markup, level_name)})


@register.filter
def seat_label_html(seat):
    """The seat's label with the bot's level in a span of its own: a phone's narrow side seat
    puts the level on a line of its own, smaller (static/css/table.css), where on one line with
    the name it was cut to "Club…"."""
    return seat_label(seat, level_markup='<span class="bot-level">{}</span>')
