#!/usr/bin/env bash
# lab.sh stress: the reliability gate for one policy. Boots the policy's
# kernel (the debug flavour by default) with LAB_MODE=stress, which runs
# images/guest/stress-job.sh: stress-ng's vm stressors, the kernel's mm
# selftests and the verifying workloads inside a small memcg, under swap.
# The gate passes only when every test passed and the console holds no
# kernel report (BUG, WARNING, KASAN, lockdep, lockups, hung tasks, oops,
# panic). Writes results/<run-id>/ atomically with stress.json and the
# console, prints a report on stderr and the directory on stdout.
set -euo pipefail
lab_prog="lab stress"
# shellcheck source=common.sh
source "$(dirname "$0")/common.sh"
# shellcheck source=guest.sh
source "$LAB_TOP/lab/guest.sh"
# shellcheck source=accel.sh
source "$LAB_TOP/lab/accel.sh"
# shellcheck source=result.sh
source "$LAB_TOP/lab/result.sh"

usage() {
	cat <<'USAGE'
usage: lab.sh stress POLICY [options]
       lab.sh stress --scan CONSOLE_LOG

  --kernel FLAVOUR  debug|lab (default debug); policy vanilla always runs
                    on the vanilla kernel. LAB_KERNEL=bzImage boots your own.
  --duration S      seconds of stress-ng in total (default 60); selftests
                    and the memcg workloads run to completion on top
  --mem SIZE        guest memory (default 256M, 384M for the debug kernel)
  --timeout S       seconds before the guest counts as hung
                    (default 1800 + 4 x duration)
  --results DIR     where result directories go (default results/)
  --scan FILE       only scan a console log for kernel reports: prints one
                    "KIND<tab>LINE<tab>TEXT" per finding; exit 0 clean, 5 not

A guest whose init prints nothing within LAB_BOOT_TIMEOUT seconds (default
300) is booted again on fresh disks, twice at most; the stalled consoles
are kept as console.boot-stall-N.log.

For the gate's own tests: LAB_STRESS_GROUPS="stressng selftests memcg
memcontrol" (default all; "none" runs none) and LAB_STRESS_INJECT=warn|fail|
panic|hang (a WARNING on the console, a failing test, a panic, a hang).

Exit codes: 0 gate passed, 1 harness error, 2 bad arguments, 4 a test
failed, 5 the console shows a kernel report (BUG, WARNING, KASAN, lockdep,
soft lockup, hung task, oops, panic), 6 timeout or 3 boot stalls, 7 policy
mismatch, 8 kernel or image missing/corrupt.
USAGE
}

# Kernel reports, most specific first: the first pattern a line matches
# names its kind. Extended regexps over the console, "LAB" lines excluded
# (those are the harness's own, and they quote test names).
scan_patterns=(
	'kasan|KASAN:'
	'lockdep|possible circular locking dependency|inconsistent lock state|possible recursive locking|possible irq lock inversion|suspicious RCU usage|bad unlock balance|lock held when returning to user space|held lock freed'
	'soft-lockup|soft lockup - CPU#|BUG: workqueue lockup'
	'hung-task|blocked for more than [0-9]+ seconds'
	'sleep-in-atomic|BUG: sleeping function called from invalid context|BUG: scheduling while atomic'
	'bad-page|BUG: Bad page (state|map)|Bad rss-counter'
	'list-corruption|list_(add|del) corruption'
	'bug|BUG: |kernel BUG at'
	'oops|Oops: |general protection fault'
	'warning|WARNING: '
	'panic|Kernel panic'
	'ubsan|UBSAN:'
)

# scan_console FILE: "KIND<tab>LINE<tab>TEXT" per finding, on stdout.
scan_console() {
	local file=$1 p
	local kinds=() regexes=()
	for p in "${scan_patterns[@]}"; do
		kinds+=("${p%%|*}")
		regexes+=("${p#*|}")
	done
	# Through the environment: awk -v would eat the regexps' backslashes.
	LAB_SCAN_KINDS="${kinds[*]}" LAB_SCAN_RES="$(printf '%s\n' "${regexes[@]}")" awk '
		BEGIN { n = split(ENVIRON["LAB_SCAN_KINDS"], k, " "); split(ENVIRON["LAB_SCAN_RES"], r, "\n") }
		{ sub(/\r$/, "") }
		/^LAB/ { next }
		# a "[ cut here ]" line announces the WARNING/BUG that follows
		/-\[ cut here \]-/ { next }
		{
			for (i = 1; i <= n; i++)
				if ($0 ~ r[i]) {
					text = $0
					gsub(/\t/, " ", text)
					printf "%s\t%d\t%s\n", k[i], NR, substr(text, 1, 300)
					break
				}
		}' "$file"
}

