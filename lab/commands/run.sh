#!/usr/bin/env bash
# lab.sh run: boot a policy's kernel, run a workload, store the results.
#
#   run.sh POLICY WORKLOAD [options] [-- WORKLOAD-OPTIONS]
#          [--also WORKLOAD2 [--cgroup ...] [--size ...] [-- WORKLOAD2-OPTIONS]]...
#
# Each rep boots a fresh guest with fresh disks and writes
# results/<run-id>/ atomically: it is built as results/.<run-id>.partial and
# renamed when result.json is complete. The results directory of each rep
# is printed on stdout, one per line, as the last output. Interrupted
# (INT, TERM, HUP), it stops the guest, removes the rep's partial files and
# exits 128 + the signal (130 for Ctrl-C).
set -euo pipefail
lab_prog="lab run"
# shellcheck source=../lib/common.sh
source "$(dirname "$0")/../lib/common.sh"
# shellcheck source=../lib/options.sh
source "$LAB_TOP/lab/lib/options.sh"
# shellcheck source=../lib/guest.sh
source "$LAB_TOP/lab/lib/guest.sh"
# shellcheck source=../lib/accel.sh
source "$LAB_TOP/lab/lib/accel.sh"
# shellcheck source=../lib/job.sh
source "$LAB_TOP/lab/lib/job.sh"
# shellcheck source=../lib/result.sh
source "$LAB_TOP/lab/lib/result.sh"
# shellcheck source=../lib/perf.sh
source "$LAB_TOP/lab/lib/perf.sh"

