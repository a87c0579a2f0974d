"""How ledger entries read on a player's coins page."""

from dataclasses import dataclass

from django.utils.translation import gettext as _

from .memos import memo_text
from .models import EntryKind


@dataclass
class StatementLine:
    entry_id: int
    when: object
    what: str
    detail: str
    change: int  # + into the wallet, - out of it
    balance_after: int


def statement_lines(entries, wallet):
    lines = []
    for entry in entries:
        incoming = entry.credit_id == wallet.pk
        lines.append(
            StatementLine(
                entry_id=entry.pk,
                when=entry.created_at,
                what=describe(entry, incoming),
                detail=_references(entry),
                change=entry.amount if incoming else -entry.amount,
                balance_after=entry.credit_balance_after if incoming else entry.debit_balance_after,
            )
        )
    return lines


def describe(entry, incoming):
    if entry.kind == EntryKind.STAFF_ADJUSTMENT:
        if incoming:
            return _("Correction by the site staff")
        return _("Correction by the site staff (taken back)")
    if entry.kind == EntryKind.STAKE:
        return _("Stake placed at a table")
    return EntryKind(entry.kind).label


def _references(entry):
    parts = []
    if entry.table_id is not None:
        parts.append(_("table #%(id)s") % {"id": entry.table_id})
    if entry.match_id is not None:
        parts.append(_("match #%(id)s") % {"id": entry.match_id})
    if entry.memo:
        parts.append(memo_text(entry.memo))
    return " · ".join(parts)
