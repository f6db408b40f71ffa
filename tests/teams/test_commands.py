import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from accounts.models import User
from teams.models import Team
from tests.hints import found


def test_create_team_prints_page_and_join_urls(client: Client, reader: User) -> None:
    out = StringIO()
    call_command("create_team", "GPU Kernels", owner="READER@example.com", stdout=out)
    team = Team.objects.get()
    assert team.memberships.get().user == reader
    text = out.getvalue()
    assert "https://readinglist.test/teams/gpu-kernels/" in text
    join_url = found(re.search(r"https://readinglist.test(/join/\S+/)", text)).group(1)
    assert "<h1>Join GPU Kernels</h1>" in client.get(join_url).text  # sign up or log in first


def test_create_team_needs_a_known_owner(db: None) -> None:
    with pytest.raises(CommandError, match="No reader has the address"):
        call_command("create_team", "X", owner="ghost@example.com")


def test_create_team_refuses_a_multi_line_name(reader: User) -> None:
    with pytest.raises(CommandError, match="NAME: a team name is one line"):
        call_command("create_team", "GPU\nBcc: x@example.com", owner=reader.email)
    assert not Team.objects.exists()
