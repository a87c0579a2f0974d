"""The one place a Domino Coin amount is written for people: "25 coins", "25 монет",
"25 მონეტა", in the page's language with the plural form its number wants, never a Latin
abbreviation ("DC") on a Georgian or Russian page. The title says what the coin is."""

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext

register = template.Library()


def coin_amount_text(amount: int) -> str:
    return ngettext("%(amount)s coin", "%(amount)s coins", amount) % {"amount": amount}


@register.simple_tag
def coins(amount):
    """`{% coins table.stake %}`: the amount with its noun, titled with the coin's nature."""
    return format_html('<span class="coin-amount" title="{}">{}</span>',
                       gettext("Domino Coin, a play coin: not money"), coin_amount_text(int(amount)))
