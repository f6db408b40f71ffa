"""Writes to teams: keyword-only functions that check the rules and save in one transaction."""

from datetime import datetime, timedelta

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.text import slugify

from accounts.models import User

from .models import Departure, Invitation, JoinLink, Membership, Team, hash_token, new_token

Role = Membership.Role


class TeamError(Exception):
    """A rule stopped the change; the message is written for the reader."""


class EmailNotVerified(TeamError):
    """Only a reader whose address is verified may join (see joining.py for why)."""

    def __init__(self) -> None:
        super().__init__("Verify your email address first; then you can join the team.")


def email_verified(user: User) -> bool:
    return EmailAddress.objects.filter(user=user, email__iexact=user.email, verified=True).exists()


def mark_verified(user: User) -> None:
    """The reader proved they read `user.email`: a link sent there reached them."""
    updated = EmailAddress.objects.filter(user=user, email__iexact=user.email).update(verified=True)
    if not updated:
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)


def may_create_teams(user: User | AnonymousUser) -> bool:
    if not user.is_authenticated:
        return False
    if settings.TEAMS_CREATE == "maintainers":
        return user.is_staff
    return True


def _unique_slug(name: str) -> str:
    base = slugify(name)[:90] or "team"
    slug, counter = base, 2
    while Team.objects.filter(slug=slug).exists():
        slug, counter = f"{base}-{counter}", counter + 1
    return slug


@transaction.atomic
def create_team(
    *,
    name: str,
    owner: User,
    description: str = "",
    by_operator: bool = False,
) -> Team:
    """A new team with `owner` as its first owner. Operators (management commands) create
    teams whatever TEAMS_CREATE says about readers."""
    if not by_operator and not may_create_teams(owner):
        raise TeamError("Only maintainers may create teams on this site.")
    team = Team.objects.create(
        name=name.strip(),
        slug=_unique_slug(name),
        description=description,
    )
    Membership.objects.create(team=team, user=owner, role=Role.OWNER)
    return team


def membership(team: Team, user: User | AnonymousUser) -> Membership | None:
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(team=team, user=user).first()


def require_owner(team: Team, user: User) -> None:
    if not Membership.objects.filter(team=team, user=user, role=Role.OWNER).exists():
        raise TeamError("Only the team's owners may do that.")


def _join(team: Team, user: User) -> tuple[Membership, bool]:
    return Membership.objects.get_or_create(team=team, user=user)


@transaction.atomic
def update_team(*, team: Team, by: User, description: str) -> Team:
    require_owner(team, by)
    team.description = description
    team.save(update_fields=["description"])
    return team


def _check_invite_rate(team: Team, by: User) -> None:
    # The team's and the inviter's rows are locked (always in this order) until the invitation
    # is saved, so invitations sent at the same moment are counted one after another.
    Team.objects.select_for_update().filter(pk=team.pk).first()
    User.objects.select_for_update().filter(pk=by.pk).first()
    since = timezone.now() - timedelta(hours=1)
    recent = Invitation.objects.filter(created__gte=since)
    limit = settings.TEAMS_INVITES_PER_HOUR
    if recent.filter(team=team).count() >= limit or recent.filter(invited_by=by).count() >= limit:
        raise TeamError(f"At most {limit} invitations an hour may be sent. Try again later.")


@transaction.atomic
def invite(*, team: Team, by: User, email: str, any_email: bool = False) -> tuple[Invitation, str]:
    """Record an invitation and return it with its one-time token (only its hash is stored)."""
    require_owner(team, by)
    email = email.strip()
    if Membership.objects.filter(team=team, user__email__iexact=email).exists():
        raise TeamError(f"{email} is already a member of {team.name}.")
    waiting = (
        Invitation.objects.select_for_update()
        .filter(team=team, email__iexact=email, accepted_at__isnull=True)
        .order_by("-created", "-pk")
        .first()
    )
    if waiting is not None:
        # The same address invited again gets its invitation again, not a second one.
        waiting.any_email = any_email
        return _send_again(waiting, by=by)
    _check_invite_rate(team, by)
    token = new_token()
    invitation = Invitation.objects.create(
        team=team,
        email=email,
        invited_by=by,
        any_email=any_email,
        token_hash=hash_token(token),
        expires=timezone.now() + timedelta(days=settings.TEAMS_INVITATION_DAYS),
    )
    return invitation, token


