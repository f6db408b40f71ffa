from django.apps import AppConfig


class SearchConfig(AppConfig):
    name = "search"
    verbose_name = "Search"

    def ready(self) -> None:
        from readinglist import pagecache

        from .models import SearchEntry

        pagecache.exempt(
            SearchEntry,
            reason="written only by the database's triggers when sources, topics and lists "
            "change, which are registered with the catalog's scope",
        )
