import re

from django import forms
from django.utils.translation import gettext, npgettext
from django.utils.translation import gettext_lazy as _

from . import options
from .models import BotLevel, Variant, Visibility
from .services.tables import TableSettings


# Choices are callables so each request formats them in its own language (a lazy string
# formatted with % at import time would freeze in the default language).
def stake_choices():
    return [(0, gettext("Free"))] + [(s, gettext("%(stake)s Domino Coin") % {"stake": s}) for s in options.STAKES]


def clock_choices():
    return [(s, gettext("%(seconds)s seconds per move") % {"seconds": s}) for s in options.CLOCK_SECONDS]


def bank_choices():
    return [(0, gettext("No bank"))] + [(s, gettext("%(seconds)s seconds in the bank") % {"seconds": s})
                                        for s in options.BANK_SECONDS if s]


def clock_presets():
    """The clocks offered in one tap above the two clock fields: (seconds a move, bank, label)."""
    return [(move, bank, clock_label(move, bank)) for move, bank in options.CLOCK_PRESETS]


def clock_label(move_seconds: int, bank_seconds: int) -> str:
    """A table's clock in a few words: "25 s a move + 150 s bank", "60 s a move" (the table
    form's presets, a tournament's facts). A number keeps its unit on its line: at 240 px
    the Georgian words broke between "150" and "წმ"."""
    if bank_seconds:
        words = gettext("%(move)s s a move + %(bank)s s bank") % {"move": move_seconds, "bank": bank_seconds}
    else:
        words = gettext("%(move)s s a move") % {"move": move_seconds}
    return numbers_keep_their_units(words)


def numbers_keep_their_units(words: str) -> str:
    """The space after a number made one that does not break, so a line never ends between a
    number and its unit ("150" and "წმ", "60" and "წუთი") on a narrow screen."""
    return re.sub(r"(?<=\d) ", "\N{NO-BREAK SPACE}", words)


def japanese_target_choices():
    # After the label "Match to": Russian wants the genitive ("до 21 очка"), Georgian "21 ქულამდე";
    # the context keeps these apart from a plain "21 points" (a tournament's score).
    return [(t, npgettext("after Match to", "%(points)s point", "%(points)s points", t) % {"points": t})
            for t in options.JAPANESE_TARGETS]


MIN_PASSWORD_LENGTH = 4


