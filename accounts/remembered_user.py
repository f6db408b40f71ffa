"""The signed-in reader, remembered in the session cache between requests.

Django reads the user's row on every signed-in request. Where sessions live in Redis (the
`sessions` cache alias, REDIS_URL), the row is remembered there beside the session for
USER_TTL seconds: a Redis read costs a fraction of a database round trip and the ORM's work,
and every signed-in request, write or page, makes one. Without Redis the session cache is a
database table, and reading a copy there would cost what reading the row does, so nothing is
remembered.

The copy is only ever a shortcut to what django.contrib.auth.get_user() decides:
- it is served only when the session names the same user and backend and its hash matches
  the copy's (a password change signs out other sessions as before), and the user is active;
- every save or deletion of a user forgets it, at once and again after the commit (a request
  that read the old row while the change was being committed could put it back);
- a change that bypasses save() (a queryset update) shows within USER_TTL seconds, as does one
  made while Redis was unreachable (the cache fails open: the delete is lost).
"""

from typing import Any

from django.conf import settings
from django.contrib import auth
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.core.cache import BaseCache, caches
from django.db import transaction
from django.http import HttpRequest
from django.utils.crypto import constant_time_compare
from django.utils.functional import SimpleLazyObject

from .models import User

USER_KEY = "signed-in-user:{}"
USER_TTL = 60
# The alias Django keeps sessions in when they have a cache of their own (Redis).
SESSIONS = "sessions"


def _cache() -> BaseCache | None:
    return caches[SESSIONS] if SESSIONS in settings.CACHES else None


def _remembered(request: HttpRequest, cache: BaseCache) -> User | None:
    """The remembered copy of the session's user, when the session vouches for it."""
    session = request.session
    try:
        user_id = str(session[auth.SESSION_KEY])
        backend = session[auth.BACKEND_SESSION_KEY]
        session_hash = session[auth.HASH_SESSION_KEY]
    except KeyError:
        return None
    if backend not in settings.AUTHENTICATION_BACKENDS:
        return None
    user = cache.get(USER_KEY.format(user_id))
    if not isinstance(user, User) or str(user.pk) != user_id or not user.is_active:
        return None
    if not constant_time_compare(session_hash, user.get_session_auth_hash()):
        return None  # get_user() decides: a fallback secret, or a flushed session
    user.backend = backend
    return user


def signed_in_user(request: HttpRequest) -> Any:
    """request.user: the remembered copy when it may be used, else Django's get_user(),
    whose answer is then remembered."""
    if not hasattr(request, "_cached_user"):
        cache = _cache()
        remembered = _remembered(request, cache) if cache is not None else None
        user = remembered or auth.get_user(request)
        if remembered is None and cache is not None and isinstance(user, User) and user.is_active:
            cache.set(USER_KEY.format(user.pk), user, USER_TTL)
        request._cached_user = user  # type: ignore[attr-defined]
    return request._cached_user  # type: ignore[attr-defined]


class RememberedUserMiddleware(AuthenticationMiddleware):
    """Django's AuthenticationMiddleware, with request.user from signed_in_user()."""

    def process_request(self, request: HttpRequest) -> None:
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: signed_in_user(request))  # type: ignore[assignment]


def forget(user_id: Any) -> None:
    if (cache := _cache()) is not None:
        cache.delete(USER_KEY.format(user_id))


def forget_changed_user(sender: type[User], instance: User, **kwargs: Any) -> None:
    """post_save and post_delete of a user: drop the copy now and once the change commits."""
    user_id = instance.pk
    forget(user_id)
    transaction.on_commit(lambda: forget(user_id), using=kwargs.get("using"))
