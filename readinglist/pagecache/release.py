"""The code a page was rendered by, as part of every page key.

Versions change when data changes, not when code does: without this, a deploy would go on
serving pages that the previous release's templates and views rendered until they expire. The
digest covers the project's own apps (their Python and templates) and the template folders in
settings, read once per process; during a rolling deploy old and new processes each keep to
pages of their own release.
"""

import functools
import hashlib
from pathlib import Path
from typing import cast

from django.apps import apps
from django.conf import settings

CODE_SUFFIXES = {".py", ".html", ".txt", ".xml"}


def _project_folders() -> list[Path]:
    base = Path(settings.BASE_DIR).resolve()
    # The project's own apps: installed packages (a virtualenv may sit inside the project)
    # change with the image, not with a deploy of this code alone.
    folders = [
        Path(config.path).resolve()
        for config in apps.get_app_configs()
        if Path(config.path).resolve().is_relative_to(base)
        and "site-packages" not in Path(config.path).parts
    ]
    for engine in settings.TEMPLATES:
        template_dirs = cast(list[str | Path], engine.get("DIRS", []))
        folders += [Path(folder).resolve() for folder in template_dirs]
    folders.append(Path(__file__).resolve().parents[1])
    return sorted(set(folders))


@functools.cache
def release() -> str:
    """A digest of the code that renders pages, computed once per process."""
    digest = hashlib.sha256()
    for folder in _project_folders():
        for path in sorted(folder.rglob("*")):
            if path.suffix in CODE_SUFFIXES and "migrations" not in path.parts and path.is_file():
                digest.update(str(path.relative_to(folder.parent)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
