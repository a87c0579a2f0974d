"""What a learner has done in the lesson: completed steps and the practice deal in progress.

Both hang off `accounts.Player`, which covers members and guests alike; when a
guest signs up the same Player row becomes the member's, so their lesson
progress comes with them.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

PATH_CHOICES = [("classic", _("Classic Joker")), ("japanese", _("Japanese Joker"))]


class LessonProgress(models.Model):
    player = models.ForeignKey("accounts.Player", on_delete=models.CASCADE, related_name="lesson_progress")
    path = models.CharField(max_length=16, choices=PATH_CHOICES)
    # Step ids (and "practice") in the order the learner first got them right.
    completed = models.JSONField(default=list)
    last_step = models.CharField(max_length=40, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "path"], name="lesson_progress_once_per_path")]

    def __str__(self):
        return f"{self.player} · {self.path}: {len(self.completed)} done"


class PracticeDeal(models.Model):
    """One practice deal against bots per learner and path, kept as a joker-record/1 document."""

    player = models.ForeignKey("accounts.Player", on_delete=models.CASCADE, related_name="practice_deals")
    path = models.CharField(max_length=16, choices=PATH_CHOICES)
    record = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "path"], name="practice_deal_once_per_path")]
