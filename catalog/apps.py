from django.apps import AppConfig


class CatalogConfig(AppConfig):
    name = "catalog"
    verbose_name = "Catalog"

    def ready(self) -> None:
        from readinglist import pagecache

        from .models import CitationPreference
        from .related.triggers import connect_signals as connect_related_signals

        # Every catalog row shows on anonymous pages; m2m tables (include_auto_created) too.
        for model in self.get_models(include_auto_created=True):
            if model is not CitationPreference:
                pagecache.register(model, scope="catalog")
        # A reader's default style shows on their own source pages only.
        pagecache.register(CitationPreference, scope="reader")
        connect_related_signals()
