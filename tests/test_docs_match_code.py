"""Claims docs/architecture.md makes that the code can be held to."""

import re
from pathlib import Path

from tests.wiring_listing import PACKAGES

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURE = (ROOT / "docs" / "architecture.md").read_text()
IGNORE = re.compile(r"#\s*type:\s*ignore(\[[\w\-, ]+\])?(.*)$")


def _section(title: str) -> str:
    start = ARCHITECTURE.index(title)
    return ARCHITECTURE[start : ARCHITECTURE.index("\n#", start + len(title))]


def test_what_each_part_holds_names_every_app_on_disk() -> None:
    apps_on_disk = {p.parent.name for p in ROOT.glob("*/apps.py") if p.parent.name != "tests"}
    named = set(re.findall(r"^\| `(\w+)/` \|", _section("## What each part holds"), re.M))
    assert apps_on_disk - named == set(), "add the app's row to docs/architecture.md"
    assert named - apps_on_disk <= {"readinglist", "static", "tests"}


def test_every_type_ignore_names_its_code_and_says_why() -> None:
    unexplained = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            lines = path.read_text().splitlines()
            for number, line in enumerate(lines):
                match = IGNORE.search(line)
                if match is None:
                    continue
                code, after = match.groups()
                # On its line, or in a comment just above (one comment may explain a few).
                above = lines[max(0, number - 4) : number]
                said = after.strip().startswith("#") or any(
                    line.strip().startswith("#") for line in above
                )
                if not (code and said):
                    unexplained.append(f"{path.relative_to(ROOT)}:{number + 1}")
    assert unexplained == []
