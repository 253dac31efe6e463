#!/usr/bin/env bash
# CONTRACTS.md names every key that result.json really has: the results
# recorded from the lab in the fixtures, and the newest runs under
# results/ when there are any (tests/tracepoints/guest.t checks a fresh
# one too).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=tap.sh
source "$(dirname "$0")/tap.sh"
# shellcheck source=../lib/contracts.bash
source "$top/tests/lib/contracts.bash"

recorded=("$top"/tests/commands/fixtures/runs/*/result.json "$FIXTURES/trace.result.json")
for r in "${recorded[@]}"; do
	missing=$(undocumented_keys "$r")
	is "$missing" "" "every key of ${r#"$top"/} is in CONTRACTS.md"
done
# The check itself: a key nobody documented is found.
jq '. + {made_up_key: 1, params: (.params + {made_up_param: 2})}' "$FIXTURES/trace.result.json" >"$tmp/r.json"
is "$(undocumented_keys "$tmp/r.json" | sed 's/^[^:]*: //' | paste -sd' ')" "made_up_key params.made_up_param" \
	"an undocumented key and param are reported"
# The machine's shape (lab.sh run --numa, --swap, --thp, --fs) and what
# the guest made of it: keys every new result has, which the recorded
# fixtures predate (tests/lab/topology.t checks real ones).
jq '. + {machine: null, params: (.params + {numa: null, swap: "zram", thp: null, fs: "xfs"})}' \
	"$FIXTURES/trace.result.json" >"$tmp/shape.json"
is "$(undocumented_keys "$tmp/shape.json")" "" "the shape's params (numa, swap, thp, fs) and machine are in CONTRACTS.md"
jq '. + {schema_version: 1}' "$FIXTURES/trace.result.json" >"$tmp/versioned.json"
is "$(undocumented_keys "$tmp/versioned.json")" "" "schema_version, which every new result has, is in CONTRACTS.md"
mapfile -t fresh < <(find "${LAB_RESULTS:-$top/results}" -name result.json -not -path '*/.*' -newer "$top/CONTRACTS.md" \
	2>/dev/null | sort | tail -n 5)
for r in "${fresh[@]}"; do
	is "$(undocumented_keys "$r")" "" "every key of ${r#"$top"/} (newer than CONTRACTS.md) is documented"
done
done_testing
