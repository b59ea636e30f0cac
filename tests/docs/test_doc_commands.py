"""Every command quoted in the documentation's pages exists: ``privgeom ...`` lines parse with the real argument
parser and ``python examples/...`` scripts exist, so a renamed option or example breaks the suite, not the reader."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from privgeom.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "docs").glob("*.md")) + sorted((ROOT / "docs" / "papers").glob("*.md"))


def _commands() -> list[tuple[str, str]]:
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for cmd in re.findall(r"`((?:privgeom|python) [^`]+)`", text):
            out.append((page.name, cmd))
        for block in re.findall(r"```bash\n(.*?)```", text, flags=re.S):
            for line in block.splitlines():
                line = line.split("  #")[0].strip()
                if line.startswith(("privgeom ", "python ")):
                    out.append((page.name, line))
    return out


COMMANDS = _commands()


def test_pages_quote_commands() -> None:
    assert len(COMMANDS) >= 25


@pytest.mark.parametrize("page,cmd", COMMANDS, ids=[f"{p}:{c[:60]}" for p, c in COMMANDS])
def test_quoted_command_exists(page: str, cmd: str) -> None:
    argv = shlex.split(cmd)
    if argv[:2] == ["python", "-c"]:
        return
    if argv[0] == "python":
        script = next(a for a in argv[1:] if a.endswith(".py"))
        assert (ROOT / script).is_file(), f"{page} quotes {cmd!r} but {script} does not exist"
        return
    try:
        build_parser().parse_args(argv[1:])
    except SystemExit as err:  # argparse exits 2 on an unknown command or option
        pytest.fail(f"{page} quotes {cmd!r}, which the parser rejects (exit {err.code})")
