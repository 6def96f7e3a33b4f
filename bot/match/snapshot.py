"""A match's state at one version as text, so a long match loads without replaying its whole log.

A match is the replay of its log, and replaying thousands of actions takes the engine a
good fraction of a second. Every `SNAPSHOT_EVERY` versions the book stores the state as it
stands (the game's own `Game.snapshot`, which keeps what its draw rules count, plus what the
host tracks: how many steps were played with the recent ones and every ending, an undo point,
a pending proposal, secret setups), and a load starts from the newest snapshot that leaves at
least `TAIL` entries to replay, so the events of recent actions (which boards highlight) are
rebuilt by that replay. Format 2 keeps no older steps (they are in the log), and with an undo
point it keeps the game once (the undo point and the last action), so only the repetition keys
a game's draw rules need grow with the match (at most 8 bytes a position; docs/architecture.md).
Format 1 (every step, the game twice) still loads.

A snapshot is derived data: one that does not restore (written by an incompatible version)
is ignored and the log is replayed from its start, which gives the same state.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from bot.match.played import KEPT as STEPS_KEPT
from bot.match.played import Played, PlayedLog
from bot.match.state import MatchState, Proposal, ProposalKind
from engine.api import EndingKind
from engine.archive import ArchiveLookup

FORMAT = 2
FORMATS = (1, 2)  # format 1 kept every step played; it loads, and keeps the recent ones only
SNAPSHOT_EVERY = 100  # versions between snapshots of a match
TAIL = 32  # log entries a load replays at least: the recent actions a board highlights
KEPT = 2  # snapshots kept per match: with TAIL < SNAPSHOT_EVERY one is always far enough back


def due(before: int, after: int) -> bool:
    """Whether committing versions `before + 1` to `after` passes a snapshot point."""
    return after // SNAPSHOT_EVERY > before // SNAPSHOT_EVERY


def dump(state: MatchState) -> str | None:
    """The host's part of `state` and the game's snapshot; None if the game keeps none."""
    rules = state.rules
    if state.undo_point is not None:
        # The game is the undo point and the last action: its repetition keys once, not twice.
        game, undo_point = None, rules.snapshot(state.undo_point)
        if undo_point is None:
            return None
    else:
        game, undo_point = rules.snapshot(state.game), None
        if game is None:
            return None
    proposal = state.proposal
    data: dict[str, Any] = {
        "format": FORMAT,
        "game": rules.slug,
        "version": state.version,
        "board_version": state.board_version,
        "position": rules.notation(state.game),
        "state": game,  # None: the undo point after the last action
        "undo_point": undo_point,
        "undone": state.undone,
        "proposal": None if proposal is None else {
            "kind": proposal.kind.value, "by": proposal.by, "agreed": sorted(proposal.agreed, key=str),
            "seq": proposal.seq, "side": proposal.side,
        },
        "setup": dict(state.setup),
        "revealed_setup": dict(state.revealed_setup),
        # Played steps as [seq, seat, user, action] (+ [ending, side] for an ending): how many,
        # the last ones (what boards and undo look at) and every ending (the log cannot tell them).
        "played": len(state.played),
        "recent": [_step(p) for p in state.played.kept()[-STEPS_KEPT:]],
        "endings": [_step(p) for p in state.played.endings],
    }  # fmt: skip
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def load(begun: MatchState, text: str, memo: dict[tuple[int, int], int] | None = None) -> MatchState:
    """`begun` (the match as created: rules, seats, options) brought to the snapshot's version.
    Raises ValueError if the text is not a snapshot this release and this match can use;
    ArchiveLookup if the host must answer first (its answers kept in `memo`: engine/archive.py)."""
    try:
        data = json.loads(text)
        if data["format"] not in FORMATS or data["game"] != begun.rules.slug:
            raise ValueError("a snapshot of another format or game")
        rules = begun.rules
        undo_point = None if data["undo_point"] is None else rules.restore(data["undo_point"])
        if undo_point is not None and memo is not None:
            rules.share_answers(undo_point, memo)
        if data["format"] == 1:
            every = [_played(step) for step in data["played"]]
            played = PlayedLog.restored(len(every), every[-STEPS_KEPT:], [p for p in every if p.action is None])
        else:
            recent = [_played(step) for step in data["recent"]]
            played = PlayedLog.restored(int(data["played"]), recent, [_played(step) for step in data["endings"]])
        if data["state"] is not None:
            game = rules.restore(data["state"])
            if memo is not None:
                rules.share_answers(game, memo)
        else:  # format 2 with an undo point: the last action played again on it
            last = played[-1]
            game, events = rules.apply(undo_point, rules.parse_action(last.action or ""))
            played = played.dropped_last().appended(replace(last, events=tuple(events)))
            if rules.notation(game) != data["position"]:
                raise ValueError("the last action does not lead to the snapshot's position")
        proposal = data["proposal"]
        return replace(
            begun,
            game=game,
            version=int(data["version"]),
            board_version=int(data["board_version"]),
            played=played,
            undo_point=undo_point,
            undone=bool(data["undone"]),
            proposal=None if proposal is None else Proposal(
                ProposalKind(proposal["kind"]), proposal["by"], frozenset(proposal["agreed"]), int(proposal["seq"]),
                proposal["side"],
            ),
            setup=dict(data["setup"]),
            revealed_setup=dict(data["revealed_setup"]),
        )  # fmt: skip
    except (ValueError, ArchiveLookup):
        raise
    except Exception as error:  # a game's NotationError, a missing key, a wrong type: all mean unusable
        raise ValueError(f"an unusable snapshot: {error!r}") from error


def _step(played: Played) -> list[Any]:
    step: list[Any] = [played.seq, played.seat, played.user_id, played.action]
    if played.ending is not None or played.side is not None:
        step += [played.ending.value if played.ending is not None else None, played.side]
    return step


def _played(step: list[Any]) -> Played:
    seq, seat, user, action, *rest = step
    ending, side = rest if rest else (None, None)
    return Played(int(seq), str(seat), user, action, None, EndingKind(ending) if ending else None, side)
