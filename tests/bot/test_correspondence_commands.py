"""Issue 20's names where the group has room: `/<game> vacation days:`, `pause choice:`, `resume`
(and `rematch`, `forecast lines:`: tests/bot/test_rematch.py) on a game whose group holds them,
doing what Nika's folded forms do (`settings vacation:`, `settings pause:`:
tests/bot/test_clocks_discord.py), and every text naming the form the game has."""

from __future__ import annotations

from pathlib import Path

from bot.clock import ManualClock
from bot.commands.forms import event_command, typed
from bot.console import Console
from bot.service import MatchService
from engine.i18n import using
from render.words import catalog
from tests.bot.discord_harness import Players, running, service_of, slash
from tests.discord_double import DiscordDouble

HOUR = 3600.0


async def test_vacation_pause_and_resume_subcommands_on_discord(
    double: DiscordDouble, players: Players, tmp_path: Path
) -> None:
    p, clock = players, ManualClock()
    async with running(double, str(tmp_path / "pikemen.db"), clock=clock) as bot:
        assert bot.timers is not None
        await slash(double, p.alice, "new", {"seat": "red", "deadline": "2"}, group="pikemen")
        await slash(double, p.bob, "join", {"seat": "blue"}, group="pikemen")
        await slash(double, p.alice, "start", group="pikemen")
        # Accepting before anyone offered: refused, naming Pikemen's own command.
        early = await slash(double, p.bob, "pause", {"choice": "accept"}, group="pikemen")
        assert early.ephemeral
        assert "Nobody has offered a pause: /pikemen pause choice:offer proposes one." in early.content
        offered = await slash(double, p.alice, "pause", {"choice": "offer"}, group="pikemen")
        assert offered.ephemeral and "the channel is told" in offered.content
        said = await double.wait_for_message(lambda m: "offers to pause every clock" in m.content and not m.ephemeral)
        assert "/pikemen pause choice:accept or decline" in said.content
        await slash(double, p.bob, "pause", {"choice": "accept"}, group="pikemen")
        agreed = await double.wait_for_message(lambda m: "Everyone agreed" in m.content and not m.ephemeral)
        assert "/pikemen resume" in agreed.content
        await clock.advance(10 * 24 * HOUR)
        await bot.timers.settled()
        board = await slash(double, p.bob, "board", group="pikemen")
        assert "(paused by agreement)" in board.content and "Red 2d" in board.content
        resumed = await slash(double, p.bob, "resume", group="pikemen")
        assert resumed.ephemeral and "the channel is told" in resumed.content
        await double.wait_for_message(lambda m: "the clocks run again" in m.content and not m.ephemeral)
        # A vacation: the member's clocks stand still, the channel is told until when; 0 ends it.
        away = await slash(double, p.alice, "vacation", {"days": 2}, group="pikemen")
        assert away.ephemeral and "You are on vacation in this server until" in away.content
        await bot.timers.settled()
        told = await double.wait_for_message(lambda m: "is on vacation until" in m.content)
        assert f"<@{p.alice.id}>" in told.content
        shown = await slash(double, p.alice, "vacation", group="pikemen")  # no days: where it stands
        assert "You are on vacation in this server until" in shown.content
        back = await slash(double, p.alice, "vacation", {"days": 0}, group="pikemen")
        assert "Your vacation has ended" in back.content
        row, _ = await service_of(bot).book.load(double.channel.id)
        assert row.clocks_paused_at is None


def test_every_text_names_the_form_the_game_has() -> None:
    """Nika's group is full: its texts name the folded forms; the others' name their own commands,
    in the reader's language too."""
    assert [str(typed("nika", v, "offer")) for v in ("rematch", "pause", "resume", "vacation")] == [
        "/nika start", "/nika settings pause:offer", "/nika settings pause:resume", "/nika settings vacation:offer",
    ]  # fmt: skip
    assert str(typed("nika", "forecast", "show")) == "/nika play forecast:show"
    assert [str(typed("numica", v, "3")) for v in ("rematch", "forecast", "vacation", "pause", "resume")] == [
        "/numica rematch", "/numica forecast lines:3", "/numica vacation days:3", "/numica pause choice:3",
        "/numica resume",
    ]  # fmt: skip
    with using(catalog("es")):
        assert str(typed("numica", "vacation", "3")) == "/numica vacaciones días:3"
        assert str(typed("nika", "vacation", "3")) == "/nika ajustes vacaciones:3"
        # Events: a game's own tournament group where it has one, the top-level group (never translated) elsewhere.
        assert str(event_command("numica", "join")) == "/numica torneo unirse"
        assert str(event_command("nika", "join")) == "/tournament unirse juego:nika"
    assert str(event_command("nika", "list")) == "/tournament list game:nika"


