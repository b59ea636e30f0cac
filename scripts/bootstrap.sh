#!/usr/bin/env bash
# Set up privgeom on a fresh Debian machine and run one job.
#
#   bash scripts/bootstrap.sh analyze   # set up, then the default analysis of randomized response
#   bash scripts/bootstrap.sh test      # set up, then the whole test suite (what CI runs)
#   bash scripts/bootstrap.sh docs      # set up, then build the documentation into docs/_build/html
#   bash scripts/bootstrap.sh lint      # set up, then ruff check and ruff format --check (.ci/run's lint step)
#   bash scripts/bootstrap.sh types     # set up, then mypy (what .ci/run's types step runs)
#   bash scripts/bootstrap.sh setup     # set up only
#   bash scripts/bootstrap.sh -- ARGS   # set up, then `privgeom ARGS`
#
# Set-up writes its messages to stderr and keeps pip quiet (pip's own output is shown only when it fails), so stdout
# carries the job's output alone: `bash scripts/bootstrap.sh analyze > report.txt` holds the analysis and nothing else.
#
# Set-up: installs the Debian packages pycddlib 3 compiles against (libcdd-dev, libgmp-dev, a C compiler and the
# Python headers) when they are missing, creates .venv with Python >= 3.11 and installs privgeom with every optional
# extra ([all]: plot, symbolic, convex, sweep) and the test and docs tools (the test suite builds the documentation,
# draws figures and runs sweeps on Dask).
# Idempotent: a second run only re-checks.
set -euo pipefail
cd "$(dirname "$0")/.."

job="${1:-analyze}"
[ $# -gt 0 ] && shift

say() { printf '[privgeom setup] %s\n' "$*" >&2; }
die() { printf '[privgeom setup] error: %s\n' "$*" >&2; exit 2; }

# --- Python -----------------------------------------------------------------------------------------------------
PY="${PYTHON:-}"
if [ -z "$PY" ]; then
  for cand in python3.13 python3.12 python3.11 python3; do
    if command -v "$cand" >/dev/null 2>&1 && "$cand" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      PY="$cand"; break
    fi
  done
fi
[ -n "$PY" ] || die "Python >= 3.11 is required; install it (e.g. 'apt-get install python3 python3-venv python3-dev') and re-run."

# --- system packages for pycddlib (exact mode needs GMP) -----------------------------------------------------------
need=()
[ -f /usr/include/cddlib/cdd.h ] || [ -f /usr/include/cdd/cdd.h ] || need+=(libcdd-dev)
[ -f /usr/include/gmp.h ] || [ -n "$(ls /usr/include/*/gmp.h 2>/dev/null)" ] || need+=(libgmp-dev)
command -v gcc >/dev/null 2>&1 || need+=(gcc)
inc=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
[ -f "$inc/Python.h" ] || need+=(python3-dev)
"$PY" -c 'import venv, ensurepip' 2>/dev/null || need+=(python3-venv)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo"; else
    die "missing system packages ${need[*]}: run 'sudo apt-get install ${need[*]}' and re-run this script."
  fi
  command -v apt-get >/dev/null 2>&1 || die "missing system packages ${need[*]} (cddlib and GMP headers) and no apt-get here: install them with your package manager and re-run."
  say "installing system packages: ${need[*]}"
  $SUDO apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

# --- virtual environment --------------------------------------------------------------------------------------------
if [ ! -x .venv/bin/python ]; then
  say "creating .venv with $("$PY" --version)"
  "$PY" -m venv .venv
fi
VPY=.venv/bin/python
stamp=.venv/.privgeom-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ privgeom/_version.py -nt "$stamp" ]; then
  say "installing privgeom and its dependencies into .venv (a few minutes the first time)"
  log=$(mktemp)
  "$VPY" -m pip install -q --upgrade pip >"$log" 2>&1 || true
  # pip and the build backend talk on stdout (setuptools' "Editable installation…" warning block): keep it in the log,
  # show it (on stderr) only when the install fails; a real error line is shown either way
  if ! "$VPY" -m pip install -q --disable-pip-version-check -e ".[all,test,docs,accountants,ppl]" >"$log" 2>&1; then
    grep -v "^WARNING: Location" "$log" >&2 || true
    rm -f "$log"
    die "pip could not install privgeom (see the messages above)."
  fi
  grep -E "^ERROR" "$log" >&2 || true
  rm -f "$log"
  "$VPY" -c 'import privgeom' 2>/dev/null || die "privgeom is installed but does not import: run '$VPY -c \"import privgeom\"' to see why."
  touch "$stamp"
fi
"$VPY" - <<'PYCHECK' || die "pycddlib is installed without its exact (GMP) backend; install libgmp-dev and libcdd-dev, delete .venv and re-run."
from fractions import Fraction
import cdd.gmp
mat = cdd.gmp.matrix_from_array([[Fraction(1, 3), Fraction(-1, 7)]], rep_type=cdd.gmp.RepType.INEQUALITY)
assert isinstance(mat.array[0][0], Fraction)
PYCHECK

# --- the job ----------------------------------------------------------------------------------------------------------
case "$job" in
  setup) say "set up: .venv is ready" ;;
  analyze) exec .venv/bin/privgeom analyze "$@" ;;
  lint)
    rc=0
    "$VPY" -m ruff check "$@" . || rc=1
    "$VPY" -m ruff format --check . || rc=1
    exit $rc ;;
  types) exec "$VPY" -m mypy "$@" ;;
  test)
    export MPLBACKEND=Agg
    set +e
    "$VPY" -m pytest "$@"
    rc=$?
    set -e
    [ $rc -eq 5 ] && { say "pytest collected no tests"; exit 1; }
    exit $rc ;;
  docs)
    export MPLBACKEND=Agg
    "$VPY" -m sphinx -W --keep-going -q -j 2 -b html docs docs/_build/html "$@"
    say "documentation built: open docs/_build/html/index.html" ;;
  --) exec .venv/bin/privgeom "$@" ;;
  *) die "unknown job '$job': use 'analyze', 'test', 'docs', 'lint', 'types', 'setup' or '-- ARGS'." ;;
esac
