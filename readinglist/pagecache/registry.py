"""What invalidates what: each app registers its models in its AppConfig.ready().

    register(Source, scope="catalog")        # a change shows on every page
    register(Bookmark, scope="team")         # on its owner's pages and their teammates'
    register(User, scope="team", team_fields={"display_name", "email"})
    register(Note, scope="team", owner_only=..., teams=lambda note: [note.team_id])
    register(Proposal, scope="reader", owner="proposer")   # the owner under any field name
    register_memberships(Membership)         # who is in which team
    exempt(DigestLog, reason="the record of digests sent shows on no page")

A model's owner is the reader its `owner` foreign key names (`user` unless the registration says
otherwise; a user row owns itself). A model that changes no page is registered as exempt, with
the reason; tests/test_pagecache_registry.py fails on any project model that is neither. Team data
is versioned per team: a team-scoped change replaces the versions of the teams `teams(row)`
names, or, without `teams`, of every team its owner belongs to (read from the registered
membership model), so one team's activity never drops another team's pages. A membership change
replaces its team's version and its reader's own, so a removed reader's pages go at once. A change
to a model nobody registered cannot be tied to a scope, so it drops every reader's pages (the
readers' epoch): forgetting to register costs cache hits, never a stale page. Django's own
bookkeeping (sessions, the admin log, content types, the site record) shows on no page.
"""

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal

from django.apps import apps as django_apps
from django.contrib.auth import get_user_model
from django.db import models, transaction
from django.db.models.signals import m2m_changed, post_delete, post_save

from .versions import (
    READER_MEMBERSHIPS_KEY,
    READER_VERSION_KEY,
    READERS_EPOCH_KEY,
    TEAM_VERSION_KEY,
    TEAMS_VERSION_KEY,
    VERSION_KEY,
    replace,
    replace_with_readers_teams,
)

Scope = Literal["catalog", "reader", "team", "none"]
UNSHOWN_APPS = {"sessions", "admin", "contenttypes", "sites"}


@dataclass(frozen=True)
class Invalidation:
    scope: Scope
    # For "team": a save naming only other fields (update_fields) concerns its owner alone.
    team_fields: frozenset[str] | None = None
    # For "team": a change (instance, created) only its owner sees.
    owner_only: Callable[[Any, bool], bool] | None = None
    # For "team": the ids of the teams whose pages show the row (None entries are skipped).
    teams: Callable[[Any], Iterable[int | None]] | None = None
    # The foreign key naming the reader the row belongs to.
    owner: str = "user"
    # For "none": why no page shows the model.
    reason: str = ""


_rules: dict[type[models.Model], Invalidation] = {}
_memberships: list[type[models.Model]] = []


def register(
    model: type[models.Model],
    *,
    scope: Scope,
    team_fields: Iterable[str] | None = None,
    owner_only: Callable[[Any, bool], bool] | None = None,
    teams: Callable[[Any], Iterable[int | None]] | None = None,
    owner: str = "user",
) -> None:
    """Declare which pages a change to `model` may show on (see the module docstring)."""
    if scope not in {"catalog", "reader", "team"}:
        raise ValueError(f"unknown page cache scope {scope!r}; a model on no page is exempt()")
    if scope != "catalog" and teams is None:
        _check_owner(model, owner)
    fields = frozenset(team_fields) if team_fields is not None else None
    _rules[model] = Invalidation(scope, fields, owner_only, teams, owner)
    _connect()


def exempt(model: type[models.Model], *, reason: str) -> None:
    """Declare that a change to `model` shows on no page the cache keeps, and why."""
    if not reason.strip():
        raise ValueError(f"say why {model.__name__} shows on no cached page")
    _rules[model] = Invalidation("none", reason=reason)
    _connect()


def rule_for(model: type[models.Model]) -> Invalidation | None:
    """How a change to `model` invalidates pages, or None when nobody declared it."""
    if model in _memberships:
        return Invalidation("team", teams=lambda row: [row.team_id])
    return _rules.get(model)


def _check_owner(model: type[models.Model], owner: str) -> None:
    if model is get_user_model():
        return
    try:
        field = model._meta.get_field(owner)
    except Exception as exc:
        raise ValueError(f"{model.__name__} has no owner field {owner!r}") from exc
    if not (field.is_relation and field.related_model is get_user_model()):
        raise ValueError(f"{model.__name__}.{owner} does not name a reader")


def register_memberships(model: type[models.Model]) -> None:
    """Declare the model saying who is in which team: its `team` and `user` foreign keys."""
    _memberships[:] = [model]
    _connect()


def teams_of(user_id: Any) -> list[int] | None:
    """The ids of the teams the reader belongs to, in order; None when no model says so."""
    if not _memberships:
        return None
    # order_by(): the model's ordering (by team name) would join the teams for nothing.
    rows = _memberships[0]._default_manager.filter(user_id=user_id).order_by()
    return sorted(rows.values_list("team_id", flat=True))


def bump_reader_and_team_versions(user_id: Any) -> None:
    """Invalidate one reader's pages and those of every team they belong to, as a change to a
    row of theirs that teammates see does. Call it after writes that send no signals."""
    replace_with_readers_teams([READER_VERSION_KEY.format(user_id)], [user_id], teams_of)