class _TableForm(forms.Form):
    """What both variants ask; each variant's form adds only its own options."""

    variant = None
    stake = forms.TypedChoiceField(label=_("Stake"), choices=stake_choices, coerce=int, initial=0)
    visibility = forms.ChoiceField(label=_("Who can join"), choices=Visibility.choices, initial=Visibility.OPEN)
    password = forms.CharField(
        label=_("Table password"), required=False, max_length=64,
        widget=forms.PasswordInput(render_value=False),
        help_text=_("Only for a password table: at least 4 characters."),
    )
    clock_seconds = forms.TypedChoiceField(
        label=_("Move clock"), choices=clock_choices, coerce=int, initial=options.DEFAULT_CLOCK_SECONDS
    )
    # Not required: a form sent without it (an older page, a quick-start button) has no bank.
    bank_seconds = forms.TypedChoiceField(
        label=_("Time bank"), choices=bank_choices, coerce=int, initial=options.DEFAULT_BANK_SECONDS,
        required=False, empty_value=options.DEFAULT_BANK_SECONDS,
        help_text=_("Extra time for the whole match, used only when a move takes longer than the move clock. "
                    "When it is used up, the computer moves for the player."),
    )
    rated = forms.BooleanField(
        label=_("Rated match"), required=False, initial=True,
        help_text=_("A rated match changes the players' ratings. Practice tables with bots and guests' tables "
                    "are always casual."),
    )
    fill_with_bots = forms.BooleanField(
        label=_("Fill empty seats with bots (practice)"), required=False,
    )
    # Not required: a form sent without it (an older page, a quick-start button) gets the club bots.
    bot_level = forms.ChoiceField(
        label=_("Bots' level"), choices=BotLevel.choices, initial=BotLevel.CLUB, required=False,
        help_text=_("Beginner bots make a learner's mistakes; club bots play a sound game; "
                    "master bots think longer and play the strongest game."),
    )
    allow_spectators = forms.BooleanField(
        label=_("Others may watch"), required=False, initial=True,
        help_text=_("Watchers see only the cards on the table, never a hand. At a friends-only or "
                    "password table only friends may watch."),
    )

    def __init__(self, *args, player=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.player = player
        if player is not None and player.is_guest:
            # Guests play casual only (tables.is_rated_table): the box shows it, unticked and fixed.
            self.fields["rated"].initial = False
            self.fields["rated"].disabled = True

    @property
    def clock_presets(self):
        return clock_presets()

    def clean(self):
        data = super().clean()
        if data.get("visibility") == Visibility.PASSWORD and len(data.get("password") or "") < MIN_PASSWORD_LENGTH:
            self.add_error("password", _("A table password needs at least 4 characters."))
        if self.player is not None and self.player.is_guest:
            if data.get("stake"):
                self.add_error("stake", _("Guests can only play at free tables. Sign up to play for Domino Coin."))
            if data.get("visibility") == Visibility.FRIENDS:
                self.add_error("visibility", _("Guests have no friends list. Sign up to make a friends-only table."))
        if data.get("fill_with_bots") and data.get("stake"):
            self.add_error("fill_with_bots", _("Practice tables with bots are free: choose no stake."))
        return data

    def table_settings(self) -> TableSettings:
        data = self.cleaned_data
        return TableSettings(
            variant=self.variant,
            stake=data["stake"],
            visibility=data["visibility"],
            password=data.get("password") or "",
            clock_seconds=data["clock_seconds"],
            bank_seconds=data["bank_seconds"],
            rated=data.get("rated", False),
            fill_with_bots=data.get("fill_with_bots", False),
            bot_level=data.get("bot_level") or BotLevel.CLUB,
            allow_spectators=data.get("allow_spectators", False),
            **self.variant_settings(data),
        )

    def variant_settings(self, data):
        raise NotImplementedError


class JapaneseTableForm(_TableForm):
    variant = Variant.JAPANESE
    target = forms.TypedChoiceField(
        label=_("Match to"), choices=japanese_target_choices,
        coerce=int, initial=options.DEFAULT_TARGET,
    )
    field_order = ["target", "stake", "visibility", "password", "clock_seconds", "bank_seconds", "rated",
                   "fill_with_bots", "bot_level",
                   "allow_spectators"]

    def variant_settings(self, data):
        return {"target": data["target"]}


class ClassicTableForm(_TableForm):
    variant = Variant.CLASSIC
    game_type = forms.ChoiceField(label=_("Game type"), choices=options.GAME_TYPE_CHOICES,
                                  initial=options.DEFAULT_GAME_TYPE)
    khishti = forms.ChoiceField(label=_("Khishti penalty"), choices=options.KHISHTI_CHOICES,
                                initial=options.DEFAULT_KHISHTI)
    pulka_bonus = forms.ChoiceField(
        label=_("End of a pulka"), choices=options.PULKA_BONUS_CHOICES, initial=options.DEFAULT_PULKA_BONUS
    )
    field_order = ["game_type", "khishti", "pulka_bonus", "stake", "visibility", "password", "clock_seconds",
                   "bank_seconds", "rated", "fill_with_bots", "bot_level",
                   "allow_spectators"]

    def variant_settings(self, data):
        return {"game_type": data["game_type"], "khishti": data["khishti"], "pulka_bonus": data["pulka_bonus"]}


FORM_BY_VARIANT = {Variant.JAPANESE: JapaneseTableForm, Variant.CLASSIC: ClassicTableForm}


class JoinForm(forms.Form):
    password = forms.CharField(label=_("Table password"), required=False, max_length=64,
                               widget=forms.PasswordInput(render_value=False))
    # The secret of the host's invitation link (games.services.tables.invitation_link_token).
    invite = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)
