from typing import TYPE_CHECKING, Any

from django.apps import AppConfig

if TYPE_CHECKING:
    from teams.models import Membership


class NotesConfig(AppConfig):
    name = "notes"
    verbose_name = "Notes"

    def ready(self) -> None:
        from django.db.models.signals import post_delete

        from readinglist import pagecache
        from teams.models import Membership

        from . import exports

        # A team note shows on its team's pages, and on no other team's. Only its author sees a
        # new private note; an edited one may have been shared a moment ago, so an edit reaches
        # the team it was loaded with as well.
        pagecache.register(
            self.get_model("Note"),
            scope="team",
            owner_only=lambda note, created: created and note.visibility == "private",
            teams=lambda note: [note.team_id, getattr(note, "loaded_team_id", None)],
        )
        post_delete.connect(
            _keep_former_members_notes, sender=Membership, dispatch_uid="notes.former_member"
        )
        exports.contribute_to_library_exports()


def _keep_former_members_notes(
    sender: type["Membership"], instance: "Membership", **kwargs: Any
) -> None:
    from .services import unshare_notes_of_former_member

    unshare_notes_of_former_member(team_id=instance.team_id, user_id=instance.user_id)
