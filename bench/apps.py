from django.apps import AppConfig


class BenchConfig(AppConfig):
    """`manage.py bench_search`, `bench_foryou` and `loadtest` (see docs/benchmarks.md)."""

    name = "bench"
    verbose_name = "Benchmarks and load test"
