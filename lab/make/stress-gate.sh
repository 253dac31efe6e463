#!/usr/bin/env bash
# The full reliability gate (make stress): every policy the built kernels
# offer through lab/commands/stress.sh, then RELIABILITY.md's table rewritten from
# the runs' stress.json: policy x test, pass/fail/skip, duration, kernel
# flavour and the command.
#
#   stress-gate.sh [--kernel debug|lab] [--duration S] [--policies "P ..."]
#                  [--groups "G ..."] [--shapes "G ..."] [--results DIR] [--doc FILE]
#   stress-gate.sh --table-only [--doc FILE] RUN_DIR...
#
# --table-only boots nothing: it rewrites the table from runs already made
# (e.g. several lab.sh stress runs, or a LAB_KERNEL build).
#
# vanilla runs on the vanilla kernel; the lab policies on the chosen
# flavour, each only when that kernel offers it (policy_in_kernel). Each
# policy runs the groups any guest runs, then each machine shape's group
# on a guest of that shape (lab/lib/stress-groups.sh): a run per shape,
# the table a column per policy.
# Exit 0 when every policy passed, else the exit code of the first that
# failed (lab.sh stress --help lists them).
set -euo pipefail
lab_prog="lab stress-gate"
# shellcheck source=../lib/common.sh
source "$(dirname "$0")/../lib/common.sh"
# shellcheck source=../lib/stress-groups.sh
source "$LAB_TOP/lab/lib/stress-groups.sh"

usage() {
	cat <<USAGE
usage: lab/make/stress-gate.sh [options]

  --kernel FLAVOUR   debug|lab: the kernel of the lab policies (default debug)
  --duration S       seconds of stress-ng per policy (default 60)
  --groups "G ..."   only these test groups (lab.sh stress --groups), and
                     no shape unless --shapes names it; none: only the
                     shapes' runs (all of them unless --shapes says)
  --shapes "G ..."   the machine shapes' groups to run, each on its own
                     guest (default: all, $stress_shape_groups, unless
                     --groups is given; none: none)
  --vcpus N          guest CPUs (lab.sh stress --vcpus; default 2)
  --policies "P ..." only these policies (default: every one built)
  --results DIR      where result directories go (default results/)
  --doc FILE         the table to rewrite (default RELIABILITY.md)
  --table-only RUN_DIR...
                     boot nothing; rewrite the table from these runs
USAGE
}

flavour=debug duration=60 policies="" results=$LAB_RESULTS doc=$LAB_TOP/RELIABILITY.md stress_opts=()
table_only=0 dirs=() shapes="" groups=""
while [[ $# -gt 0 ]]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--table-only) table_only=1; shift ;;
	--kernel) need "$@"; flavour=$2; shift 2 ;;
	--duration) need "$@"; duration=$2; shift 2 ;;
	--groups) need "$@"; groups=$2; stress_opts+=(--groups "$2"); [[ -n $shapes || $2 == none ]] || shapes=none; shift 2 ;;
	--shapes) need "$@"; shapes=$2; shift 2 ;;
	--vcpus) need "$@"; stress_opts+=(--vcpus "$2"); shift 2 ;;
	--policies) need "$@"; policies=$2; shift 2 ;;
	--results) need "$@"; results=$2; shift 2 ;;
	--doc) need "$@"; doc=$2; shift 2 ;;
	-*) die "$EX_USAGE" "unknown option '$1' (see lab/make/stress-gate.sh --help)" ;;
	*)
		((table_only)) || die "$EX_USAGE" "unexpected argument '$1' (run dirs need --table-only)"
		[[ -f $1/stress.json ]] || die "$EX_USAGE" "no stress.json in '$1'"
		jq -e '.tests and .policy' "$1/stress.json" >/dev/null 2>&1 || die "$EX_USAGE" "'$1/stress.json' is not a gate result"
		dirs+=("$(cd "$1" && pwd)")
		shift
		;;
	esac
