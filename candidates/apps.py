from django.apps import AppConfig


class CandidatesConfig(AppConfig):
    name = "candidates"
    verbose_name = "Curator's inbox"

    def ready(self) -> None:
        from readinglist import pagecache

        from .signals import connect_signals

        connect_signals()
        # Candidates, releases and feed states are seen in the admin only, so a collection run
        # keeps every cached page.
        for name in ("Candidate", "UpstreamRelease", "FeedState", "CandidateAlert"):
            pagecache.exempt(
                self.get_model(name),
                reason="the curator's inbox shows in the admin only, which is never cached",
            )
