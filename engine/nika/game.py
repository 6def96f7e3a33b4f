"""Nika behind the engine's shared `Game` interface."""

from __future__ import annotations

from engine.nika.actions import Action, parse_action
from engine.nika.board import City
from engine.nika.state import GameState


class NikaGame:
    slug = "nika"
    title = "Nika"
    seats = tuple(city.name.lower() for city in City)

    def start(self) -> GameState:
        return GameState.start()

    def load(self, position: str) -> GameState:
        return GameState.from_notation(position)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)


NIKA = NikaGame()