# However often an owner clicks, an address gets at most one invitation mail in this time.
RESEND_PAUSE = timedelta(minutes=2)


def _send_again(invitation: Invitation, *, by: User) -> tuple[Invitation, str]:
    """A new link and a new expiry for a waiting invitation. Only the token's hash is kept, so
    the old link cannot be mailed again: it stops working and the new mail's link takes over.
    `created` becomes the time of this sending, which the hourly limit counts."""
    now = timezone.now()
    if invitation.created > now - RESEND_PAUSE:
        raise TeamError(
            f"An invitation went to {invitation.email} a moment ago. "
            "Give it a few minutes before sending it again."
        )
    _check_invite_rate(invitation.team, by)
    token = new_token()
    invitation.token_hash = hash_token(token)
    invitation.invited_by = by
    invitation.created = now
    invitation.expires = now + timedelta(days=settings.TEAMS_INVITATION_DAYS)
    invitation.save()
    return invitation, token


def _waiting(team: Team, pk: int) -> Invitation:
    invitation = (
        Invitation.objects.select_for_update()
        .filter(team=team, pk=pk, accepted_at__isnull=True)
        .first()
    )
    if invitation is None:
        raise TeamError("That invitation is no longer waiting: it was accepted or withdrawn.")
    return invitation


@transaction.atomic
def resend_invitation(*, team: Team, by: User, pk: int) -> tuple[Invitation, str]:
    require_owner(team, by)
    return _send_again(_waiting(team, pk), by=by)


@transaction.atomic
def withdraw_invitation(*, team: Team, by: User, pk: int) -> Invitation:
    """Delete a waiting invitation: its link then answers as an unknown one."""
    require_owner(team, by)
    invitation = _waiting(team, pk)
    invitation.delete()
    return invitation


def find_invitation(token: str) -> Invitation | None:
    return Invitation.objects.select_related("team").filter(token_hash=hash_token(token)).first()


def invitation_problem(invitation: Invitation, user: User | AnonymousUser | None = None) -> str:
    """Why this invitation cannot be accepted (by this user), or "" if it can."""
    if invitation.is_used:
        return "This invitation has already been used."
    if invitation.is_expired:
        return "This invitation has expired. Ask the team's owners for a new one."
    if user is not None and user.is_authenticated and not invitation.admits(user.email):
        return (
            f"This invitation is for {invitation.email}, and you are signed in as {user.email}. "
            "Sign in with the invited address to accept it."
        )
    return ""


@transaction.atomic
def claim_invitation(*, invitation: Invitation, user: User) -> Invitation:
    """Use the invitation up for a new account, under a row lock so it admits one account
    however many sign-ups race for it. Joining comes after (accept_invitation), once the
    account's address rows exist and are verified."""
    locked = Invitation.objects.select_for_update().get(pk=invitation.pk)
    problem = invitation_problem(locked, user)
    if problem:
        raise TeamError(problem)
    locked.accepted_at = timezone.now()
    locked.accepted_by = user
    locked.save(update_fields=["accepted_at", "accepted_by"])
    return locked


@transaction.atomic
def accept_invitation(*, invitation: Invitation, user: User) -> Membership:
    """Join through an invitation: used up now, or earlier by this reader's sign-up."""
    locked = Invitation.objects.select_for_update().get(pk=invitation.pk)
    claimed_by_them = locked.accepted_by_id == user.pk
    if not claimed_by_them:
        problem = invitation_problem(locked, user)
        if problem:
            raise TeamError(problem)
    if user.email.lower() == locked.email.lower():
        mark_verified(user)  # the invitation reached that inbox
    elif not email_verified(user):
        raise EmailNotVerified()
    if not claimed_by_them:
        locked.accepted_at = timezone.now()
        locked.accepted_by = user
        locked.save(update_fields=["accepted_at", "accepted_by"])
    member, _ = _join(locked.team, user)
    return member


