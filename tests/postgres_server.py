"""A real, throwaway PostgreSQL server for tests.

    with postgres_server() as pg:
        pg.url                   # postgresql://postgres@127.0.0.1:PORT/test
        pg.create_database()     # URL of a fresh, empty database (one per test)
    # stopped with `pg_ctl stop -m fast` and its directory removed, even if the body raised

The binaries come from Debian's /usr/lib/postgresql/<version>/bin (newest version first),
then from PATH; POSTGRES_BIN_DIR names another folder. initdb and the server refuse to
run as root, so under root the server runs as an unprivileged system user (`postgres`,
else `nobody`) that owns its data and socket folders. Only 127.0.0.1 is listened on and
trusted; the unix socket lives in a private folder.

The folder goes on /dev/shm when that has 1 GiB free (Docker's default 64 MiB has not):
on this VM's disk, initdb's thousand files and each CREATE DATABASE take about ten times
longer. fsync is off unless asked for: on disk, every DROP DATABASE and the shutdown
checkpoint would flush the folder (seconds each) for data thrown away minutes later. It
only matters if the machine itself crashes; a killed server recovers either way.

A session-wide server with a fresh database per test, for a conftest.py:

    @pytest.fixture(scope="session")
    def postgres() -> Iterator[PostgresServer]:
        with postgres_server() as server:
            yield server

    @pytest.fixture
    def database_url(postgres: PostgresServer) -> str:
        return postgres.create_database()
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

DEBIAN_ROOT = Path("/usr/lib/postgresql")
TOOLS = ("initdb", "pg_ctl", "postgres", "pg_isready", "psql")
START_TIMEOUT = 30.0
STOP_TIMEOUT = 30
_DATABASE_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
# Tried in this order when running as root; both exist on a stock Debian with PostgreSQL.
_UNPRIVILEGED_USERS = ("postgres", "nobody")
# Room for a few servers with dozens of databases (about 8 MB each).
_TMPFS = Path("/dev/shm")
_TMPFS_FREE_BYTES = 1 << 30


class PostgresUnavailable(RuntimeError):
    """This machine cannot run a PostgreSQL server (binaries or an unprivileged user missing)."""


def _version_key(bin_dir: Path) -> tuple[int, ...]:
    # Numeric, so that 16 sorts above 9.6.
    return tuple(int(part) for part in re.findall(r"\d+", bin_dir.parent.name))


def _has_tools(folder: Path) -> bool:
    return all(os.access(folder / tool, os.X_OK) for tool in TOOLS)


def find_bin_dir() -> Path | None:
    """The folder holding initdb, pg_ctl, postgres, pg_isready and psql, or None."""
    candidates: list[Path] = []
    if os.environ.get("POSTGRES_BIN_DIR"):
        candidates.append(Path(os.environ["POSTGRES_BIN_DIR"]))
    candidates += sorted(DEBIAN_ROOT.glob("*/bin"), key=_version_key, reverse=True)
    on_path = shutil.which("pg_ctl")
    if on_path is not None:
        # Debian links only some tools onto PATH; the real folder has them all.
        candidates += [Path(on_path).resolve().parent, Path(on_path).parent]
    return next((folder for folder in candidates if _has_tools(folder)), None)


def _server_account() -> pwd.struct_passwd | None:
    """Who runs initdb and the server: ourselves, or an unprivileged user when we are root."""
    if os.geteuid() != 0:
        return None
    for name in _UNPRIVILEGED_USERS:
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise PostgresUnavailable(f"running as root and none of the users {_UNPRIVILEGED_USERS} exists to run PostgreSQL")


def _scratch_parent(account: pwd.struct_passwd | None) -> Path:
    """Where the server's folder goes: /dev/shm when it is a roomy tmpfs, else the temp folder."""
    with contextlib.suppress(OSError):
        if os.access(_TMPFS, os.W_OK | os.X_OK) and shutil.disk_usage(_TMPFS).free >= _TMPFS_FREE_BYTES:
            return _TMPFS
    # Not $TMPDIR when root: it may be private, and the server's own user must reach its folder.
    return Path("/tmp") if account is not None else Path(tempfile.gettempdir())


