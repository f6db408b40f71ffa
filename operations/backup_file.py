"""The backup file: the rows, and the schema they were written at.

A backup is one JSON document, compressed by its name's suffix (.gz, .bz2, .xz, or none):

    {"format": "readinglist-backup", "format_version": 1, "version": "0.2.0",
     "created": "2026-12-07T12:00:00Z",
     "migrations": {"catalog": ["0001_initial", …], "teams": […], …},
     "objects": [ …Django's serialized rows, natural foreign keys… ]}

`migrations` holds every applied migration of every app, so a later release can bring an empty
database to exactly that schema before it loads the rows, then migrate them forward. Backups
made before the stamp are a bare list of rows; they are read as `migrations=None`.
"""

import bz2
import gzip
import json
import lzma
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

FORMAT = "readinglist-backup"
FORMAT_VERSION = 1

_OPENERS: dict[str, Callable[..., IO[Any]]] = {".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open}


class UnreadableBackup(Exception):
    """The file is not a backup this code can read; the message says why, for a person."""


@dataclass(frozen=True)
class BackupContents:
    objects: list[dict[str, Any]]
    # app label -> applied migration names; None for a backup made before backups had a stamp.
    migrations: dict[str, list[str]] | None
    version: str | None


def open_backup(path: str | os.PathLike[str], mode: str) -> IO[Any]:
    opener = _OPENERS.get(Path(path).suffix, open)
    return opener(path, mode + "t", encoding="utf-8")


def write_backup(
    target: str | os.PathLike[str],
    *,
    rows_file: str | os.PathLike[str],
    migrations: dict[str, list[str]],
    version: str,
    created: str,
) -> None:
    """Write the stamp, then the rows that `dumpdata` left in `rows_file`, streamed as they are."""
    header = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "version": version,
        "created": created,
        "migrations": migrations,
    }
    with open_backup(target, "w") as out, open(rows_file, encoding="utf-8") as rows:
        out.write(json.dumps(header, indent=1)[:-2] + ',\n "objects": ')
        shutil.copyfileobj(rows, out)
        out.write("\n}\n")


def read_backup(path: str | os.PathLike[str]) -> BackupContents:
    try:
        with open_backup(path, "r") as stream:
            document = json.load(stream)
    except (OSError, EOFError, lzma.LZMAError, UnicodeDecodeError) as error:
        raise UnreadableBackup(f"{path} cannot be read as a backup: {error}.") from error
    except json.JSONDecodeError as error:
        raise UnreadableBackup(
            f"{path} is not a complete backup (its JSON breaks at line {error.lineno}, "
            f"column {error.colno}: {error.msg}). Nothing was changed."
        ) from error
    if isinstance(document, list):
        return BackupContents(objects=_rows(document, path), migrations=None, version=None)
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise UnreadableBackup(f"{path} is not a readinglist backup. Nothing was changed.")
    if document.get("format_version", 0) > FORMAT_VERSION:
        raise UnreadableBackup(
            f"{path} was written by a newer release ({document.get('version', 'unknown')}) in a "
            "format this one cannot read. Restore it with that release or a newer one."
        )
    migrations = document.get("migrations")
    if not isinstance(migrations, dict) or not all(
        isinstance(names, list) for names in migrations.values()
    ):
        raise UnreadableBackup(f"{path} has no valid 'migrations' stamp. Nothing was changed.")
    return BackupContents(
        objects=_rows(document.get("objects"), path),
        migrations={str(app): [str(name) for name in names] for app, names in migrations.items()},
        version=document.get("version"),
    )


def _rows(rows: object, path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    if not isinstance(rows, list) or not all(
        isinstance(row, dict) and isinstance(row.get("model"), str) and "fields" in row
        for row in rows
    ):
        raise UnreadableBackup(f"{path} holds rows this code cannot read. Nothing was changed.")
    return rows