@transaction.atomic
def create_join_link(
    *, team: Team, by: User, expires: datetime | None = None, max_uses: int | None = None
) -> JoinLink:
    require_owner(team, by)
    return JoinLink.objects.create(team=team, created_by=by, expires=expires, max_uses=max_uses)


@transaction.atomic
def revoke_join_link(*, link: JoinLink, by: User) -> JoinLink:
    require_owner(link.team, by)
    link.revoked = True
    link.save(update_fields=["revoked"])
    return link


@transaction.atomic
def join_by_link(*, link: JoinLink, user: User) -> tuple[Membership, bool]:
    """Join through a link; a member who follows it again uses nothing up."""
    locked = JoinLink.objects.select_for_update().select_related("team").get(pk=link.pk)
    existing = membership(locked.team, user)
    if existing:
        return existing, False
    if locked.problem:
        raise TeamError(locked.problem)
    if not email_verified(user):
        raise EmailNotVerified()
    JoinLink.objects.filter(pk=locked.pk).update(uses=F("uses") + 1)
    return _join(locked.team, user)


def other_owners(team: Team, user: User) -> bool:
    return Membership.objects.filter(team=team, role=Role.OWNER).exclude(user=user).exists()


@transaction.atomic
def remove_member(*, team: Team, by: User, user: User) -> None:
    require_owner(team, by)
    target = Membership.objects.select_for_update().filter(team=team, user=user).first()
    if target is None:
        raise TeamError("That reader is not a member of this team.")
    if target.is_owner and not other_owners(team, user):
        raise TeamError("The last owner cannot be removed. Promote another member first.")
    target.delete()
    _record_departure(team, user, Departure.Way.REMOVED)
    _rotate_calendar(team, reason="membership")
    from .tasks import mail_removed

    removed_by = by.public_name
    transaction.on_commit(lambda: mail_removed.enqueue(team.pk, user.pk, removed_by))


@transaction.atomic
def promote(*, team: Team, by: User, user: User) -> Membership:
    require_owner(team, by)
    target = Membership.objects.filter(team=team, user=user).first()
    if target is None:
        raise TeamError("That reader is not a member of this team.")
    target.role = Role.OWNER
    target.save(update_fields=["role"])
    return target


@transaction.atomic
def leave(*, team: Team, user: User) -> None:
    own = Membership.objects.select_for_update().filter(team=team, user=user).first()
    if own is None:
        raise TeamError("You are not a member of this team.")
    if own.is_owner and not other_owners(team, user):
        raise TeamError(
            "You are the team's last owner, so you cannot leave. Promote another member first."
        )
    own.delete()
    _record_departure(team, user, Departure.Way.LEFT)
    _rotate_calendar(team, reason="membership")


def _record_departure(team: Team, user: User, way: str) -> None:
    # Kept so that the former member's old link says what happened instead of a bare 404.
    Departure.objects.update_or_create(
        team=team, user=user, defaults={"way": way, "at": timezone.now()}
    )


def _rotate_calendar(team: Team, *, reason: str) -> None:
    """A new calendar address; the members are mailed it once the change is committed. Someone
    who left still has the old address, which is why it changes when they go."""
    from .tasks import mail_new_calendar_address

    team.calendar_token = new_token()
    team.save(update_fields=["calendar_token"])
    transaction.on_commit(lambda: mail_new_calendar_address.enqueue(team.pk, reason))


@transaction.atomic
def rotate_calendar_token(*, team: Team, by: User) -> Team:
    # Owners only: a member could otherwise break every teammate's subscription.
    require_owner(team, by)
    _rotate_calendar(team, reason="owner")
    return team


@transaction.atomic
def delete_team(*, team: Team, by: User) -> None:
    """Delete the team for everyone: notes shared with it become private to their authors
    (notes.models sees to that), its sessions, invitations and links go with it, and the other
    members are mailed once the deletion is committed."""
    from .tasks import mail_team_deleted

    require_owner(team, by)
    name = team.name
    told = list(team.members.filter(is_active=True).exclude(pk=by.pk).values_list("pk", flat=True))
    team.delete()
    transaction.on_commit(lambda: mail_team_deleted.enqueue(name, by.public_name, told))
