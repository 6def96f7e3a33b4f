"""Today's stored rated results recomputed under OpenSkill, read from a real database on both
backends: how the standings are built since OpenSkill replaced Elo (issue 21)."""

from __future__ import annotations

from bot.ratings import RatedResult, ranked, rated_results, recompute
from bot.storage import matches as queries
from bot.storage import open_storage
from bot.storage import ratings as rating_rows
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


async def at_schema_before_ratings(storage) -> None:
    """Turn a database back into schema 25 (before migration 26 stored the ratings): 26 only
    added these tables, so dropping them and its record is exactly the older schema, rows and all."""
    async with storage.transaction() as db:
        for table in ("ratings", "rating_history", "rating_keys"):
            await db.execute(f"DROP TABLE {table}")
        await db.execute("DELETE FROM schema_migrations WHERE version >= 26")


async def test_migration_26_stores_the_recomputed_table_and_stats_show_the_same(db_path: str) -> None:
    """A database at schema 25 holding rated Nika (two against two, and one against one), Numica
    and Pikemen (three and four players) results is migrated: the stored table equals a
    from-scratch recompute, history included, and `/<game> stats` says and draws exactly what the
    read-time recompute of the previous release did."""
    from bot.service import MatchService

    storage = await open_storage(db_path)
    try:
        await finished(storage, "nika", 4, {"athens": ANA, "messene": BEA, "sparta": CAI, "thebes": DAN},
                       "athens-messene", NOW + 1)  # fmt: skip
        await finished(storage, "nika", 2, {"athens": CAI, "sparta": ANA}, "draw", NOW + 2)
        await finished(storage, "numica", 2, {"red": ANA, "blue": BEA}, "blue", NOW + 3)
        await finished(storage, "numica", 2, {"red": BEA, "blue": ANA}, "blue", NOW + 4, rated=False)
        await finished(storage, "pikemen", 3, {"red": ANA, "yellow": BEA, "blue": CAI}, "draw:red,blue", NOW + 5)
        await finished(storage, "pikemen", 4, {"red": CAI, "yellow": ANA, "green": DAN, "blue": BEA}, "green",
                       NOW + 6)  # fmt: skip
        await finished(storage, "pikemen", 2, {"red": CAI, "blue": ANA}, "red", NOW + 7)
        await finished(storage, "pikemen", 2, {"red": ANA, "blue": BEA}, "red", NOW + 8, guild=GUILD + 1)
        await at_schema_before_ratings(storage)
        async with storage.reading() as db:
            rows = {g: await queries.finished_rated_matches(db, GUILD, g) for g in ("nika", "numica", "pikemen")}
    finally:
        await storage.close()

    service = await MatchService.open(db_path)  # migrates 25 → 26
    try:
        assert service.storage.schema_version >= 26
        for game, stored in rows.items():
            scratch = recompute(rated_results(get_game(game), stored))
            expected = ranked(scratch)
            shown = await service.standings(GUILD, game)
            assert [(p.user_id, p.rating, p.wins, p.losses, p.draws) for p in shown] == [
                (p.user_id, p.rating, p.wins, p.losses, p.draws) for p in expected]  # fmt: skip
            async with service.storage.reading() as db:
                for user, player in scratch.items():
                    assert await rating_rows.history(db, GUILD, game, user) == player.history

            async def previous_release(guild: int, slug: str, _game: str = game) -> list:  # read-time recompute
                async with service.storage.reading() as db:
                    old_rows = await queries.finished_rated_matches(db, guild, slug)
                return ranked(recompute(rated_results(get_game(slug), old_rows)))

            for user in (ANA, BEA, CAI, DAN):
                now = await service.reading.stats(GUILD, user, game, name="x")
                stored_reader = service.reading.standings
                service.reading.standings = previous_release  # type: ignore[method-assign]
                try:
                    before = await service.reading.stats(GUILD, user, game, name="x")
                finally:
                    service.reading.standings = stored_reader  # type: ignore[method-assign]
                assert now.text == before.text
                assert (now.image.data if now.image else None) == (before.image.data if before.image else None)
        pikemen = {p.user_id: p for p in await service.standings(GUILD, "pikemen")}
        assert pikemen[CAI].matches == 3 and pikemen[DAN].wins == 1
        assert [p.user_id for p in await service.standings(GUILD + 1, "pikemen")] == [ANA, BEA]
    finally:
        await service.close()


