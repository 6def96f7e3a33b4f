"""Numica's board picture: tiles with their symbols, red and blue pieces by shape, the
not-yet-moved seal, the last move, each side's captures, the status and a legend."""
