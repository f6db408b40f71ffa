from urllib.robotparser import RobotFileParser

import pytest
from django.test import Client


@pytest.fixture
def robots(client: Client, db: None) -> RobotFileParser:
    response = client.get("/robots.txt")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    parser = RobotFileParser()
    parser.parse(response.content.decode().splitlines())
    return parser


@pytest.mark.parametrize(
    "path",
    ["/", "/sources/", "/sources/flashattention/", "/topics/kernels/", "/lists/start-here/"],
)
def test_crawlers_may_read_the_catalog(robots: RobotFileParser, path: str) -> None:
    assert robots.can_fetch("AnyBot", path)


@pytest.mark.parametrize(
    "path",
    [
        "/library/",
        "/library/notes/",
        "/accounts/login/",
        "/admin/",
        "/propose/",
        "/proposals/3/",
        "/sources/cite.bib?q=attention",
    ],
)
def test_crawlers_are_kept_off_readers_pages_and_downloads(
    robots: RobotFileParser, path: str
) -> None:
    assert not robots.can_fetch("AnyBot", path)


def test_robots_txt_passes_through_the_whole_middleware_stack(client: Client, db: None) -> None:
    """It is the load test's trivial view: it must cost what any page's framework share costs."""
    response = client.get("/robots.txt")
    assert "Content-Security-Policy" in response
    assert response["X-Frame-Options"] == "DENY"
