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
# shellcheck source=../lib/common.sh
source "$(dirname "$0")/../lib/common.sh"
# shellcheck source=../lib/options.sh
source "$LAB_TOP/lab/lib/options.sh"
# shellcheck source=../lib/guest.sh
source "$LAB_TOP/lab/lib/guest.sh"
# shellcheck source=../lib/accel.sh
source "$LAB_TOP/lab/lib/accel.sh"
# shellcheck source=../lib/result.sh
source "$LAB_TOP/lab/lib/result.sh"

# shellcheck source=../lib/stress-groups.sh
source "$LAB_TOP/lab/lib/stress-groups.sh"

usage() {
	cat <<USAGE
usage: lab.sh stress POLICY [options]
       lab.sh stress --scan CONSOLE_LOG

  --kernel FLAVOUR  debug|lab (default debug); the unpatched kernels'
                    policies (vanilla*) run on their own kernel
  --kernel-image F  boot the bzImage F (your own build) instead
  --duration S      seconds of stress-ng in total (default 60); selftests
                    and the memcg workloads run to completion on top
  --groups "G ..."  the test groups to run, or none; by default
                    $stress_groups;
                    the shapes' groups need their shape (lab/make/
                    stress-gate.sh gives each one it):
                    $stress_shape_groups
  --mem SIZE        guest memory (default 256M, 384M for the debug kernel)
  --vcpus N         guest CPUs (default 2, 1 to 8)
USAGE
	shape_usage
	cat <<'USAGE'
  --timeout S       seconds before the guest counts as hung
                    (default 1800 + 4 x duration)
  --boot-timeout S  seconds for the guest's init to say its first word
                    (default 300); a boot that stalls before is booted
                    again on fresh disks, twice at most, and the stalled
                    consoles are kept as console.boot-stall-N.log
  --boot-arg K=V    append K=V to the guest kernel's command line
                    (repeatable; the lab's own parameters are refused)
  --results DIR     where result directories go (default results/)
  --scan FILE       only scan a console log for kernel reports: prints one
                    "KIND<tab>LINE<tab>TEXT" per finding; exit 0 clean, 5 not

For the gate's own tests: LAB_STRESS_INJECT=warn|fail|panic|hang|die (a
WARNING on the console, a failing test, a panic, a hang, a job script
that dies).

Exit codes: 0 gate passed, 1 harness error, 2 bad arguments, 4 a test
failed or the job script died, 5 the console shows a kernel report (BUG,
WARNING, KASAN, lockdep, soft lockup, hung task, oops, panic), 6 timeout
or 3 boot stalls, 7 policy mismatch, 8 kernel or image missing/corrupt,
128+N killed by signal N (the guest is stopped, nothing is kept).
USAGE
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
policy_check "$policy"

flavour="" duration=60 mem="" timeout_s="" boot_limit=300 results=$LAB_RESULTS
groups=$stress_groups boot_args=() vcpus=2
while [[ $# -gt 0 ]]; do
	case $1 in
	--kernel) need "$@"; flavour=$2; shift 2 ;;
	--kernel-image) need "$@"; LAB_KERNEL=$2; shift 2 ;;
	--duration) need "$@"; duration=$2; shift 2 ;;
	--groups) need "$@"; groups=$2; shift 2 ;;
	--mem) need "$@"; mem=$2; shift 2 ;;
	--vcpus) need "$@"; vcpus=$2; shift 2 ;;
	--numa | --numa-dimm | --swap | --thp | --fs) need "$@"; shape_take "$1" "$2"; shift 2 ;;
	--timeout) need "$@"; timeout_s=$2; shift 2 ;;
	--boot-timeout) need "$@"; boot_limit=$2; shift 2 ;;
	--boot-arg) need "$@"; opt_boot_arg "$2"; boot_args+=("$2"); shift 2 ;;
	--results) need "$@"; results=$2; shift 2 ;;
	*) die "$EX_USAGE" "unknown option '$1' (see lab.sh stress --help)" ;;
	esac
