from django.contrib import admin
from django.contrib.sitemaps import views as sitemaps
from django.urls import include, path
from django.views.generic import TemplateView

from accounts.urls import account_urlpatterns
from pages.sitemaps import SITEMAPS

from . import health

admin.site.site_header = "readinglist curation"
admin.site.site_title = "readinglist admin"
admin.site.index_title = "Curate the catalog"

handler400 = "readinglist.errors.bad_request"
handler500 = "readinglist.errors.server_error"

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path(
        "robots.txt",
        TemplateView.as_view(template_name="robots.txt", content_type="text/plain"),
        name="robots",
    ),
    path(
        "sitemap.xml",
        sitemaps.index,
        {"sitemaps": SITEMAPS, "sitemap_url_name": "sitemap-section"},
        name="sitemap",
    ),
    path("sitemap-<section>.xml", sitemaps.sitemap, {"sitemaps": SITEMAPS}, name="sitemap-section"),
    path("admin/", admin.site.urls),
    path("accounts/", include(account_urlpatterns)),
    path("accounts/", include("allauth.urls")),
    # Notes first: they own library/notes/…, which the "library/" include must not shadow.
    path("", include("notes.urls")),
    path("library/", include("library.urls")),
    path("", include("library.save_urls")),
    path("", include("teams.urls")),
    path("", include("teamsources.urls")),
    path("paths/", include("paths.urls")),
    path("", include("discussions.urls")),
    path("", include("pages.urls")),
    path("", include("catalog.urls")),
    path("", include("proposals.urls")),
]
