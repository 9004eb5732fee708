"""Development settings: the embedded default (SQLite, eager tasks) with DEBUG on."""

from config.settings.base import *  # noqa: F403
from config.settings.base import env

DEBUG = env.bool("DEBUG", default=True)