async def test_two_rated_results_at_once_from_two_processes_lose_no_update(db_path: str) -> None:
    """Two services on one database (as two shard processes) finish, at the same moment, two
    rated matches that share a player, the first holding its transaction open until the second's
    is under way: both results are in the stored table, in the order they were rated, as a
    recompute in that order gives (PostgreSQL: the (server, game) key's row lock; SQLite: the
    write lock). With the ratings read before the key is locked, the PostgreSQL run fails."""
    import asyncio

    from bot.rating_gate import MIN_ACTIONS
    from bot.service import MatchService
    from tests.bot.conftest import GUILD as SERVICE_GUILD
    from tests.bot.conftest import seat

    first, second = await MatchService.open(db_path), await MatchService.open(db_path)
    try:
        for channel, rival in ((901, BEA), (902, CAI)):
            await seat(first, channel, {ANA: "red", rival: "blue"}, game="pikemen")
            for _ in range(4 * MIN_ACTIONS):  # enough real moves that the result counts
                _, state = await first.book.load(channel)
                mover = state.acting_user()
                assert mover is not None
                await first.act(channel, mover, state.rules.legal_actions(state.game)[0].notation())
        # The first result, having read the ratings it updates, holds its transaction open until the
        # second result's transaction is under way: on PostgreSQL until the second waits on a lock
        # (it must: without the key's lock both would read ANA's old rating and one update would be
        # lost) or reads the ratings too (which is the lost update this test would catch). SQLite
        # serialises whole write transactions, so there the second simply follows.
        reads: list[int] = []
        read_ratings = rating_rows.players
        later: list[asyncio.Future[object]] = []

        async def blocked() -> bool:
            async with first.storage.reading() as db:
                row = await db.fetchone("SELECT COUNT(*) FROM pg_locks WHERE NOT granted")
            return bool(row and row[0])

        async def players_then_hold(db, guild, game, users):  # type: ignore[no-untyped-def]
            found = await read_ratings(db, guild, game, users)
            reads.append(len(reads))
            if len(reads) == 1 and db.dialect == "postgresql":
                later.append(asyncio.ensure_future(second.resign(902, CAI, confirmed=True)))
                for _ in range(2000):  # a hang guard: the condition, not the time, ends the wait
                    if len(reads) > 1 or await blocked():
                        break
                    await asyncio.sleep(0.005)
                else:
                    raise AssertionError("the second result never reached the ratings")
            return found

        rating_rows.players = players_then_hold  # type: ignore[assignment]
        try:
            await first.resign(901, BEA, confirmed=True)
            if later:
                await later[0]
            else:
                await second.resign(902, CAI, confirmed=True)
        finally:
            rating_rows.players = read_ratings  # type: ignore[assignment]
        async with first.storage.reading() as db:
            rows = await queries.finished_rated_matches(db, SERVICE_GUILD, "pikemen")
            order = [p.match_id for p in await rating_rows.history(db, SERVICE_GUILD, "pikemen", ANA)]
        assert len(rows) == 2 and sorted(order) == sorted(r[0] for r in rows)
        by_id = {r[0]: r for r in rows}
        expected = recompute(rated_results(get_game("pikemen"), [by_id[m] for m in order]))
        stored = {p.user_id: p for p in await second.standings(SERVICE_GUILD, "pikemen")}
        assert stored[ANA].wins == 2 and stored[ANA].rating == expected[ANA].rating
        assert {u: p.rating for u, p in stored.items()} == {u: p.rating for u, p in expected.items()}
    finally:
        await first.close()
        await second.close()
