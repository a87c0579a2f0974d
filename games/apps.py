from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self):
        from accounts import profiles

        from .stats import player_stats

        profiles.register("stats", player_stats)  # games played and won per variant, on the profile

        from .services.broadcast import catch_up_after_redis_returns

        catch_up_after_redis_returns()  # the sockets hear of the moves made while Redis was away
