"""Settings of the site served to browser tests: the real ones, plus the overrides a
test asked for with @pytest.mark.site_settings(...), passed as JSON by site_server."""

import json
import os

from django.conf import global_settings

from joker_site.settings import *

# The test process hashes passwords with MD5 for speed (tests/conftest.py): the users a
# test creates must be able to log in to the served site, whose new passwords hash fast too.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", *global_settings.PASSWORD_HASHERS]

# Browser tests see every update at once; a test about pacing asks for a pace of its own.
BOT_PACE_SECONDS = 0

globals().update(json.loads(os.environ.get("JOKER_E2E_SETTINGS", "{}")))
