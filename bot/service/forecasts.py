"""Forecasts (conditional moves): the player who has just moved stores, privately, lines such as
"if they play A, I play B, then if they play C, I play D". When the opponent's turn ends exactly
as a line begins, in the position the line was made for, its answer is played at once as that
player's action and posted as usual, marked as a forecast; a turn that matches no line discards
the forecast. Any undo or ending clears every forecast of the match (`MatchBook.commit`).

Text is parsed at the edge: lines are separated by `;` (or new lines), the turns of a line by `>`,
and the actions of one turn (a game of two actions a turn) by `,`; every action in the game's notation. Each line is
played through on the position when it is stored, so a line that cannot happen is refused then.
Only two-sided games of two players: with more, "the next player" is not one opponent."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from bot import texts
from bot.commands.forms import typed
from bot.errors import BoardChanged, NotAllowed, NotInMatch, ServiceError
from bot.match import Entry, EntryKind, MatchState
from bot.replies import Reply
from bot.service.book import MatchBook
from bot.service.notices import notice_json, notice_now
from bot.service.play import Play
from bot.storage import Connection, outbox
from bot.storage import forecasts as stored
from bot.storage.forecasts import ForecastRow
from engine.errors import IllegalAction
from engine.i18n import M, P

LINES_MAX = 20
TURNS_MAX = 8  # turns in one line: theirs and yours, four each
TEXT_MAX = 1500
CLEAR_WORDS = ("clear", "none", "off", "borrar", "ninguna")


@dataclass(frozen=True, slots=True)
class Line:
    turns: tuple[tuple[str, ...], ...]  # their turn, your answer, their turn, … (canonical notation)
    keys: tuple[str, ...]  # the position after each of their turns, as the line expects it

    def as_json(self) -> dict[str, Any]:
        return {"turns": [list(turn) for turn in self.turns], "keys": list(self.keys)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Line:
        return cls(tuple(tuple(str(a) for a in turn) for turn in data["turns"]), tuple(str(k) for k in data["keys"]))

    def text(self) -> str:
        return " > ".join(", ".join(turn) for turn in self.turns)


def position_key(rules: Any, game: Any) -> str:
    """A position's key: its notation hashed (what a forecast was made for)."""
    return hashlib.sha256(rules.notation(game).encode()).hexdigest()[:24]


def split_lines(text: str) -> list[list[list[str]]]:
    """`A1, A2 > B1, B2 ; C > D` → lines of turns of actions (texts, not parsed yet)."""
    lines = []
    for raw in text.replace("\n", ";").split(";"):
        if not raw.strip():
            continue
        turns = [[a.strip() for a in turn.split(",")] for turn in raw.split(">")]
        if any(not a for turn in turns for a in turn):
            raise ServiceError(M("a forecast line has an empty move: write moves between the > and , signs"))
        lines.append(turns)
    return lines


