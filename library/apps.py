from django.apps import AppConfig


class LibraryConfig(AppConfig):
    name = "library"
    verbose_name = "Readers' libraries"

    def ready(self) -> None:
        from catalog.related.hooks import register_co_reading

        from . import pending  # noqa: F401  (connects the login receiver)
        from .recommendations import finished_next_counts

        # Related sources' "readers who finished this read it next", without catalog importing us.
        register_co_reading(finished_next_counts)
