"""The command families every game's group is made of, each one declarative builder in a
module of its own: `commands(rules, front) -> tuple[CommandSpec, ...]`, with the runners
those commands call. `bot.commands.group.FAMILIES` lists them in the order Discord shows
them; adding a family (a new module here and one line there) is all a new kind of command
needs."""
