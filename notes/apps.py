from django.apps import AppConfig


class NotesConfig(AppConfig):
    name = "notes"
    verbose_name = "Notes"

    def ready(self) -> None:
        from readinglist import pagecache

        from . import exports

        # Team notes show on teammates' pages. Only its author sees a new private note; an
        # edited private note may have been a team note a moment ago, so edits reach the team.
        pagecache.register(
            self.get_model("Note"),
            scope="team",
            owner_only=lambda note, created: created and note.visibility == "private",
        )

        exports.contribute_to_library_exports()
