"""The bookmark control: POST only, HTMX and no-JS, anonymous, bad input, other readers."""

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from catalog.models import Source
from library.models import Bookmark
from library.pending import SESSION_KEY
from library.services import set_status
from tests.conftest import PASSWORD
from tests.hints import SmallCatalog

from .controls import autofocused, pressed

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def url(source: Source) -> str:
    return reverse("library:bookmark", args=[source.slug])


def test_get_changes_nothing(client: Client, reader: User, small_catalog: SmallCatalog) -> None:
    client.force_login(reader)
    response = client.get(url(small_catalog["flash"]) + "?status=read")
    assert response.status_code == 405
    assert not Bookmark.objects.exists()


def test_no_js_post_saves_and_redirects_back(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    source = small_catalog["flash"]
    client.force_login(reader)
    response = client.post(url(source), {"status": "reading", "next": "/sources/?page=1"})
    assert response.status_code == 302
    assert response["Location"] == "/sources/?page=1"
    assert Bookmark.objects.get(user=reader, source=source).status == "reading"
    page = client.get(response["Location"])
    assert "Saved “FlashAttention” as Reading." in page.content.decode()


def test_no_js_post_refuses_an_outside_next(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    source = small_catalog["flash"]
    client.force_login(reader)
    response = client.post(url(source), {"status": "read", "next": "https://evil.example/"})
    assert response["Location"] == source.get_absolute_url()
    response = client.post(url(source), {"status": "read", "next": "//evil.example/x"})
    assert response["Location"] == source.get_absolute_url()


def test_htmx_post_returns_the_control_and_announces_the_change(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    source = small_catalog["flash"]
    client.force_login(reader)
    response = client.post(url(source), {"status": "read", "next": "/"}, headers=HX)
    assert response.status_code == 200
    assert response["HX-Trigger"] == "bookmarks-changed"
    assert "HX-Request" in response["Vary"]
    html = response.content.decode()
    # The form stays on the page (a second click queues on it); its content is swapped.
    assert "<form" not in html and "<html" not in html
    assert 'name="csrfmiddlewaretoken"' in html
    # The pressed button is the one clicked, with the same id so focus can stay on it.
    assert pressed(html, source) == ["read"]
    # No autofocus: it would steal focus back if the reader tabbed on before htmx settled.
    assert autofocused(html, source) == []
    assert "Remove" in html
    assert Bookmark.objects.get(user=reader, source=source).status == "read"


def test_htmx_remove_puts_focus_on_the_first_button(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    source = small_catalog["flash"]
    set_status(user=reader, source=source, status="read")
    client.force_login(reader)
    response = client.post(url(source), {"status": "remove"}, headers=HX)
    html = response.content.decode()
    assert pressed(html, source) == []
    assert autofocused(html, source) == ["to_read"]
    assert "Remove" not in html
    assert not Bookmark.objects.exists()


def test_no_js_remove(client: Client, reader: User, small_catalog: SmallCatalog) -> None:
    source = small_catalog["flash"]
    set_status(user=reader, source=source, status="read")
    client.force_login(reader)
    response = client.post(url(source), {"status": "remove", "next": "/library/"}, follow=True)
    assert "Removed “FlashAttention” from your library." in response.content.decode()
    assert not Bookmark.objects.exists()


def test_double_submit_makes_one_bookmark(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    source = small_catalog["flash"]
    client.force_login(reader)
    for _ in range(2):
        client.post(url(source), {"status": "to_read"})
        client.post(url(source), {"status": "to_read"}, headers=HX)
    assert Bookmark.objects.filter(user=reader, source=source).count() == 1


@pytest.mark.parametrize("status", ["skimmed", "", "READ", "to_read; drop table"])
def test_bad_status_is_a_clear_400(
    client: Client, reader: User, small_catalog: SmallCatalog, status: str
) -> None:
    client.force_login(reader)
    response = client.post(url(small_catalog["flash"]), {"status": status})
    assert response.status_code == 400
    html = response.content.decode()
    assert "Reading status not changed" in html
    assert ("is not a reading status" in html) or ("This field is required" in html)
    assert not Bookmark.objects.exists()


def test_bad_status_with_htmx_is_400_too(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    client.force_login(reader)
    response = client.post(url(small_catalog["flash"]), {"status": "later"}, headers=HX)
    assert response.status_code == 400
    assert "“later” is not a reading status" in response.content.decode()


def test_unknown_source_is_404(client: Client, reader: User, small_catalog: SmallCatalog) -> None:
    client.force_login(reader)
    assert client.post("/library/bookmarks/no-such-source/", {"status": "read"}).status_code == 404


def test_another_reader_only_changes_their_own_bookmark(
    client: Client, reader: User, other_reader: User, small_catalog: SmallCatalog
) -> None:
    source = small_catalog["flash"]
    set_status(user=reader, source=source, status="reading")
    client.force_login(other_reader)
    client.post(url(source), {"status": "remove"})
    client.post(url(source), {"status": "read"})
    assert Bookmark.objects.get(user=reader, source=source).status == "reading"
    assert Bookmark.objects.get(user=other_reader, source=source).status == "read"


def test_anonymous_htmx_click_is_sent_to_log_in_and_kept(
    client: Client, small_catalog: SmallCatalog
) -> None:
    source = small_catalog["flash"]
    response = client.post(url(source), {"status": "read", "next": "/tiers/core/"}, headers=HX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == "/accounts/login/?next=%2Ftiers%2Fcore%2F"
    assert client.session[SESSION_KEY] == {"source": source.pk, "action": "read"}
    assert not Bookmark.objects.exists()


def test_anonymous_no_js_click_logs_in_and_comes_back_with_the_action_done(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    source = small_catalog["flash"]
    response = client.post(url(source), {"status": "reading", "next": "/topics/attention/"})
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=%2Ftopics%2Fattention%2F"
    assert not Bookmark.objects.exists()

    login = client.get(response["Location"])
    assert "Log in to save “FlashAttention”" in login.content.decode()
    response = client.post(
        response["Location"], {"login": reader.email, "password": PASSWORD}, follow=True
    )
    assert response.redirect_chain[-1][0] == "/topics/attention/"
    assert Bookmark.objects.get(user=reader, source=source).status == "reading"
    assert "Saved “FlashAttention” as Reading." in response.content.decode()
    assert SESSION_KEY not in client.session


def test_a_visitors_save_comes_back_to_the_card_after_the_login_form(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    source = small_catalog["flash"]
    html = client.get("/topics/attention/").content.decode()
    way_back = f"/topics/attention/#src-{source.pk}"
    assert f'name="next" value="{way_back}"' in html
    response = client.post(url(source), {"status": "to_read", "next": way_back})
    login_url = "/accounts/login/?next=%2Ftopics%2Fattention%2F%23src-" + str(source.pk)
    assert response["Location"] == login_url
    assert f'value="{way_back}"' in client.get(login_url).content.decode()  # the form keeps it
    response = client.post(login_url, {"login": reader.email, "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"].endswith(f"/topics/attention/#src-{source.pk}")
    assert Bookmark.objects.get(user=reader, source=source).status == "to_read"


def test_pending_action_is_applied_once(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    source = small_catalog["flash"]
    client.post(url(source), {"status": "read"})
    client.post("/accounts/login/", {"login": reader.email, "password": PASSWORD})
    client.post("/accounts/logout/")
    client.post("/accounts/login/", {"login": reader.email, "password": PASSWORD})
    assert Bookmark.objects.filter(user=reader).count() == 1


def test_anonymous_sees_one_save_link_to_log_in_on_every_card(
    client: Client, small_catalog: SmallCatalog
) -> None:
    html = client.get("/sources/").content.decode()
    sources = [*small_catalog["path"], small_catalog["flash"]]
    for source in sources:
        assert f'action="/library/bookmarks/{source.slug}/"' in html
    assert html.count('class="save-link" type="submit" name="status" value="to_read"') == len(
        sources
    )
    assert "aria-pressed" not in html
    assert ">Reading<" not in html
    assert "{#" not in html and "Visitors get" not in html


def test_a_card_remembered_for_a_visitor_is_not_shown_to_a_reader(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    client.get("/sources/")
    client.force_login(reader)
    html = client.get("/sources/").content.decode()
    assert 'aria-pressed="false"' in html
    assert 'class="save-link"' not in html


def test_cards_and_source_page_show_the_readers_state(
    client: Client, reader: User, other_reader: User, small_catalog: SmallCatalog
) -> None:
    flash = small_catalog["flash"]
    set_status(user=reader, source=flash, status="reading")
    set_status(user=other_reader, source=small_catalog["path"][0], status="read")
    client.force_login(reader)
    for page in ["/sources/", "/topics/attention/", "/tiers/core/", flash.get_absolute_url()]:
        html = client.get(page).content.decode()
        assert pressed(html, flash) == ["reading"], page
        assert html.count('aria-pressed="true"') == 1, page


def test_htmx_control_keeps_next_of_the_page(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    source = small_catalog["flash"]
    client.force_login(reader)
    html = client.post(
        url(source), {"status": "read", "next": "/lists/wafer/"}, headers=HX
    ).content.decode()
    assert f'name="next" value="/lists/wafer/#bookmark-{source.pk}"' in html
