from django.apps import AppConfig


class CatalogConfig(AppConfig):
    name = "catalog"
    verbose_name = "Catalog"

    def ready(self):
        from django.db.models.signals import post_migrate

        from .caching import connect_signals
        from .related.compute import connect_signals as connect_related_signals
        from .site_record import sync_site_record

        connect_signals()
        connect_related_signals()
        post_migrate.connect(sync_site_record, dispatch_uid="catalog.sync_site_record")
