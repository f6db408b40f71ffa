import pytest


@pytest.fixture(autouse=True)
def _fresh_cache(fresh_cache: None) -> None:
    """Each test starts with empty rate-limit counts and no kept pages."""
