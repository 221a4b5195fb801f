#!/usr/bin/env bash
# The peers groundcheck is compared with live in their own environment, never in ours:
# they are benchmark baselines, not dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."
# .bench-peers is made here and never committed (.gitignore); a symlink left by an older
# checkout (it once pointed at a shared environment) is replaced by a real environment.
if [ -L .bench-peers ]; then rm .bench-peers; fi
python3 -m venv .bench-peers
.bench-peers/bin/pip install -q idutils==1.7.1 refextract==1.1.7 regex
echo "peers installed in .bench-peers (python: .bench-peers/bin/python)"
