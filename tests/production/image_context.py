"""The Docker image's file tree, assembled without Docker: the build context less what
.dockerignore excludes, copied where the Dockerfile's own COPY lines put it."""

import json
import re
import shlex
import shutil
from pathlib import Path


def dockerfile_instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined and comments dropped."""
    joined = re.sub(r"\\\n(?:[ \t]*#[^\n]*\n)*", " ", text)
    instructions = []
    for line in joined.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            instructions.append((word.upper(), rest.strip()))
    return instructions


def build_stage_copies(text: str) -> list[tuple[list[str], str]]:
    """(sources, destination) of each COPY from the build context, in the first stage.
    Copies --from another stage move files already in the image, so they add nothing."""
    copies: list[tuple[list[str], str]] = []
    stages = 0
    for instruction, arguments in dockerfile_instructions(text):
        if instruction == "FROM":
            stages += 1
            if stages > 1:
                break
        elif instruction == "COPY":
            flags = [word for word in shlex.split(arguments) if word.startswith("--")]
            if any(flag.startswith("--from") for flag in flags):
                continue
            rest = " ".join(w for w in shlex.split(arguments, posix=False) if w not in flags)
            # COPY ["a b", "dest"], the form for names with spaces, is a JSON array.
            paths = json.loads(rest) if rest.startswith("[") else shlex.split(rest)
            copies.append((paths[:-1], paths[-1]))
    return copies


def _pattern_regex(pattern: str) -> re.Pattern[str]:
    # Docker's rules: relative to the context root, `*` stays within one folder, `**` crosses
    # any number of them.
    pattern = pattern.strip().lstrip("/").removeprefix("./").rstrip("/")
    regex = ""
    index = 0
    while index < len(pattern):
        if pattern.startswith("**/", index):
            regex, index = regex + "(?:.*/)?", index + 3
        elif pattern.startswith("**", index):
            regex, index = regex + ".*", index + 2
        elif pattern[index] == "*":
            regex, index = regex + "[^/]*", index + 1
        elif pattern[index] == "?":
            regex, index = regex + "[^/]", index + 1
        else:
            regex, index = regex + re.escape(pattern[index]), index + 1
    return re.compile(regex + r"\Z")


class DockerIgnore:
    def __init__(self, text: str) -> None:
        lines = [raw.strip() for raw in text.splitlines()]
        patterns = [line for line in lines if line and not line.startswith("#")]
        self.rules = [(p.startswith("!"), _pattern_regex(p.removeprefix("!"))) for p in patterns]
        self.exceptions = [p.removeprefix("!").lstrip("/") for p in patterns if p.startswith("!")]

    def excludes(self, relative: str) -> bool:
        """A path is left out when the last rule matching it, or a folder it is in, excludes."""
        parts = relative.split("/")
        prefixes = ["/".join(parts[: end + 1]) for end in range(len(parts))]
        excluded = False
        for negated, regex in self.rules:
            if any(regex.match(prefix) for prefix in prefixes):
                excluded = not negated
        return excluded

    def prunes(self, folder: str) -> bool:
        """Nothing under an excluded folder is sent unless an exception names a path in it."""
        return self.excludes(folder) and not any(
            exception.startswith(folder + "/") or "*" in exception for exception in self.exceptions
        )


def context_files(root: Path, ignore: DockerIgnore) -> list[str]:
    """Every file Docker would send as the build context, relative to `root`."""
    files: list[str] = []
    pending = [root]
    while pending:
        folder = pending.pop()
        for path in folder.iterdir():
            relative = path.relative_to(root).as_posix()
            if path.is_dir() and not path.is_symlink():
                if not ignore.prunes(relative):
                    pending.append(path)
            elif path.is_file() and not ignore.excludes(relative):
                files.append(relative)
    return sorted(files)


def assemble(root: Path, target: Path, dockerfile: str | None = None) -> list[str]:
    """Copy into `target` (the image's WORKDIR) what the build stage's COPY lines copy, from
    root's Dockerfile or the text given; returns the files copied."""
    ignore = DockerIgnore((root / ".dockerignore").read_text())
    available = context_files(root, ignore)
    copied = []
    text = (root / "Dockerfile").read_text() if dockerfile is None else dockerfile
    for sources, destination in build_stage_copies(text):
        base = target / destination.removeprefix("./").removeprefix(".")
        for source in (s.removeprefix("./").rstrip("/") or "." for s in sources):
            for relative in available:
                if source == ".":
                    inside = relative
                elif relative == source:
                    inside = Path(relative).name
                elif relative.startswith(source + "/"):
                    inside = relative.removeprefix(source + "/")
                else:
                    continue
                (base / inside).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(root / relative, base / inside)
                copied.append(relative)
    return copied


# Runs manage.py in the assembled tree with the project's own code hidden: the shared virtualenv
# installs readinglist in editable mode, whose import hook would otherwise find an app the
# tree lacks in the working copy.
MANAGE_IN_TREE = """
import runpy, sys
def ours(hook):
    return "__editable__" in getattr(hook, "__module__", "")
sys.meta_path[:] = [finder for finder in sys.meta_path if not ours(finder)]
sys.path_hooks[:] = [hook for hook in sys.path_hooks if not ours(hook)]
sys.path_importer_cache.clear()
sys.argv = ["manage.py", *sys.argv[1:]]
runpy.run_path("manage.py", run_name="__main__")
"""
