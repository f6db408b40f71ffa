from django.apps import AppConfig


class PagesConfig(AppConfig):
    """The public pages (home, source, topic, tier, list, search results) and the sitemaps."""

    name = "pages"
    verbose_name = "Site pages"
