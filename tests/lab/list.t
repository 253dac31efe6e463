#!/usr/bin/env bash
# lab.sh list names every policy of lab/registry/policies.tsv but the test
# kernels' and every workload of workloads.tsv, in the files' order, each
# with its "about" column: read here from the files themselves, not
# through lab/lib/common.sh. (tests/lab/registry.t holds the registry to the
# kernel series, the workload programs and the analysis tools.)
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"

"$top/lab.sh" list >"$tmp/list"
# section NAME: the "  ENTRY  DESCRIPTION" lines under "NAME:", as
# "ENTRY DESCRIPTION".
section() {
	awk -v s="$1:" '/^[a-z]+:$/ { on = ($0 == s); next } on' "$tmp/list" |
		sed -E 's/^  ([^ ]+) +/\1 /; s/  \(not in the built lab kernel\)$//'
}
# rows FILE AWK-CONDITION: "name about" of FILE's rows (not its comments
# or header) that meet the condition on the fields.
rows() {
	awk -F'\t' -v OFS=' ' "/^#/ || NF == 0 { next } !h++ { for (i = 1; i <= NF; i++) c[\$i] = i; next } $2 { print \$1, \$c[\"about\"] }" "$1"
}

# shellcheck disable=SC2016 # an awk condition
want=$(rows "$top/lab/registry/policies.tsv" '$c["kernel"] != "test"')
check "the registry has policies" test -n "$want"
is "$(section policies)" "$want" "policies: lab.sh list shows the registry's, in order, with their lines"
is "$(section policies | grep -c '^test-')" 0 "policies: not the test kernels' ones"
want=$(rows "$top/lab/registry/workloads.tsv" 1)
check "the registry has workloads" test -n "$want"
is "$(section workloads)" "$want" "workloads: lab.sh list shows the registry's, in order, with their lines"
done_testing
