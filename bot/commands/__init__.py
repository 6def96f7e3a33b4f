"""The command surface of every hosted game, independent of Discord (see `dispatch.py`)."""
