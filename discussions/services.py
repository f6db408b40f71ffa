"""Writes to discussions: keyword-only, one transaction each, checking before they save.

Posts notify people: a reply tells the thread's author and everyone who replied before, a
mention tells the member mentioned (once per post, a mention winning over a reply). Only the
team's members now are told. Edits notify nobody: a post's mentions were told when it was made.
Those who chose mail at once are mailed after the post commits (emails.py).
"""

from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from catalog.models import Source
from catalog.querysets import private_audience
from readinglist import pagecache
from teams.models import Membership, Session, Team

from . import counts, mentions, tasks
from .models import Notification, Reply, Thread


class ThreadClosed(Exception):
    """The thread was deleted by its author or hidden by an owner: it takes no more replies."""

    def __init__(self, thread: Thread) -> None:
        why = "deleted by its author" if thread.is_deleted else "hidden by a team owner"
        super().__init__(
            f"This thread was {why}, so it takes no more replies. Your reply was not posted; "
            "its text is kept below so you can copy it."
        )


def _notify(
    *, thread: Thread, reply: Reply | None, actor: User, found: Iterable[User], repliers: bool
) -> list[Notification]:
    mentioned = {user.pk for user in found} - {actor.pk}
    told: dict[int, str] = dict.fromkeys(mentioned, Notification.Kind.MENTION)
    if repliers:
        participants = {thread.author_id} | set(
            Reply.objects.filter(thread=thread).values_list("author_id", flat=True)
        )
        # Only those still in the team: a former member hears nothing more from it.
        current = set(
            Membership.objects.filter(
                team_id=thread.team_id, user_id__in=participants - {actor.pk}
            ).values_list("user_id", flat=True)
        )
        for pk in current:
            told.setdefault(pk, Notification.Kind.REPLY)
    rows = Notification.objects.bulk_create(
        Notification(recipient_id=pk, thread=thread, reply=reply, actor=actor, kind=kind)
        for pk, kind in told.items()
    )
    if told:
        # bulk_create sends no signals: the recipients' header counts and kept pages go here.
        transaction.on_commit(lambda: _changed_for(told))
        # Mail only once committed, so the mail never tells of a post that was rolled back;
        # robust: a queue that refuses the task must not fail a post already saved (the hourly
        # run mails it instead).
        recipients = sorted(told)
        transaction.on_commit(lambda: tasks.mail_at_once.enqueue(recipients), robust=True)
    return rows


def _changed_for(user_ids: Iterable[int]) -> None:
    ids = list(user_ids)
    counts.forget(*ids)
    for pk in ids:
        pagecache.bump_reader_version(pk)


@transaction.atomic
def start_thread(
    *,
    author: User,
    team: Team,
    source: Source,
    title: str,
    body: str = "",
    quote_exact: str = "",
    quote_prefix: str = "",
    quote_suffix: str = "",
    is_question: bool = False,
) -> tuple[Thread, mentions.Mentions]:
    if not Membership.objects.filter(team=team, user=author).exists():
        raise PermissionError("only a team's members start its threads")
    audience = private_audience(source)
    if audience is not None and team.pk not in audience:
        raise PermissionError("a team's own source is discussed by that team only")
    found = mentions.resolve(f"{title}\n{body}", team_id=team.pk)
    thread = Thread.objects.create(
        team=team,
        source=source,
        author=author,
        title=title,
        body=body,
        quote_exact=quote_exact,
        quote_prefix=quote_prefix,
        quote_suffix=quote_suffix,
        is_question=is_question,
    )
    _notify(thread=thread, reply=None, actor=author, found=found.members, repliers=False)
    return thread, found


@transaction.atomic
def edit_thread(*, thread: Thread, **fields: object) -> Thread:
    mentions.check_count(f"{fields.get('title', '')}\n{fields.get('body', '')}")
    for name, value in fields.items():
        setattr(thread, name, value)
    thread.edited_at = timezone.now()
    thread.save()
    return thread


@transaction.atomic
def add_reply(*, thread: Thread, author: User, body: str) -> tuple[Reply, mentions.Mentions]:
    """Reply to `thread`, read again under a row lock: a thread deleted or hidden a moment
    ago refuses (ThreadClosed), and two replies at once are both kept, in order."""
    locked = Thread.objects.select_for_update().get(pk=thread.pk)
    if not locked.is_open:
        raise ThreadClosed(locked)
    found = mentions.resolve(body, team_id=locked.team_id)
    reply = Reply.objects.create(thread=locked, author=author, body=body)
    _notify(thread=locked, reply=reply, actor=author, found=found.members, repliers=True)
    return reply, found


@transaction.atomic
def edit_reply(*, reply: Reply, body: str) -> Reply:
    mentions.check_count(body)
    reply.body = body
    reply.edited_at = timezone.now()
    reply.save()
    return reply


def delete_reply(*, reply: Reply) -> Reply:
    reply.deleted_at = timezone.now()
    reply.save(update_fields=["deleted_at"])
    return reply


def delete_thread(*, thread: Thread) -> Thread:
    thread.deleted_at = timezone.now()
    thread.save(update_fields=["deleted_at"])
    return thread


def hide_thread(*, thread: Thread, owner: User | None) -> Thread:
    """Hide (an owner) or show again (owner=None)."""
    thread.hidden_by = owner
    thread.save(update_fields=["hidden_by"])
    return thread


def mark_answered(*, thread: Thread, reply: Reply | None) -> Thread:
    """Point the question at the reply that answered it, or (None) open it again."""
    if reply is not None and reply.thread_id != thread.pk:
        raise ValueError("the answer must be a reply in this thread")
    thread.answered_by_reply = reply
    thread.save(update_fields=["answered_by_reply"])
    return thread


def resolve_in_session(*, thread: Thread, session: Session | None) -> Thread:
    """Mark a question settled at `session` (None: not settled after all)."""
    if session is not None and session.team_id != thread.team_id:
        raise ValueError("a question is settled in a session of its own team")
    thread.resolved_in_session = session
    thread.resolved_at = timezone.now() if session else None
    thread.save(update_fields=["resolved_in_session", "resolved_at"])
    return thread


def mark_read(*, user: User, notifications: Iterable[Notification]) -> int:
    ids = [row.pk for row in notifications if row.read_at is None]
    if not ids:
        return 0
    changed = Notification.objects.filter(pk__in=ids, recipient=user).update(read_at=timezone.now())
    transaction.on_commit(lambda: _changed_for([user.pk]))
    return changed
