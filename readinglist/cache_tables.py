"""Create the database cache tables whenever the schema is migrated.

Production keeps its caches (sessions, rate limits, pages) in database tables unless REDIS_URL
is set, and a missing table answers every login with the 503 page. `createcachetable` was a
second command that every recipe had to remember; running it after `migrate` makes one command
enough. It creates only the tables that are missing, so running it again costs a query each.
"""

from django.core.management import call_command
from django.db import DEFAULT_DB_ALIAS


def create_cache_tables(sender, using: str = DEFAULT_DB_ALIAS, **kwargs) -> None:
    # post_migrate fires once per app: act on one of them, so a migrate does this once.
    if sender.label != "catalog":
        return
    call_command("createcachetable", database=using, verbosity=0)
