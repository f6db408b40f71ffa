from typing import TYPE_CHECKING, Any

import factory
from django.contrib.auth import get_user_model

from accounts.models import User
from catalog.models import ListEntry, ListSection, ReadingList, Source, Tier, Topic
from notes.models import Note

if TYPE_CHECKING:
    from teams.models import Team


class ModelFactory[T](factory.django.DjangoModelFactory[T]):
    """A factory whose call returns its model, as factory_boy does at run time."""

    class Meta:
        abstract = True

    if TYPE_CHECKING:
        # factory_boy's metaclass makes the call build the model; its __new__ is untyped.
        def __new__(cls, *args: Any, **kwargs: Any) -> T: ...  # type: ignore[misc]


class TierFactory(ModelFactory[Tier]):
    class Meta:
        model = Tier
        django_get_or_create = ["slug"]

    slug = "core"
    name = factory.LazyAttribute(lambda o: o.slug.replace("-", " ").capitalize())
    position = factory.Sequence(int)
    rule = "A primary source."


class TopicFactory(ModelFactory[Topic]):
    class Meta:
        model = Topic
        django_get_or_create = ["slug"]

    slug = factory.Sequence(lambda n: f"topic-{n}")
    name = factory.LazyAttribute(lambda o: o.slug.replace("-", " ").title())
    position = factory.Sequence(int)


class SourceFactory(ModelFactory[Source]):
    class Meta:
        model = Source
        skip_postgeneration_save = True

    slug = factory.Sequence(lambda n: f"source-{n}")
    title = factory.Sequence(lambda n: f"Source number {n}")
    url = factory.Sequence(lambda n: f"https://example.org/papers/{n}")
    kind = Source.Kind.PAPER
    basis = Source.Basis.MECHANISM_PAPER
    authors = "Ada Lovelace et al."
    year = 2023
    summary = "A one-line summary."
    tier = factory.SubFactory(TierFactory)

    @factory.post_generation
    def topics(self, create: bool, extracted: list[Topic] | None, **kwargs: object) -> None:
        if create and extracted:
            self.topics.set(extracted)


class ReadingListFactory(ModelFactory[ReadingList]):
    class Meta:
        model = ReadingList
        django_get_or_create = ["slug"]

    slug = factory.Sequence(lambda n: f"list-{n}")
    title = factory.Sequence(lambda n: f"Reading list {n}")
    position = factory.Sequence(int)


class ListSectionFactory(ModelFactory[ListSection]):
    class Meta:
        model = ListSection

    reading_list = factory.SubFactory(ReadingListFactory)
    slug = factory.Sequence(lambda n: f"section-{n}")
    title = factory.Sequence(lambda n: f"Section {n}")
    position = factory.Sequence(lambda n: n + 1)


class ListEntryFactory(ModelFactory[ListEntry]):
    class Meta:
        model = ListEntry

    section = factory.SubFactory(ListSectionFactory)
    source = factory.SubFactory(SourceFactory)
    position = factory.Sequence(lambda n: n + 1)


class UserFactory(ModelFactory[User]):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    email = factory.Sequence(lambda n: f"reader{n}@example.com")
    password = factory.django.Password("correct horse battery staple")


# Notes (issue 6).
class NoteFactory(ModelFactory[Note]):
    class Meta:
        model = "notes.Note"

    user = factory.SubFactory(UserFactory)
    source = factory.SubFactory(SourceFactory)
    body = factory.Sequence(lambda n: f"Note number {n} on the *mechanism*.")
    visibility = "private"
    team = factory.LazyAttribute(
        lambda note: first_team_of(note.user) if note.visibility == "team" else None
    )


def first_team_of(user: User) -> "Team":
    """The author's first team, or a team "Readers" they join: a team note needs a team."""
    from teams.models import Membership, Team

    membership = Membership.objects.filter(user=user).select_related("team").first()
    if membership:
        return membership.team
    team, _ = Team.objects.get_or_create(slug="readers", defaults={"name": "Readers"})
    Membership.objects.create(team=team, user=user)
    return team


def join_team(*users: User, slug: str = "readers") -> "Team":
    """Put readers in one team (created when missing), as teammates."""
    from teams.models import Membership, Team

    team, _ = Team.objects.get_or_create(slug=slug, defaults={"name": slug.title()})
    for user in users:
        Membership.objects.get_or_create(team=team, user=user)
    return team
