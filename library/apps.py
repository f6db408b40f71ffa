from django.apps import AppConfig


class LibraryConfig(AppConfig):
    name = "library"
    verbose_name = "Readers' libraries"

    def ready(self) -> None:
        from . import pending  # noqa: F401  (connects the login receiver)
