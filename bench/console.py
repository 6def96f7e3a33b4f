"""Console start-up benchmark: `python -m bot console` from its start to its first prompt.

Each round starts a console on an existing database (made by a first, unmeasured start), reads
its output until the prompt appears, notes the wall time and the CPU time the process has used
by then (user + system, from /proc: less sensitive to other processes' load), then types `help`
at once and notes when its answer ends with the next prompt, then types `quit` and checks that
it exits. The medians are printed, with the target (≤ 300 ms to the prompt).

The console shows its prompt before the commands and games have loaded, and loads them while
the first line is typed (bot/console_start.py): the second figure is what someone who types
faster than that would wait for a first answer, in all.

    python bench/console.py [--rounds 15] [--against PATH] [--locale es]

--against PATH starts, in interleaved rounds, the console of another checkout too (say, main
in a worktree), with this same Python, so both meet the same load.
"""

from __future__ import annotations

import argparse
import os
import platform
import select
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_MS = 300.0
PROMPT = b"@#1> "  # alice@#1> : "> " alone is in the greeting already (`/<game> help`)
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_ms(pid: int) -> float:
    """The CPU time (user + system) a running process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / TICKS


def start_once(checkout: Path, folder: Path, locale: str = "en") -> tuple[float, float, float]:
    """One console from its start to its prompt: (wall ms, CPU ms, wall ms to the answer of a
    `help` typed the moment the prompt showed)."""
    # PYTHONDONTWRITEBYTECODE (set in some shells and CI) would make every start compile the
    # project's sources again: an installed bot has its bytecode cached, so this one does too.
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("NIKA_", "DISCORD_", "BOARDGAME_")) and k != "PYTHONDONTWRITEBYTECODE"}  # fmt: skip
    env |= {"BOARDGAME_DATABASE": str(folder / "console.db"), "BOARDGAME_BOARDS_DIR": str(folder / "boards")}
    began = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "bot", "console", "--locale", locale], cwd=checkout, env=env,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)  # fmt: skip
    assert process.stdout is not None and process.stdin is not None
    seen = b""
    try:
        for prompts in (1, 2):
            while seen.count(PROMPT) < prompts:
                ready, _, _ = select.select([process.stdout], [], [], 30)
                if not ready:
                    raise SystemExit(f"no prompt within 30 s: {seen.decode(errors='replace')}")
                chunk = os.read(process.stdout.fileno(), 65536)
                if not chunk:
                    raise SystemExit(f"the console ended before its prompt: {seen.decode(errors='replace')}")
                seen += chunk
            if prompts == 1:
                wall = (time.perf_counter() - began) * 1000
                cpu = cpu_ms(process.pid)
                process.stdin.write(b"help\n")
                process.stdin.flush()
        answered = (time.perf_counter() - began) * 1000
        if b"quit" not in seen.split(PROMPT)[1]:
            raise SystemExit(f"help was not answered: {seen.decode(errors='replace')}")
        process.stdin.write(b"quit\n")
        process.stdin.close()
        if process.wait(timeout=60) != 0:
            raise SystemExit(f"the console exited with {process.returncode}")
        return wall, cpu, answered
    finally:
        process.kill()
        process.wait()
        process.stdout.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--against", type=Path, help="another checkout to time in interleaved rounds")
    parser.add_argument("--locale", default="en", help="the console's language (en or es)")
    args = parser.parse_args()
    checkouts = {"this checkout": ROOT} | ({f"{args.against}": args.against} if args.against else {})
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")  # fmt: skip
    figures: dict[str, list[tuple[float, float, float]]] = {name: [] for name in checkouts}
    with tempfile.TemporaryDirectory() as scratch:
        folders = {name: Path(scratch) / str(n) for n, name in enumerate(checkouts)}
        for name, checkout in checkouts.items():
            folders[name].mkdir()
            start_once(checkout, folders[name], args.locale)  # the database made, the bytecode cached: not measured
        for _ in range(args.rounds):
            for name, checkout in checkouts.items():
                figures[name].append(start_once(checkout, folders[name], args.locale))
    for name, runs in figures.items():
        wall = statistics.median(w for w, _, _ in runs)
        cpu = statistics.median(c for _, c, _ in runs)
        answered = statistics.median(a for _, _, a in runs)
        print(f"{name} ({args.locale}): console to prompt {wall:.0f} ms (CPU {cpu:.0f} ms), median of {len(runs)}; "
              f"target ≤ {TARGET_MS:g} ms: {'ok' if wall <= TARGET_MS else 'MISSED'} "
              f"(CPU {'ok' if cpu <= TARGET_MS else 'MISSED'}); "
              f"a `help` typed at the prompt answered at {answered:.0f} ms")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
