from django.apps import AppConfig


class CatalogConfig(AppConfig):
    name = "catalog"
    verbose_name = "Catalog"

    def ready(self) -> None:
        from readinglist import pagecache

        from .related.triggers import connect_signals as connect_related_signals

        # Every catalog row shows on anonymous pages; m2m tables (include_auto_created) too.
        for model in self.get_models(include_auto_created=True):
            pagecache.register(model, scope="catalog")
        # When a reader last saw the change log shows on their own home page alone.
        pagecache.register(self.get_model("ChangeLogSeen"), scope="reader")
        connect_related_signals()
