from django.apps import AppConfig


class CatalogConfig(AppConfig):
    name = "catalog"
    verbose_name = "Catalog"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate
        from django_tasks_db.models import DBTaskResult

        from readinglist import pagecache
        from readinglist.cache_tables import create_cache_tables

        from .related.triggers import connect_signals as connect_related_signals
        from .site_record import sync_site_record

        # Every catalog row shows on anonymous pages; m2m tables (include_auto_created) too.
        for model in self.get_models(include_auto_created=True):
            pagecache.register(model, scope="catalog")
        pagecache.exempt(
            DBTaskResult,
            reason="background tasks' bookkeeping shows on no page; what a task writes goes "
            "through registered models",
        )
        connect_related_signals()
        post_migrate.connect(sync_site_record, dispatch_uid="catalog.sync_site_record")
        post_migrate.connect(create_cache_tables, dispatch_uid="readinglist.create_cache_tables")
