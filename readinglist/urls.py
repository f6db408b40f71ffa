from django.contrib import admin
from django.urls import include, path

admin.site.site_header = "readinglist curation"
admin.site.site_title = "readinglist admin"
admin.site.index_title = "Curate the catalog"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("", include("catalog.urls")),
]
