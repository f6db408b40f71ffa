app_name = "paths"

urlpatterns: list = []
