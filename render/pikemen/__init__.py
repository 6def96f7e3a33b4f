"""Pikemen's board picture: pyramids seen from above on an 8 × 8 board, the last move
marked, and a panel of scores against the target. `ARTIST` (artist.py) is what the
render registry finds."""
