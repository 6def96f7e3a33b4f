"""Games of an event sharing its channel (the bot may not open threads there), through the
Discord double on both backends: every post of such a game names it exactly once (its first
board, a move, a timer's reminder and timeout, its end), and a moderator aborts one of them by
`/pikemen abort match:<number>` while the other goes on."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from bot.client import BoardGameBot
from bot.clock import ManualClock
from bot.service import MatchService
from bot.storage import events as store
from bot.storage.events import TableRow
from tests.bot.discord_harness import LOADING, Players, answer_of, running, service_of, slash, suggest
from tests.bot.test_across_days import press
from tests.discord_double import DiscordDouble, StoredMessage
from tests.discord_double.models import Perm

GROUP = "tournament"
GAME = "pikemen"
HOUR = 3600.0
TITLE = "Shared Cup"


@dataclass
class Event:
    bot: BoardGameBot
    clock: ManualClock
    service: MatchService
    event_id: int
    tables: list[TableRow]
    start: int  # how many channel messages there were before the games' first boards


@pytest.fixture
async def event(double: DiscordDouble, players: Players, db_path: str) -> AsyncIterator[Event]:
    """A one-round Swiss of four (two games at once) with a 2-day deadline, in a channel
    where the bot may not open threads."""
    p, clock = players, ManualClock()
    async with running(double, db_path, clock=clock) as bot:
        channel = double.channel
        deny = {"id": str(double.bot_user.id), "type": 1, "allow": "0", "deny": str(Perm.CREATE_PUBLIC_THREADS)}
        channel.permission_overwrites.append(deny)
        await double.dispatch_channel_event("CHANNEL_UPDATE", channel)
        opened = await slash(double, p.alice, "new", {"game": GAME, "format": "swiss", "rounds": 1, "title": TITLE,
                                                      "deadline": "2"}, group=GROUP)  # fmt: skip
        (join_id,) = [c for c in opened.message.custom_ids() if c.startswith("tournament:join:")]
        event_id = int(join_id.rsplit(":", 1)[1])
        for user in (p.bob, p.carol, p.dave):
            await slash(double, user, "join", {"game": GAME}, group=GROUP)
        start = len(double.channel_messages(channel))
        await slash(double, p.alice, "start", {"game": GAME}, group=GROUP)
        service = service_of(bot)
        await bot.timers.settled()  # type: ignore[union-attr]
        async with service.storage.reading() as db:
            tables = [t for t in await store.tables_of(db, event_id) if t.round == 1]
        assert len(tables) == 2 and all(t.match_id is not None for t in tables)
        yield Event(bot, clock, service, event_id, tables, start)


def label_of(table: TableRow) -> str:
    players = " vs ".join(" & ".join(f"<@{u}>" for u in side) for side in table.sides)
    return f"**Round 1 · board {table.board} · {players}**"


def games_named(message: StoredMessage, tables: list[TableRow]) -> list[int]:
    """The boards a post names, once for each time it names one (by label or by "board N")."""
    said = message.content.lower()
    return [t.board for t in tables for _ in re.findall(rf"\bboard {t.board}\b", said)]


def user_of(players: Players, user_id: int) -> object:
    return next(u for u in (players.alice, players.bob, players.carol, players.dave) if u.id == user_id)


async def test_every_post_of_a_shared_game_names_it_exactly_once(
    double: DiscordDouble, players: Players, event: Event
) -> None:
    p, service, tables = players, event.service, event.tables
    channel = double.channel

    def posts_since(count: int) -> list[StoredMessage]:
        shown = double.channel_messages(channel)[count:]  # not the "thinking…" of a deferred answer
        return [m for m in shown if not m.ephemeral and not m.payload["flags"] & LOADING]

    def check(posts: list[StoredMessage], kind: str) -> None:
        assert posts, f"no {kind} post"
        for post in posts:
            named = games_named(post, tables)
            assert len(named) == 1, (kind, post.content)  # one game, named once
            table = next(t for t in tables if t.board == named[0])
            assert post.content.startswith(label_of(table)), (kind, post.content)

    # The first boards: each names its game once (the event's title follows), with its picture.
    firsts = [m for m in posts_since(event.start) if m.files]
    assert len(firsts) == 2
    check(firsts, "first board")
    assert all(TITLE in m.content for m in firsts)
    assert sorted(games_named(m, tables)[0] for m in firsts) == [1, 2]

    async def move(table: TableRow) -> None:  # by slash command, whoever is to act
        _, state = await service.book.load_match(table.match_id or 0)
        mover = state.acting_user()
        assert mover is not None
        action = state.rules.legal_actions(state.game)[0].notation()
        before = len(double.channel_messages(channel))
        played = await slash(double, user_of(p, mover), "play", {"action": action}, group=GAME)  # type: ignore[arg-type]
        assert not played.ephemeral, played.content
        check(posts_since(before), "move")

    for table in tables:
        await move(table)

    # The timers: a reminder after a day, then the turn running out after two.
    before = len(double.channel_messages(channel))
    await event.clock.advance(25 * HOUR)
    await event.bot.timers.settled()  # type: ignore[union-attr]
    reminders = posts_since(before)
    check(reminders, "reminder")
    assert any("⏰" in m.content for m in reminders)
    await move(tables[1])  # board 2 goes on; board 1's turn runs out
    before = len(double.channel_messages(channel))
    await event.clock.advance(24 * HOUR)
    await event.bot.timers.settled()  # type: ignore[union-attr]
    timeouts = posts_since(before)
    check(timeouts, "timeout")
    assert any("⌛" in m.content and m.content.startswith(label_of(tables[0])) for m in timeouts)
    row, _ = await service.book.load_match(tables[0].match_id or 0)
    assert row.status == "finished"

    # The end of the other game: a player resigns, confirmed by the button.
    for table in tables[1:]:
        row, _ = await service.book.load_match(table.match_id or 0)
        assert row.status == "active"
        loser = user_of(p, table.sides[1][0])
        before = len(double.channel_messages(channel))
        asked = await slash(double, loser, "resign", {}, group=GAME)  # type: ignore[arg-type]
        assert asked.ephemeral
        (confirm,) = [c for c in asked.message.custom_ids() if ":c:" in c]
        record = await press(double, loser, asked.message, confirm)  # type: ignore[arg-type]
        await double.wait_for_followups(record.id, 1, timeout=10)  # deferred, then the result
        await event.bot.timers.settled()  # type: ignore[union-attr]
        ended = [m for m in posts_since(before) if f"**{TITLE}** is over" not in m.content]
        check(ended, "end")
        assert any("resigned" in m.content for m in ended)


def shown_in_spanish(double: DiscordDouble, *path: str) -> list[str]:
    """A command's words as Discord shows them to a Spanish reader: `pikemen`, `torneo`, `tablero`."""
    node: dict[str, object] | None = double.find_command(path[0], None)
    assert node is not None
    words = [str(node["name"])]  # a game's group is its slug in every language
    for name in path[1:]:
        node = next(o for o in node["options"] if o["name"] == name)  # type: ignore[attr-defined]
        words.append(str((node.get("name_localizations") or {}).get("es-ES", node["name"])))  # type: ignore[union-attr]
    return words