usage() {
	cat <<'USAGE'
usage: lab.sh run POLICY WORKLOAD [options] [-- WORKLOAD-OPTIONS]
                  [--also WORKLOAD2 [--cgroup NAME[:LIMIT]] [--size SIZE]
                                    [-- WORKLOAD2-OPTIONS]]...

  --mem SIZE        guest memory (default 256M, 128M to 4G; suffix M or G)
  --vcpus N         guest CPUs (default 2, 1 to 8; more than the host's
                    cores is allowed: counts hold under TCG, seconds not)
USAGE
	shape_usage
	cat <<'USAGE'
  --reps N          repetitions, each a fresh boot (default 1)
  --timeout S       seconds before a guest counts as hung (default 900)
  --boot-timeout S  seconds for the guest's init to say its first word;
                    a boot that stalls before is booted again on fresh
                    disks, twice at most (default 300)
  --seed N          workload seed (default 1; rep i uses seed N+i-1 with --vary-seed)
  --vary-seed       give each rep its own seed
  --size SIZE       workload size (bytes with K/M/G, or N% of MemTotal)
  --trace MODE      none (default), events (trace-cmd), bpftrace, perf
                    (perf record -a -g of the timed phase: perf.data,
                    perf/report.txt, perf/folded.txt, result.json's perf),
                    or several joined by commas (events,perf); all is
                    all three; bpftrace:NAME[,NAME...] runs only those
                    tracepoints/*.bt (and the only way to run one whose
                    header says On-request: yes)
  --trace-buffer KB trace-cmd's per-CPU ring buffer in KiB (default: the
                    buffer_kb= of tracepoints/default.events); needs a
                    --trace that records events. It comes out of the
                    guest's memory; result.json's trace_buffer_kb
  --trace-profile NAME
                    the events trace-cmd records: tracepoints/NAME.events
                    (default: default, per reclaim batch; per-folio adds
                    every activation, shadow entry and refault); needs a
                    --trace that records events; result.json's
                    trace_profile
  --perf-hz HZ      perf's cpu-clock samples a second of CPU time (default
                    99; BENCHMARKS.md "What perf costs" measures the
                    wall time it adds); needs a --trace with perf;
                    result.json's perf_freq_hz
  --refs            record the page reference string (refs.bin)
  --sysctl K=V      set /proc/sys/K (dots for slashes) in the guest before
                    the workload's setup, e.g. vm.page-cluster=0; repeatable
  --cgroup NAME[:LIMIT]
                    run the workload (setup and timed phase) in the cgroup
                    v2 child /sys/fs/cgroup/NAME, memory controller on. No
                    LIMIT: no limit (global reclaim, as under systemd);
                    LIMIT (e.g. 200M, or 75% of the guest's MemTotal) is
                    its memory.max (memcg reclaim)
  --boot-arg K=V    append K=V to the guest kernel's command line, e.g.
                    page_replace.clockpro_insert=paper; repeatable. The
                    lab's own parameters (page_replace=, lab.*, console=,
                    root=, init=, panic=, ...) are refused
  --switch-at T:POLICY[,T:POLICY...]
                    T seconds into the timed phase, the guest writes
                    POLICY to /sys/kernel/mm/page_replace/policy (times
                    increasing; lab kernel policies only). Each switch and
                    whether the kernel took it is in result.json
  --also WORKLOAD2  a companion workload in the same guest: its setup after
                    the main one's, its timed phase at the same time. After
                    --also only --cgroup and --size, then its own -- options,
                    apply to it. Repeatable. Put each in its own cgroup to
                    run two workloads in sibling cgroups
  --kernel FLAVOUR  vanilla|lab|debug|test|vanilla-6.12 (default: the
                    policy's own, lab for the series' policies)
  --kernel-image F  boot the bzImage F (your own build) instead
  --results DIR     where result directories go (default results/)

Options after -- go to the workload; files they name are carried into the
guest read-only and, when the workload parses them (webtrace --spc), are
checked on the host first. Ctrl-C (or TERM, HUP) stops the guest, removes
the partial results and exits 130 (143, 129).
Exit codes: 0 ok, 1 harness error, 2 bad arguments,
3 data verification failed, 4 workload failed, 5 guest panic/oops,
6 timeout or boot stalls, 7 policy mismatch, 8 kernel or image
missing/corrupt, 128+N killed by signal N.
USAGE
}

[[ ${1:-} == -h || ${1:-} == --help ]] && {
	usage
	exit 0
}
[[ $# -ge 2 ]] || die "$EX_USAGE" "need POLICY and WORKLOAD (see lab.sh run --help)"
policy=$1 workload=$2
shift 2
policy_check "$policy"
workload_check() {
	in_list "$1" "${LAB_WORKLOADS[@]}" ||
		die "$EX_USAGE" "unknown workload '$1' (lab.sh list shows them)"
}
workload_check "$workload"

mem=256M vcpus=2 reps=1 timeout_s=900 boot_limit=300 seed=1 vary_seed=0 trace=none
refs=0 flavour="" results=$LAB_RESULTS switch_at='[]' trace_buffer="" trace_profile="" perf_hz=""
sysctls=() boot_args=()
# The workloads: 0 is the main one, 1... the companions (--also). Their
# arguments as given (wl_args) and as the guest sees them (guest_args),
# each list joined with the unit separator US (args_of splits one).
US=$'\x1f'
wl_names=("$workload") wl_sizes=("") wl_cgroups=(null) wl_args=("") guest_args=()
args_of() {
	args_out=()
	[[ -z $1 ]] || IFS=$US read -r -a args_out <<<"$1"
}
cur=0 in_args=0
main_only() {
	((cur == 0)) || die "$EX_USAGE" "$1 is not an option of a companion workload (after --also only --cgroup, --size and --)"
}
while [[ $# -gt 0 ]]; do
	if [[ $1 == --also ]]; then
		need "$@"
		workload_check "$2"
		cur=${#wl_names[@]} in_args=0
		wl_names+=("$2") wl_sizes+=("") wl_cgroups+=(null) wl_args+=("")
		shift 2
		continue
	fi
	if ((in_args)); then
		[[ $1 != *[$'\n'$US]* ]] || die "$EX_USAGE" "workload options must not contain newlines"
		wl_args[cur]+=${wl_args[cur]:+$US}$1
		shift
		continue
	fi
	case $1 in
	--size) need "$@"; opt_size --size "$2"; wl_sizes[cur]=$2; shift 2 ;;
	--cgroup) need "$@"; wl_cgroups[cur]=$(opt_cgroup "$2"); shift 2 ;;
	--) in_args=1; shift ;;
	--mem) main_only "$1"; need "$@"; mem=$2; shift 2 ;;
	--vcpus) main_only "$1"; need "$@"; vcpus=$2; shift 2 ;;
	--numa | --numa-dimm | --swap | --thp | --fs) main_only "$1"; need "$@"; shape_take "$1" "$2"; shift 2 ;;
	--reps) main_only "$1"; need "$@"; reps=$2; shift 2 ;;
	--timeout) main_only "$1"; need "$@"; timeout_s=$2; shift 2 ;;
	--boot-timeout) main_only "$1"; need "$@"; boot_limit=$2; shift 2 ;;
	--seed) main_only "$1"; need "$@"; seed=$2; shift 2 ;;
	--vary-seed) main_only "$1"; vary_seed=1; shift ;;
	--trace) main_only "$1"; need "$@"; trace=$2; shift 2 ;;
	--trace-buffer) main_only "$1"; need "$@"; trace_buffer=$2; shift 2 ;;
	--trace-profile) main_only "$1"; need "$@"; trace_profile=$2; shift 2 ;;
	--perf-hz) main_only "$1"; need "$@"; perf_hz=$2; shift 2 ;;
	--refs) main_only "$1"; refs=1; shift ;;
	--sysctl)
		main_only "$1"
		need "$@"
		[[ $2 =~ ^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)+=[A-Za-z0-9_.:-]+$ ]] ||
			die "$EX_USAGE" "bad --sysctl '$2' (KEY=VALUE, e.g. vm.page-cluster=0)"
		sysctls+=("$2")
		shift 2
		;;
	--boot-arg) main_only "$1"; need "$@"; opt_boot_arg "$2"; boot_args+=("$2"); shift 2 ;;
	--switch-at) main_only "$1"; need "$@"; switch_at=$(opt_switch_at "$2"); shift 2 ;;
	--kernel) main_only "$1"; need "$@"; flavour=$2; shift 2 ;;
	--kernel-image) main_only "$1"; need "$@"; LAB_KERNEL=$2; shift 2 ;;
	--results) main_only "$1"; need "$@"; results=$2; shift 2 ;;
	*) die "$EX_USAGE" "unknown option '$1' (see lab.sh run --help)" ;;
	esac
done

mem_mib=$(opt_mem "$mem")
[[ $vcpus =~ ^[1-8]$ ]] || die "$EX_USAGE" "bad --vcpus '$vcpus' (1 to 8)"
shape_check "$mem_mib" "$vcpus"
[[ $reps =~ ^[1-9][0-9]*$ ]] || die "$EX_USAGE" "bad --reps '$reps' (a positive number)"
opt_seconds --timeout "$timeout_s"
opt_seconds --boot-timeout "$boot_limit"
[[ $seed =~ ^(0|[1-9][0-9]{0,17})$ ]] || die "$EX_USAGE" "bad --seed '$seed' (a number without leading zeros)"
# bpftrace:NAME[,NAME...] runs only those programs: each bpftrace process
# takes memory from the guest it measures. The mode is recorded in one
# spelling (perf,events as events,perf), so that runs group as one.
trace_parse "$trace"
trace=$trace_canon bt_only=$trace_bt_only
perf_freq=null
if in_list perf "${trace_tracers[@]}"; then
	perf_freq=$(perf_hz_check "${perf_hz:-$LAB_PERF_HZ_DEFAULT}")
elif [[ -n $perf_hz ]]; then
	die "$EX_USAGE" "--perf-hz needs a --trace with perf (perf, all or e.g. events,perf), not '$trace'"
fi
if [[ -n $trace_buffer ]]; then
	if ! [[ $trace_buffer =~ ^[1-9][0-9]{0,6}$ ]] || ((trace_buffer > 1048576)); then
		die "$EX_USAGE" "bad --trace-buffer '$trace_buffer' (KiB per CPU, 1 to 1048576)"
	fi
	[[ ,$trace, == *,events,* || $trace == all ]] ||
		die "$EX_USAGE" "--trace-buffer needs a --trace that records events (events or all), not '$trace'"
fi
if [[ -n $trace_profile ]]; then
	[[ $trace_profile =~ ^[a-z0-9][a-z0-9-]*$ && -f $LAB_TOP/tracepoints/$trace_profile.events ]] ||
		die "$EX_USAGE" "bad --trace-profile '$trace_profile' (one of: $(find "$LAB_TOP/tracepoints" -maxdepth 1 -name '*.events' -printf '%f\n' | sed 's/\.events$//' | sort | paste -sd' '))"
	[[ ,$trace, == *,events,* || $trace == all ]] ||
		die "$EX_USAGE" "--trace-profile needs a --trace that records events (events or all), not '$trace'"
fi
[[ ${LAB_TRACER_STOP_S:-120} =~ ^[1-9][0-9]{0,4}$ ]] ||
	die "$EX_USAGE" "bad LAB_TRACER_STOP_S '${LAB_TRACER_STOP_S:-}' (seconds, 1 to 99999)"
[[ -n $flavour ]] || flavour=$(policy_flavour "$policy")
policy_kernel_check "$policy" "$flavour"
[[ $switch_at == '[]' || $flavour != vanilla* ]] ||
	die "$EX_USAGE" "--switch-at needs a lab kernel policy (the vanilla kernel has no page_replace)"
# One cgroup name, one limit.
declare -A cg_seen=()
for c in "${wl_cgroups[@]}"; do
	[[ $c == null ]] && continue
	n=$(jq -r .name <<<"$c")
	[[ -z ${cg_seen[$n]:-} || ${cg_seen[$n]} == "$c" ]] ||
		die "$EX_USAGE" "--cgroup $n is given two different limits"
	cg_seen[$n]=$c
done
for ((i = 0; i < ${#wl_names[@]}; i++)); do
	args_of "${wl_args[i]}"
	job_check_files "${wl_names[i]}" "${args_out[@]}"
done

# First use on a fresh machine: set everything up (packages, kernels,
# image), one make at a time: never beside a build already running (two
# kernel builds in one tree break each other).
if [[ -z ${LAB_KERNEL:-} && $flavour != debug ]] &&
	[[ ! -e $LAB_KERNEL_DIR/$flavour/bzImage || ! -e $LAB_IMAGE ]]; then
	if building=$(pgrep -af 'kernel/scripts/(build-kernel|prepare-tree)\.sh|images/build-(rootfs|selftests)\.sh'); then
		die "$EX_MISSING" "kernel or image not built yet, and a build is running ($(head -n1 <<<"$building" | cut -c1-80)); run again when it is done"
	fi
	say "kernel or image not built yet: running make (about 25 min the first time)"
	mkdir -p "$LAB_BUILD"
	# make all holds $LAB_BUILD/.make.lock itself (the Makefile's MAKE_LOCK):
	# a make by hand and this one wait for each other.
	# Today's kernel is outside make all (about 10 min more): built when
	# one of its policies asks for it.
	goals=(all)
	[[ $flavour != vanilla-6.12 ]] || goals+=(kernel-vanilla-6.12)
	LAB_BUILD=$LAB_BUILD make -C "$LAB_TOP" "${goals[@]}" >&2 ||
		die "$EX_MISSING" "make failed; the lab is not set up"
fi
guest_prepare "$flavour" "$policy"
mkdir -p "$results" || die "$EX_HARNESS" "cannot create $results"
results=$(cd "$results" && pwd)

# The guest's view of each workload's arguments (carried files mapped).
mapped=()
for ((i = 0; i < ${#wl_names[@]}; i++)); do
	args_of "${wl_args[i]}"
	job_map_args mapped "$job_next_k" "${args_out[@]}"
	guest_args[i]=$(IFS=$US; echo "${mapped[*]}")
done
result_file_map=()
for c in "${job_carried[@]}"; do result_file_map+=("${c#*$'\t'}"$'\t'"${c%%$'\t'*}"); done

json_array() { printf '%s\n' "$@" | jq -R . | jq -sc 'map(select(. != ""))'; }

# workload_argv N SEED: workload N's full argument list in the guest, one
# per line: the lab's options first, then the user's.
workload_argv() {
	local i=$1 rep_seed=$2 a=()
	a=(--seed "$rep_seed")
	if [[ ${wl_names[i]} != cyclic-anon ]]; then
		if ((i == 0)); then a+=(--dir /data); else a+=(--dir "/data/also-$i"); fi
	fi
	[[ -z ${wl_sizes[i]} ]] || a+=(--size "${wl_sizes[i]}")
	((i == 0 && refs)) && a+=(--emit-refs /results/run/refs.bin)
	args_of "${guest_args[i]}"
	printf '%s\n' "${a[@]}" "${args_out[@]}"
}

# job_env REP_SEED: job.env for init.
job_env() {
	local i
	printf 'LAB_WORKLOAD=%s\n' "$workload"
	printf 'LAB_TRACE="%s"\n' "${trace_tracers[*]}"
	printf 'LAB_BPFTRACE_ONLY="%s"\n' "$bt_only"
	printf 'LAB_MODE=run\n'
	printf 'LAB_MGLRU=%s\n' "$(policy_mglru "$policy")"
	printf 'LAB_SYSCTL="%s"\n' "${sysctls[*]}"
	printf 'LAB_SWITCH="%s"\n' "$(jq -r 'map("\(.t_s):\(.to)") | join(" ")' <<<"$switch_at")"
	printf 'LAB_ALSO=%s\n' "$((${#wl_names[@]} - 1))"
	for ((i = 0; i < ${#wl_names[@]}; i++)); do
		printf 'LAB_WORKLOAD_%s=%s\n' "$i" "${wl_names[i]}"
		printf 'LAB_CGROUP_%s="%s"\n' "$i" "$(jq -r 'if . == null then "" else .name + (if .limit then ":" + .limit else "" end) end' <<<"${wl_cgroups[i]}")"
	done
	printf 'LAB_INJECT=%s\n' "${LAB_INJECT:-}"
	printf 'LAB_TRACE_WARMUP=%s\n' "${LAB_TRACE_WARMUP:-5}"
	printf 'LAB_TRACER_STOP_S=%s\n' "${LAB_TRACER_STOP_S:-120}"
	printf 'LAB_TRACE_BUFFER_KB=%s\n' "$trace_buffer"
	printf 'LAB_TRACE_PROFILE=%s\n' "$trace_profile"
	[[ $perf_freq == null ]] || printf 'LAB_PERF_PERIOD_NS=%s\n' "$((1000000000 / perf_freq))"
	guest_shape_env "$mem_mib"
}

# request_json RUN_ID REP REP_SEED: what this rep asks for (result.sh adds
# what happened).
request_json() {
	local run_id=$1 rep=$2 rep_seed=$3 also='[]' i
	for ((i = 1; i < ${#wl_names[@]}; i++)); do
		also=$(jq -c --arg w "${wl_names[i]}" --arg size "${wl_sizes[i]}" \
			--argjson args "$(workload_argv "$i" "$rep_seed" | jq -R . | jq -sc .)" \
			--argjson cg "${wl_cgroups[i]}" \
			'. + [{workload: $w, size: $size, args: $args, cgroup: $cg}]' <<<"$also")
	done
	jq -n --arg run_id "$run_id" --argjson rep "$rep" --arg policy "$policy" \
		--arg flavour "$flavour" --arg workload "$workload" \
		--argjson args "$(workload_argv 0 "$rep_seed" | jq -R . | jq -sc .)" \
		--arg size "${wl_sizes[0]}" --argjson seed "$rep_seed" --argjson mem_mib "$mem_mib" \
		--argjson vcpus "$vcpus" --arg accel "$accel" --argjson kernel "$guest_kernel_json" \
		--arg source "$(linux_source_version "$flavour")" --arg trace "$trace" --argjson perf_freq "$perf_freq" \
		--arg started_at "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
		--argjson host "$(result_host_json)" --argjson engine "$(result_engine_json)" \
		--argjson sysctl "$(json_array "${sysctls[@]}")" \
		--argjson boot_args "$(json_array "${boot_args[@]}")" \
		--argjson cgroup "${wl_cgroups[0]}" --argjson switch_at "$switch_at" --argjson also "$also" \
		--argjson shape "$shape_json" \
		--argjson schema "$result_schema_version" \
		'{schema_version: $schema, run_id: $run_id, rep: $rep, policy: $policy,
		  kernel_flavour: $flavour,
		  workload: $workload,
		  params: ({size: $size, args: $args, sysctl: $sysctl, cgroup: $cgroup,
		           boot_args: $boot_args, switch_at: $switch_at, also: $also} + $shape),
		  seed: $seed, mem_mib: $mem_mib, vcpus: $vcpus, accel: $accel, kernel: $kernel,
		  linux_source_version: $source, trace: $trace, started_at: $started_at,
		  host: $host} + $engine
		| if $perf_freq == null then . else .perf_freq_hz = $perf_freq end'
}

# The rep being made, for the cleanup on exit or interruption.
cur_work="" cur_part=""
# shellcheck disable=SC2317 # run by the traps
run_cleanup() {
	[[ -z $cur_work ]] || rm -rf "$cur_work"
	[[ -z $cur_part ]] || rm -rf "$cur_part"
	cur_work="" cur_part=""
	rm -f "$dirs_file"
}
# shellcheck disable=SC2317 # run by the traps
run_abort() {
	guest_abort
	run_cleanup
}

# run_one REP: one boot; appends the result dir to dirs_file and sets
# run_rc to the run's exit code.
run_one() {
	local rep=$1 rep_seed=$seed run_id work job part final i
	((vary_seed)) && rep_seed=$((seed + rep - 1))
	run_id=$(date -u +%Y%m%dT%H%M%S)-$policy-$workload-r$rep-$(od -An -N2 -tx2 /dev/urandom | tr -d ' ')
	work=$LAB_BUILD/runs/$run_id
	job=$work/job
	part=$results/.$run_id.partial
	final=$results/$run_id
	cur_work=$work
	mkdir -p "$job/files"
	guest=()
	# Resolved again for each rep: a kernel or image rebuilt meanwhile is
	# taken whole, and recorded as what it is.
	guest_resolve "$flavour"
	guest_pin "$work"
	! in_list file-search "${wl_names[@]}" || guest_pin_sources "$work"
	[[ $perf_freq == null ]] || perf_image_check "${guest[image]}"
	cur_part=$part
	mkdir -p "$part"

	workload_argv 0 "$rep_seed" >"$job/args"
	for ((i = 1; i < ${#wl_names[@]}; i++)); do
		workload_argv "$i" "$rep_seed" >"$job/also-$i.args"
	done
	job_copy_files "$job"
	job_env >"$job/job.env"
	request_json "$run_id" "$rep" "$rep_seed" >"$part/request.json"

	guest_make_disks "$work" "$job" "$mem_mib"
	guest+=([work]=$work [job]=$job [mem]=$mem_mib [vcpus]=$vcpus [accel]=$accel
		[cmdline]=$cmdline [console]=$part/console.log [qemu_log]=$part/qemu.log
		[qemu_cmdline]=$part/qemu.cmdline [timeout]=$timeout_s [boot_limit]=$boot_limit
		[retries]=2 [id]=$run_id [desc]="lab run $policy $workload"
		[progress]="[rep $rep/$reps] guest: " [markers]=$part/markers)
	local what=$workload
	((${#wl_names[@]} == 1)) || what="${wl_names[*]}"
	say "[rep $rep/$reps] booting $policy ($flavour kernel, $accel, ${mem_mib} MiB, $vcpus vCPUs$(shape_words)): $what"
	guest_boot

	result_collect "$part" "$work/results.img" || true
	result_write "$part" "$timeout_s"
	mv -T "$part" "$final"
	cur_part=""
	rm -rf "$work"
	cur_work=""
	printf '%s\n' "$final" >>"$dirs_file"
	run_rc=$result_code
}

mkdir -p "$LAB_BUILD/runs"
dirs_file=$LAB_BUILD/runs/.lab-run-dirs.$$
: >"$dirs_file"
trap run_cleanup EXIT
lab_on_signals run_abort
status=0
for ((rep = 1; rep <= reps; rep++)); do
	run_rc=0
	run_one "$rep"
	if ((run_rc != 0)); then
		status=$run_rc
		say "[rep $rep/$reps] failed with exit code $run_rc; see $(tail -n1 "$dirs_file")"
		break
	fi
done
cat "$dirs_file"
exit "$status"
