#!/usr/bin/env bash
# The peers groundcheck is compared with live in their own environment, never in ours:
# they are benchmark baselines, not dependencies. Makes .bench-peers/ at the repository's
# root (never committed: .gitignore); benchmarks/run_all.py runs the peers from it, and
# skips them, saying so, while it does not exist.
#
# Needs python3 with venv and pip, and the package index (pip install). On any failure it
# says which step failed and why it matters, and leaves no half-made environment behind
# (one would make run_all.py try the peers and fail on each).
set -euo pipefail
cd "$(dirname "$0")/.."

PEERS=(idutils==1.7.1 refextract==1.1.7 regex)

fail() {
    echo "setup_peers.sh: $*" >&2
    echo "setup_peers.sh: nothing installed; benchmarks/run_all.py runs without the peers" \
        "(their rows say 'skipped')" >&2
    exit 1
}

command -v python3 >/dev/null 2>&1 || fail "python3 is not on PATH"
# A symlink left by an older checkout (it once pointed at a shared environment) or an
# environment from an earlier run is replaced.
if [ -L .bench-peers ]; then rm .bench-peers; fi
rm -rf .bench-peers
trap 'rm -rf .bench-peers' EXIT # removed unless every step below succeeds

python3 -m venv .bench-peers ||
    fail "'python3 -m venv .bench-peers' failed (on Debian: apt-get install python3-venv)"
.bench-peers/bin/python -m pip install -q "${PEERS[@]}" ||
    fail "pip could not install ${PEERS[*]} (is the package index reachable?)"
.bench-peers/bin/python -c "import idutils, refextract, regex" ||
    fail "the peers were installed but do not import"

trap - EXIT
echo "peers installed in .bench-peers (python: .bench-peers/bin/python)"
