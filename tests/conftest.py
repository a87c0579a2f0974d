import pytest


@pytest.fixture(autouse=True)
def _clear_cache():
    """allauth's rate limits and other state live in the cache: start each test clean."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Production hashes passwords slowly on purpose; the tests need not wait for it."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
