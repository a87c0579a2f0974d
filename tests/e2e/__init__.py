"""Browser tests (Playwright), run apart from the rest: `make test-e2e`."""
