"""Staff actions in the admin: a confirmation page with a required reason,
then the action through `moderation.services`, then a message.

A `StaffAction` appears three ways on a model's admin that lists it in
`staff_actions`: in the changelist's action menu (for the selected rows), as
a button on an object's page when it applies to that object, and as the
confirmation page both lead to (`<changelist>/moderate/<name>/?ids=1,2`).
The page and the action check the action's permission; a refusal or bad
input changes nothing, and several objects are acted on all or none. An action
that moves coins or bans (`needs_recent_login`) first sends the staff member to
allauth's re-authentication page unless they entered their password within
`ACCOUNT_REAUTHENTICATION_TIMEOUT` seconds; the page then resumes where it was.

Every admin page built with `StaffActionsMixin` also shows the audit entries
about its object.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

from allauth.account.decorators import reauthentication_required
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.shortcuts import redirect
from django.template.loader import select_template
from django.template.response import TemplateResponse
from django.urls import NoReverseMatch, path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..forms import ReasonForm
from ..models import AuditEntry, about
from ..services import ModerationError

AUDIT_ENTRIES_SHOWN = 50


@dataclass(frozen=True)
class StaffAction:
    name: str  # the page's URL part and the admin action's name
    label: str  # what the button, the menu and the page title say
    permission: str  # codename of a permission in the moderation app
    # (object, bound and valid form, staff user) -> AuditEntry; raises ModerationError
    perform: Callable
    # A sentence saying why the action does not apply to this object, or None.
    refusal: Callable = field(default=lambda obj: None)
    form_class: type = ReasonForm
    explanation: str = ""  # what will happen, shown above the form
    max_objects: int = 50
    # Coins or bans: a stolen session alone must not be enough (docs/moderation.md).
    needs_recent_login: bool = False

    def allowed(self, user):
        return user.is_active and user.is_staff and user.has_perm(f"moderation.{self.permission}")


def _parse_ids(raw):
    """"3,5,8" -> [3, 5, 8]; None for anything else."""
    try:
        ids = [int(part) for part in (raw or "").split(",") if part.strip()]
    except ValueError:
        return None
    unique = list(dict.fromkeys(ids))
    return unique if unique and all(i > 0 for i in unique) else None


class StaffActionsMixin:
    """Put before the ModelAdmin class: adds the staff actions and the audit panel."""

    staff_actions: tuple = ()
    change_form_template = "admin/moderation/staff_change_form.html"

    # --- What other admins override ----------------------------------------------------

    def audit_condition(self, obj):
        """Which audit entries the object's page shows (a Q)."""
        return about(obj)

    def extra_staff_buttons(self, request, obj):
        """More (label, url) buttons for the object's page, e.g. an action on a related object."""
        return []

    # --- URLs, the action menu, the buttons ----------------------------------------------

    def staff_action_url(self, action, *ids):
        info = (self.admin_site.name, self.opts.app_label, self.opts.model_name, action.name)
        url = reverse("{}:{}_{}_{}".format(*info))
        return f"{url}?ids={','.join(str(i) for i in ids)}" if ids else url

    def get_urls(self):
        def view_for(action):
            @reauthentication_required(enabled=action.needs_recent_login)
            def view(request):
                return self.staff_action_view(request, action)
            return self.admin_site.admin_view(view)

        info = (self.opts.app_label, self.opts.model_name)
        own = [path(f"moderate/{a.name}/", view_for(a), name="{}_{}_".format(*info) + a.name) for a in self.staff_actions]
        return own + super().get_urls()

    def get_actions(self, request):
        actions = super().get_actions(request)
        for action in self.staff_actions:
            if action.allowed(request.user) and self.has_view_permission(request):
                actions[action.name] = (self._menu_action(action), action.name, action.label)
        return actions

    def _menu_action(self, action):
        def go_to_confirmation(modeladmin, request, queryset):
            ids = list(queryset.values_list("pk", flat=True)[: action.max_objects + 1])
            if len(ids) > action.max_objects:
                messages.error(request, _("Choose at most %(count)d at a time.") % {"count": action.max_objects})
                return None
            return redirect(self.staff_action_url(action, *ids))
        return go_to_confirmation

    def staff_buttons(self, request, obj):
        buttons = [
            (action.label, self.staff_action_url(action, obj.pk))
            for action in self.staff_actions
            if action.allowed(request.user) and action.refusal(obj) is None
        ]
        return buttons + self.extra_staff_buttons(request, obj)

    # --- The object's page: buttons and the audit panel -----------------------------------

    def change_view(self, request, object_id, form_url="", extra_context=None):
        extra_context = dict(extra_context or {})
        obj = self.get_object(request, unquote(object_id))
        if obj is not None and self.has_view_or_change_permission(request, obj):
            extra_context["staff_buttons"] = self.staff_buttons(request, obj)
            if request.user.has_perm("moderation.view_auditentry"):
                entries = AuditEntry.objects.filter(self.audit_condition(obj)).select_related("target_type")
                extra_context["audit_entries"] = list(entries[:AUDIT_ENTRIES_SHOWN])
                extra_context["audit_entries_more"] = entries.count() > AUDIT_ENTRIES_SHOWN
        return super().change_view(request, object_id, form_url, extra_context)

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        # Our template adds to whichever change form this model would have had.
        app_label, model_name = self.opts.app_label, self.opts.model_name
        context["moderation_base_change_form"] = select_template([
            f"admin/{app_label}/{model_name}/change_form.html",
            f"admin/{app_label}/change_form.html",
            "admin/change_form.html",
        ])
        return super().render_change_form(request, context, add, change, form_url, obj)

    # --- The confirmation page -------------------------------------------------------------

    def _changelist_url(self):
        return reverse(f"{self.admin_site.name}:{self.opts.app_label}_{self.opts.model_name}_changelist")

    def _object_url(self, obj):
        return reverse(f"{self.admin_site.name}:{self.opts.app_label}_{self.opts.model_name}_change", args=[obj.pk])

    def staff_action_view(self, request, action):
        if not (action.allowed(request.user) and self.has_view_permission(request)):
            raise PermissionDenied
        data = request.POST if request.method == "POST" else request.GET
        ids = _parse_ids(data.get("ids"))
        if ids is None or len(ids) > action.max_objects:
            messages.error(request, _("Choose what to act on first (at most %(count)d at a time).")
                           % {"count": action.max_objects})
            return redirect(self._changelist_url())
        objects = list(self.get_queryset(request).filter(pk__in=ids))
        if len(objects) != len(ids):
            messages.error(request, _("Some of the chosen items no longer exist. Choose again."))
            return redirect(self._changelist_url())
        objects.sort(key=lambda obj: ids.index(obj.pk))
        rows = [(obj, self._object_url(obj), action.refusal(obj)) for obj in objects]
        refused = any(reason for _obj, _url, reason in rows)
        form = action.form_class(request.POST if request.method == "POST" else None)
        if request.method == "POST" and not refused and form.is_valid():
            try:
                with transaction.atomic():  # all or none
                    for obj in objects:
                        action.perform(obj, form, request.user)
            except ModerationError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, ngettext("Done: %(action)s (%(count)d).",
                                                   "Done: %(action)s (%(count)d).", len(objects))
                                 % {"action": action.label, "count": len(objects)})
                return redirect(self._object_url(objects[0]) if len(objects) == 1 else self._changelist_url())
        context = {
            **self.admin_site.each_context(request),
            "title": action.label,
            "action": action,
            "opts": self.opts,
            "rows": rows,
            "refused": refused,
            "form": form,
            "ids": ",".join(str(i) for i in ids),
            "cancel_url": self._object_url(objects[0]) if len(objects) == 1 else self._changelist_url(),
        }
        return TemplateResponse(request, "admin/moderation/confirm_action.html", context)


def admin_url_for(obj_or_model, pk=None, site=admin.site):
    """The admin page of an object (or None when it has none)."""
    model = obj_or_model if pk is not None else type(obj_or_model)
    pk = pk if pk is not None else obj_or_model.pk
    try:
        return reverse(f"{site.name}:{model._meta.app_label}_{model._meta.model_name}_change", args=[pk])
    except NoReverseMatch:
        return None
