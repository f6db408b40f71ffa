from django.apps import AppConfig


class LibraryConfig(AppConfig):
    name = "library"
    verbose_name = "Readers' libraries"

    def ready(self) -> None:
        from catalog.related.hooks import register_co_reading
        from readinglist import pagecache

        from . import pending  # noqa: F401  (connects the login receiver)
        from .models import DigestLog, DigestSettings, Dismissal, Follow
        from .recommendations import finished_next_counts

        # Bookmarks and progress show on their reader's pages and in teammates' activity.
        for model in self.get_models():
            pagecache.register(model, scope="team")
        # What a reader follows and their digest setting show on their own pages only; the
        # record of digests sent shows on none.
        pagecache.register(Follow, scope="reader")
        pagecache.register(DigestSettings, scope="reader")
        # "Not for me" changes the reader's own For you, source pages and library only.
        pagecache.register(Dismissal, scope="reader")
        pagecache.exempt(DigestLog, reason="the record of digests sent shows on no page")
        # Related sources' "readers who finished this read it next", without catalog importing us.
        register_co_reading(finished_next_counts)
