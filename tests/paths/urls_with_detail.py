"""The site's URLs, with a stand-in path page where the branch has none yet: following, exports
and feeds link to `paths:detail`, which the path page's own code provides."""

from django.http import HttpRequest, HttpResponse
from django.urls import URLResolver, include, path

from paths import urls as paths_urls
from readinglist.urls import urlpatterns as site_patterns


def _stand_in(request: HttpRequest, key: str) -> HttpResponse:
    return HttpResponse(f"path {key}")


def _has_detail() -> bool:
    return any(getattr(p, "name", None) == "detail" for p in paths_urls.urlpatterns)


if _has_detail():
    urlpatterns = list(site_patterns)
else:
    patterns = [*paths_urls.urlpatterns, path("<str:key>/", _stand_in, name="detail")]
    urlpatterns = [
        path("paths/", include((patterns, "paths")))
        if isinstance(p, URLResolver) and p.namespace == "paths"
        else p
        for p in site_patterns
    ]
