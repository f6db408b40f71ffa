"""Until the path page is on this branch, `paths:detail` answers with a stand-in that shows the
steps in order: these tests follow a redirect to it. Once the real page exists it is used."""

from collections.abc import Iterator

import pytest
from django.http import HttpRequest, HttpResponse
from django.urls import NoReverseMatch, clear_url_caches, path, reverse
from django.utils.html import escape

import paths.urls


def _stand_in(request: HttpRequest, key: str) -> HttpResponse:
    from paths.models import Path

    found = Path.objects.visible_to(request.user).filter(key=key).first()
    if found is None:
        return HttpResponse(status=404)
    titles = found.steps.order_by("position").values_list("source__title", flat=True)
    items = "".join(f"<li>{escape(title)}</li>" for title in titles)
    return HttpResponse(f"<h1>{escape(found.title)}</h1><ol id='steps'>{items}</ol>")


@pytest.fixture
def path_page() -> Iterator[None]:
    try:
        reverse("paths:detail", args=["x"])
    except NoReverseMatch:
        pass
    else:
        yield
        return
    stand_in = path("<slug:key>/", _stand_in, name="detail")
    paths.urls.urlpatterns.append(stand_in)
    clear_url_caches()
    yield
    paths.urls.urlpatterns.remove(stand_in)
    clear_url_caches()
