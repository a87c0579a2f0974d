from django import template

from ..players import display_name_for_user

register = template.Library()


@register.filter
def display_name(user):
    """A member's table name (display name, else username)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return ""
    return display_name_for_user(user)
