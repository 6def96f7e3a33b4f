"""Tic-tac-toe as a plugin of the board-game host: rules (`game`), the computer's evaluation
(`ai`), its picture (`artist`), its Discord commands and pages (`front_end`) and its Spanish
(`locales/es.po`), each named by an entry point in this package's pyproject.toml."""
