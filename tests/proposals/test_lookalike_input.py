"""The proposal check and form warn about look-alike addresses and refuse invisible characters
with a clear reason; a plain address is checked as before."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

LOOKALIKE = "https://\u0430rxiv.org/abs/2403.02310"  # a Cyrillic a


def test_the_live_check_warns_of_a_lookalike_address(signed_in: Client) -> None:
    page = signed_in.get("/propose/check/", {"url": LOOKALIKE}).content.decode()

    assert "This address uses look-alike characters" in page
    assert "xn--" in page


def test_the_check_of_a_plain_address_is_unchanged(signed_in: Client) -> None:
    response = signed_in.get("/propose/check/", {"url": "https://example.org/new"})

    assert response.status_code == 200
    page = response.content.decode()
    assert "Not in the catalog or proposed yet." in page and "look-alike" not in page


def test_the_check_refuses_a_bidi_override_by_name(signed_in: Client) -> None:
    page = signed_in.get("/propose/check/", {"url": "10.1145/3600006\u202e.3613165"}).content
    assert "RIGHT-TO-LEFT OVERRIDE" in page.decode()


def test_an_over_long_address_is_refused_with_its_length(signed_in: Client) -> None:
    page = signed_in.get("/propose/check/", {"url": "https://example.org/" + "a" * 100_000})
    assert "at most 2,000 characters" in page.content.decode()


def test_the_save_page_refuses_an_invisible_character_clearly(signed_in: Client) -> None:
    response = signed_in.get("/save/", {"url": "https://example.org/\u200bpost"})

    assert response.status_code == 400
    assert "ZERO WIDTH SPACE" in response.content.decode()


def test_the_proposal_form_warns_of_a_lookalike_address(signed_in: Client) -> None:
    page = signed_in.get("/propose/", {"url": LOOKALIKE}).content.decode()

    assert "This address uses look-alike characters" in page
