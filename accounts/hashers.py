"""The password hasher: Argon2id at the cost OWASP's password storage guidance recommends.

Django's own Argon2 defaults (100 MiB, 2 passes, 8 lanes) took ~220 ms of CPU per login on
this project's two-core servers, most of a login's time budget; 19 MiB and 2 passes on one lane
is OWASP's equivalent-strength setting and takes ~25 ms. Django compares a stored hash's
parameters with these on every successful login and rehashes when they differ, so changing the
cost here upgrades every account as its owner next signs in.
"""

from django.contrib.auth.hashers import Argon2PasswordHasher


class Argon2idPasswordHasher(Argon2PasswordHasher):
    """Argon2id, stored under Django's "argon2" name so both read each other's hashes."""

    time_cost = 2
    memory_cost = 19 * 1024  # KiB
    parallelism = 1
