from django.apps import AppConfig


class SearchConfig(AppConfig):
    name = "search"
    verbose_name = "Search"

    def ready(self) -> None:
        from readinglist import pagecache

        from .index_updates import connect_signals
        from .models import CatalogGap, LatentIndex, SearchEntry

        pagecache.exempt(
            SearchEntry,
            reason="written only by the database's triggers when sources, topics and lists "
            "change, which are registered with the catalog's scope",
        )
        pagecache.exempt(
            CatalogGap,
            reason="the searches the catalog had no good answer for show only in the admin",
        )
        pagecache.exempt(
            LatentIndex,
            reason="the stored latent index changes how search ranks, after catalog changes "
            "that already replaced the catalog's pages",
        )
        connect_signals()
