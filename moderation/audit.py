"""Writing audit entries. Call inside the transaction of the action recorded,
so the action and its entry are committed together or not at all."""

from django.contrib.contenttypes.models import ContentType

from .models import AuditEntry

LABEL_LENGTH = AuditEntry._meta.get_field("target_label").max_length


def record(actor, action, target, reason, details=None, label=None):
    """One entry: who (`actor`, a staff user), what (`action`, an AuditAction,
    on `target`, a model instance), why (`reason`), and the facts (`details`)."""
    return AuditEntry.objects.create(
        actor=actor,
        actor_label=actor.get_username() if actor is not None else "",
        action=action,
        target_type=ContentType.objects.get_for_model(target),
        target_id=str(target.pk),
        target_label=(label or str(target))[:LABEL_LENGTH],
        reason=reason,
        details=details or {},
    )
