"""Today's stored rated results recomputed under OpenSkill, read from a real database on both
backends: how the standings are built since OpenSkill replaced Elo (issue 21)."""

from __future__ import annotations

from bot.ratings import RatedResult, ranked, rated_results, recompute
from bot.storage import matches as queries
from bot.storage import open_storage
from bot.storage.matches import NewMatch
from engine.registry import get_game

GUILD = 7
NOW = 1_700_000_000.0
ANA, BEA, CAI, DAN = 11, 22, 33, 44


async def finished(storage, game: str, players: int, seats: dict[str, int], result: str, at: float, *,
                   rated: bool = True, guild: int = GUILD) -> int:  # fmt: skip
    async with storage.transaction() as db:
        match_id = await queries.insert_match(db, NewMatch(game, guild, int(at), ANA, players, "P0", None, rated, at))
        for seat, user in seats.items():
            await queries.take_seats(db, match_id, [seat], user_id=user, computer=None)
        await queries.update_match(db, match_id, status="finished", result=result, rated=rated, updated_at=at)
    return match_id


async def test_stored_results_of_all_three_games_recompute_in_order(db_path: str) -> None:
    storage = await open_storage(db_path)
    try:
        nika_team = {"athens": ANA, "messene": BEA, "sparta": CAI, "thebes": DAN}
        await finished(storage, "nika", 4, nika_team, "athens-messene", NOW + 1)
        await finished(storage, "nika", 2, {"athens": CAI, "sparta": ANA}, "sparta-thebes", NOW + 2)
        await finished(storage, "nika", 2, {"athens": CAI, "sparta": DAN}, "draw", NOW + 3)
        await finished(storage, "nika", 2, {"athens": DAN, "sparta": ANA}, "athens-messene", NOW + 4, rated=False)
        await finished(storage, "numica", 2, {"red": ANA, "blue": BEA}, "blue", NOW + 5)
        pikemen4 = {"red": ANA, "yellow": BEA, "green": CAI, "blue": DAN}
        await finished(storage, "pikemen", 4, pikemen4, "green", NOW + 6)
        await finished(storage, "pikemen", 3, {"red": ANA, "yellow": BEA, "blue": CAI}, "draw:red,blue", NOW + 7)
        await finished(storage, "pikemen", 2, {"red": ANA, "blue": BEA}, "red", NOW + 8, guild=GUILD + 1)
        async with storage.reading() as db:
            rows = {g: await queries.finished_rated_matches(db, GUILD, g) for g in ("nika", "numica", "pikemen")}
    finally:
        await storage.close()

    nika = list(rated_results(get_game("nika"), rows["nika"]))
    assert [(r.sides, r.ranks) for r in nika] == [
        (((ANA, BEA), (CAI, DAN)), (1, 2)), (((CAI,), (ANA,)), (2, 1)), (((CAI,), (DAN,)), (1, 1)),
    ]  # fmt: skip
    # (the unrated match is not among them)
    table = recompute(nika)
    assert (table[ANA].wins, table[BEA].wins, table[CAI].losses, table[CAI].draws) == (2, 1, 2, 1)
    assert ranked(table)[0].user_id == ANA  # two wins, one as a team
    assert table[ANA].display > table[BEA].display > 1000 > table[CAI].display

    numica = recompute(rated_results(get_game("numica"), rows["numica"]))
    assert numica[BEA].display > numica[ANA].display

    pikemen = list(rated_results(get_game("pikemen"), rows["pikemen"]))
    assert [(r.sides, r.ranks) for r in pikemen] == [
        (((ANA,), (BEA,), (CAI,), (DAN,)), (2, 2, 1, 2)), (((ANA,), (BEA,), (CAI,)), (1, 2, 1)),
    ]  # fmt: skip
    # (nor is the other server's match)
    table = recompute(pikemen)
    assert table[CAI].rating.mu > table[ANA].rating.mu > table[BEA].rating.mu
    assert (table[CAI].wins, table[CAI].draws, table[ANA].draws, table[BEA].losses) == (1, 1, 1, 2)

    # The same rows written by hand recompute to exactly the same table: the database adds nothing.
    by_hand = [RatedResult(r.match_id, r.sides, r.ranks) for r in pikemen]
    assert {u: p.rating for u, p in recompute(by_hand).items()} == {u: p.rating for u, p in table.items()}


async def test_the_service_reads_a_servers_stored_results_as_openskill(db_path: str) -> None:
    """An existing database upgraded: its rated results of all three games, oldest first, are the
    server's OpenSkill table at once (the table is derived from them on every read)."""
    from bot.service import MatchService

    storage = await open_storage(db_path)
    try:
        await finished(storage, "nika", 4, {"athens": ANA, "messene": BEA, "sparta": CAI, "thebes": DAN},
                       "athens-messene", NOW + 1)  # fmt: skip
        await finished(storage, "numica", 2, {"red": ANA, "blue": BEA}, "blue", NOW + 2)
        await finished(storage, "pikemen", 3, {"red": ANA, "yellow": BEA, "blue": CAI}, "draw:red,blue", NOW + 3)
        await finished(storage, "pikemen", 2, {"red": CAI, "blue": ANA}, "red", NOW + 4)
        async with storage.reading() as db:
            rows = {g: await queries.finished_rated_matches(db, GUILD, g) for g in ("nika", "numica", "pikemen")}
    finally:
        await storage.close()
    service = await MatchService.open(db_path)
    try:
        for game, stored in rows.items():
            expected = ranked(recompute(rated_results(get_game(game), stored)))
            shown = await service.standings(GUILD, game)
            assert [(p.user_id, p.rating, p.wins, p.losses, p.draws) for p in shown] == [
                (p.user_id, p.rating, p.wins, p.losses, p.draws) for p in expected]  # fmt: skip
        pikemen = {p.user_id: p for p in await service.standings(GUILD, "pikemen")}
        assert pikemen[CAI].matches == 2 and pikemen[CAI].rating.mu > pikemen[BEA].rating.mu
    finally:
        await service.close()
