"""Numica's words in other languages: one gettext catalogue per language (es.po), for the host."""
