from django.urls import path

from .views import drafts, forks, imports

app_name = "paths"

# Fixed addresses (draft/, import/, fork-list/) must come before any "<key>/" pattern.
urlpatterns: list = [
    path("draft/", drafts.draft, name="draft"),
    path("import/", imports.import_links, name="import"),
    path("fork-list/<slug:slug>/", forks.fork_list_view, name="fork-list"),
    path("<slug:key>/fork/", forks.fork, name="fork"),
    path("<slug:key>/upstream/", forks.upstream, name="upstream"),
    path("<slug:key>/propose/", forks.propose, name="propose"),
]
