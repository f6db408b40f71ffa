"""A team's own source as a step on the team's own paths: it joins only a path of its team seen
by the team alone, such a path cannot be shared beyond the team, and a fork anywhere else is
made without it. Each guard is the service's, so the views inherit it."""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from accounts.models import User
from catalog.models import Source
from paths.changes import update_details
from paths.forking import fork_path
from paths.models import Path
from paths.services import add_step, create_path
from teams import services as teams
from teams.models import Membership, Team
from teamsources.services import add_team_source
from tests.factories import SourceFactory, UserFactory
from tests.hints import Tiers

pytestmark = pytest.mark.django_db

SECRET = "Zanzibar design notes"


def team_source(team: Team, user: User, title: str = SECRET) -> Source:
    data = {"title": title, "kind": "documentation"}
    return add_team_source(team=team, user=user, data=data, extracted=None).source


@pytest.fixture
def secret(team: Team, owner: User) -> Source:
    return team_source(team, owner)


@pytest.fixture
def team_path(team: Team, owner: User) -> Path:
    return create_path(owner, "Team plan", team=team)


def test_a_team_source_joins_its_teams_path_seen_by_the_team(
    team_path: Path, owner: User, secret: Source
) -> None:
    step = add_step(team_path, owner, secret)
    assert step.source == secret and team_path.visibility == Path.Visibility.TEAM


@pytest.mark.parametrize("visibility", ["unlisted", "public"])
def test_a_team_source_never_joins_its_teams_shared_path(
    team: Team, owner: User, secret: Source, visibility: str
) -> None:
    path = create_path(owner, "Shared", team=team, visibility=visibility)
    with pytest.raises(ValidationError, match="seen by the team's members alone"):
        add_step(path, owner, secret)
    assert not path.steps.exists()


def test_a_team_source_never_joins_a_readers_own_path(owner: User, secret: Source) -> None:
    mine = create_path(owner, "Mine")
    with pytest.raises(ValidationError, match="never on a reader's own path"):
        add_step(mine, owner, secret)


def test_a_team_source_never_joins_another_teams_path(
    owner: User, secret: Source, other_team: Team
) -> None:
    Membership.objects.create(team=other_team, user=owner, role=Membership.Role.OWNER)
    theirs = create_path(owner, "Kernels plan", team=other_team)
    with pytest.raises(ValidationError, match="another team's"):
        add_step(theirs, owner, secret)


def test_a_non_member_hears_the_source_does_not_exist(
    secret: Source, outsider: User, other_team: Team
) -> None:
    theirs = create_path(outsider, "Kernels plan", team=other_team)
    with pytest.raises(ValidationError, match="not in the catalog") as error:
        add_step(theirs, outsider, secret)
    assert SECRET not in str(error.value)


def test_add_to_path_adds_to_an_eligible_path_and_refuses_the_rest(
    client: Client, team_path: Path, owner: User, secret: Source
) -> None:
    mine = create_path(owner, "Mine")
    client.force_login(owner)
    url = reverse("paths:add-source")
    refused = client.post(url, {"source": secret.slug, "to": mine.key}, follow=True)
    assert "never on a reader&#x27;s own path" in refused.content.decode()
    assert not mine.steps.exists()
    added = client.post(url, {"source": secret.slug, "to": team_path.key})
    assert added.status_code == 302 and team_path.steps.get().source == secret


def test_add_to_path_is_404_for_a_non_member(
    client: Client, secret: Source, outsider: User
) -> None:
    mine = create_path(outsider, "Mine")
    client.force_login(outsider)
    response = client.post(reverse("paths:add-source"), {"source": secret.slug, "to": mine.key})
    assert response.status_code == 404 and not mine.steps.exists()


def test_the_path_page_adds_a_team_source_by_its_title_on_the_teams_path_only(
    client: Client, team_path: Path, owner: User, secret: Source
) -> None:
    client.force_login(owner)
    client.post(reverse("paths:add-step", args=[team_path.key]), {"source": SECRET})
    assert team_path.steps.get().source == secret
    mine = create_path(owner, "Mine")
    response = client.post(reverse("paths:add-step", args=[mine.key]), {"source": SECRET})
    assert response.status_code == 400 and "No source in the catalog matches" in (
        response.content.decode()
    )


def test_the_source_page_offers_only_the_eligible_paths(
    client: Client, team: Team, team_path: Path, owner: User, secret: Source
) -> None:
    create_path(owner, "Mine personal")
    create_path(owner, "Team unlisted", team=team, visibility="unlisted")
    client.force_login(owner)
    html = client.get(secret.get_absolute_url()).content.decode()
    assert 'id="add-to-path' in html and "Team plan" in html
    assert "Mine personal" not in html and "Team unlisted" not in html


def test_the_source_page_explains_when_no_path_is_eligible(
    client: Client, owner: User, secret: Source
) -> None:
    create_path(owner, "Mine personal")
    client.force_login(owner)
    html = client.get(secret.get_absolute_url()).content.decode()
    assert "joins only its own team" in html and "Mine personal" not in html


def test_a_team_result_card_offers_add_to_path(
    client: Client, team_path: Path, owner: User, secret: Source
) -> None:
    client.force_login(owner)
    html = client.get(reverse("pages:source-list"), {"q": "zanzibar"}).content.decode()
    assert f'name="source" value="{secret.slug}"' in html


