"""The environment for the site's real server processes started by a test
(scripts/run_prod.py against the test database and the test Redis)."""

import os

from e2e.site_server import server_database_url


def production_environment(tmp_path, secret_key, **settings) -> dict:
    """os.environ for run_prod: the test database pytest-django made, the run's Redis,
    DEBUG off, a var folder under `tmp_path`, and `settings` (environment variables) on top."""
    from django.conf import settings as django_settings
    from django.db import connection

    assert django_settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith("RedisChannelLayer"), "needs REDIS_URL"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env.update(
        DATABASE_URL=server_database_url(os.environ["DATABASE_URL"], connection.settings_dict["NAME"]),
        REDIS_URL=os.environ["REDIS_URL"],
        SECRET_KEY=secret_key,
        DEBUG="false",
        JOKER_VAR_DIR=str(tmp_path / "var"),
        PYTHONUNBUFFERED="1",
        **settings,
    )
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # the servers must stay honest about async
    return env
