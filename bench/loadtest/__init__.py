"""`manage.py loadtest`: the scenarios it replays (every app's pages) and its locust runner."""
