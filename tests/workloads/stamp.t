#!/bin/bash
# Page stamps and the reference-string writer (tests/workloads/test-stamp.c).
set -euo pipefail
# shellcheck source=tests/workloads/tap.sh
source "$(dirname "$0")/tap.sh"

if make -s -C "$ROOT/workloads" OUT="$BIN" "$BIN/tests/test-stamp" >"$TAP_TMP/log" 2>&1; then
	exec "$BIN/tests/test-stamp"
fi
not_ok "build test-stamp" "$(tail -5 "$TAP_TMP/log")"
done_testing
