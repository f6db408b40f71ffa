"""Each landmark a page repeats is told apart by its label (axe's landmark-unique rule)."""

import re
from collections import Counter

import pytest
from django.test import Client

from accounts.models import User
from tests.hints import SmallCatalog

pytestmark = pytest.mark.django_db

SEARCH_LANDMARK = re.compile(r'<form[^>]*role="search"[^>]*>')
LABEL = re.compile(r'aria-label="([^"]*)"')


def search_labels(html: str) -> list[str]:
    return [
        (match.group(1) if (match := LABEL.search(tag)) else "")
        for tag in SEARCH_LANDMARK.findall(html)
    ]


@pytest.mark.parametrize("url", ["/library/notes/", "/library/", "/sources/?q=attention", "/"])
def test_search_landmarks_are_labelled_and_unique(
    client: Client, reader: User, small_catalog: SmallCatalog, url: str
) -> None:
    client.force_login(reader)
    labels = search_labels(client.get(url).content.decode())
    assert labels, url
    assert all(labels), (url, labels)
    assert not [label for label, count in Counter(labels).items() if count > 1], (url, labels)
