"""Settings of the site served to browser tests: the real ones, plus the overrides a
test asked for with @pytest.mark.site_settings(...), passed as JSON by site_server."""

import json
import os

from joker_site.settings import *  # noqa: F403

globals().update(json.loads(os.environ.get("JOKER_E2E_SETTINGS", "{}")))
