"""Benchmarks and the load test: commands that build their own data and time the apps.

This package sits beside the apps rather than inside one, so that no app carries benchmark code
and the project package (readinglist/) imports no app outside its composition root.
"""
