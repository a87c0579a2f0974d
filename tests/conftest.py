import pytest


@pytest.fixture(autouse=True)
def _clear_cache():
    """allauth's rate limits and other state live in the cache: start each test clean."""
    from django.core.cache import cache

    cache.clear()
    yield
