"""The settings the type checker's Django plugin loads: the site's own, with the development
defaults for what a deployment must set (a secret key, hosts), so that `mypy` and `mypy tests`
run as they are, in any shell. The checker reads the models; it serves nothing."""

import os

os.environ.setdefault("DEBUG", "true")

from .settings import *  # noqa: F403
