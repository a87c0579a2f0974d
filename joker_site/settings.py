"""Settings for the Joker site.

Everything an operator may want to change is read from the environment, with
defaults that make `make run` work on a laptop with no outside services:
SQLite, the in-memory channel layer, a local-memory cache and a Celery broker
kept in a folder. Set DATABASE_URL and REDIS_URL for the production shape.
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("JOKER_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("0", "false", "no", "off")


def env_bool(name, default):
    """A yes-or-no setting. Anything but the words above is refused at start: a typo
    such as "ture" must not quietly read as false (or switch DEBUG off)."""
    value = os.environ.get(name)
    if value is None:
        return default
    word = value.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"The environment variable {name}={value!r} is not a yes-or-no value: "
        f"use one of {', '.join(TRUE_WORDS)} or {', '.join(FALSE_WORDS)}."
    )


def _env_number(name, default, kind, minimum, what):
    """A number of `kind` (int or float) at least `minimum`; anything else is refused at start."""
    value = os.environ.get(name)
    if value is None:
        return default
    try:
        number = kind(value.strip())
    except ValueError:
        raise ImproperlyConfigured(f"The environment variable {name}={value!r} is not {what}.") from None
    if not minimum <= number < float("inf"):  # also refuses "nan"
        raise ImproperlyConfigured(f"The environment variable {name}={value!r} must be at least {minimum}.")
    return number


def env_int(name, default, minimum=0):
    return _env_number(name, default, int, minimum, "a whole number")


def env_seconds(name, default, minimum=0.1):
    return _env_number(name, default, float, minimum, "a number of seconds")


def env_list(name, default):
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def env_vapid_private_key(name, kept_in):
    """Web Push's VAPID private key (push/, docs/push.md): a P-256 key in PEM. Production sets
    it (every web process and worker must sign with the same key, or browsers' subscriptions
    stop working); without it the key is made once and kept in `kept_in` (`make run`).
    A value that is not such a key is refused at start."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    value = os.environ.get(name)
    if value is None:
        if not kept_in.exists():
            key = ec.generate_private_key(ec.SECP256R1())
            pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption())
            kept_in.touch(mode=0o600)
            kept_in.write_bytes(pem)
        value = kept_in.read_text()
    pem = value.replace("\\n", "\n")  # an env file may hold the PEM on one line, its breaks as \n
    try:
        key = serialization.load_pem_private_key(pem.encode(), password=None)
    except (ValueError, TypeError) as error:
        raise ImproperlyConfigured(f"The environment variable {name} is not a PEM private key: {error}") from None
    if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != "secp256r1":
        raise ImproperlyConfigured(f"The environment variable {name} must be a P-256 (prime256v1) key.")
    return pem


def env_vapid_subject(name, default):
    """Who the push services may contact about our pushes: a mailto: or https: address."""
    value = os.environ.get(name, default).strip()
    if not value.startswith(("mailto:", "https://")):
        raise ImproperlyConfigured(f"The environment variable {name}={value!r} must begin with mailto: or https://.")
    return value


DEBUG = env_bool("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

# HTTPS (docs/deploy.md): on unless DEBUG is. The proxy terminates TLS and says so in
# X-Forwarded-Proto, which Daphne's --proxy-headers turns into the request's scheme, so
# Django sees https behind it. Plain http on 127.0.0.1 (`make run-prod` on a laptop, the
# load test, the tests' servers) says SECURE_HTTPS=false.
SECURE_HTTPS = env_bool("SECURE_HTTPS", not DEBUG)
SECURE_SSL_REDIRECT = SECURE_HTTPS
SESSION_COOKIE_SECURE = SECURE_HTTPS
CSRF_COOKIE_SECURE = SECURE_HTTPS
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 365 * 24 * 3600 if SECURE_HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)

# Content-Security-Policy (django-csp; docs/deploy.md): on unless DEBUG is. Every script,
# style sheet, font, image and socket from our own origin; no inline script (the templates
# have none), no plugins, no framing. Style *attributes* stay allowed: the match page names
# each card for view transitions with one, and an attribute cannot run a script.
CONTENT_SECURITY_POLICY_ENABLED = env_bool("CONTENT_SECURITY_POLICY", not DEBUG)
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "django_htmx",
    "allauth",
    "allauth.account",
    "accounts",
    "coins",
    "games",
    "rules_pages",
    "moderation",
    "chat",
    "lessons",
    "ratings",
    "conduct",
    "quickplay",
    "tournaments",
    "notices",
    "pwa",
    "push",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "accounts.middleware.PreferredLanguageMiddleware",
    "pwa.offline.OfflineReadableMiddleware",
    "accounts.middleware.GuestRefusedMiddleware",
]


