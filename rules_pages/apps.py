from django.apps import AppConfig


class RulesPagesConfig(AppConfig):
    name = "rules_pages"