async def test_a_moderator_aborts_one_shared_game_by_naming_it(
    double: DiscordDouble, players: Players, event: Event
) -> None:
    p, service, tables = players, event.service, event.tables
    first, second = (t.match_id or 0 for t in tables)

    async def state() -> tuple[str, str, int, int, str]:
        one, _ = await service.book.load_match(first)
        two, _ = await service.book.load_match(second)
        async with service.storage.reading() as db:
            row = await store.event_by_id(db, event.event_id)
        assert row is not None
        return one.status, two.status, one.version, two.version, row.status

    before = await state()
    # Without match: the private list of the games, which says how to name one; in Spanish, the
    # command as Discord shows it there (`/pikemen torneo tablero`, not `/torneo tablero`).
    listed = await slash(double, p.mod, "abort", {}, group=GAME)
    assert listed.ephemeral and "several matches" in listed.content.lower() and f"#{first}" in listed.content
    assert "/pikemen abort match:<number>" in listed.content, listed.content
    for user, command, how in ((p.mod, "abort", ("abort",)), (p.eve, "board", ("tournament", "board"))):
        payload = double.slash_command(user, None, GAME, command, {}, locale="es-ES")
        spanish = await answer_of(double, await double.send_interaction(payload))
        words = shown_in_spanish(double, GAME, *how)
        assert words[1] not in ("abort", "tournament") and spanish.ephemeral
        assert f"/{' '.join(words)}" in spanish.content and "tournament" not in spanish.content, spanish.content
    # A match that is not open here, or not a number: privately refused, with the list.
    for wrong in ("999999", "abc"):
        refused = await slash(double, p.mod, "abort", {"match": wrong}, group=GAME)
        assert refused.ephemeral and f"no open match #{wrong}" in refused.content and f"#{second}" in refused.content
    # Someone without Manage Channels who names one: refused.
    refused = await slash(double, p.eve, "abort", {"match": str(first)}, group=GAME)
    assert refused.ephemeral and "Manage Channels" in refused.content
    assert await state() == before

    # match: suggests the channel's open games.
    suggested = await suggest(double, p.mod, "abort", {"match": ""}, "match", group=GAME)
    assert sorted(suggested) == sorted([str(first), str(second)])

    # Naming one: asked first (which game it is), then confirmed by button.
    asked = await slash(double, p.mod, "abort", {"match": str(first)}, group=GAME)
    assert asked.ephemeral and label_of(tables[0]) in asked.content, asked.content
    assert await state() == before
    (confirm,) = [c for c in asked.message.custom_ids() if ":c:" in c]
    record = await press(double, p.mod, asked.message, confirm)
    [said] = await double.wait_for_followups(record.id, 1, timeout=10)
    text = str((said.json or {}).get("content"))
    assert text.startswith(label_of(tables[0])) and text.count("board 1") == 1, text
    assert "aborted the match" in text and f"**{TITLE}**" in text and "round 1 cannot end" in text
    assert "/pikemen tournament cancel" in text and "channel is free" not in text
    one, two, _, version_two, status = await state()
    assert (one, two, version_two, status) == ("aborted", "active", before[3], "running")  # the other goes on

    # The event's ruling: the aborted game stays undecided, so the round waits after the other ends…
    loser = user_of(p, tables[1].sides[1][0])
    await service.resign(double.channel.id, loser.id, confirmed=True)  # type: ignore[attr-defined]
    await event.bot.timers.settled()  # type: ignore[union-attr]
    async with service.storage.reading() as db:
        ranks = {t.board: t.ranks for t in await store.tables_of(db, event.event_id)}
        row = await store.event_by_id(db, event.event_id)
    assert ranks[1] is None and ranks[2] is not None and row is not None and row.status == "running"
    # …until the event is cancelled.
    cancelled = await slash(double, p.mod, "cancel", {"game": GAME}, group="tournament")
    assert not cancelled.ephemeral and "cancelled" in cancelled.content
    assert (await state())[4] == "cancelled"