def with_content_security_policy(middleware):
    """The middleware list with django-csp's, right after SecurityMiddleware (tests use it too)."""
    return [middleware[0], "csp.middleware.CSPMiddleware", *middleware[1:]]


if CONTENT_SECURITY_POLICY_ENABLED:
    MIDDLEWARE = with_content_security_policy(MIDDLEWARE)

ROOT_URLCONF = "joker_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.site",
            ],
        },
    },
]

WSGI_APPLICATION = "joker_site.wsgi.application"
ASGI_APPLICATION = "joker_site.asgi.application"

# --- Database -----------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60)}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "db.sqlite3",
            # Several processes (Daphne, the Celery worker) share the file.
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer, cache, Celery broker ---------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # Redis pub/sub: one PUBLISH per notice, pushed to each web process
            # (joker_site/channel_layer.py); CHANNEL_LAYER=lists for channels_redis's lists.
            "BACKEND": "joker_site.channel_layer.RedisListChannelLayer"
            if os.environ.get("CHANNEL_LAYER", "pubsub") == "lists" else "joker_site.channel_layer.RedisChannelLayer",
            "CONFIG": {
                # (The lists layer:) redis-py 8 times reads out after 5 s by default, exactly as long as the
                # BZPOPMIN a consumer blocks in: without more room a busy consumer's
                # receive dies with "Timeout reading" and its socket closes (1011).
                # Each web process opens at most REDIS_LAYER_CONNECTIONS connections; a
                # command beyond them waits up to 20 s for one instead of failing.
                "hosts": [{"address": REDIS_URL, "socket_timeout": 15, "timeout": 20,
                           "max_connections": env_int("REDIS_LAYER_CONNECTIONS", 100, minimum=1)}],
                # group_send drops messages silently past capacity: leave room for
                # bursts of "match moved" notices to a slow consumer.
                "capacity": 1000,
                "group_expiry": 7 * 24 * 3600,
                "prefix": os.environ.get("CHANNEL_PREFIX", "joker"),
            },
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "joker_site.redis_cache.ProcessRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CACHE_PREFIX", "joker"),
        }
    }
    CELERY_BROKER_URL = REDIS_URL
else:
    # In memory in the web process, which the Celery worker reaches through a Unix socket in
    # VAR_DIR, so that a clock's move or a forfeit reaches every page (joker_site/local_channel_layer.py).
    CHANNEL_LAYERS = {"default": {"BACKEND": "joker_site.local_channel_layer.LocalSocketChannelLayer",
                                  "CONFIG": {"directory": str(VAR_DIR)}}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_BROKER_URL = "filesystem://"
    # kombu's filesystem transport, with each message renamed into the queue whole (joker_site/file_broker.py).
    CELERY_BROKER_TRANSPORT = "joker_site.file_broker:Transport"
    _celery_dir = VAR_DIR / "celery-broker"
    _celery_dir.mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_celery_dir),
        "data_folder_out": str(_celery_dir),
        "control_folder": str(VAR_DIR / "celery-control"),
        # The worker looks in the folder this often (kombu's default is 1 s): the clocks' tick
        # each second then runs within about 0.1 s of beat sending it, as over Redis.
        "polling_interval": 0.1,
    }

CELERY_TASK_IGNORE_RESULT = True
# Celery's Django fix-up closes the database connections around every task unless told to keep
# them (`CELERY_DB_REUSE_MAX`: it then closes them only every that many tasks); a tick each second
# would open a connection each second. joker_site/celery.py still closes a connection that broke.
CELERY_DB_REUSE_MAX = 1_000_000
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TIMEZONE = "Asia/Tbilisi"
if REDIS_URL:
    # A countdown longer than the visibility timeout is delivered twice; our
    # longest countdown (a disconnect grace) is minutes, keep a wide margin.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 6 * 3600}

# --- Auth (django-allauth) ------------------------------------------------------
# Django's and allauth's backends, refusing users with a ban in force (moderation/auth.py).
AUTHENTICATION_BACKENDS = [
    "moderation.auth.ModelBackend",
    "moderation.auth.AuthenticationBackend",
]
ACCOUNT_ADAPTER = "moderation.auth.AccountAdapter"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_REDIRECT_URL = "/"
LOGIN_URL = "account_login"
ACCOUNT_LOGIN_METHODS = {"username"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
# Guests (accounts/players.py, docs/accounts.md): at most so many new guests per client address
# an hour; a guest seen by no request for so many days is retired by Celery beat.
GUESTS_PER_ADDRESS_PER_HOUR = env_int("GUESTS_PER_ADDRESS_PER_HOUR", 20, minimum=1)
GUEST_IDLE_DAYS = env_int("GUEST_IDLE_DAYS", 30, minimum=1)
# Open tables (docs/live-match.md): a player may sit waiting at this many tables that have
# not started, at most; creating, joining or offering a rematch beyond it is refused.
OPEN_TABLES_PER_PLAYER = env_int("OPEN_TABLES_PER_PLAYER", 3, minimum=1)

EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env_int("EMAIL_PORT", 587, minimum=1)
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "joker@localhost")

