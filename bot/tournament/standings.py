"""Standings: points, then each format's tie-breaks in order, then the seed.

- Round robin: head-to-head, Sonneborn–Berger, games won.
- Swiss: Buchholz, median Buchholz, head-to-head, games won.
- Pods: Buchholz (per game, the mean of the opponents' scores), head-to-head, games won.
- Knockout: the round reached (the champion, the finalist, the semi-finalists sharing
  third place, …).

Conventions for games without play, after FIDE's tie-break practice:

- A participant's own unplayed rounds (a bye, rounds after withdrawing) count in their
  Buchholz as a game against a dummy opponent with the participant's own score.
- An opponent's unplayed rounds (their byes, the rounds after they withdrew) count as draws
  when their score is taken for your Buchholz, so nobody's tie-break suffers because an
  opponent drew a bye or left.
- Median Buchholz drops the highest and the lowest contribution (with three or more);
  rounds missed after withdrawing are dropped first, as FIDE cuts voluntary unplayed rounds.
- Sonneborn–Berger adds, for each game, the points scored against an opponent times the
  opponent's final score. In a round robin a withdrawn entrant's remaining games are forfeit
  wins for their opponents and count as played, as FIDE counts them in round robins.
- Head-to-head ranks a tied group by the points its members scored against one another,
  only when every two of them have met (otherwise it leaves them tied). When a later
  tie-break splits a group, head-to-head is taken again within each smaller group.
- Withdrawn entrants keep their place from the results they played, marked as withdrawn.
- A tie that survives everything shares the place; the list then shows the better seed first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from bot.tournament import knockout
from bot.tournament.model import EntrantId, EventState, Format
from bot.tournament.records import HALF, Record, pair_score, records


class TieBreak(StrEnum):
    BUCHHOLZ = "buchholz"
    MEDIAN_BUCHHOLZ = "median-buchholz"
    SONNEBORN_BERGER = "sonneborn-berger"
    HEAD_TO_HEAD = "head-to-head"
    WINS = "wins"
    ROUND_REACHED = "round-reached"


TIE_BREAKS: dict[Format, tuple[TieBreak, ...]] = {
    Format.ROUND_ROBIN: (TieBreak.HEAD_TO_HEAD, TieBreak.SONNEBORN_BERGER, TieBreak.WINS),
    Format.SWISS: (TieBreak.BUCHHOLZ, TieBreak.MEDIAN_BUCHHOLZ, TieBreak.HEAD_TO_HEAD, TieBreak.WINS),
    Format.PODS: (TieBreak.BUCHHOLZ, TieBreak.HEAD_TO_HEAD, TieBreak.WINS),
    Format.KNOCKOUT: (TieBreak.ROUND_REACHED,),
}


@dataclass(frozen=True, slots=True)
class Standing:
    entrant: EntrantId
    place: int  # shared by entrants tied on everything
    shared: bool  # True when another entrant has the same place
    points: Fraction
    tie_breaks: dict[TieBreak, Fraction] = field(default_factory=dict)  # head-to-head is relative: not listed
    played: int = 0  # games decided, forfeits included
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    withdrawn: bool = False
    eliminated: int | None = None  # knockout: the round lost in (None: still in, or champion)


def adjusted_score(record: Record, state: EventState) -> Fraction:
    """An opponent's score as your Buchholz takes it: their byes and the rounds they missed
    after withdrawing count as draws."""
    paired = len(state.rounds)
    missed = sum(1 for r in range(1, paired + 1) if _absent(record, state, r))
    return sum((g.points for g in record.games), Fraction(0)) + HALF * (len(record.byes) + missed)


def _absent(record: Record, state: EventState, round_number: int) -> bool:
    """Not paired in that round because they had withdrawn."""
    after = state.withdrawn.get(record.entrant)
    return after is not None and round_number > after


# One criterion applied to a tied group: a value per member (higher is better), or None when it
# cannot decide for this group (head-to-head among players who have not all met).
Step = Callable[[list[EntrantId]], dict[EntrantId, Fraction] | None]
Contribution = tuple[Fraction, bool]  # a round's value for Buchholz, and whether it was a voluntary unplayed round


def _contributions(record: Record, state: EventState, adjusted: dict[EntrantId, Fraction]) -> list[Contribution]:
    """Per round: (value for Buchholz, whether it is a voluntary unplayed round)."""
    own = record.points
    values: list[tuple[Fraction, bool]] = []
    by_round: dict[int, list[Fraction]] = {}
    for game in record.games:
        if game.opponents:
            mean = sum((adjusted[o] for o in game.opponents), Fraction(0)) / len(game.opponents)
            by_round.setdefault(game.round, []).append(mean)
    for number in range(1, len(state.rounds) + 1):
        if number in by_round:
            games = by_round[number]
            values.append((sum(games, Fraction(0)) / len(games), False))  # knockout replays: one round
        elif number in record.byes:
            values.append((own, False))
        elif _absent(record, state, number):
            values.append((own, True))
    return values


def buchholz(values: Sequence[tuple[Fraction, bool]]) -> Fraction:
    return sum((v for v, _ in values), Fraction(0))


def median_buchholz(values: Sequence[tuple[Fraction, bool]]) -> Fraction:
    if len(values) < 3:
        return buchholz(values)
    remaining = list(values)
    voluntary = [v for v in remaining if v[1]]
    remaining.remove(min(voluntary) if voluntary else min(remaining))
    remaining.remove(max(remaining))
    return buchholz(remaining)


def sonneborn_berger(record: Record, everyone: dict[EntrantId, Record]) -> Fraction:
    total = Fraction(0)
    for game in record.games:
        for index, side in enumerate(game.table.sides):
            if index != game.side:
                score = pair_score(game.result, game.side, index)
                total += sum((score * everyone[o].points for o in side), Fraction(0))
    return total


def head_to_head(group: Sequence[EntrantId], everyone: dict[EntrantId, Record]) -> dict[EntrantId, Fraction] | None:
    """Points scored among the group, or None unless every two of them have met."""
    members = set(group)
    scores = dict.fromkeys(group, Fraction(0))
    met: set[frozenset[EntrantId]] = set()
    for entrant in group:
        for game in everyone[entrant].games:
            for index, side in enumerate(game.table.sides):
                if index == game.side:
                    continue
                for other in side:
                    if other in members:
                        scores[entrant] += pair_score(game.result, game.side, index)
                        met.add(frozenset((entrant, other)))
    pairs = len(group) * (len(group) - 1) // 2
    return scores if len(met) == pairs else None


def standings(state: EventState) -> list[Standing]:
    """Everyone in order, best first."""
    if state.event.format is Format.KNOCKOUT:
        return _knockout_standings(state)
    everyone = records(state)
    adjusted = {e: adjusted_score(r, state) for e, r in everyone.items()}
    criteria = TIE_BREAKS[state.event.format]
    values: dict[EntrantId, dict[TieBreak, Fraction]] = {}
    for entrant, record in everyone.items():
        contributions = _contributions(record, state, adjusted)
        found: dict[TieBreak, Fraction] = {}
        for criterion in criteria:
            if criterion is TieBreak.BUCHHOLZ:
                found[criterion] = buchholz(contributions)
            elif criterion is TieBreak.MEDIAN_BUCHHOLZ:
                found[criterion] = median_buchholz(contributions)
            elif criterion is TieBreak.SONNEBORN_BERGER:
                found[criterion] = sonneborn_berger(record, everyone)
            elif criterion is TieBreak.WINS:
                found[criterion] = Fraction(sum(1 for g in record.games if g.won))
        values[entrant] = found
    seeds = {e.id: i for i, e in enumerate(state.event.seeded)}

    def absolute(criterion: TieBreak) -> Step:
        return lambda group: {e: values[e][criterion] for e in group}

    tie_breaks: list[Step] = []
    for criterion in criteria:
        if criterion is TieBreak.HEAD_TO_HEAD:
            tie_breaks.append(lambda group: head_to_head(group, everyone))
        else:
            tie_breaks.append(absolute(criterion))
    points: Step = lambda group: {e: everyone[e].points for e in group}  # noqa: E731
    groups = _refine(sorted(everyone, key=lambda e: seeds[e]), [points, *tie_breaks], tie_breaks)
    table: list[Standing] = []
    for group in groups:
        place = len(table) + 1
        for entrant in group:
            record = everyone[entrant]
            table.append(_standing(record, place, len(group) > 1, dict(values[entrant]), state))
    return table


def _refine(group: list[EntrantId], steps: Sequence[Step], restart: Sequence[Step]) -> list[list[EntrantId]]:
    """Split a group (in seed order) by each step in turn: a list of still-tied groups, best
    first. A group a step splits off starts the tie-breaks again (`restart`), so head-to-head is
    taken afresh among fewer players; the absolute tie-breaks it already shares change nothing."""
    if len(group) < 2 or not steps:
        return [group]
    values = steps[0](group)
    if values is None or len(set(values.values())) == 1:
        return _refine(group, steps[1:], restart)
    ordered: list[list[EntrantId]] = []
    for value in sorted(set(values.values()), reverse=True):
        ordered.extend(_refine([e for e in group if values[e] == value], restart, restart))
    return ordered


def _standing(record: Record, place: int, shared: bool, tie_breaks: dict[TieBreak, Fraction], state: EventState,
              eliminated: int | None = None) -> Standing:  # fmt: skip
    wins = sum(1 for g in record.games if g.won)
    draws = sum(1 for g in record.games if g.drawn)
    return Standing(
        record.entrant, place, shared, record.points, tie_breaks, len(record.games), wins, draws,
        len(record.games) - wins - draws, len(record.byes), record.entrant in state.withdrawn, eliminated,
    )  # fmt: skip


def _knockout_standings(state: EventState) -> list[Standing]:
    everyone = records(state)
    seeds = {e.id: i for i, e in enumerate(state.event.seeded)}
    total = knockout.rounds_in(len(state.event.entrants))
    lost_in: dict[EntrantId, int] = {}
    champion: EntrantId | None = None
    for row in knockout.ties(state):
        for tie in row:
            if tie.loser is not None:
                lost_in[tie.loser] = tie.round
            if tie.round == total and tie.decided:
                champion = tie.winner
    # Reached: the champion one past the final; others the round they lost in, or are playing.
    reached = {e: lost_in.get(e, total + 1 if e == champion else len(state.rounds)) for e in everyone}

    def key(entrant: EntrantId) -> tuple[int, int, int]:
        still_in = 0 if entrant not in lost_in else 1
        return (-reached[entrant], still_in, seeds[entrant])

    order = sorted(everyone, key=key)
    table: list[Standing] = []
    for entrant in order:
        record = everyone[entrant]
        ahead = [s for s in table if key(s.entrant)[:2] == key(entrant)[:2]]
        place = ahead[0].place if ahead else len(table) + 1
        eliminated = lost_in.get(entrant)
        table.append(_standing(record, place, False, {TieBreak.ROUND_REACHED: Fraction(reached[entrant])}, state,
                               eliminated))  # fmt: skip
    return [
        Standing(s.entrant, s.place, sum(1 for t in table if t.place == s.place) > 1, s.points, s.tie_breaks,
                 s.played, s.wins, s.draws, s.losses, s.byes, s.withdrawn, s.eliminated)
        for s in table
    ]  # fmt: skip


def winners(state: EventState) -> tuple[EntrantId, ...]:
    """Everyone in first place."""
    table = standings(state)
    return tuple(s.entrant for s in table if s.place == 1)
