from typing import Any

from django.apps import AppConfig


class DiscussionsConfig(AppConfig):
    name = "discussions"
    verbose_name = "Discussions"

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from readinglist import pagecache
        from teams.models import Membership

        # A thread and its replies show on their team's pages only (the source page's
        # discussion, the team page's open questions, a session's agenda).
        pagecache.register(
            self.get_model("Thread"),
            scope="team",
            owner="author",
            teams=lambda thread: [thread.team_id],
        )
        pagecache.register(
            self.get_model("Reply"),
            scope="team",
            owner="author",
            teams=lambda reply: [reply.thread.team_id],
        )
        # A notification changes its recipient's header count on every page of theirs.
        pagecache.register(self.get_model("Notification"), scope="reader", owner="recipient")
        pagecache.exempt(
            self.get_model("NotificationSettings"),
            reason="the mail choice shows only on the profile page and /notifications/settings/, "
            "which the page cache never keeps; the mail runs write it often",
        )
        for signal in (post_save, post_delete):
            signal.connect(
                _teams_changed, sender=Membership, dispatch_uid=f"discussions.{id(signal)}"
            )


def _teams_changed(sender: type, instance: Any, **kwargs: Any) -> None:
    # Joining or leaving a team changes which notifications count for the reader.
    from . import counts

    counts.forget(instance.user_id)
