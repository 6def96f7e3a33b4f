"""Tic-tac-toe's words in other languages: one gettext catalogue per language (`es.po`)."""
