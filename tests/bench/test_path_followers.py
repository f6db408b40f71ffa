"""The path page's time with 1 follower and with 5,000, printed beside its floor."""

import re

import pytest

from bench.path_followers import FOLLOWERS, path_page_followers
from paths.models import PathFollow
from tests.hints import SmallCatalog

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.paths.urls_with_detail")]


def test_it_prints_both_times_and_the_ratio_beside_the_floor(small_catalog: SmallCatalog) -> None:
    lines: list[str] = []
    path_page_followers(lines.append, runs=3)
    (line,) = lines
    assert re.search(
        r"p50 [\d.]+ ms with 1 follower, [\d.]+ ms with 5,000: ratio [\d.]+ \(1\.50\)", line
    ), line
    assert PathFollow.objects.count() == FOLLOWERS
