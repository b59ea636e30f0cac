"""Benchmark figures that the benchmarks write into the docs themselves, with the machine and the date.

Every ``benchmarks/bench_*.py`` script runs its ``main`` through :func:`run`: it prints its tables as before, and with
``--publish`` it also writes what it printed into its own marked block of ``docs/benchmarks.md``::

    <!-- benchmark bench_core start -->
    ... the machine, the date, the command line, then the printed tables ...
    <!-- benchmark bench_core end -->

so the figures the docs quote are the ones a run printed, never numbers copied by hand (the README points to that
page and quotes none; ``tests/docs/test_benchmark_figures.py`` checks both). A block is replaced in place; a
benchmark without a block gets one appended. ``--quick`` runs are marked as such in their block.

Run ``python benchmarks/_report.py`` to list the published blocks with their dates.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import io
import os
import platform
import re
import sys
from pathlib import Path
from typing import Any, Callable, TextIO

ROOT = Path(__file__).resolve().parents[1]
#: The page the benchmarks publish into.
DOC = ROOT / "docs" / "benchmarks.md"
START, END = "<!-- benchmark {} start -->", "<!-- benchmark {} end -->"
_BLOCK = re.compile(r"<!-- benchmark (\S+) start -->\n(.*?)<!-- benchmark \1 end -->", re.S)


def machine() -> str:
    """The machine a run is measured on: CPU model, cores, load average, OS and Python."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ""
    with contextlib.suppress(OSError, AttributeError):
        load = ", load average " + " ".join(f"{v:.1f}" for v in os.getloadavg())
    return (
        f"{model}, {os.cpu_count()} cores{load}; {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}"
    )


def block(
    name: str, printed: str, argv: list[str], *, when: _dt.datetime | None = None, where: str | None = None
) -> str:
    """The text of ``name``'s block (markers included) for what a run printed.

    Examples
    --------
    >>> when = _dt.datetime(2026, 1, 2, 3, 4, tzinfo=_dt.timezone.utc)
    >>> print(block("bench_x", "k | s\\n1 | 0.5\\n", ["--quick"], when=when, where="a CPU, 2 cores"))
    <!-- benchmark bench_x start -->
    *`python benchmarks/bench_x.py --quick` (quick sizes) on a CPU, 2 cores; 2026-01-02 03:04 UTC*
    <BLANKLINE>
    ```text
    k | s
    1 | 0.5
    ```
    <!-- benchmark bench_x end -->
    """
    when = when or _dt.datetime.now(_dt.timezone.utc)
    command = " ".join(["python", f"benchmarks/{name}.py", *argv])
    quick = " (quick sizes)" if "--quick" in argv else ""
    head = f"*`{command}`{quick} on {where or machine()}; {when:%Y-%m-%d %H:%M} UTC*"
    body = printed.rstrip("\n").replace("```", "'''")
    return f"{START.format(name)}\n{head}\n\n```text\n{body}\n```\n{END.format(name)}"


def publish(name: str, text: str, doc: Path = DOC) -> None:
    """Put ``text`` (a :func:`block`) in place of ``name``'s block of ``doc``, or append it under a new heading."""
    page = doc.read_text(encoding="utf-8")
    start, end = START.format(name), END.format(name)
    if page.count(start) > 1 or page.count(start) != page.count(end):
        raise SystemExit(f"{doc}: the markers of {name} are not one well-formed pair")
    if start in page:
        i, j = page.index(start), page.index(end) + len(end)
        page = page[:i] + text + page[j:]
    else:
        page = page.rstrip("\n") + f"\n\n## {name}\n\n{text}\n"
    doc.write_text(page, encoding="utf-8")


class _Tee(io.TextIOBase):
    """Write to the terminal and keep a copy."""

    def __init__(self, out: TextIO) -> None:
        self.out, self.copy = out, io.StringIO()

    def write(self, s: str) -> int:
        self.out.write(s)
        self.copy.write(s)
        return len(s)

    def flush(self) -> None:
        self.out.flush()


def run(main: Callable[[], Any], name: str) -> None:
    """Run a benchmark's ``main`` (which parses ``sys.argv`` itself); with ``--publish`` (taken out of ``sys.argv``
    first) write what it printed into its block of ``docs/benchmarks.md`` when it succeeds. Exits with its code."""
    publishing = "--publish" in sys.argv
    if publishing:
        sys.argv.remove("--publish")
    argv = sys.argv[1:]
    tee = _Tee(sys.stdout)
    with contextlib.redirect_stdout(tee):
        code = main()
    if publishing and not code:
        publish(name, block(name, tee.copy.getvalue(), argv))
        print(f"published into {DOC.relative_to(ROOT)} (block {name})")
    sys.exit(code or 0)


def blocks(doc: Path = DOC) -> dict[str, str]:
    """The published blocks of ``doc``: name -> its text between the markers."""
    return {m.group(1): m.group(2) for m in _BLOCK.finditer(doc.read_text(encoding="utf-8"))}


if __name__ == "__main__":
    for key, text in blocks().items():
        print(f"{key}: {text.splitlines()[0] if text.strip() else '(empty)'}")
