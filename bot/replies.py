"""What the service returns for a front end to show. No Discord types here."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Image:
    """A rendered image (or another file) with its description for screen readers."""

    data: bytes
    filename: str
    description: str = ""


@dataclass(frozen=True, slots=True)
class Reply:
    """Text to post (mentions written as <@id>), an optional image or file, and who to ping."""

    text: str
    image: Image | None = None
    file: Image | None = None
    mentions: tuple[int, ...] = ()
    match_id: int | None = None
    game: str | None = None  # the game's slug: custom ids of the buttons under the post carry it
    version: int | None = None  # the board version shown, for the action panel's buttons
    actionable: bool = False  # the match goes on: offer the action panel under the board
    answers: tuple[str, ...] = ()  # answer buttons, e.g. ("draw_accept", "draw_decline")
    question: int | None = None  # the log entry that asked (a draw offer, a declaration)
    setup: bool = False  # the match waits for secret setup choices: offer the setup button
    rematch: bool = False  # the match has finished: offer the Rematch button
    private: bool = False  # for the asker's eyes only, whatever the command (a forecast)
    # Where the reply belongs when not where it was asked for (a rematch opened in a new thread).
    channel_id: int | None = None
    # A public post that goes with a private answer (a secret setup choice was made).
    announce: Reply | None = None
    # The outbox notices that post this reply if the front end cannot (see Play's backups): the
    # front end reports its post (MatchService.posted), which deletes them.
    notice_ids: tuple[int, ...] = ()
    event_id: int | None = None  # a tournament's announcement: the Join button under it names the event

    @property
    def notice_id(self) -> int | None:
        return self.notice_ids[-1] if self.notice_ids else None


@dataclass(frozen=True, slots=True)
class Notice:
    """Something the bot says unprompted (a reminder, an expired turn, a computer's move) in a
    match's channel."""

    guild_id: int
    channel_id: int
    reply: Reply
    dm_user_ids: tuple[int, ...] = ()
    locale: str = "en"  # the language its text is in: the buttons posted under it speak it too
    # A backup of a front end's board post: the board is drawn when the notice is posted (if it is
    # still the match's latest; otherwise the text alone goes out, marked as late).
    draw_board: bool = False
    # What else it is: "reminder" (dropped if its match was paused meanwhile), "resume" (a paused
    # match's return, written when it is posted), "dm" (direct messages only, no channel post).
    kind: str = ""
