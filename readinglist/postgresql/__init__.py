"""Django's PostgreSQL backend, which stops waiting on a database it has just found unreachable."""
