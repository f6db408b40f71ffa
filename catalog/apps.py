from django.apps import AppConfig


class CatalogConfig(AppConfig):
    name = "catalog"
    verbose_name = "Catalog"

    def ready(self) -> None:
        from readinglist import pagecache

        from .related.triggers import connect_signals as connect_related_signals

        # A reader's own rows (when they last saw the change log, their default citation style)
        # show on their own pages alone; every other catalog row shows on anonymous pages, m2m
        # tables (include_auto_created) too.
        readers_own = {self.get_model("ChangeLogSeen"), self.get_model("CitationPreference")}
        for model in self.get_models(include_auto_created=True):
            pagecache.register(model, scope="reader" if model in readers_own else "catalog")
        connect_related_signals()
