from django.apps import AppConfig


class LibraryConfig(AppConfig):
    name = "library"
    verbose_name = "Readers' libraries"

    def ready(self) -> None:
        from readinglist import pagecache

        from . import pending  # noqa: F401  (connects the login receiver)

        # Bookmarks and progress show on their reader's pages and in teammates' activity.
        for model in self.get_models():
            pagecache.register(model, scope="team")
