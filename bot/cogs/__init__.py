"""Discord cogs: thin adapters from interactions to the match service."""
