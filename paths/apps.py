from django.apps import AppConfig


class PathsConfig(AppConfig):
    name = "paths"
    verbose_name = "Paths"

    def ready(self) -> None:
        from readinglist import pagecache

        # A public path shows on pages every visitor sees (/lists/, the source pages' "on these
        # paths"), a team's on its members' pages, a reader's on their own: a change to any path
        # row replaces every page rather than risk one stale page. Paths change far less often
        # than pages are read.
        for model in self.get_models(include_auto_created=True):
            pagecache.register(model, scope="catalog")
