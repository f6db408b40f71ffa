from django.apps import AppConfig


class RateLimitsConfig(AppConfig):
    name = "readinglist.ratelimits"
    label = "ratelimits"
    verbose_name = "Rate limits"

    def ready(self) -> None:
        from readinglist import pagecache

        pagecache.exempt(
            self.get_model("Window"),
            reason="counting a reader's requests changes nothing any page shows",
        )
