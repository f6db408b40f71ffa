"""A page's title without the clutter browsers and sites add: the arXiv listing's "[2403.02310]"
prefix, and the site's name after a separator ("… | Example Blog", "… - Medium", "… — Site").

A part after a separator is dropped only when it looks like a site's name (the page's stated
site name, a known site, or one or two words), so a subtitle ("Mamba - Linear-Time Sequence
Modeling with Selective State Spaces") stays.
"""

import re

_ARXIV_PREFIX = re.compile(
    r"^\[\s*(?:arxiv:)?(?:\d{4}\.\d{4,5}|[a-z\-]+/\d{7})(?:v\d+)?\s*\]\s*", re.I
)
_GITHUB_PREFIX = re.compile(r"^GitHub\s+-\s+(?=[\w.-]+/[\w.-]+)")
_PIPE = re.compile(r"\s+[|\u00b7\u2022]\s+")
_DASH = re.compile(r"\s+(?:-|\u2013|\u2014|::)\s+")
KNOWN_SITES = {
    "medium",
    "arxiv",
    "arxiv.org",
    "github",
    "youtube",
    "substack",
    "wikipedia",
    "hacker news",
    "openreview",
    "nvidia technical blog",
    "nvidia developer",
    "hugging face",
    "the hugging face blog",
    "pytorch",
    "acm digital library",
    "ieee xplore",
    "springerlink",
    "usenix",
}
SITE_NAME_MAX_WORDS = 2


def _is_site_name(part: str, site_name: str) -> bool:
    name = part.strip().casefold()
    if not name:
        return True
    if site_name and name == site_name.strip().casefold():
        return True
    return name in KNOWN_SITES or len(name.split()) <= SITE_NAME_MAX_WORDS


def _drop_site_suffix(text: str, separator: re.Pattern[str], site_name: str) -> str:
    while True:
        found = list(separator.finditer(text))
        if not found:
            return text
        last = found[-1]
        head, tail = text[: last.start()].strip(), text[last.end() :]
        if not head or not _is_site_name(tail, site_name):
            return text
        text = head


def clean_title(title: str, site_name: str = "") -> str:
    """The work's own title from a page or bookmarklet title (one line, clutter removed)."""
    text = " ".join((title or "").split())
    text = _GITHUB_PREFIX.sub("", _ARXIV_PREFIX.sub("", text))
    # A pipe or a middle dot separates a site's name; a dash may also open a subtitle.
    for separator in (_PIPE, _DASH):
        text = _drop_site_suffix(text, separator, site_name)
    return text
