"""What a profile page shows beyond the account itself.

The apps above accounts (games: games played and won per variant) register what
they add to a member's profile from their `AppConfig.ready()`; the profile views
ask here, so accounts never imports them (docs/architecture.md).
"""

from collections.abc import Callable

_facts: dict[str, Callable] = {}


def register(name: str, facts_of_user: Callable) -> None:
    """`facts_of_user(user)` becomes the profile template's `name`."""
    _facts[name] = facts_of_user


def facts_of(user) -> dict:
    return {name: facts_of_user(user) for name, facts_of_user in _facts.items()}
