"""The staff's admin: see base.py for how the staff actions work."""

from . import chat, coins, conduct, games, people, records, tournaments  # noqa: F401  (each registers its pages)
