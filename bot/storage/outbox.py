"""Notices the bot owes a channel, kept until they are posted.

A timer's effect (a turn passed by its deadline, a computer's move) commits together with
the notice that announces it; the dispatcher posts pending notices and deletes each once
Discord accepted it. A crash or a failed post leaves the notice here to be posted again:
delivery is at least once, and every attempt carries the notice's nonce, with which Discord
answers a repeat within minutes with the message it already made.

A nonce is unique for the life of the database: the row's id (never reused: AUTOINCREMENT in
SQLite, an identity in PostgreSQL) and a random salt drawn when the notice is stored. The salt
matters after a restore from a backup, whose id counter is behind the ids already posted: a
reused id then comes with another salt, so Discord does not take the new notice for an old one."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from bot.storage.connection import Connection

RETRY_SECONDS = (5.0, 30.0, 120.0, 600.0)  # back-off between attempts; then every 10 minutes
GIVE_UP_AFTER = 50  # attempts; a notice to a channel that keeps refusing is dropped


@dataclass(frozen=True, slots=True)
class PendingNotice:
    id: int
    match_id: int | None
    guild_id: int
    channel_id: int
    notice: str  # JSON of a Notice (see bot/replies.py)
    attempts: int
    salt: str = ""  # '' for notices stored before nonces had one
    kind: str = ""

    @property
    def nonce(self) -> str:
        """What Discord dedupes a post by (at most 25 characters)."""
        return f"o{self.id}" if not self.salt else f"o{_base36(self.id)}.{self.salt}"


SALT_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567"
SALT_LENGTH = 8  # 40 random bits: with the id, and a page number for a long post, within Discord's 25


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    text = ""
    while True:
        number, digit = divmod(number, 36)
        text = digits[digit] + text
        if not number:
            return text


def new_salt() -> str:
    return "".join(secrets.choice(SALT_ALPHABET) for _ in range(SALT_LENGTH))


async def add(
    db: Connection,
    match_id: int | None,
    guild_id: int,
    channel_id: int,
    notice: str,
    now: float,
    due: float | None = None,
    owner: str | None = None,
    kind: str = "",
) -> int:
    """Store a notice to post from `due` (default: at once); `owner`: the process whose front
    end means to post it itself before then; `kind`: the notice's (bot/replies.py, Notice.kind)."""
    return await db.insert(
        "INSERT INTO outbox (match_id, guild_id, channel_id, notice, created_at, next_attempt, salt, owner, kind) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        match_id, guild_id, channel_id, notice, now, now if due is None else due, new_salt(), owner, kind,
    )  # fmt: skip


async def adopt(db: Connection, owner: str, now: float) -> int:
    """At a process's start: the backups its previous life left (it died before posting them)
    are due now, not when their front end's time runs out. Returns how many."""
    return await db.execute("UPDATE outbox SET next_attempt = ? WHERE owner = ? AND next_attempt > ?", now, owner, now)


async def due(db: Connection, now: float, limit: int = 20) -> list[PendingNotice]:
    rows = await db.fetchall(
        "SELECT id, match_id, guild_id, channel_id, notice, attempts, salt, kind FROM outbox WHERE next_attempt <= ? "
        "ORDER BY id LIMIT ?",
        now, limit,
    )  # fmt: skip
    return [PendingNotice(*row) for row in rows]


# --- a match whose channel cannot be posted to ------------------------------------------------
HELD = 10**12  # next_attempt of a notice held while its match is paused: released when it resumes
PROBE_SECONDS = (300.0, 900.0, 3600.0, 3 * 3600.0)  # between tries of a paused match's channel; then every 3 h


async def hold(db: Connection, match_id: int, keep: int | None = None) -> None:
    """Hold a paused match's notices until it resumes: all but `keep` (its probe) and the direct
    messages, which do not need the channel."""
    await db.execute(
        "UPDATE outbox SET next_attempt = ? WHERE match_id = ? AND id <> ? AND kind <> ?", HELD, match_id, keep or 0,
        "dm",
    )  # fmt: skip


async def release(db: Connection, match_id: int, now: float) -> None:
    """A resumed match's held notices: due now, but its reminders, which the fresh clock replaces."""
    await db.execute("DELETE FROM outbox WHERE match_id = ? AND kind = ? AND next_attempt >= ?", match_id, "reminder",
                     HELD)  # fmt: skip
    await db.execute("UPDATE outbox SET next_attempt = ? WHERE match_id = ? AND next_attempt >= ?", now, match_id, HELD)


async def probe_later(db: Connection, notice: PendingNotice, now: float) -> None:
    """Try a paused match's channel again later, less often as time goes on; never given up."""
    delay = PROBE_SECONDS[min(notice.attempts, len(PROBE_SECONDS) - 1)]
    await db.execute("UPDATE outbox SET attempts = ?, next_attempt = ? WHERE id = ?", notice.attempts + 1, now + delay,
                     notice.id)  # fmt: skip


async def probe_now(db: Connection, now: float, *, guild_id: int | None = None, channel_id: int | None = None) -> int:
    """The probes of paused matches (in a server, or a channel) are due now: something changed
    that may have given the bot its access back. Returns how many."""
    where, value = ("guild_id", guild_id) if guild_id is not None else ("channel_id", channel_id)
    return await db.execute(
        f"UPDATE outbox SET next_attempt = ? WHERE {where} = ? AND kind = ? AND next_attempt > ?",
        now, value, "resume", now,
    )  # fmt: skip


LEASE_SECONDS = 60.0  # a process that took a notice and died leaves it to another after this


async def claim(db: Connection, notice_id: int, now: float) -> bool:
    """Take a due notice for posting: of several processes, one gets it; if it dies before the
    post, the lease runs out and another posts it."""
    changed = await db.execute(
        "UPDATE outbox SET next_attempt = ? WHERE id = ? AND next_attempt <= ?", now + LEASE_SECONDS, notice_id, now
    )
    return changed == 1


async def next_attempt(db: Connection) -> float | None:
    row = await db.fetchone("SELECT MIN(next_attempt) FROM outbox")
    return float(row[0]) if row and row[0] is not None else None


async def delivered(db: Connection, *notice_ids: int) -> None:
    """Queued (`Connection.later`): sent with the next statement or the commit."""
    if notice_ids:
        marks = ", ".join("?" for _ in notice_ids)
        await db.later(f"DELETE FROM outbox WHERE id IN ({marks})", *notice_ids)


async def failed(db: Connection, notice: PendingNotice, now: float) -> bool:
    """Schedule another attempt with back-off; False when the notice was given up."""
    attempts = notice.attempts + 1
    if attempts >= GIVE_UP_AFTER:
        await delivered(db, notice.id)
        return False
    delay = RETRY_SECONDS[min(attempts - 1, len(RETRY_SECONDS) - 1)]
    await db.execute("UPDATE outbox SET attempts = ?, next_attempt = ? WHERE id = ?", attempts, now + delay, notice.id)
    return True


async def drop_for_match(db: Connection, match_id: int) -> None:
    await db.execute("DELETE FROM outbox WHERE match_id = ?", match_id)