def test_a_path_holding_a_team_source_stays_inside_the_team(
    team_path: Path, owner: User, secret: Source
) -> None:
    add_step(team_path, owner, secret)
    for visibility in ("public", "unlisted"):
        with pytest.raises(ValidationError, match=SECRET):
            update_details(
                team_path, owner, title="Team plan", description="", visibility=visibility
            )
    team_path.refresh_from_db()
    assert team_path.visibility == Path.Visibility.TEAM


def test_the_settings_form_says_why_and_keeps_what_was_typed(
    client: Client, team_path: Path, owner: User, secret: Source
) -> None:
    add_step(team_path, owner, secret)
    client.force_login(owner)
    data = {"title": "A new title", "description": "Typed words", "visibility": "public"}
    response = client.post(reverse("paths:edit", args=[team_path.key]), data)
    html = response.content.decode()
    assert response.status_code == 400
    assert "1 team-only step" in html and SECRET in html
    assert 'value="A new title"' in html and "Typed words" in html
    team_path.refresh_from_db()
    assert team_path.title == "Team plan"


def test_a_fork_for_the_team_keeps_the_team_source(
    team: Team, team_path: Path, owner: User, secret: Source, tiers: Tiers
) -> None:
    add_step(team_path, owner, SourceFactory(tier=tiers["core"]))
    add_step(team_path, owner, secret)
    forked = fork_path(team_path, owner, team=team, visibility="team")
    assert forked.team_only_left_out == 0
    assert forked.path.steps.filter(source=secret).exists()


@pytest.mark.parametrize("where", ["mine", "team unlisted", "other team"])
def test_any_other_fork_is_made_without_the_team_source(
    team: Team,
    other_team: Team,
    team_path: Path,
    owner: User,
    secret: Source,
    tiers: Tiers,
    where: str,
) -> None:
    Membership.objects.create(team=other_team, user=owner)
    add_step(team_path, owner, SourceFactory(tier=tiers["core"]))
    add_step(team_path, owner, secret)
    owner_team, visibility = {
        "mine": (None, "private"),
        "team unlisted": (team, "unlisted"),
        "other team": (other_team, "team"),
    }[where]
    forked = fork_path(team_path, owner, team=owner_team, visibility=visibility)
    assert forked.team_only_left_out == 1
    assert forked.path.steps.count() == 1
    assert not forked.path.steps.filter(source=secret).exists()


def test_the_fork_pages_say_what_was_left_out(
    client: Client, team_path: Path, owner: User, secret: Source
) -> None:
    add_step(team_path, owner, secret)
    client.force_login(owner)
    url = reverse("paths:fork", args=[team_path.key])
    assert "1 team-only step" in client.get(url).content.decode()
    done = client.post(url, {"owner": "me", "visibility": "public"}, follow=True)
    assert "1 team-only step was left out" in done.content.decode()
    fork = Path.objects.get(team=None, user=owner)
    assert fork.visibility == "public" and not fork.steps.exists()


def test_upstream_never_offers_a_team_source_to_a_fork_that_may_not_hold_it(
    client: Client, team_path: Path, owner: User, secret: Source, tiers: Tiers
) -> None:
    fork = fork_path(team_path, owner, team=None, visibility="public").path
    add_step(team_path, owner, secret)
    add_step(team_path, owner, SourceFactory(title="FlashAttention", tier=tiers["core"]))
    client.force_login(owner)
    url = reverse("paths:upstream", args=[fork.key])
    html = client.get(url).content.decode()
    assert "FlashAttention" in html and SECRET not in html
    refused = client.post(url, {"take": f"added:{secret.pk}"}, follow=True)
    assert "no longer upstream" in refused.content.decode()
    client.post(url, {"take": "all"})
    assert list(fork.steps.values_list("source__title", flat=True)) == ["FlashAttention"]


def test_a_team_fork_takes_a_team_source_from_upstream(
    client: Client, team: Team, team_path: Path, owner: User, secret: Source
) -> None:
    fork = fork_path(team_path, owner, team=team, visibility="team").path
    add_step(team_path, owner, secret)
    client.force_login(owner)
    url = reverse("paths:upstream", args=[fork.key])
    assert SECRET in client.get(url).content.decode()
    client.post(url, {"take": f"added:{secret.pk}"})
    assert fork.steps.get().source == secret


def test_leaving_the_team_cuts_the_path_and_the_source_at_once(
    client: Client, team: Team, team_path: Path, owner: User, member: User, secret: Source
) -> None:
    add_step(team_path, owner, secret)
    team_path.editors.add(member)
    client.force_login(member)
    assert SECRET in client.get(team_path.get_absolute_url()).content.decode()
    teams.leave(team=team, user=member)
    assert client.get(team_path.get_absolute_url()).status_code == 404
    assert client.get(reverse("paths:export-markdown", args=[team_path.key])).status_code == 404
    response = client.post(
        reverse("paths:add-source"), {"source": secret.slug, "to": team_path.key}
    )
    assert response.status_code == 404


def test_the_admin_check_keeps_a_path_holding_a_team_source_inside(
    team_path: Path, owner: User, secret: Source
) -> None:
    add_step(team_path, owner, secret)
    team_path.visibility = "public"
    with pytest.raises(ValidationError, match="team-only"):
        team_path.clean()


def test_a_new_reader_path_has_nothing_to_check(tiers: Tiers) -> None:
    path = Path(user=UserFactory(), title="Unsaved")
    path.clean()
    assert path.pk is None