[[ ${1:-} == -h || ${1:-} == --help ]] && {
	usage
	exit 0
}
if [[ ${1:-} == --scan ]]; then
	[[ $# -eq 2 ]] || die "$EX_USAGE" "--scan needs exactly one console log"
	[[ -f $2 && -r $2 ]] || die "$EX_USAGE" "cannot read console log '$2'"
	findings=$(scan_console "$2")
	[[ -z $findings ]] && exit "$EX_OK"
	printf '%s\n' "$findings"
	exit "$EX_PANIC"
fi

[[ $# -ge 1 ]] || die "$EX_USAGE" "need a POLICY (see lab.sh stress --help)"
policy=$1
shift
in_list "$policy" "${LAB_POLICIES[@]}" vanilla-mglru ||
	die "$EX_USAGE" "unknown policy '$policy' (lab.sh list shows them)"

flavour="" duration=60 mem="" timeout_s="" results=$LAB_RESULTS
need() { [[ $# -ge 2 && -n $2 ]] || die "$EX_USAGE" "option $1 needs a value"; }
while [[ $# -gt 0 ]]; do
	case $1 in
	--kernel) need "$@"; flavour=$2; shift 2 ;;
	--duration) need "$@"; duration=$2; shift 2 ;;
	--mem) need "$@"; mem=$2; shift 2 ;;
	--timeout) need "$@"; timeout_s=$2; shift 2 ;;
	--results) need "$@"; results=$2; shift 2 ;;
	*) die "$EX_USAGE" "unknown option '$1' (see lab.sh stress --help)" ;;
	esac
done
if ! [[ $duration =~ ^[1-9][0-9]*$ ]] || ((duration > 86400)); then
	die "$EX_USAGE" "bad --duration '$duration' (seconds, 1 to 86400)"
fi
[[ -z $timeout_s ]] && timeout_s=$((1800 + 4 * duration))
boot_limit=${LAB_BOOT_TIMEOUT:-300}
[[ $boot_limit =~ ^[1-9][0-9]*$ ]] || die "$EX_USAGE" "bad LAB_BOOT_TIMEOUT '$boot_limit' (seconds)"
[[ $timeout_s =~ ^[1-9][0-9]*$ ]] || die "$EX_USAGE" "bad --timeout '$timeout_s' (seconds)"
if [[ $policy == vanilla* ]]; then
	[[ -z $flavour || $flavour == vanilla ]] ||
		die "$EX_USAGE" "policy $policy runs on the vanilla kernel only, not --kernel $flavour"
	flavour=vanilla
else
	[[ -n $flavour ]] || flavour=debug
	in_list "$flavour" debug lab || die "$EX_USAGE" "bad --kernel '$flavour' (debug|lab)"
fi
# KASAN's shadow (1/8 of RAM) and lockdep's tables leave a 256 MiB debug
# guest 164 MiB, too little for test_memcontrol's 100 MiB allocations.
if [[ -z $mem ]]; then
	mem=256M
	[[ $flavour == debug ]] && mem=384M
fi
[[ $mem =~ ^([0-9]+)([MG]?)$ ]] || die "$EX_USAGE" "bad --mem '$mem' (e.g. 256M or 1G)"
mem_mib=${BASH_REMATCH[1]}
[[ ${BASH_REMATCH[2]} == G ]] && mem_mib=$((mem_mib * 1024))
((mem_mib >= 128 && mem_mib <= 16384)) || die "$EX_USAGE" "--mem must be between 128M and 16G"
inject=${LAB_STRESS_INJECT:-}
in_list "$inject" "" warn fail panic hang ||
	die "$EX_USAGE" "LAB_STRESS_INJECT must be warn, fail, panic or hang, not '$inject'"
groups=${LAB_STRESS_GROUPS:-stressng selftests memcg memcontrol}
for g in $groups; do
	in_list "$g" stressng selftests memcg memcontrol none ||
		die "$EX_USAGE" "LAB_STRESS_GROUPS: unknown group '$g' (stressng selftests memcg memcontrol none)"
done

kernel=$(guest_kernel "$flavour")
guest_check_image
kinfo=$LAB_KERNEL_DIR/$flavour/info.json
[[ -z ${LAB_KERNEL:-} && ! -f $kinfo ]] && die "$EX_MISSING" "no ${kinfo#"$LAB_TOP"/} (run make kernel-$flavour)"
mkdir -p "$results" || die "$EX_HARNESS" "cannot create $results"
results=$(cd "$results" && pwd)
accel=$(accel_choose "$kernel")

cmdline="lab.policy=$policy"
case $policy in
vanilla | vanilla-mglru) ;;
*) cmdline="$cmdline page_replace=$policy" ;;
esac
# A TCG guest's clock, from the host's TSC rate (lab/accel.sh).
cmdline="$cmdline $(guest_clock_params "$accel")"
mglru=n
[[ $policy == vanilla-mglru ]] && mglru=y

run_id=$(date -u +%Y%m%dT%H%M%S)-$policy-stress-r1-$(od -An -N2 -tx2 /dev/urandom | tr -d ' ')
work=$LAB_BUILD/runs/$run_id
job=$work/job
part=$results/.$run_id.partial
final=$results/$run_id
mkdir -p "$job/files" "$part"
trap 'rm -rf "$work"' EXIT
: >"$job/args"
{
	printf 'LAB_MODE=stress\n'
	printf 'LAB_MGLRU=%s\n' "$mglru"
	printf 'LAB_STRESS_DURATION=%s\n' "$duration"
	printf 'LAB_STRESS_GROUPS="%s"\n' "$groups"
	printf 'LAB_STRESS_INJECT=%s\n' "$inject"
} >"$job/job.env"

if [[ -n ${LAB_KERNEL:-} ]]; then
	kernel_json=$(jq -n --arg k "$LAB_KERNEL" \
		'{release: null, series_sha: "unknown", config_sha: "unknown", image: $k}')
else
	kernel_json=$(jq -c '{release, series_sha, config_sha}' "$kinfo")
fi
command="./lab.sh stress $policy --kernel $flavour --duration $duration --mem ${mem_mib}M"
[[ -n ${LAB_KERNEL:-} ]] && command="LAB_KERNEL=${LAB_KERNEL#"$LAB_TOP"/} $command"
started_at=$(date -u +%Y-%m-%dT%H:%M:%SZ)

guest_make_disks "$work" "$job" "$mem_mib"
guest_qemu_argv "$kernel" "$work" "$mem_mib" 2 "$accel" "$cmdline" "file:$part/console.log"
printf '%q ' "${qemu_argv[@]}" >"$part/qemu.cmdline"
echo >>"$part/qemu.cmdline"

say "booting $policy ($flavour kernel, $accel, ${mem_mib} MiB): ${duration}s of stress-ng, groups: $groups"
# A boot that never reaches init is retried on fresh disks, at most
# boot_retries times: 6.1 with debug.config stalls now and then under TCG
# before any initcall of the series (RELIABILITY.md), the unpatched tree
# too. Each stalled console is kept; one with a kernel report is not
# retried, and the count goes into stress.json.
boot_retries=2 boot_stalls=0 stalled=0
while :; do
	: >"$part/console.log"
	qemu_rc=0
	t0=$SECONDS
	timeout -s KILL "$timeout_s" "${qemu_argv[@]}" >"$part/qemu.log" 2>&1 &
	qemu_pid=$!
	tail -n +1 -F --pid="$qemu_pid" "$part/console.log" 2>/dev/null |
		grep --line-buffered -E '^LAB' | sed -u "s/^/$lab_prog: guest: /" >&2 &
	boot=0
	guest_await_init "$part/console.log" "$qemu_pid" "$boot_limit" || boot=$?
	wait "$qemu_pid" || qemu_rc=$?
	wait
	wall_s=$((SECONDS - t0))
	((boot == 2)) || break
	boot_stalls=$((boot_stalls + 1))
	mv "$part/console.log" "$part/console.boot-stall-$boot_stalls.log"
	if ((boot_stalls > boot_retries)) || [[ -n $(scan_console "$part/console.boot-stall-$boot_stalls.log") ]]; then
		cp "$part/console.boot-stall-$boot_stalls.log" "$part/console.log"
		stalled=1
		break
	fi
	say "no init within ${boot_limit}s (boot stall $boot_stalls; console kept as console.boot-stall-$boot_stalls.log): booting again on fresh disks"
	guest_make_disks "$work" "$job" "$mem_mib"
done

collected=1
result_collect "$part" "$work/results.img" || collected=0
st=$part/status
active=$(status_get "$st" policy_active)
job_rc=$(status_get "$st" workload_rc)
lru_gen=$(status_get "$st" lru_gen_enabled)
if [[ $policy == vanilla-mglru && $active == vanilla && -n $lru_gen &&
	$lru_gen != none && $lru_gen != 0x0000 ]]; then
	active=vanilla-mglru
fi

# Per-test lines -> JSON; a malformed line is itself a harness error.
tests_json='[]'
if [[ -f $part/stress.tsv ]]; then
	tests_json=$(jq -R -s -c 'split("\n") | map(select(length > 0) | split("\t")
		| {name: .[0], result: .[1], duration_s: (.[2] | tonumber), detail: (.[3] // "")})' \
		"$part/stress.tsv" 2>/dev/null) || tests_json=null
fi
findings=$(scan_console "$part/console.log")
findings_json=$(printf '%s' "$findings" | jq -R -s -c 'split("\n") | map(select(length > 0)
	| split("\t") | {kind: .[0], line: (.[1] | tonumber), text: .[2]})')

# One verdict, the most serious cause first; the report names them all.
note=""
if [[ -n $findings ]]; then
	exit_class=kernel-report code=$EX_PANIC
	note="console: $(cut -f1 <<<"$findings" | sort | uniq -c | awk '{printf "%s%s x%d", (NR > 1 ? ", " : ""), $2, $1}')"
elif ((stalled)); then
	exit_class=boot-stall code=$EX_TIMEOUT
	note="guest never reached init within ${boot_limit}s, $boot_stalls boots"
elif ((qemu_rc != 0)) && ((wall_s >= timeout_s)); then
	exit_class=timeout code=$EX_TIMEOUT note="guest did not finish within ${timeout_s}s"
elif ((qemu_rc != 0)); then
	exit_class=harness-error code=$EX_HARNESS note="qemu exited with status $qemu_rc (see qemu.log)"
elif ((!collected)) || [[ $(cat "$part/DONE" 2>/dev/null) != "done" ]]; then
	exit_class=harness-error code=$EX_HARNESS
	note=$(grep -m1 '^LAB-ERROR' "$part/console.log" 2>/dev/null ||
		echo "guest left no complete results (results disk full or unreadable?)")
elif [[ $tests_json == null ]]; then
	exit_class=harness-error code=$EX_HARNESS note="stress.tsv from the guest is malformed"
elif [[ $active != "$policy" ]]; then
	exit_class=policy-mismatch code=$EX_POLICY note="asked for $policy, guest runs ${active:-nothing}"
elif [[ $job_rc != 0 ]]; then
	exit_class=tests-failed code=$EX_WORKLOAD
	note="failed: $(jq -r '[.[] | select(.result == "fail") | .name] | join(", ")' <<<"$tests_json")"
elif [[ $(jq 'length' <<<"$tests_json") == 0 ]]; then
	exit_class=harness-error code=$EX_HARNESS note="the guest ran no test"
else
	exit_class=ok code=$EX_OK
fi
verdict=fail
[[ $exit_class == ok ]] && verdict=pass

jq -n --arg run_id "$run_id" --arg policy "$policy" --arg active "${active:-unknown}" \
	--arg flavour "$flavour" --argjson kernel "$kernel_json" \
	--arg uname "$(status_get "$st" uname)" --arg accel "$accel" \
	--argjson mem_mib "$mem_mib" --argjson duration "$duration" --arg groups "$groups" \
	--arg inject "$inject" --argjson tests "${tests_json/#null/[]}" \
	--argjson findings "$findings_json" --arg verdict "$verdict" --arg exit "$exit_class" \
	--arg note "$note" --argjson wall_s "$wall_s" --arg started_at "$started_at" \
	--arg command "$command" --arg source "$(linux_source_version)" \
	--arg ifaces "$(status_get "$st" net_ifaces)" --argjson boot_stalls "$boot_stalls" \
	'{run_id: $run_id, policy: $policy, policy_active: $active, kernel_flavour: $flavour,
	  kernel: ($kernel + (if $uname == "" then {} else {release: $uname} end)),
	  linux_source_version: $source, accel: $accel, mem_mib: $mem_mib, vcpus: 2,
	  duration_s: $duration, groups: ($groups | split(" ")), inject: $inject,
	  tests: $tests, console_findings: $findings, verdict: $verdict, exit: $exit,
	  note: $note, boot_stalls: $boot_stalls, wall_s: $wall_s, started_at: $started_at, command: $command,
	  guest_net_ifaces: ($ifaces | split(" ") | map(select(. != "")))}' \
	>"$part/stress.json.tmp" || {
	rm -f "$part/stress.json.tmp"
	mv "$part" "$final"
	die "$EX_HARNESS" "cannot write stress.json in $final"
}
mv "$part/stress.json.tmp" "$part/stress.json"
mv "$part" "$final"

# The report: what ran, what failed, what the kernel said.
jq -r '.tests[] | "  \(.result)\t\(.duration_s)s\t\(.name)\(if .result != "pass" and .detail != "" then "  (" + .detail + ")" else "" end)"' \
	"$final/stress.json" >&2
if [[ -n $findings ]]; then
	say "kernel reports on the console (console.log line: text):"
	cut -f2- <<<"$findings" | head -n 20 | sed 's/\t/: /; s/^/  /' >&2
fi
if [[ $verdict == pass ]]; then
	say "PASS: $policy on the $flavour kernel, $(jq '.tests | length' "$final/stress.json") tests, console clean (${wall_s}s)"
else
	say "FAIL ($exit_class): $note; console kept in $final/console.log"
fi
echo "$final"
exit "$code"
