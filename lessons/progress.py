"""Lesson progress per Player (members and guests alike)."""

from django.db import transaction

from .models import LessonProgress, PracticeDeal
from .steps import PRACTICE


def progress_for(player, path) -> LessonProgress | None:
    if player is None:
        return None
    return LessonProgress.objects.filter(player=player, path=path).first()


def all_progress(player) -> dict:
    if player is None:
        return {}
    return {p.path: p for p in LessonProgress.objects.filter(player=player)}


def note_visit(player, path, step_id) -> None:
    """Remember the step a learner last opened (nothing for a visitor who has no Player yet)."""
    if player is None:
        return
    with transaction.atomic():
        progress, _created = LessonProgress.objects.select_for_update().get_or_create(player=player, path=path)
        if progress.last_step != step_id:
            progress.last_step = step_id
            progress.save(update_fields=["last_step", "updated_at"])


def mark_done(player, path, step_id) -> LessonProgress:
    """Record a step (or the practice deal) as done; the list keeps the order of first success."""
    with transaction.atomic():
        progress, _created = LessonProgress.objects.select_for_update().get_or_create(player=player, path=path)
        changed = progress.last_step != step_id
        progress.last_step = step_id
        if step_id not in progress.completed:
            progress.completed = progress.completed + [step_id]
            changed = True
        if changed:
            progress.save(update_fields=["completed", "last_step", "updated_at"])
    return progress


def practice_for(player, path) -> PracticeDeal | None:
    if player is None:
        return None
    return PracticeDeal.objects.filter(player=player, path=path).first()


def save_practice(player, path, record) -> PracticeDeal:
    deal, _created = PracticeDeal.objects.update_or_create(player=player, path=path, defaults={"record": record})
    return deal


PRACTICE_ID = PRACTICE
