"""An email domain admits readers to a team only once an owner proved it is theirs."""

import re
from io import StringIO

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.core.management import call_command
from django.test import Client
from pytest_django import Settings

from accounts.models import User
from teams import domains
from teams.models import Membership, Team, TeamDomain
from tests.conftest import PASSWORD
from tests.factories import UserFactory
from tests.hints import found
from tests.teams.conftest import proved_domain

ADD = "/teams/inference/domains/"


def verified(user: User, email: str | None = None) -> User:
    EmailAddress.objects.create(user=user, email=email or user.email, verified=True, primary=True)
    return user


def test_owner_with_a_verified_address_there_proves_the_domain_at_once(
    client: Client, team: Team, owner: User
) -> None:
    verified(owner)
    client.force_login(owner)
    response = client.post(ADD, {"domain": "@Example.COM"}, follow=True)
    assert "Readers with a verified address at example.com now join the team." in response.text
    row = team.domains.get()
    assert (row.domain, row.verified_by, row.is_active) == ("example.com", "email", True)


def test_unverified_owner_address_does_not_prove_it(
    client: Client, team: Team, owner: User
) -> None:
    client.force_login(owner)
    response = client.post(ADD, {"domain": "example.com"}, follow=True)
    row = team.domains.get()
    assert not row.is_active
    assert "add the DNS TXT record shown below" in response.text
    assert row.txt_value in response.text
    reader = verified(UserFactory(email="reader@example.com"))
    assert domains.join_teams_by_domain(user=reader, email=reader.email) == []


def test_another_domain_than_the_owners_waits_for_dns(
    client: Client, team: Team, owner: User
) -> None:
    verified(owner)
    client.force_login(owner)
    client.post(ADD, {"domain": "competitor.example"})
    assert not team.domains.get().is_active


@pytest.mark.parametrize("domain", ["gmail.com", "outlook.com", "proton.me", "GMX.de"])
def test_public_email_providers_are_refused(
    client: Client, team: Team, owner: User, domain: str
) -> None:
    verified(owner, f"owner@{domain.lower()}")
    client.force_login(owner)
    response = client.post(ADD, {"domain": domain})
    assert response.status_code == 400
    assert "is a public email provider" in response.text
    assert f'value="{domain}"' in response.text
    assert not team.domains.exists()


@pytest.mark.parametrize("domain", ["localhost", "exa mple.com", "a@b.com", "-bad.com", "x..com"])
def test_malformed_domains_get_a_clear_error(
    client: Client, team: Team, owner: User, domain: str
) -> None:
    client.force_login(owner)
    response = client.post(ADD, {"domain": domain})
    assert response.status_code == 400
    assert "is not a domain such as example.com" in response.text


def test_members_cannot_add_or_remove_domains(client: Client, team: Team, member: User) -> None:
    row = proved_domain(team, "example.com")
    client.force_login(member)
    assert client.post(ADD, {"domain": "example.org"}).status_code == 404
    assert client.post(f"/teams/inference/domains/{row.pk}/remove/").status_code == 404
    assert list(team.domains.values_list("domain", flat=True)) == ["example.com"]


def test_dns_record_proves_the_domain(team: Team, owner: User) -> None:
    row = TeamDomain.objects.create(team=team, domain="corp.example", added_by=owner)
    other = TeamDomain.objects.create(team=team, domain="other.example", added_by=owner)
    records = {"corp.example": ["v=spf1 -all", row.txt_value], "other.example": ["wrong"]}
    report = domains.verify_pending_domains(resolver=lambda domain: records.get(domain, []))
    assert report.verified == ["corp.example (Inference)"]
    assert report.waiting == ["other.example (Inference)"]
    row.refresh_from_db()
    other.refresh_from_db()
    assert (row.is_active, row.verified_by) == (True, "dns")
    assert not other.is_active
    reader = UserFactory(email="x@corp.example")
    assert domains.join_teams_by_domain(user=reader, email=reader.email) == [team]
    lookalike = UserFactory(email="y@notcorp.example")
    assert domains.join_teams_by_domain(user=lookalike, email=lookalike.email) == []


def test_verify_command_reports_each_domain(
    monkeypatch: pytest.MonkeyPatch, team: Team, owner: User
) -> None:
    TeamDomain.objects.create(team=team, domain="corp.example", added_by=owner)
    monkeypatch.setattr(domains, "dns_txt_records", lambda domain: [])
    out = StringIO()
    call_command("verify_team_domains", stdout=out)
    assert "Still waiting for the TXT record of corp.example (Inference)." in out.getvalue()
    assert "0 domain(s) verified, 1 still waiting." in out.getvalue()


