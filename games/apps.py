from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self):
        from accounts import profiles

        from .stats import player_stats

        profiles.register("stats", player_stats)  # games played and won per variant, on the profile