# --- Languages ------------------------------------------------------------------
LANGUAGE_CODE = "ka"
LANGUAGES = [("ka", "ქართული"), ("ru", "Русский"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Asia/Tbilisi")
USE_I18N = True
USE_TZ = True

# --- Static files ---------------------------------------------------------------
STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # WhiteNoise warns about a missing folder
NODE_MODULES = BASE_DIR / "node_modules"
STATICFILES_DIRS = [
    BASE_DIR / "static",
    ("vendor/htmx", NODE_MODULES / "htmx.org" / "dist"),
    ("vendor/htmx-ext-ws", NODE_MODULES / "htmx-ext-ws"),
    ("vendor/fonts/noto-sans-georgian", NODE_MODULES / "@fontsource" / "noto-sans-georgian"),
    ("vendor/fonts/noto-sans", NODE_MODULES / "@fontsource" / "noto-sans"),
]
WHITENOISE_USE_FINDERS = DEBUG

# --- Web Push (push/, docs/push.md) -----------------------------------------------------
VAPID_PRIVATE_KEY = env_vapid_private_key("VAPID_PRIVATE_KEY", VAR_DIR / "vapid-private.pem")
VAPID_SUBJECT = env_vapid_subject("VAPID_SUBJECT", "mailto:joker@localhost")
# At most one "your move" per match and member in so many seconds.
PUSH_YOUR_MOVE_SECONDS = 30

# --- Game settings --------------------------------------------------------------
DISCONNECT_GRACE_SECONDS = env_int("DISCONNECT_GRACE_SECONDS", 60)
# A player whose grace ran out is charged with walking out only this long after it: if every
# other person at the table left no later than this after them, the match is aborted instead
# and nobody is charged (games/services/matches.py everyone_gone, docs/conduct.md).
EVERYONE_GONE_WINDOW_SECONDS = env_int("EVERYONE_GONE_WINDOW_SECONDS", 5, minimum=0)
# The match page shows other seats' cards (bots, the server's moves) at a person's pace:
# this many seconds per card that arrived in one update, and a finished trick stays on
# the table at least a second. 0 shows every update at once (the tests, the load test).
BOT_PACE_SECONDS = env_seconds("BOT_PACE_SECONDS", 1, minimum=0)
# A table nobody filled is closed (stakes refunded) after this long.
UNFILLED_TABLE_SECONDS = env_int("UNFILLED_TABLE_SECONDS", 30 * 60, minimum=1)
# Database threads per web process for every socket's work (joker_site/db_threads.py, docs/deploy.md).
PROTOCOL_DB_THREADS = env_int("PROTOCOL_DB_THREADS", 8, minimum=1)
# ... and for the players' moves, which do not wait behind the others' updates.
MOVE_DB_THREADS = env_int("MOVE_DB_THREADS", 4, minimum=1)
# How many updates for other seats a web process draws at once (games/notice_turns.py).
NOTICE_TURNS = env_int("NOTICE_TURNS", 2, minimum=1)
# ...and wait while this many of its moves, or more, wait for a move thread or run on one.
NOTICE_GATE_MOVES = env_int("NOTICE_GATE_MOVES", 1, minimum=1)
# ...and draws at most this many in a row while no move begins, then pauses up to so long.
NOTICE_BURST = env_int("NOTICE_BURST", 8, minimum=1)
NOTICE_BURST_PAUSE_MS = env_int("NOTICE_BURST_PAUSE_MS", 10, minimum=0)
# Every web process tells the database on one heartbeat what its open sockets hold (seats,
# spectators, members' pages, quick-play waiters: joker_site/heartbeat.py); a row unseen for
# three beats belongs to a process that is gone.
PRESENCE_BEAT_SECONDS = env_seconds("PRESENCE_BEAT_SECONDS", 5.0, minimum=0.1)
# Every websocket connection's frame budget (joker_site/frame_budget.py): so many frames a second
# on average, so many at once; after so many refused in a row the connection is closed.
SOCKET_FRAMES_PER_SECOND = env_seconds("SOCKET_FRAMES_PER_SECOND", 10.0, minimum=0.1)
SOCKET_FRAME_BURST = env_int("SOCKET_FRAME_BURST", 30, minimum=1)
SOCKET_FLOOD_CLOSE_AFTER = env_int("SOCKET_FLOOD_CLOSE_AFTER", 50, minimum=1)
# The table chat's flood limits (chat/services.py): a burst of at most so many messages in so
# many seconds, and at most so many a minute, per author.
CHAT_BURST_MESSAGES = env_int("CHAT_BURST_MESSAGES", 3, minimum=1)
CHAT_BURST_SECONDS = env_int("CHAT_BURST_SECONDS", 5, minimum=1)
CHAT_MINUTE_MESSAGES = env_int("CHAT_MINUTE_MESSAGES", 12, minimum=1)
# The clocks (games/services/clocks.py): each second one indexed query for the due deadlines
# and one for the lapsed graces; a tick not run within a few seconds is dropped (the next one
# does its work). The slower sweep releases seats of dead web processes and closes unfilled tables.
CLOCK_TICK_SECONDS = env_seconds("CLOCK_TICK_SECONDS", 1.0)
# Quick play (quickplay/, docs/quickplay.md): an opponent's shown rating may differ by the start
# range, widened by so many points a second waited; with nobody found, a game with bots is
# offered (one tap) after the offer's wait and taken by itself after the bots' wait, unless the
# player chose people only; the pairing also runs this often when nobody new arrives.
QUICKPLAY_RANGE_START = env_int("QUICKPLAY_RANGE_START", 100)
QUICKPLAY_RANGE_PER_SECOND = env_seconds("QUICKPLAY_RANGE_PER_SECOND", 10.0, minimum=0)
QUICKPLAY_BOT_OFFER_SECONDS = env_int("QUICKPLAY_BOT_OFFER_SECONDS", 20, minimum=0)
QUICKPLAY_BOTS_AFTER_SECONDS = env_int("QUICKPLAY_BOTS_AFTER_SECONDS", 50, minimum=1)
# A waiting player whose page (or program) nobody has seen for this long left: out of the queue.
QUICKPLAY_ABSENT_SECONDS = env_int("QUICKPLAY_ABSENT_SECONDS", 30, minimum=15)
QUICKPLAY_CLOCK_SECONDS = 30  # the move clock of a quick table (one of games/options.py CLOCK_SECONDS)
# Tournaments (tournaments/, docs/tournaments.md): an arena player whose arena page or arena table
# nobody has seen this long is paused; a classic arena's bots come after this long a wait; the
# arenas start, end and pair this often.
TOURNAMENT_ABSENT_SECONDS = env_int("TOURNAMENT_ABSENT_SECONDS", 20, minimum=15)
TOURNAMENT_BOTS_AFTER_SECONDS = env_int("TOURNAMENT_BOTS_AFTER_SECONDS", 20, minimum=1)
TOURNAMENT_TICK_SECONDS = env_seconds("TOURNAMENT_TICK_SECONDS", 2.0)
CELERY_BEAT_SCHEDULE = {
    "clock-tick": {
        "task": "games.tasks.tick",
        "schedule": CLOCK_TICK_SECONDS,
        "options": {"expires": max(5.0, 5 * CLOCK_TICK_SECONDS)},
    },
    "sweep-missed-timers": {
        "task": "games.tasks.sweep",
        "schedule": env_seconds("SWEEP_INTERVAL_SECONDS", 10.0),
    },
    "quickplay-pairing": {
        "task": "quickplay.tasks.pair_waiting",
        "schedule": env_seconds("QUICKPLAY_PAIRING_SECONDS", 2.0),
    },
    "tournaments-tick": {  # tournaments/tasks.py: start, end and pair the arenas, step the Swiss
        "task": "tournaments.tasks.tick",
        "schedule": TOURNAMENT_TICK_SECONDS,
        "options": {"expires": max(5.0, 5 * TOURNAMENT_TICK_SECONDS)},
    },
    "tournaments-schedule": {  # tournaments/schedule.py: the daily arenas, made ahead, each once
        "task": "tournaments.tasks.create_scheduled",
        "schedule": 3600.0,
    },
    "sweep-lapsed-site-presence": {  # notices/presence.py: pages of a web process that died
        "task": "notices.tasks.sweep_presence",
        "schedule": env_seconds("SWEEP_INTERVAL_SECONDS", 10.0),
    },
    "retire-idle-guests": {  # accounts/guests.py
        "task": "accounts.tasks.retire_idle_guests",
        "schedule": 3600.0,
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
