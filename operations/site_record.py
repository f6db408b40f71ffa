"""Keep the sites framework's record equal to SITE_DOMAIN and SITE_NAME.

django.contrib.sites creates "example.com" on the first migrate and never looks again, and both
allauth's emails and the proposal decisions build their links from that record. Rewriting it
after every migrate makes the environment the one place the address is set.
"""

from typing import Any

from django.apps import AppConfig
from django.apps import apps as global_apps
from django.apps.registry import Apps
from django.conf import settings
from django.contrib.sites.models import SITE_CACHE
from django.db import DEFAULT_DB_ALIAS


def sync_site_record(
    sender: AppConfig, using: str = DEFAULT_DB_ALIAS, apps: Apps = global_apps, **kwargs: Any
) -> None:
    # post_migrate fires once per app; the sites app's own handler (which creates the row)
    # is connected first, so this runs right after it. `flush` sends it too, without `apps`.
    if sender.label != "sites":
        return
    try:
        site_model = apps.get_model("sites", "Site")
    except LookupError:  # migrating backwards past the sites app's first migration
        return
    site_model.objects.using(using).update_or_create(
        pk=settings.SITE_ID,
        defaults={"domain": settings.SITE_DOMAIN, "name": settings.SITE_NAME},
    )
    SITE_CACHE.clear()
