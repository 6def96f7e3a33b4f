"""The Discord front end, the local console, and the match service they share."""