done
if ! [[ $duration =~ ^[1-9][0-9]*$ ]] || ((duration > 86400)); then
	die "$EX_USAGE" "bad --duration '$duration' (seconds, 1 to 86400)"
fi
[[ $vcpus =~ ^[1-8]$ ]] || die "$EX_USAGE" "bad --vcpus '$vcpus' (1 to 8)"
[[ -z $timeout_s ]] && timeout_s=$((1800 + 4 * duration))
opt_seconds --boot-timeout "$boot_limit"
opt_seconds --timeout "$timeout_s"
if policy_vanilla "$policy"; then
	[[ -n $flavour ]] || flavour=$(policy_flavour "$policy")
	policy_kernel_check "$policy" "$flavour"
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
mem_mib=$(opt_mem "$mem")
shape_check "$mem_mib" "$vcpus"
inject=${LAB_STRESS_INJECT:-}
in_list "$inject" "" warn fail panic hang die ||
	die "$EX_USAGE" "LAB_STRESS_INJECT must be warn, fail, panic, hang or die, not '$inject'"
[[ -n ${groups// /} ]] || die "$EX_USAGE" "--groups is empty (say none for no group)"
for g in $groups; do
	# shellcheck disable=SC2086 # the groups are words
	in_list "$g" $stress_groups $stress_shape_groups none ||
		die "$EX_USAGE" "bad --groups: unknown group '$g' ($stress_groups $stress_shape_groups none)"
done

guest_prepare "$flavour" "$policy"
mkdir -p "$results" || die "$EX_HARNESS" "cannot create $results"
results=$(cd "$results" && pwd)

run_id=$(date -u +%Y%m%dT%H%M%S)-$policy-stress-r1-$(od -An -N2 -tx2 /dev/urandom | tr -d ' ')
work=$LAB_BUILD/runs/$run_id
job=$work/job
part=$results/.$run_id.partial
final=$results/$run_id
# The partial directory goes when the gate stops before its verdict.
# shellcheck disable=SC2317 # run by the traps
stress_cleanup() {
	rm -rf "$work"
	[[ -z $part ]] || rm -rf "$part"
}
# shellcheck disable=SC2317 # run by the traps
stress_abort() {
	guest_abort
	stress_cleanup
}
trap stress_cleanup EXIT
lab_on_signals stress_abort
mkdir -p "$job/files"
guest_pin "$work"
mkdir -p "$part"
: >"$job/args"
{
	printf 'LAB_MODE=stress\n'
	printf 'LAB_MGLRU=%s\n' "$(policy_mglru "$policy")"
	printf 'LAB_STRESS_DURATION=%s\n' "$duration"
	printf 'LAB_STRESS_GROUPS="%s"\n' "$groups"
	printf 'LAB_STRESS_INJECT=%s\n' "$inject"
	guest_shape_env "$mem_mib"
} >"$job/job.env"

kernel_json=$guest_kernel_json
command="./lab.sh stress $policy --kernel $flavour --duration $duration --mem ${mem_mib}M"
((vcpus == 2)) || command+=" --vcpus $vcpus"
[[ -z $(shape_options) ]] || command+=" $(shape_options)"
[[ $groups == "$stress_groups" ]] || command+=" --groups \"$groups\""
for a in "${boot_args[@]}"; do command+=" --boot-arg $a"; done
[[ -n ${LAB_KERNEL:-} ]] && command+=" --kernel-image ${LAB_KERNEL#"$LAB_TOP"/}"
started_at=$(date -u +%Y-%m-%dT%H:%M:%SZ)

guest_make_disks "$work" "$job" "$mem_mib"
guest+=([work]=$work [job]=$job [mem]=$mem_mib [vcpus]=$vcpus [accel]=$accel
	[cmdline]=$cmdline [console]=$part/console.log [qemu_log]=$part/qemu.log
	[qemu_cmdline]=$part/qemu.cmdline [timeout]=$timeout_s [boot_limit]=$boot_limit
	[retries]=2 [id]=$run_id [desc]="lab stress $policy" [progress]="guest: ")

say "booting $policy ($flavour kernel, $accel, ${mem_mib} MiB, $vcpus vCPUs$(shape_words)): ${duration}s of stress-ng, groups: $groups"
# A boot that never reaches init is retried on fresh disks (guest_boot):
# 6.1 with debug.config stalls now and then under TCG before any initcall
# of the series (RELIABILITY.md), the unpatched tree too.
guest_boot
qemu_rc=${guest[qemu_rc]} wall_s=${guest[wall_s]} boot_stalls=${guest[boot_stalls]}
stalled=${guest[stalled]}

collected=1
result_collect "$part" "$work/results.img" || collected=0
st=$part/status
active=$(status_get "$st" policy_active)
job_rc=$(status_get "$st" workload_rc)
lru_gen=$(status_get "$st" lru_gen_enabled)
active=$(policy_observed "$policy" "$active" "$lru_gen" "$(status_get "$st" uname)")

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
	failed_tests=$(jq -r '[.[] | select(.result == "fail") | .name] | join(", ")' <<<"$tests_json")
	if [[ -n $failed_tests ]]; then
		note="failed: $failed_tests"
	else
		# No test failed: the job script itself died. Its stderr says why.
		exit_class="job-died"
		note="the guest's stress-job.sh exited with status $job_rc after $(jq length <<<"$tests_json") tests"
		why=$(grep -av '^[[:space:]]*$' "$part/job.err" 2>/dev/null | tail -n1 | tr -d '\r' | cut -c1-300) || true
		if [[ -n $why ]]; then note+=": $why"; else note+=" and no error message (see console.log)"; fi
	fi
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
	--argjson mem_mib "$mem_mib" --argjson vcpus "$vcpus" --argjson duration "$duration" --arg groups "$groups" \
	--arg inject "$inject" --argjson tests "${tests_json/#null/[]}" \
	--argjson findings "$findings_json" --arg verdict "$verdict" --arg exit "$exit_class" \
	--arg note "$note" --argjson wall_s "$wall_s" --arg started_at "$started_at" \
	--arg command "$command" --arg source "$(linux_source_version "$flavour")" \
	--arg ifaces "$(status_get "$st" net_ifaces)" --argjson boot_stalls "$boot_stalls" \
	--argjson boot_args "$(printf '%s\n' "${boot_args[@]}" | jq -R 'select(. != "")' | jq -sc .)" \
	--argjson conc "${guest[concurrent]}" --arg conc_ids "${guest[concurrent_ids]}" \
	--argjson shape "$shape_json" \
	'{run_id: $run_id, policy: $policy, policy_active: $active, kernel_flavour: $flavour,
	  kernel: ($kernel + (if $uname == "" then {} else {release: $uname} end)),
	  linux_source_version: $source, accel: $accel, mem_mib: $mem_mib, vcpus: $vcpus,
	  duration_s: $duration, groups: ($groups | split(" ")), inject: $inject,
	  tests: $tests, console_findings: $findings, verdict: $verdict, exit: $exit,
	  note: $note, boot_stalls: $boot_stalls, wall_s: $wall_s, started_at: $started_at, command: $command,
	  boot_args: $boot_args, params: $shape, concurrent_guests: $conc,
	  concurrent_guest_ids: ($conc_ids | split(" ") | map(select(. != ""))),
	  guest_net_ifaces: ($ifaces | split(" ") | map(select(. != "")))}' \
	>"$part/stress.json.tmp" || {
	rm -f "$part/stress.json.tmp"
	mv -T "$part" "$final"
	part=""
	die "$EX_HARNESS" "cannot write stress.json in $final"
}
mv "$part/stress.json.tmp" "$part/stress.json"
mv -T "$part" "$final"
part=""

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
