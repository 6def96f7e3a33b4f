"""The built-in games' front ends (`bot/games/<slug>.py`), each named by an entry point in the
project's pyproject.toml like any game's (see bot/commands/front_end.py). The host never
imports this package: what is here belongs to the games."""
