"""Every secret stays secret: a computer's hidden choice (Numica's back row, set up in secret)
cannot be learnt from anything public before the reveal, tried as an outsider would.

The outsider sees what any member of the server may ask for while the rows are secret: the
board and its alt text, the status, the history, the game record (with the match's seed), the
replay, the notices in the channel, the autocomplete of the setup option, /mygames and the
standings. From those it tries to reproduce the computer's row, including the way the computer
once drew it (a random generator seeded from the match's seed and version).
"""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator, Iterator

import pytest

from bot.clock import ManualClock
from bot.commands.dispatch import Invoker, autocomplete, dispatch
from bot.dispatcher import TimerDispatcher
from bot.errors import ServiceError
from bot.replies import Notice, Reply
from bot.service import MatchService
from bot.service.computer import ComputerPlayers
from tests.bot.conftest import ALICE, EVE, GUILD, FrontEnd

MATCHES = 12
SEED = 7  # every match starts from the same seed, so all that is public is the same in each


@pytest.fixture(scope="module")
def computers() -> Iterator[ComputerPlayers]:
    pool = ComputerPlayers(workers=1)  # a setup choice needs no search: no process is started
    yield pool
    pool._pool.shutdown(wait=True, cancel_futures=True)


class Table:
    """A service driven as the front ends drive it, with the timer task posting into a list."""

    def __init__(self, service: MatchService, clock: ManualClock) -> None:
        self.service = FrontEnd(service)
        self.clock = clock
        self.notices: list[Notice] = []
        self.dispatcher = TimerDispatcher(service, self.announce)

    async def announce(self, notice: Notice, nonce: str) -> int:
        self.notices.append(notice)
        return len(self.notices)

    async def after(self, seconds: float) -> None:
        await self.clock.advance(seconds)
        await self.dispatcher.settled()


@pytest.fixture
async def table(db_path: str, computers: ComputerPlayers) -> AsyncIterator[Table]:
    clock = ManualClock()
    service = await MatchService.open(db_path, clock=clock, computers=computers, lobbies_per_member=MATCHES)
    table = Table(service, clock)
    table.dispatcher.start()
    yield table
    await table.dispatcher.stop()
    await service.close()


def texts_of(reply: Reply) -> list[str]:
    found = [reply.text]
    for item in (reply.image, reply.file):
        if item is not None:
            found.append(item.description)
            if item.filename.endswith(".json"):
                found.append(item.data.decode())
    return found


async def public_view(service: MatchService, channel: int) -> tuple[list[str], dict[str, object]]:
    """Everything an outsider (and the human player) can see of the match now, and its record."""
    eve, alice = Invoker(GUILD, channel, EVE, rate_limited=False), Invoker(GUILD, channel, ALICE, rate_limited=False)
    seen: list[str] = []
    for who, command, options in ((eve, "board", {}), (eve, "history", {}), (eve, "replay", {"format": "record"}),
                                  (alice, "mygames", {}), (eve, "stats", {})):  # fmt: skip
        seen += texts_of(await dispatch(service, who, "numica", command, options))
    seen += texts_of(await service.status(channel))
    with pytest.raises(ServiceError):  # nothing has been played: there is no animation to show
        await dispatch(service, eve, "numica", "replay", {})
    record = json.loads((await service.export(channel)).file.data)  # type: ignore[union-attr]
    assert await autocomplete(service, eve, "numica", "setup", "choice", {}) == []  # not a player: nothing
    state = await service.state_of(channel)
    every_row = [c.value for c in state.rules.setup_choices(state.game, "red")]
    offered = await autocomplete(service, alice, "numica", "setup", "choice", {})
    assert [s.value for s in offered] == every_row[: len(offered)]  # every row, whatever the computer chose
    return seen, record


def guesses(record: dict[str, object], choices: list[str]) -> set[str]:
    """The rows an outsider derives from the record: the computer's old generator, seeded by the
    match's seed and its version (tried for every version up to ten), and the seed alone."""
    seed = int(str(record["seed"]))
    derived = {random.Random(seed * 1_000_003 + version).choice(choices) for version in range(10)}
    return derived | {random.Random(seed).choice(choices), random.Random(f"{seed}:blue").choice(choices)}


async def test_a_computers_secret_row_cannot_be_derived_from_anything_public(table: Table) -> None:
    service = table.service
    rows, hits = [], 0
    for channel in range(1, MATCHES + 1):
        await service.new_match(GUILD, channel, ALICE, "red", game="numica", options={"setup": "choose"}, seed=SEED)
        await service.join(channel, ALICE, "blue", computer="hard")
        await service.start(channel, ALICE)
        await table.after(2)  # the computer's turn to set up comes due, and it chooses
        state = await service.state_of(channel)
        row = state.setup["blue"]  # the truth, from the service's own memory: not public
        label = next(c.label for c in state.rules.setup_choices(state.game, "blue") if c.value == row)
        seen, record = await public_view(service.raw, channel)
        seen += [text for notice in table.notices for text in texts_of(notice.reply)]
        assert record["seed"] == SEED and not record.get("setup")  # no row in the record before the reveal
        assert not [text for text in seen if row in text or label in text], "a public text names the row"
        choices = [c.value for c in state.rules.setup_choices(state.game, "blue")]
        hits += row in guesses(record, choices)
        rows.append(row)
    # Twelve matches alike in every public detail got rows the outsider could not tell in advance:
    # as varied as chance makes them, and its best guesses right no more often than chance is.
    assert len(set(rows)) >= MATCHES // 2, rows
    assert hits <= 6, f"the outsider's guesses named the computer's row in {hits} of {MATCHES} matches"
