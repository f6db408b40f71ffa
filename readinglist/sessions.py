"""Sessions in the cache with the database behind them, surviving a cache outage.

Django's cached_db store already falls back to the database when a cache read fails, but not
when it refills the cache after that read, nor when it checks or deletes a key: with Redis down,
each signed-in request would answer 500. Here those calls fail open too: the session is read
from and written to the database alone, and failures are logged at most once a minute.
"""

from django.contrib.sessions.backends import cached_db

from .pagecache.failsafe import CACHE_ERRORS, warn


class SessionStore(cached_db.SessionStore):
    def load(self):
        try:
            data = self._cache.get(self.cache_key)
        except CACHE_ERRORS as error:
            warn("session read", error)
            data = None
        if data is not None:
            return data
        stored = self._get_session_from_db()
        if not stored:
            return {}
        data = self.decode(stored.session_data)
        try:
            self._cache.set(self.cache_key, data, self.get_expiry_age(expiry=stored.expire_date))
        except CACHE_ERRORS as error:
            warn("session write", error)
        return data

    def exists(self, session_key):
        try:
            if session_key and (self.cache_key_prefix + session_key) in self._cache:
                return True
        except CACHE_ERRORS as error:
            warn("session lookup", error)
        return cached_db.DBStore.exists(self, session_key)

    def save(self, must_create=False):
        cached_db.DBStore.save(self, must_create)
        try:
            self._cache.set(self.cache_key, self._session, self.get_expiry_age())
        except CACHE_ERRORS as error:
            warn("session write", error)

    def delete(self, session_key=None):
        try:
            # The database row goes first, then the cache key.
            super().delete(session_key)
        except CACHE_ERRORS as error:
            warn("session delete", error)
