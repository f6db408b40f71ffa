from django.apps import AppConfig


class NotesConfig(AppConfig):
    name = "notes"
    verbose_name = "Notes"

    def ready(self) -> None:
        from . import exports

        exports.contribute_to_library_exports()