def _checked_name(name: str) -> str:
    # Names are spliced into SQL, so only plain identifiers pass.
    if not _DATABASE_NAME.match(name):
        raise ValueError(f"database name {name!r} must be lowercase letters, digits and underscores")
    return name


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _clean_env() -> dict[str, str]:
    # PGHOST, PGPORT, PGDATA... from the caller's shell would redirect the tools.
    env = {key: value for key, value in os.environ.items() if not key.startswith("PG")}
    env["LC_ALL"] = "C"
    return env


class PostgresServer:
    """One running server in its own temporary folder; made by :func:`postgres_server`."""

    def __init__(
        self,
        bin_dir: Path,
        root: Path,
        account: pwd.struct_passwd | None,
        user: str,
        database: str,
        *,
        fsync: bool = False,
    ) -> None:
        self.bin_dir = bin_dir
        self.root = root
        self.data_dir = root / "data"
        self.socket_dir = root / "socket"
        self.log_file = root / "server.log"
        self.account = account
        self.user = user
        self.database = database
        self.fsync = fsync
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self._names = itertools.count(1)

    # ------------------------------------------------------------------ URLs
    @property
    def url(self) -> str:
        """URL of the database created at start."""
        return self.url_for(self.database)

    def url_for(self, database: str) -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    # ------------------------------------------------------------- databases
    def create_database(self, name: str | None = None) -> str:
        """Create an empty database (a copy of template0) and return its URL."""
        name = _checked_name(name or f"test_{next(self._names)}")
        self.sql(f'CREATE DATABASE "{name}" TEMPLATE template0')
        return self.url_for(name)

    def drop_database(self, name: str) -> None:
        """Drop a database, disconnecting whoever is still using it."""
        self.sql(f'DROP DATABASE IF EXISTS "{_checked_name(name)}" WITH (FORCE)')

    def sql(self, statement: str, *, database: str = "postgres") -> str:
        """Run one statement with psql as the superuser; returns its unaligned, tuples-only output."""
        argv = [self._tool("psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1"]
        argv += ["-h", "127.0.0.1", "-p", str(self.port), "-U", self.user, "-d", database, "-c", statement]
        done = subprocess.run(argv, capture_output=True, text=True, env=_clean_env(), check=False)
        if done.returncode != 0:
            raise RuntimeError(f"psql failed ({done.returncode}) on {statement!r}: {done.stderr.strip()}")
        return done.stdout.strip()

    # ------------------------------------------------------------ life cycle
    def start(self) -> None:
        """initdb, start on a free port, wait until it accepts connections, create the database."""
        self._prepare_folders()
        self._run(
            self._tool("initdb"),
            f"--pgdata={self.data_dir}",
            f"--username={self.user}",
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            # Thrown away after the tests: no need to flush it to disk.
            "--no-sync",
        )
        self._configure()
        # Another process may take the free port before the server binds it: pick again.
        for _attempt in range(3):
            self.port = _free_port()
            if self._spawn_and_wait():
                self.create_database(self.database)
                return
        raise RuntimeError(f"PostgreSQL did not start; its log:\n{self._log_tail()}")

    def stop(self) -> None:
        """Fast shutdown (`pg_ctl stop -m fast`); kills the server if that fails. Safe to repeat."""
        process, self.process = self.process, None
        if process is None:
            return
        if process.poll() is None:
            stop = [self._tool("pg_ctl"), "stop", "-D", str(self.data_dir), "-m", "fast", "-w", "-t", str(STOP_TIMEOUT)]
            with contextlib.suppress(subprocess.SubprocessError, OSError):
                subprocess.run(
                    self._as_account(stop), capture_output=True, env=_clean_env(), cwd=self.root, check=False
                )
        try:
            process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    # ------------------------------------------------------------- internals
    def _tool(self, name: str) -> str:
        return str(self.bin_dir / name)

    def _as_account(self, argv: list[str]) -> list[str]:
        if self.account is None:
            return argv
        setpriv = shutil.which("setpriv")
        if setpriv is not None:
            # setpriv execs in place, so the server's pid is the one Popen reports.
            uid, gid = self.account.pw_uid, self.account.pw_gid
            return [setpriv, f"--reuid={uid}", f"--regid={gid}", "--clear-groups", "--", *argv]
        runuser = shutil.which("runuser")
        if runuser is not None:
            return [runuser, "-u", self.account.pw_name, "--", *argv]
        raise PostgresUnavailable("running as root without setpriv or runuser to drop privileges")

    def _run(self, *argv: str) -> None:
        done = subprocess.run(
            self._as_account(list(argv)), capture_output=True, text=True, env=_clean_env(), cwd=self.root, check=False
        )
        if done.returncode != 0:
            raise RuntimeError(f"{Path(argv[0]).name} failed ({done.returncode}): {done.stderr.strip()}")

    def _prepare_folders(self) -> None:
        self.socket_dir.mkdir(mode=0o700)
        if self.account is not None:
            for path in (self.root, self.socket_dir):
                os.chown(path, self.account.pw_uid, self.account.pw_gid)

    def _configure(self) -> None:
        with (self.data_dir / "postgresql.conf").open("a") as conf:
            conf.write(
                "\n# tests/postgres_server.py\n"
                "listen_addresses = '127.0.0.1'\n"
                f"unix_socket_directories = '{self.socket_dir}'\n"
                "shared_buffers = 16MB\n"
                f"fsync = {'on' if self.fsync else 'off'}\n"
                "max_connections = 100\n"
                "logging_collector = off\n"
            )
        # Replaces initdb's rules, which also trust the local socket and ::1.
        (self.data_dir / "pg_hba.conf").write_text("host all all 127.0.0.1/32 trust\n")

    def _spawn_and_wait(self) -> bool:
        """Start the server; True once it accepts connections, False if it exited (port taken)."""
        with self.log_file.open("ab") as log:
            self.process = subprocess.Popen(
                self._as_account([self._tool("postgres"), "-D", str(self.data_dir), "-p", str(self.port)]),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=_clean_env(),
                cwd=self.root,
                # Its own session: a Ctrl-C meant for pytest must not shut the server down under us.
                start_new_session=True,
            )
        ready = [self._tool("pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(self.port), "-U", self.user]
        deadline = time.monotonic() + START_TIMEOUT
        pause = 0.005
        while True:
            if self.process.poll() is not None:
                self.process = None
                return False
            if subprocess.run([*ready, "-d", "postgres", "-t", "1"], env=_clean_env(), check=False).returncode == 0:
                return True
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"PostgreSQL did not accept connections in {START_TIMEOUT}s:\n{self._log_tail()}")
            # Polling pg_isready: it answers "no" at once while the server is still starting.
            time.sleep(pause)
            pause = min(pause * 2, 0.1)

    def _log_tail(self) -> str:
        try:
            return "\n".join(self.log_file.read_text(errors="replace").splitlines()[-20:])
        except OSError:
            return "(no log)"


@contextlib.contextmanager
def postgres_server(
    *, database: str = "test", user: str = "postgres", bin_dir: Path | None = None, fsync: bool = False
) -> Iterator[PostgresServer]:
    """A fresh server with one empty ``database``; stopped and deleted on exit, whatever happened."""
    _checked_name(database)
    bin_dir = bin_dir or find_bin_dir()
    if bin_dir is None:
        raise PostgresUnavailable(
            f"no PostgreSQL server binaries ({', '.join(TOOLS)}) in {DEBIAN_ROOT}/*/bin or on PATH; "
            "install them with: apt-get install postgresql"
        )
    account = _server_account()
    # Not pytest's tmp_path: its folders are private to us, and the server's user must reach its own.
    root = Path(tempfile.mkdtemp(prefix="pg-test-", dir=_scratch_parent(account)))
    server = PostgresServer(bin_dir, root, account, user, database, fsync=fsync)
    try:
        server.start()
        yield server
    finally:
        try:
            server.stop()
        finally:
            shutil.rmtree(root, ignore_errors=True)