class Forecasts:
    def __init__(self, book: MatchBook, play: Play) -> None:
        self.book = book
        self.play = play
        # The matches that may hold a forecast, read once per process (then kept up to date here),
        # so an action in a match without one costs no extra round trip to the database.
        self._matches: set[int] | None = None

    async def _may_hold(self, match_id: int) -> bool:
        if self._matches is None:
            async with self.book.storage.reading() as db:
                self._matches = await stored.matches_with(db)
        return match_id in self._matches

    # --- storing ---------------------------------------------------------------------------
    async def forecast(self, channel_id: int, user_id: int, lines: str | None) -> Reply:
        """Store (or with no lines show, with `clear` remove) this member's forecast; private."""
        row, state = await self.play.loaded(channel_id)
        mine, theirs = _sides(state, user_id)
        if lines is None or lines.strip().lower() in CLEAR_WORDS:
            async with self.book.storage.transaction() as db:
                kept = [f for f in await stored.of_match(db, row.id) if f.user_id == user_id]
                if lines is not None:
                    await stored.remove(db, row.id, user_id)
            if lines is not None:
                return Reply(str(M("Your forecast is cleared.")), private=True)
            if not kept:
                return Reply(str(M("You have no forecast in this match. {how}", how=_how(row.game))), private=True)
            shown = [Line.from_json(d).text() for d in json.loads(kept[0].lines)]
            listed = "\n".join(f"• {s}" for s in shown)
            return Reply(str(M("Your forecast (only you see it):")) + "\n" + listed, private=True)
        if len(lines) > TEXT_MAX:
            raise ServiceError(M("a forecast is at most {count} characters", count=TEXT_MAX))
        seat = state.to_act
        if seat is None or state.side_of(seat) != theirs or state.in_setup():
            raise NotAllowed(M("a forecast is made after your move, while your opponent is to play"))
        if state.rules.actions_left(state.game) != state.rules.actions_per_turn:
            raise NotAllowed(M("your opponent's turn has begun: a forecast is made before it does"))
        parsed = split_lines(lines)
        if not parsed:
            raise ServiceError(M("write at least one line: {how}", how=_how(row.game)))
        if len(parsed) > LINES_MAX:
            raise ServiceError(M("a forecast has at most {count} lines", count=LINES_MAX))
        checked = _checked(state, mine, theirs, parsed)
        forecast = ForecastRow(row.id, user_id, _side_seats(state, mine)[0], state.version,
                               position_key(state.rules, state.game),
                               json.dumps([line.as_json() for line in checked]))  # fmt: skip
        await self._may_hold(row.id)
        async with self.book.storage.transaction() as db:
            await stored.put(db, forecast, self.book.clock.now())
        assert self._matches is not None
        self._matches.add(row.id)
        said = P("Forecast stored (only you see it): {count} line. It is cleared by an undo or a turn that "
                 "matches no line.",
                 "Forecast stored (only you see it): {count} lines. It is cleared by an undo or a turn that "
                 "matches no line.", count=len(checked))  # fmt: skip
        return Reply(f"{said}\n" + "\n".join(f"• {line.text()}" for line in checked), private=True)

    # --- answering ---------------------------------------------------------------------------
    async def respond(self, match_id: int, *, as_notice: bool = False) -> Reply | None:
        """After a turn ended: play the answer of a forecast whose line the turn matched (its post,
        backed up for the front end, or with `as_notice` stored as a notice to post), and discard
        forecasts the turn did not match."""
        if not await self._may_hold(match_id):
            return None
        row, state = await self.book.load_match(match_id)
        if row.status != "active" or state.is_over or state.to_act is None:
            return None
        async with self.book.storage.reading() as db:
            found = await stored.of_match(db, row.id)
        for forecast in found:
            mine = state.side_of(forecast.seat)
            if state.side_of(state.to_act) != mine:
                continue  # their turn is not over yet
            turn = _last_turn(state, mine)
            key = position_key(state.rules, state.game)
            lines = [Line.from_json(d) for d in json.loads(forecast.lines)]
            matching = [ln for ln in lines if ln.turns[0] == turn and ln.keys[0] == key]
            if not matching or forecast.version >= state.version or state.acting_user() != forecast.user_id:
                async with self.book.storage.transaction() as db:
                    await stored.remove(db, row.id, forecast.user_id)
                continue
            return await self._answer(row, state, forecast, matching, as_notice)
        return None

    async def _answer(self, row: Any, state: MatchState, forecast: ForecastRow, matching: list[Line],
                      as_notice: bool) -> Reply | None:  # fmt: skip
        answer = matching[0].turns[1]
        entries = [Entry(EntryKind.ACTION, forecast.user_id, text=text) for text in answer]
        try:
            new, events, logged = await self.book.validated(row, state, entries)  # archived keys answered
        except ServiceError:  # cannot happen for a line checked on this position; never play a guess
            async with self.book.storage.transaction() as db:
                await stored.remove(db, row.id, forecast.user_id)
            return None
        rest = [Line(ln.turns[2:], ln.keys[1:]) for ln in matching if ln.turns[1] == answer and len(ln.turns) > 2]
        what = texts.sentence(new.rules.describe(events))
        headline = str(M("{who}'s forecast answers: {what}", who=texts.mention(forecast.user_id), what=what))
        reply = await self.play.board_reply(row, new, headline)
        kept: list[int] = []

        async def also(db: Connection) -> None:
            await stored.remove(db, row.id, forecast.user_id)
            if rest and not new.is_over:
                deeper = ForecastRow(row.id, forecast.user_id, forecast.seat, new.version,
                                     position_key(new.rules, new.game), json.dumps([ln.as_json() for ln in rest]))
                await stored.put(db, deeper, self.book.clock.now())
            if as_notice:
                now = self.book.clock.now()
                await outbox.add(db, row.id, row.guild_id, row.channel_id,
                                 notice_json(notice_now(row.guild_id, row.channel_id, reply)), now)  # fmt: skip
            else:
                kept.append(await self.book.keep_backup(db, row, reply))

        try:
            await self.book.commit(row, state, new, logged, also=also)
        except BoardChanged:  # the match moved meanwhile (another process): the turn it answered is gone
            return None
        return Reply(reply.text, image=reply.image, mentions=reply.mentions, match_id=reply.match_id,
                     game=reply.game, version=reply.version, actionable=reply.actionable, setup=reply.setup,
                     rematch=reply.rematch, notice_ids=tuple(kept))  # fmt: skip


