import io
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from pytest_django import Settings

from accounts.models import User
from catalog.models import Source
from teams import services
from teams.models import Membership, Team
from tests.factories import SourceFactory, UserFactory
from tests.hints import Response, Tiers


@pytest.fixture(autouse=True)
def _media(settings: Settings, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def owner(db: None) -> User:
    return UserFactory(email="owner@example.com")


@pytest.fixture
def team(owner: User, tiers: Tiers) -> Team:
    return services.create_team(name="Inference", owner=owner)


@pytest.fixture
def member(team: Team) -> User:
    user = UserFactory(email="member@example.com")
    Membership.objects.create(team=team, user=user)
    return user


@pytest.fixture
def outsider(db: None) -> User:
    return UserFactory(email="outsider@example.com")


@pytest.fixture
def other_team(outsider: User) -> Team:
    return services.create_team(name="Kernels", owner=outsider)


@pytest.fixture
def public_source(tiers: Tiers) -> Source:
    return SourceFactory(
        title="Attention Is All You Need",
        url="https://arxiv.org/abs/1706.03762",
        tier=tiers["core"],
    )


def markdown(
    text: str = "# Postmortem\n\nThe zanzibar outage began at noon.\n", name: str = "notes.md"
) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode("utf-8"), content_type="text/markdown")


def pdf_bytes(text: str = "Quarterly zanzibar benchmark", pages: int = 1) -> bytes:
    from pypdf import PdfWriter
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    writer = PdfWriter()
    for _ in range(pages):
        page = writer.add_blank_page(width=300, height=300)
        font = DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Font"),
                NameObject("/Subtype"): NameObject("/Type1"),
                NameObject("/BaseFont"): NameObject("/Helvetica"),
            }
        )
        page[NameObject("/Resources")] = DictionaryObject(
            {NameObject("/Font"): DictionaryObject({NameObject("/F1"): writer._add_object(font)})}
        )
        stream = DecodedStreamObject()
        stream.set_data(f"BT /F1 12 Tf 20 200 Td ({text}) Tj ET".encode())
        page[NameObject("/Contents")] = writer._add_object(stream)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def add(client: Client, team: Team, **fields: object) -> Response:
    data = {"title": "Zanzibar design notes", "url": "", "kind": "documentation", **fields}
    return client.post(f"/teams/{team.slug}/sources/", data)


def signed_in_as_each(client: Client, users: Iterable[User | None]) -> Iterator[None]:
    """Signs the client in as each user in turn (None: signed out), once per step."""
    for user in users:
        client.logout()
        if user is not None:
            client.force_login(user)
        yield


def a_teammate(team: Team) -> User:
    """A member who neither added the source nor owns the team."""
    teammate = UserFactory(email="teammate@example.com")
    Membership.objects.create(team=team, user=teammate)
    return teammate