def test_a_dns_timeout_is_no_answer_and_a_missing_domain_has_no_record(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import dns.resolver

    def fail(domain: str, *args: object, **kwargs: object) -> None:
        if domain == "gone.example":
            raise dns.resolver.NXDOMAIN
        raise dns.resolver.LifetimeTimeout(timeout=5.0, errors=[])

    monkeypatch.setattr(dns.resolver, "resolve", fail)
    with pytest.raises(domains.Unanswered):
        domains.dns_txt_records("corp.example")
    assert domains.dns_txt_records("gone.example") == []


def test_revoked_domain_admits_nobody_and_cannot_be_added_back(
    client: Client, team: Team, owner: User
) -> None:
    row = proved_domain(team, "example.com")
    assert domains.revoke([row]) == 1
    reader = verified(UserFactory(email="reader@example.com"))
    assert domains.join_teams_by_domain(user=reader, email=reader.email) == []
    verified(owner)
    client.force_login(owner)
    response = client.post(ADD, {"domain": "example.com"})
    assert "A maintainer revoked example.com for this team" in response.text
    assert not team.domains.get().is_active


def test_maintainers_revoke_domains_in_the_admin(
    client: Client, maintainer: User, team: Team
) -> None:
    row = proved_domain(team, "example.com")
    client.force_login(maintainer)
    assert "example.com" in client.get("/admin/teams/teamdomain/").text
    response = client.post(
        "/admin/teams/teamdomain/",
        {"action": "revoke_domains", "_selected_action": [row.pk]},
        follow=True,
    )
    assert "1 domain(s) revoked." in response.text
    row.refresh_from_db()
    assert row.revoked_at is not None and not row.is_active
    assert client.get("/admin/teams/teamdomain/add/").status_code == 403


def test_reader_who_joins_by_domain_is_told_which_team_and_can_leave(
    client: Client, settings: Settings, team: Team
) -> None:
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    proved_domain(team, "example.com")
    client.post(
        "/accounts/signup/",
        {"email": "new@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
    (confirmation,) = mail.outbox
    link = found(
        re.search(r"https?://[^/\s]+(/accounts/confirm-email/\S+/)", str(confirmation.body))
    )
    response = client.post(link.group(1), follow=True)

    assert "You joined the team Inference because your address new@example.com" in response.text
    told = mail.outbox[-1]
    assert told.subject == "You joined Inference on readinglist"
    assert "/teams/inference/" in told.body and "Leave" in told.body
    assert client.post("/teams/inference/leave/").status_code == 302
    assert not Membership.objects.filter(team=team, user__email="new@example.com").exists()


@pytest.fixture
def no_dns_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """DNS questions go to a loopback port nothing listens on, as on a machine whose network is
    down: no lookup is ever answered."""
    import socket

    import dns.resolver

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    resolver = dns.resolver.Resolver(configure=False)
    resolver.nameservers, resolver.port = ["127.0.0.1"], port
    monkeypatch.setattr(dns.resolver, "default_resolver", resolver)
    monkeypatch.setattr(domains, "DNS_LIFETIME_SECONDS", 0.3)


def test_verifying_without_a_network_says_so_and_exits_non_zero(
    no_dns_server: None, team: Team, owner: User
) -> None:
    from django.core.management.base import CommandError

    TeamDomain.objects.create(team=team, domain="corp.example", added_by=owner)
    TeamDomain.objects.create(team=team, domain="lab.example", added_by=owner)
    out = StringIO()

    # A CommandError is how a command exits non-zero (1) on the command line.
    with pytest.raises(CommandError) as refused:
        call_command("verify_team_domains", stdout=out)

    assert "Still waiting" not in out.getvalue()
    message = str(refused.value)
    assert message.startswith("No DNS lookup was answered (2 tried, for example “corp.example")
    assert message.endswith("Is this machine offline? Nothing was recorded.")
    assert not TeamDomain.objects.filter(verified_at__isnull=False).exists()


def test_one_unanswered_domain_among_answering_ones_is_still_waiting(
    monkeypatch: pytest.MonkeyPatch, team: Team, owner: User
) -> None:
    import dns.resolver

    proved = TeamDomain.objects.create(team=team, domain="corp.example", added_by=owner)
    TeamDomain.objects.create(team=team, domain="slow.example", added_by=owner)

    def resolve(domain: str, *args: object, **kwargs: object) -> list[object]:
        if domain == "slow.example":
            raise dns.resolver.LifetimeTimeout(timeout=5.0, errors=[])
        return [type("Record", (), {"strings": [proved.txt_value.encode()]})()]

    monkeypatch.setattr(dns.resolver, "resolve", resolve)
    out = StringIO()
    call_command("verify_team_domains", stdout=out)

    assert "Verified corp.example (Inference)" in out.getvalue()
    assert "Still waiting for the TXT record of slow.example (Inference)" in out.getvalue()
    assert "no DNS answer" in out.getvalue()
