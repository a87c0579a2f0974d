from django import template

register = template.Library()


@register.filter
def signed(value):
    """Scores as a score sheet writes them: +150, −200 (a real minus sign), 0."""
    value = int(value)
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"\u2212{-value}"
    return "0"

