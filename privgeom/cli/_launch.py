"""Console-script entry point of ``privgeom``: Ctrl-C is one line and exit 130, also while the commands load.

The ``privgeom`` console script calls :func:`main` of this module. Importing it runs ``privgeom/__init__.py`` (the
package's lazy façade: numpy and the small core modules, a fraction of a second; scipy, networkx, cvxpy and the
analyses load on first use) and ``privgeom/cli/__init__.py``, which imports no command module. Everything heavier —
the argument parser, the command's module and the geometry it needs — is imported inside :func:`main`, under the same
``KeyboardInterrupt`` handler as the command itself, so a Ctrl-C while a command is still loading prints
``privgeom: interrupted`` and exits 130 rather than a long traceback. A Ctrl-C during the import of the façade
itself, before this module runs, is Python's own traceback.
"""

from __future__ import annotations

import os
import sys

__all__ = ["main", "EXIT_INTERRUPTED"]

#: 128 + SIGINT, as shells report a command ended by Ctrl-C (same as ``privgeom.cli._main.EXIT_INTERRUPTED``).
EXIT_INTERRUPTED = 130


def _interrupted() -> int:
    try:
        sys.stdout.flush()
    except Exception:  # noqa: BLE001 - the reader may be gone
        pass
    try:
        sys.stderr.write("privgeom: interrupted\n")
        sys.stderr.flush()
    except Exception:  # noqa: BLE001
        pass
    return EXIT_INTERRUPTED


def main() -> int:
    """Import the command line and run it; Ctrl-C at any moment gives one line and exit code 130."""
    try:
        try:
            from ._main import main as cli_main
        except Exception as err:  # a broken installation or a bug: one line, like the CLI's internal errors
            if os.environ.get("PRIVGEOM_DEBUG"):
                raise
            text = str(err).strip().splitlines()[0] if str(err).strip() else ""
            sys.stderr.write(
                f"privgeom: internal error while importing privgeom ({type(err).__name__}: {text}); "
                "set PRIVGEOM_DEBUG=1 for the traceback\n"
            )
            return 2
        return cli_main()
    except KeyboardInterrupt:
        return _interrupted()


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