def _team_version_keys(team_ids: Iterable[int | None] | None) -> list[str]:
    if team_ids is None:
        return [TEAM_VERSION_KEY]
    return [TEAMS_VERSION_KEY.format(pk) for pk in dict.fromkeys(team_ids) if pk is not None]


def _connect() -> None:
    # dispatch_uid: connected once however many models register.
    for signal in (post_save, post_delete, m2m_changed):
        signal.connect(_changed, dispatch_uid=f"pagecache-{id(signal)}")


@functools.cache
def _owner_attname(model: type[models.Model], owner: str) -> str | None:
    """The column naming the reader a row belongs to (its `owner` foreign key), or None."""
    User = get_user_model()
    if model is User:
        return "pk"
    for field in model._meta.concrete_fields:
        if field.name == owner and field.is_relation and field.related_model is User:
            return field.attname
    return None


@dataclass(frozen=True)
class Bump:
    """The versions a change replaces: `keys`, and those of every team `owner` belongs to."""

    keys: list[str]
    owner: Any = None


def _schedule(bump: Bump, using: str | None) -> None:
    # After commit: a page rendered before then could otherwise be stored under the new
    # version while still showing the old rows. The owner's teams are looked up then too, in
    # the cache the pages keep them in, rather than in the database inside the transaction.
    if bump.owner is not None:
        transaction.on_commit(
            lambda: replace_with_readers_teams(bump.keys, [bump.owner], teams_of), using=using
        )
    elif bump.keys:
        transaction.on_commit(lambda: replace(*bump.keys), using=using)


def _reader_keys(
    readers: Iterable[Any] | None, team: bool, team_ids: Iterable[int | None] | None = None
) -> list[str]:
    keys = _team_version_keys(team_ids) if team else []
    if readers is None:
        return [*keys, READERS_EPOCH_KEY]
    return [*keys, *(READER_VERSION_KEY.format(pk) for pk in readers)]


def _membership_keys(instance: Any) -> list[str]:
    # The team's pages list its members; the reader's own pages show the team's data or not,
    # and the reader's team ids kept for their pages change.
    return [
        TEAMS_VERSION_KEY.format(instance.team_id),
        READER_VERSION_KEY.format(instance.user_id),
        READER_MEMBERSHIPS_KEY.format(instance.user_id),
    ]


def _team_sees(rule: Invalidation, instance: Any, kwargs: dict) -> bool:
    if rule.scope != "team":
        return False
    if kwargs.get("signal") is post_delete:
        return True
    fields = kwargs.get("update_fields")
    if rule.team_fields is not None and fields is not None and not set(fields) & rule.team_fields:
        return False
    return not (rule.owner_only and rule.owner_only(instance, bool(kwargs.get("created"))))


def _row_keys(sender: type[models.Model], instance: Any, kwargs: dict) -> Bump:
    if sender in _memberships:
        return Bump(_membership_keys(instance))
    rule = _rules.get(sender)
    if rule is None:
        return Bump(_reader_keys(None, True))
    if rule.scope == "none":
        return Bump([])
    if rule.scope == "catalog":
        return Bump([VERSION_KEY])
    attname = _owner_attname(sender, rule.owner)
    owner = getattr(instance, attname, None) if attname else None
    if owner is None:
        if rule.scope == "team" and rule.teams is not None:
            return Bump(_team_version_keys(rule.teams(instance)))
        return Bump(_reader_keys(None, True))
    if not _team_sees(rule, instance, kwargs):
        return Bump(_reader_keys([owner], False))
    if rule.teams is not None:
        return Bump(_reader_keys([owner], True, list(rule.teams(instance))))
    # Every team the owner belongs to, looked up after commit.
    return Bump(_reader_keys([owner], False), owner=owner)


def _relation_keys(sender: type[models.Model], instance: Any, kwargs: dict) -> Bump:
    return Bump(_relation_key_list(sender, instance, kwargs))


def _relation_key_list(sender: type[models.Model], instance: Any, kwargs: dict) -> list[str]:
    rule = _rules.get(sender)
    if rule is not None and rule.scope == "team" and rule.teams is not None:
        # `teams` reads the row the relation hangs from (a session's reading, say).
        team_ids = [pk for pk in rule.teams(instance) if pk is not None]
        if team_ids:
            return _team_version_keys(team_ids)
    User = get_user_model()
    if isinstance(instance, User):  # user.groups, user.user_permissions
        return _reader_keys([instance.pk], False)
    if kwargs.get("model") is User and kwargs.get("pk_set"):  # group.user_set
        return _reader_keys(kwargs["pk_set"], False)
    if rule is not None:
        return {"catalog": [VERSION_KEY], "none": []}.get(rule.scope, _reader_keys(None, True))
    return _reader_keys(None, True)


def _changed(sender: Any, instance: Any = None, **kwargs: Any) -> None:
    meta = getattr(sender, "_meta", None)
    if meta is None or meta.apps is not django_apps:
        # A historical model: a migration writing rows, possibly before the cache table exists
        # (migrate runs before createcachetable). A data migration that changes what readers
        # see calls bump_all_pages() itself.
        return
    if sender not in _rules and meta.app_label in UNSHOWN_APPS:
        return
    if kwargs.get("signal") is m2m_changed:
        if kwargs["action"].startswith("post_"):
            _schedule(_relation_keys(sender, instance, kwargs), kwargs.get("using"))
        return
    _schedule(_row_keys(sender, instance, kwargs), kwargs.get("using"))
