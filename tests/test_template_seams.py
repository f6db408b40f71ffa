"""Templates follow the same one-way rule as imports, plus the seams docs/architecture.md names.

A template folder may load the tag libraries and name the URLs of its own app, of the apps its
app may import (tests/test_layers.py), of Django and allauth, and of the seams below, each with
the reason the architecture page gives. Anything else is an arrow the Python never draws.

The site's pages (templates/pages/) combine every app, as their row in tests/test_layers.py
says, so they need no seam; catalog's templates, like its Python, use no other app at all.
"""

import re
from pathlib import Path

import pytest

from .test_layers import ALLOWED, EVERY_APP_MAY_USE

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"

# Which app owns each tag library and URL namespace.
LIBRARIES = {
    "citations": "catalog",
    "search_page": "pages",
    "welcome": "pages",
    "following": "library",
    "reading": "library",
    "notes": "notes",
    "teams": "teams",
    "discussions": "discussions",
    "proposal_admin": "proposals",
    "paths_tags": "paths",
    "path_follows": "paths",
    "path_forks": "paths",
    "teamsources": "teamsources",
}
NAMESPACES = {
    "catalog": "catalog",
    "pages": "pages",
    "library": "library",
    "save": "library",
    "notes": "notes",
    "teams": "teams",
    "proposals": "proposals",
    "paths": "paths",
    "discussions": "discussions",
    "teamsources": "teamsources",
}
# Django's and allauth's own: any template may use them.
SHARED_LIBRARIES = {
    "static",
    "tz",
    "l10n",
    "i18n",
    "humanize",
    "cache",
    "allauth",
    "socialaccount",
    "django_htmx",
    "account",
    # The project's own (readinglist/templatetags/, named in settings.TEMPLATES): links reversed
    # once per process, for the layout and every app's templates.
    "site_urls",
}
SHARED_NAMESPACES = {"admin"}
# The site's pages (home, search, a source, topic, tier or list) are its public addresses: any
# page may link to them, as the layout's menu does, and a link runs none of their code. Only
# catalog, which knows no other app, names none of them (checked below).
PUBLIC_NAMESPACES = {"pages"}

# The seams: a page of one app renders another app's state through that app's inclusion tags,
# so the Python stays one-way (docs/architecture.md, "Template seams").
SEAMS: dict[str, set[str]] = {
    # A team page shows members' progress, the notes shared with the team, its open questions
    # and the paths it follows, and its own sources with the form that adds one.
    "teams": {"library", "notes", "discussions", "paths", "teamsources"},
    # The profile page shows the reader's choice of notification email, a form the discussions
    # app renders and saves.
    "accounts": {"discussions"},
    # My library and For you show the paths the reader follows, each one line of progress, and
    # "Add to path…" after each source card (a card itself never loads paths: its page adds it);
    # the bookmarklet's save page offers a note or a team thread on the passage it brought, and
    # to add a page the catalog lacks to one of the reader's teams as its own source.
    "library": {"paths", "notes", "discussions", "teamsources"},
    # Sign-in pages link to the reader's library once signed in.
    "allauth": {"library"},
    # The proposal form offers the bookmarklet, which lives with the library's save page.
    "proposals": {"library"},
}
# Template folders that are not an app's: the site layout composes every app.
FOLDER_APP = {"allauth": "allauth", "socialaccount": "allauth", "admin": None, "includes": None}

_LOAD = re.compile(r"{%\s*load\s+([^%]+?)\s*%}")
_URL = re.compile(r"{%\s*(?:url|fixed_url|slug_url)\s+['\"]([\w-]+):")


def folders() -> list[Path]:
    """Every template folder that belongs to an app (the layout and includes compose them all)."""
    return sorted(
        path
        for path in TEMPLATES.iterdir()
        if path.is_dir() and FOLDER_APP.get(path.name, path.name) is not None
    )


def uses(folder: Path) -> tuple[set[str], set[str]]:
    libraries: set[str] = set()
    namespaces: set[str] = set()
    for path in folder.rglob("*"):
        if path.suffix in {".html", ".txt", ".ics"}:
            text = path.read_text()
            for match in _LOAD.findall(text):
                libraries.update(word for word in match.split() if word != "from")
            namespaces.update(_URL.findall(text))
    return libraries, namespaces


def allowed_apps(app: str) -> set[str]:
    return {app, *ALLOWED.get(app, set()), *EVERY_APP_MAY_USE, *SEAMS.get(app, set())}


@pytest.mark.parametrize("folder", folders(), ids=lambda folder: folder.name)
def test_templates_use_only_the_apps_their_app_may(folder: Path) -> None:
    app = FOLDER_APP.get(folder.name, folder.name)
    assert app is not None  # folders() leaves out the folders of no app
    libraries, namespaces = uses(folder)
    allowed = allowed_apps(app)

    wrong_libraries = {
        name for name in libraries - SHARED_LIBRARIES if LIBRARIES.get(name, "?") not in allowed
    }
    linkable = SHARED_NAMESPACES | (PUBLIC_NAMESPACES if app != "catalog" else set())
    wrong_namespaces = {
        name for name in namespaces - linkable if NAMESPACES.get(name, "?") not in allowed
    }
    assert (wrong_libraries, wrong_namespaces) == (set(), set())


def test_catalog_templates_use_catalog_and_django_alone() -> None:
    libraries, namespaces = uses(TEMPLATES / "catalog")
    assert {LIBRARIES.get(name, "?") for name in libraries - SHARED_LIBRARIES} <= {"catalog"}
    assert {NAMESPACES.get(name, "?") for name in namespaces - SHARED_NAMESPACES} <= {"catalog"}
    assert "catalog" not in SEAMS


def test_a_source_card_shows_no_other_apps_actions() -> None:
    """The card many pages share uses the library and catalog alone; another app's action (Add
    to path…) goes after it, put there by the page that lists the cards."""
    card = (TEMPLATES / "library" / "includes" / "source_card.html").read_text()
    libraries = {word for match in _LOAD.findall(card) for word in match.split()}
    used = {LIBRARIES.get(name, "?") for name in libraries - SHARED_LIBRARIES}
    assert used <= {"library", "catalog"}
    linked = {NAMESPACES.get(name, "?") for name in set(_URL.findall(card)) - PUBLIC_NAMESPACES}
    assert linked <= {"library", "catalog"}
    for page in ("pages/home.html", "pages/source_detail.html", "library/for_you.html"):
        assert "{% add_to_path_button" in (TEMPLATES / page).read_text(), page


def test_the_rule_sees_a_template_reaching_up(tmp_path: Path) -> None:
    folder = tmp_path / "teams"
    folder.mkdir()
    (folder / "page.html").write_text(
        "{% load reading proposal_admin %}{% url 'proposals:propose' %}"
    )
    libraries, namespaces = uses(folder)
    allowed = allowed_apps("teams")
    assert {LIBRARIES[name] for name in libraries} - allowed == {"proposals"}
    assert {NAMESPACES[name] for name in namespaces} - allowed == {"proposals"}
