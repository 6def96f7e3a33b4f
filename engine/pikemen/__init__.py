"""Pikemen (Jacob Davenport): pyramid pikemen charge along the way they point and capture
for points, for 2, 3 or 4 players. Rules and decisions: docs/pikemen.md.

Modules: `geometry` (squares, orientations, rays), `pieces` (seats, sizes, piece codes),
`setup` (start positions), `actions` (moves and their notation), `position` (a position
and its notation), `rules` (legal moves, playing one), `endings` (how a game ends),
`state` (history and outcome), `events`, `describe`, `words` (seats as translated Terms,
lists, outcome summaries that stay Messages), and `game` (the `Game` interface). Every
sentence for players is a Message (engine/i18n.py), rendered in the reader's language.
"""