def _how(game: str) -> str:
    return str(M("Write {forecast}; separate lines with ; and the two actions of a turn with a comma.",
                 forecast=typed(game, "forecast", "<their move> > <your answer>")))  # fmt: skip


def _sides(state: MatchState, user_id: int) -> tuple[str, str]:
    """The member's side and their opponent's; refused politely where forecasts do not apply."""
    sides = state.sides
    if len(sides) != 2 or state.player_count != 2:
        raise NotAllowed(M("forecasts are for two-sided games of two players: they are not offered in this match"))
    mine = {state.side_of(s) for s in state.seats_of(user_id)}
    if len(mine) != 1:
        raise NotInMatch(M("you are not playing in this match"))
    side = next(iter(mine))
    if any(state.seats.get(s) != user_id for s in _side_seats(state, side)):
        raise NotInMatch(M("you are not playing in this match"))
    return side, next(s.slug for s in sides if s.slug != side)


def _side_seats(state: MatchState, side: str) -> tuple[str, ...]:
    return next(s.seats for s in state.sides if s.slug == side)


def _last_turn(state: MatchState, mine: str) -> tuple[str, ...]:
    """The actions of the opponent's turn that just ended (canonical), oldest first."""
    found: list[str] = []
    for step in reversed(list(state.played[-16:])):
        if step.action is None or state.side_of(step.seat) == mine:
            break
        found.append(step.action)
    return tuple(reversed(found))


def _checked(state: MatchState, mine: str, theirs: str, parsed: list[list[list[str]]]) -> list[Line]:
    """Each line played through from this position: legal, whole turns, in canonical notation."""
    rules = state.rules
    lines: list[Line] = []
    for number, turns in enumerate(parsed, start=1):
        if len(turns) < 2 or len(turns) % 2 or len(turns) > TURNS_MAX:
            raise ServiceError(M("line {number}: give their turn, then your answer (and so on, at most {most} turns), "
                                 "ending with your answer", number=number, most=TURNS_MAX))  # fmt: skip
        game = rules.detached(state.game)  # a what-if: never waits for archived keys (engine/archive.py)
        done: list[tuple[str, ...]] = []
        keys: list[str] = []
        for index, turn in enumerate(turns):
            side = theirs if index % 2 == 0 else mine
            played: list[str] = []
            for text in turn:
                seat = rules.to_act(game)
                if seat is None or rules.outcome(game) is not None:
                    raise ServiceError(M("line {number}: the game is over before {action}", number=number,
                                         action=text[:40]))  # fmt: skip
                if state.side_of(seat) != side:
                    raise ServiceError(M("line {number}: {action} is one action too many for that turn",
                                         number=number, action=text[:40]))  # fmt: skip
                try:
                    action = rules.canonical(game, rules.parse_action(text))
                    game, _ = rules.apply(game, action)
                except IllegalAction as error:
                    reason = error.args[0] if error.args else ""
                    raise ServiceError(M("line {number}: {action} cannot be played there ({reason})", number=number,
                                         action=text[:40], reason=reason)) from None  # fmt: skip
                played.append(action.notation())
            after = rules.to_act(game)
            if rules.outcome(game) is None and after is not None and state.side_of(after) == side:
                raise ServiceError(P("line {number}: a turn here is {count} action; give them all, separated by commas",
                                     "line {number}: a turn here is {count} actions; give them all, separated by "
                                     "commas", count=rules.actions_per_turn, number=number))  # fmt: skip
            done.append(tuple(played))
            if index % 2 == 0:
                keys.append(position_key(rules, game))
        lines.append(Line(tuple(done), tuple(keys)))
    answers: dict[tuple[str, ...], tuple[str, ...]] = {}
    for line in lines:
        for depth in range(0, len(line.turns), 2):
            asked = tuple(a for turn in line.turns[: depth + 1] for a in (*turn, "|"))
            if answers.setdefault(asked, line.turns[depth + 1]) != line.turns[depth + 1]:
                raise ServiceError(M("two lines answer the same moves differently: {moves}",
                                     moves=" > ".join(", ".join(t) for t in line.turns[: depth + 1])))  # fmt: skip
    return lines