async def test_the_console_types_and_completes_the_new_subcommands(tmp_path: Path) -> None:
    service = await MatchService.open(str(tmp_path / "console.db"))
    lines: list[str] = []
    try:
        console = Console(service, tmp_path / "boards", out=lines.append)
        await console.load_names()
        assert {"rematch ", "resume "} <= set(await console.completions("/pikemen re"))
        assert {"pause ", "play "} <= set(await console.completions("/pikemen p"))
        assert await console.completions("/pikemen pause choice:") == [
            "choice:offer ", "choice:accept ", "choice:decline "]  # fmt: skip
        assert "days:" in " ".join(await console.completions("/pikemen vacation d"))
        assert await console.handle("/pikemen new seat:red")
        await console.handle("as @bob")
        await console.handle("/pikemen join seat:blue")
        await console.handle("/pikemen start")
        await console.handle("/pikemen vacation days:3")
        assert "You are on vacation in this server until" in "\n".join(lines[-3:])
        await console.handle("/pikemen vacation days:0")
        await console.handle("/pikemen pause choice:offer")
        assert "offers to pause every clock" in "\n".join(lines[-3:])
        await console.handle("as @alice")
        await console.handle("/pikemen pause choice:accept")
        assert "Everyone agreed" in "\n".join(lines[-3:])
        await console.handle("/pikemen resume")
        assert "the clocks run again" in "\n".join(lines[-4:])
        state = await service.state_of(1)
        first = next(a.notation() for a in state.rules.legal_actions(state.game))
        await console.handle(f"/pikemen play action:{first}")  # alice (red) moves
        state = await service.state_of(1)
        theirs = next(a for a in state.rules.legal_actions(state.game))
        after, _ = state.rules.apply(state.game, theirs)
        mine = next(a.notation() for a in state.rules.legal_actions(after))
        await console.handle(f"/pikemen forecast lines:{theirs.notation()} > {mine}")
        assert "only you see it" in "\n".join(lines[-3:])
        await console.handle("/pikemen forecast")
        assert mine in "\n".join(lines[-3:])
        await console.handle("/pikemen resign")
        await console.handle("/pikemen resign")
        await console.handle("/pikemen rematch")
        assert "wants a rematch" in "\n".join(lines[-3:]) and "/pikemen rematch" in "\n".join(lines[-3:])
        await console.handle("as @bob")
        await console.handle("/pikemen rematch")
        _, rematched = await service.book.load(1)
        assert dict(rematched.seats) == {"red": console.ids["bob"], "blue": console.ids["alice"]}
    finally:
        await service.close()


async def test_the_help_page_on_play_across_days_names_each_games_commands(tmp_path: Path) -> None:
    from bot.commands.dispatch import Invoker, dispatch

    service = await MatchService.open(str(tmp_path / "help.db"))
    try:
        nika = (await dispatch(service, Invoker(1, 2, 3), "nika", "help", {"topic": "days"})).text
        numica = (await dispatch(service, Invoker(1, 2, 3), "numica", "help", {"topic": "days"})).text
    finally:
        await service.close()
    for folded in ("`/nika start`", "`/nika play forecast:show`", "`/nika settings vacation:7`",
                   "`/nika settings pause:offer`", "`/nika settings pause:resume`"):  # fmt: skip
        assert folded in nika
    for own in ("`/numica rematch`", "`/numica forecast lines:show`", "`/numica vacation days:7`",
                "`/numica pause choice:offer`", "`/numica resume`"):  # fmt: skip
        assert own in numica
    assert "settings vacation" not in numica and "play forecast" not in numica


async def test_a_games_own_tournament_group_in_the_console(tmp_path: Path) -> None:
    """`/numica tournament …` (and `torneo` in Spanish) as on Discord, Tab completing it; an event
    it opens is the one `/tournament … game:numica` sees."""
    service = await MatchService.open(str(tmp_path / "events.db"))
    lines: list[str] = []
    try:
        console = Console(service, tmp_path / "boards", out=lines.append)
        await console.load_names()
        assert "tournament " in await console.completions("/numica t")
        assert "tournament " not in await console.completions("/nika t")  # Nika's group is full
        assert await console.completions("/numica tournament st") == ["start ", "standings "]
        assert "format:swiss " in await console.completions("/numica tournament new format:")
        for line in ["/numica tournament new format:round-robin title:Club night", "as @bob",
                     "/numica tournament join", "as @alice", "/numica tournament start",
                     "/tournament standings game:numica text:yes", "/numica tournament frobnicate"]:  # fmt: skip
            assert await console.handle(line)
        text = "\n".join(lines)
        assert "opened the event **Club night**" in text and "@bob joined **Club night**" in text
        assert "**Club night** begins with 2 entrants" in text and "1=. alice" in text
        assert "✗ there is no /tournament frobnicate" in text
        await console.handle("/nika tournament list")  # not a command of Nika's group
        assert lines[-1].startswith("✗"), lines[-1]
    finally:
        await service.close()


async def test_a_spanish_speaker_types_the_tournament_commands_in_spanish(tmp_path: Path) -> None:
    """The console understands the event commands and their options as Discord shows them in
    Spanish (`/numica torneo nueva formato:suizo`), as it does for every game command."""
    service = await MatchService.open(str(tmp_path / "eventos.db"))
    lines: list[str] = []
    try:
        console = Console(service, tmp_path / "boards", out=lines.append, locale="es")
        await console.load_names()
        for line in ["/numica torneo nueva formato:suizo título:Noche de club", "/tournament lista juego:numica"]:
            assert await console.handle(line)
        text = "\n".join(lines)
        assert "**Noche de club**" in text and "✗" not in text, text
        assert lines[-1] == "#1 **Noche de club** · suizo · inscripción · 1 participante", lines[-1]
    finally:
        await service.close()
