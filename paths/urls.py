from django.urls import path

from .views import drafts, forks, imports

app_name = "paths"

urlpatterns: list = [
    path("draft/", drafts.draft, name="draft"),
    path("import/", imports.import_links, name="import"),
    path("fork-list/<slug:slug>/", forks.fork_list_view, name="fork-list"),
    path("<str:key>/fork/", forks.fork, name="fork"),
    path("<str:key>/upstream/", forks.upstream, name="upstream"),
    path("<str:key>/propose/", forks.propose, name="propose"),
]
