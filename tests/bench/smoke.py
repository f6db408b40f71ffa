"""Benchmarks run end to end at a size that takes seconds, each in a database of its own."""

import os
import tempfile

import psycopg
from django.conf import settings
from django.db import connection


def smoke_database_name(kind: str) -> str:
    # One name per process: parallel workers and other checkouts on the machine never share it.
    return f"readinglist_bench_{kind}_smoke_{os.getpid()}"


def drop_smoke_database(name: str) -> None:
    """Remove a benchmark's database, on PostgreSQL or as SQLite's file, if it exists."""
    if connection.vendor == "postgresql":
        database = settings.DATABASES["default"]
        params = {"host": database["HOST"], "port": database["PORT"], "user": database["USER"]}
        params |= {"password": database["PASSWORD"]} if database.get("PASSWORD") else {}
        with psycopg.connect(dbname="postgres", autocommit=True, **params) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    else:
        path = os.path.join(tempfile.gettempdir(), f"{name}.sqlite3")
        if os.path.exists(path):
            os.remove(path)
