"""The .env file: .env.example works copied unchanged, lists every setting, and the tests
never read a developer's .env."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from readinglist.local_server import BASE_DIR, production_env
from tests.production.image_context import MANAGE_IN_TREE, assemble
from tests.production.test_security import run_python, settings_value


def variables_read() -> set[str]:
    """Every variable the settings (with their parts) and gunicorn.conf.py read."""
    parts = sorted((BASE_DIR / "readinglist" / "settings_parts").glob("*.py"))
    sources = [BASE_DIR / "readinglist" / "settings.py", *parts]
    text = "\n".join(path.read_text() for path in [*sources, BASE_DIR / "gunicorn.conf.py"])
    pattern = r"(?:env(?:\.\w+)?|_int|environ\.get|setdefault)\(\s*[\"']([A-Z][A-Z0-9_]+)[\"']"
    return set(re.findall(pattern, text))


def test_env_example_lists_every_setting() -> None:
    listed = set(
        re.findall(
            r"^(?:# )?(?:production[^:]*: )?([A-Z][A-Z0-9_]+)=",
            (BASE_DIR / ".env.example").read_text(),
            re.M,
        )
    )
    read = variables_read()
    assert {"DIGEST_SEND_HOUR", "BIND", "GUNICORN_TIMEOUT", "SITE_SCHEME"} <= read
    # ENV_FILE says which file to read, so it is set in the environment, never in the file.
    assert read - listed == {"ENV_FILE"}


def test_env_example_copied_unchanged_runs_the_site_locally(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    shutil.copy(BASE_DIR / ".env.example", env_file)
    # The file's values apply where the environment is silent, as on a newcomer's machine (CI
    # names its PostgreSQL database in the environment).
    environment = {"ENV_FILE": str(env_file), "SECRET_KEY": "", "DATABASE_URL": None}
    values = settings_value(
        "{'debug': settings.DEBUG, 'database': settings.DATABASES['default']['ENGINE'], "
        "'mailer': settings.MAILERS['default']['BACKEND'], 'hosts': settings.ALLOWED_HOSTS, "
        "'scheme': settings.SITE_SCHEME, 'cache': settings.CACHES['default']['BACKEND']}",
        **environment,
    )
    assert values == {
        "debug": True,
        "database": "django.db.backends.sqlite3",
        "mailer": "readinglist.mail.ConsoleEmailBackend",
        "hosts": ["127.0.0.1", "localhost"],
        "scheme": "http",
        "cache": "django.core.cache.backends.locmem.LocMemCache",
    }
    result = run_python(["manage.py", "check"], **environment)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("env_file", "site_name"), [(None, "From the .env file"), ("", "readinglist")]
)
def test_an_empty_env_file_setting_reads_no_dotenv(
    tmp_path: Path, env_file: str | None, site_name: str
) -> None:
    assemble(BASE_DIR, tmp_path)
    (tmp_path / ".env").write_text("SITE_NAME=From the .env file\n")
    env = production_env(DEBUG="true")
    env.pop("ENV_FILE", None)
    env.pop("SITE_NAME", None)
    if env_file is not None:
        env["ENV_FILE"] = env_file
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            MANAGE_IN_TREE,
            "shell",
            "-c",
            "from django.conf import settings; print(settings.SITE_NAME)",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == site_name


def test_the_test_run_reads_no_dotenv() -> None:
    # pyproject's pytest env: inherited by every process the tests start.
    assert os.environ["ENV_FILE"] == ""