done
((table_only == 0 || ${#dirs[@]} > 0)) || die "$EX_USAGE" "--table-only needs at least one run directory"
in_list "$flavour" debug lab || die "$EX_USAGE" "bad --kernel '$flavour' (debug|lab)"
if ! [[ $duration =~ ^[1-9][0-9]*$ ]] || ((duration > 86400)); then
	die "$EX_USAGE" "bad --duration '$duration' (seconds, 1 to 86400)"
fi
[[ -d $(dirname "$doc") ]] || die "$EX_USAGE" "no directory for --doc '$doc'"
[[ -n $shapes ]] || shapes=$stress_shape_groups
[[ $shapes != none ]] || shapes=""
for g in $shapes; do
	# shellcheck disable=SC2086 # the groups are words
	in_list "$g" $stress_shape_groups || die "$EX_USAGE" "bad --shapes: unknown shape group '$g' ($stress_shape_groups none)"
done

if ((table_only)); then
	:
elif [[ -n $policies ]]; then
	read -r -a todo <<<"$policies"
	for p in "${todo[@]}"; do
		policy_check "$p"
	done
	for p in "${todo[@]}"; do
		policy_in_kernel "$p" "$flavour" ||
			die "$EX_MISSING" "policy $p is not in a built kernel (run $(build_hint "$(policy_vanilla "$p" && policy_flavour "$p" || echo "$flavour")"))"
	done
else
	todo=()
	policy_in_kernel vanilla "$flavour" && todo=(vanilla)
	mapfile -t -O "${#todo[@]}" todo < <(kernel_policies "$flavour")
	hint="make kernels"
	[[ $flavour == lab ]] || hint+=" kernel-$flavour"
	((${#todo[@]})) || die "$EX_MISSING" "no kernel built (run $hint)"
fi

status=0
((table_only)) && todo=()
((table_only)) || mkdir -p "$results" || die "$EX_HARNESS" "cannot create $results"
((table_only)) || say "gate: ${todo[*]} (lab policies on the $flavour kernel, ${duration}s of stress-ng each)"
# gate_run POLICY WHAT OPTIONS...: one lab.sh stress run of POLICY, its
# directory added to the table's runs, the first failure's exit kept.
gate_run() {
	local p=$1 what=$2 rc=0 t0=$SECONDS out dir kopt=(--kernel "$flavour")
	shift 2
	policy_vanilla "$p" && kopt=()
	out=$("$LAB_TOP/lab/commands/stress.sh" "$p" "${kopt[@]}" --duration "$duration" "$@" \
		--results "$results") || rc=$?
	dir=$(tail -n1 <<<"$out")
	say "$p ($what): exit $rc in $((SECONDS - t0))s ($dir)"
	if [[ -n $dir && -f $dir/stress.json ]]; then
		dirs+=("$dir")
	else
		say "$p ($what): no stress.json; the table shows it as not run"
	fi
	((rc == 0 || status != 0)) || status=$rc
}

for p in "${todo[@]}"; do
	# --groups none: the shapes only
	[[ $groups == none ]] || gate_run "$p" "every guest" "${stress_opts[@]}"
	for g in $shapes; do
		# shellcheck disable=SC2046 # the shape's options are words
		gate_run "$p" "$g shape" --groups "$g" $(stress_shape_options "$g")
	done
done

# The table, from the stress.json files only.
((${#dirs[@]})) || die "$EX_HARNESS" "no policy produced a stress.json"
table=$(mktemp)
trap 'rm -f "$table" "$doc.tmp"' EXIT
jq -s -r --arg date "$(date -u +%Y-%m-%d)" '
	def cell: if . == null then "-" else "\(.result) \(.duration_s)s" end;
	. as $runs
	| ($runs | map(.tests[].name) | reduce .[] as $n ([]; if index([$n]) then . else . + [$n] end)) as $names
	| "Measured \($date) on \($runs[0].accel | ascii_upcase), \(if ([$runs[].vcpus] | unique | length) == 1 then "\($runs[0].vcpus // 2) vCPUs" else "vCPUs as in each command" end), \(if ([$runs[].duration_s] | unique | length) == 1 then "\($runs[0].duration_s) s of stress-ng per policy; guest memory" else "stress-ng duration and guest memory" end) as in each command.",
	  "",
	  "| policy | kernel | verdict | wall | tests passed | console | command |",
	  "|---|---|---|---|---|---|---|",
	  ($runs[] | "| \(.policy) | \(.kernel_flavour)\(if .kernel.image then " (LAB_KERNEL=" + (.kernel.image | split("/") | .[-2:] | join("/")) + ")" else "" end) \(.kernel.release // "") | **\(.verdict)**\(if .verdict != "pass" then " (" + .exit + ")" else "" end) | \(.wall_s) s | \([.tests[] | select(.result == "pass")] | length)/\(.tests | length)\([.tests[] | select(.result == "skip")] | if length > 0 then ", \(length) skipped" else "" end) | \(if (.console_findings | length) == 0 then "clean" else (.console_findings | map(.kind) | unique | join(", ")) end) | `\(.command)` |"),
	  "",
	  # A column per policy and kernel: its runs of other shapes join it
	  # (their tests are other tests); a run whose tests it has already
	  # is a column of its own.
	  ($runs | reduce .[] as $r ([];
	      "\($r.policy) (\($r.kernel_flavour)\(if $r.kernel.image then ", LAB_KERNEL" else "" end))" as $l
	      | ($r.tests | map(.name)) as $rn
	      | (map(.label == $l and ([.names[] | select(. as $n | $rn | index([$n]))] | length) == 0) | index(true)) as $i
	      | if $i == null then . + [{label: $l, names: $rn, tests: $r.tests}]
	        else .[$i].names += $rn | .[$i].tests += $r.tests end)) as $cols
	  | "| test | " + ($cols | map(.label) | join(" | ")) + " |",
	  "|---|" + ($cols | map("---|") | join("")),
	  ($names[] as $n | "| \($n) | " + ($cols | map([.tests[] | select(.name == $n)][0] | cell) | join(" | ")) + " |"),
	  "",
	  "Details (skips, known failures, failures):",
	  "",
	  ($runs[] | .policy as $p | .tests[] | select(.detail != "") | "- \($p), \(.name): \(.result); \(.detail)"),
	  ($runs[] | .policy as $p | .console_findings[] | "- \($p), console line \(.line): \(.kind): `\(.text)`"),
	  ($runs[] | select((.boot_stalls // 0) > 0) | "- \(.policy): \(.boot_stalls) boot(s) stalled before init, each booted again on fresh disks (console.boot-stall-N.log kept)")
	' "${dirs[@]/%//stress.json}" >"$table"

begin='<!-- stress-gate:begin (lab/make/stress-gate.sh rewrites this part) -->'
end='<!-- stress-gate:end -->'
if [[ -f $doc ]] && grep -qxF "$begin" "$doc" && grep -qxF "$end" "$doc"; then
	awk -v b="$begin" -v e="$end" -v t="$table" '
		$0 == b { print; while ((getline l < t) > 0) print l; skip = 1; next }
		$0 == e { skip = 0 }
		!skip' "$doc" >"$doc.tmp"
else
	{
		printf '# Reliability gate\n\n'
		printf '%s\n' "$begin"
		cat "$table"
		printf '%s\n' "$end"
	} >"$doc.tmp"
fi
mv "$doc.tmp" "$doc"
say "table written to ${doc#"$LAB_TOP"/}"
exit "$status"
