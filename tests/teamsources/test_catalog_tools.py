"""The catalog's own tools leave a team's sources alone: the loader neither prunes nor counts
them, and the catalog's export does not name them."""

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client

from accounts.models import User
from catalog.models import Source
from teams.models import Team
from teamsources.models import TeamSource
from tests.catalog.test_load_catalog import MINIMAL, write

from .conftest import add

pytestmark = pytest.mark.django_db


def test_loading_the_catalog_keeps_team_sources(
    client: Client, team: Team, member: User, tmp_path: Path
) -> None:
    client.force_login(member)
    add(client, team, title="Zanzibar design notes", url="http://wiki.corp.internal/z")
    out = io.StringIO()
    call_command("load_catalog", str(write(tmp_path, MINIMAL)), stdout=out, stderr=io.StringIO())
    assert TeamSource.objects.count() == 1
    assert Source.all_objects.filter(status="private").count() == 1
    assert "Zanzibar" not in out.getvalue()
    exported = tmp_path / "out.toml"
    call_command("export_catalog", output=str(exported), stderr=io.StringIO())
    assert "Zanzibar" not in exported.read_text()
