import pytest

from accounts.models import User
from catalog.models import Source
from tests.factories import join_team
from tests.hints import SmallCatalog


@pytest.fixture(autouse=True)
def _fresh_cache(fresh_cache: None) -> None:
    """Each test starts with empty rate-limit counts and no kept pages."""


@pytest.fixture(autouse=True)
def _teammates(reader: User, other_reader: User) -> None:
    """The reader and the other reader are teammates in "Readers" (slug readers), the team
    any team note in these tests is shared with; readers in no team are made explicitly."""
    join_team(reader, other_reader)


@pytest.fixture
def flash(small_catalog: SmallCatalog) -> Source:
    return small_catalog["flash"]
