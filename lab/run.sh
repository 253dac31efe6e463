#!/usr/bin/env bash
# lab.sh run: boot a policy's kernel, run a workload, store the results.
#
#   run.sh POLICY WORKLOAD [options] [-- WORKLOAD-OPTIONS]
#
# Each rep boots a fresh guest with fresh disks and writes
# results/<run-id>/ atomically: it is built as results/.<run-id>.partial and
# renamed when result.json is complete. The results directory of each rep
# is printed on stdout, one per line, as the last output.
set -euo pipefail
lab_prog="lab run"
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
usage: lab.sh run POLICY WORKLOAD [options] [-- WORKLOAD-OPTIONS]

  --mem SIZE        guest memory (default 256M; suffix M or G)
  --vcpus N         guest CPUs (default 2)
  --reps N          repetitions, each a fresh boot (default 1)
  --timeout S       seconds before a guest counts as hung (default 900)
  --seed N          workload seed (default 1; rep i uses seed N+i-1 with --vary-seed)
  --vary-seed       give each rep its own seed
  --size SIZE       workload size (bytes with K/M/G, or N% of MemTotal)
  --trace MODE      none|events|bpftrace|all (default none), or
                    bpftrace:NAME[,NAME...] for only those tracepoints/*.bt
  --refs            record the page reference string (refs.bin)
  --sysctl K=V      set /proc/sys/K (dots for slashes) in the guest before
                    the workload's setup, e.g. vm.page-cluster=0; repeatable
  --kernel FLAVOUR  vanilla|lab|debug (default: vanilla for POLICY vanilla*,
                    lab otherwise); LAB_KERNEL=bzImage boots your own build
  --results DIR     where result directories go (default results/)

Options after -- go to the workload; files they name are carried into the
guest read-only. Exit codes: 0 ok, 1 harness error, 2 bad arguments,
3 data verification failed, 4 workload failed, 5 guest panic/oops,
6 timeout, 7 policy mismatch, 8 kernel or image missing/corrupt.
USAGE
}

[[ ${1:-} == -h || ${1:-} == --help ]] && {
	usage
	exit 0
}
[[ $# -ge 2 ]] || die "$EX_USAGE" "need POLICY and WORKLOAD (see lab.sh run --help)"
policy=$1 workload=$2
shift 2
in_list "$policy" "${LAB_POLICIES[@]}" vanilla-mglru ||
	die "$EX_USAGE" "unknown policy '$policy' (lab.sh list shows them)"
in_list "$workload" "${LAB_WORKLOADS[@]}" ||
	die "$EX_USAGE" "unknown workload '$workload' (lab.sh list shows them)"

mem=256M vcpus=2 reps=1 timeout_s=900 seed=1 vary_seed=0 size="" trace=none
refs=0 flavour="" results=$LAB_RESULTS
wl_args=() sysctls=()
need() { [[ $# -ge 2 && -n $2 ]] || die "$EX_USAGE" "option $1 needs a value"; }
while [[ $# -gt 0 ]]; do
	case $1 in
	--mem) need "$@"; mem=$2; shift 2 ;;
	--vcpus) need "$@"; vcpus=$2; shift 2 ;;
	--reps) need "$@"; reps=$2; shift 2 ;;
	--timeout) need "$@"; timeout_s=$2; shift 2 ;;
	--seed) need "$@"; seed=$2; shift 2 ;;
	--vary-seed) vary_seed=1; shift ;;
	--size) need "$@"; size=$2; shift 2 ;;
	--trace) need "$@"; trace=$2; shift 2 ;;
	--refs) refs=1; shift ;;
	--sysctl)
		need "$@"
		[[ $2 =~ ^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)+=[A-Za-z0-9_.:-]+$ ]] ||
			die "$EX_USAGE" "bad --sysctl '$2' (KEY=VALUE, e.g. vm.page-cluster=0)"
		sysctls+=("$2")
		shift 2
		;;
	--kernel) need "$@"; flavour=$2; shift 2 ;;
	--results) need "$@"; results=$2; shift 2 ;;
	--) shift; wl_args=("$@"); break ;;
	*) die "$EX_USAGE" "unknown option '$1' (see lab.sh run --help)" ;;
	esac
done

[[ $mem =~ ^([0-9]+)([MG]?)$ ]] || die "$EX_USAGE" "bad --mem '$mem' (e.g. 256M or 1G)"
mem_mib=${BASH_REMATCH[1]}
[[ ${BASH_REMATCH[2]} == G ]] && mem_mib=$((mem_mib * 1024))
((mem_mib >= 128 && mem_mib <= 16384)) || die "$EX_USAGE" "--mem must be between 128M and 16G"
[[ $vcpus =~ ^[1-8]$ ]] || die "$EX_USAGE" "bad --vcpus '$vcpus' (1 to 8)"
[[ $reps =~ ^[1-9][0-9]*$ ]] || die "$EX_USAGE" "bad --reps '$reps' (a positive number)"
[[ $timeout_s =~ ^[1-9][0-9]*$ ]] || die "$EX_USAGE" "bad --timeout '$timeout_s' (seconds)"
[[ $seed =~ ^[0-9]+$ ]] || die "$EX_USAGE" "bad --seed '$seed' (a number)"
if [[ -n $size ]] && ! [[ $size =~ ^[1-9][0-9]*[KMG]?$ || $size =~ ^[1-9][0-9]*%$ ]]; then
	die "$EX_USAGE" "bad --size '$size' (e.g. 300M, 1G or 150%)"
fi
# bpftrace:NAME[,NAME...] runs only those programs: each bpftrace process
# takes memory from the guest it measures.
bt_only=$(trace_bpftrace_only "$trace") || exit
if [[ -z $flavour ]]; then
	case $policy in vanilla*) flavour=vanilla ;; *) flavour=lab ;; esac
fi
in_list "$flavour" "${LAB_FLAVOURS[@]}" || die "$EX_USAGE" "bad --kernel '$flavour' (vanilla|lab|debug)"
if [[ $policy == vanilla* && $flavour != vanilla ]] || [[ $policy != vanilla* && $flavour == vanilla ]]; then
	die "$EX_USAGE" "policy $policy does not run on the $flavour kernel"
fi
for a in "${wl_args[@]}"; do
	[[ $a != *$'\n'* ]] || die "$EX_USAGE" "workload options must not contain newlines"
done

# First use on a fresh machine: set everything up (packages, kernels, image).
if [[ -z ${LAB_KERNEL:-} && ( ! -f $LAB_KERNEL_DIR/$flavour/bzImage || ! -f $LAB_IMAGE ) ]] &&
	[[ $flavour != debug ]]; then
	say "kernel or image not built yet: running make (about 25 min the first time)"
	make -C "$LAB_TOP" all >&2 || die "$EX_MISSING" "make failed; the lab is not set up"
fi
kernel=$(guest_kernel "$flavour")
guest_check_image
kinfo=$LAB_KERNEL_DIR/$flavour/info.json
[[ -z ${LAB_KERNEL:-} && ! -f $kinfo ]] && die "$EX_MISSING" "no ${kinfo#"$LAB_TOP"/} (run make)"
mkdir -p "$results" || die "$EX_HARNESS" "cannot create $results"
results=$(cd "$results" && pwd)
accel=$(accel_choose "$kernel")

# Kernel command line for the policy.
cmdline="lab.policy=$policy"
case $policy in
vanilla | vanilla-mglru) ;;
*) cmdline="$cmdline page_replace=$policy" ;;
esac
cmdline="$cmdline $(guest_clock_params "$accel")"
mglru=n
[[ $policy == vanilla-mglru ]] && mglru=y

# run_one REP: one boot; prints the result dir; returns the run's exit code.
run_one() {
	local rep=$1 rep_seed=$seed run_id work job part final rc qemu_rc a args
	((vary_seed)) && rep_seed=$((seed + rep - 1))
	run_id=$(date -u +%Y%m%dT%H%M%S)-$policy-$workload-r$rep-$(od -An -N2 -tx2 /dev/urandom | tr -d ' ')
	work=$LAB_BUILD/runs/$run_id
	job=$work/job
	part=$results/.$run_id.partial
	final=$results/$run_id
	mkdir -p "$job/files" "$part"
	trap 'rm -rf "$work"' RETURN

	# Workload arguments: lab options first, then the user's, with host
	# files carried into the job disk and --emit-refs sent to /results.
	args=(--seed "$rep_seed")
	[[ $workload != cyclic-anon ]] && args+=(--dir /data)
	[[ -n $size ]] && args+=(--size "$size")
	((refs)) && args+=(--emit-refs /results/run/refs.bin)
	local i=0 n=${#wl_args[@]}
	while ((i < n)); do
		a=${wl_args[i]}
		if [[ $a == --emit-refs ]]; then
			args+=(--emit-refs /results/run/refs.bin)
			# A value given on the host names nothing in the guest.
			if ((i + 1 < n)) && [[ ${wl_args[i + 1]} != -* ]]; then i=$((i + 1)); fi
		elif [[ $a != -* && -f $a ]]; then
			cp "$a" "$job/files/$(basename "$a")"
			args+=("/job/files/$(basename "$a")")
		else
			args+=("$a")
		fi
		i=$((i + 1))
	done
	printf '%s\n' "${args[@]}" >"$job/args"
	{
		printf 'LAB_WORKLOAD=%s\n' "$workload"
		printf 'LAB_TRACE=%s\n' "${trace%%:*}"
		printf 'LAB_BPFTRACE_ONLY="%s"\n' "$bt_only"
		printf 'LAB_MODE=run\n'
		printf 'LAB_MGLRU=%s\n' "$mglru"
		printf 'LAB_SYSCTL="%s"\n' "${sysctls[*]}"
		printf 'LAB_INJECT=%s\n' "${LAB_INJECT:-}"
		printf 'LAB_TRACE_WARMUP=%s\n' "${LAB_TRACE_WARMUP:-5}"
		printf 'LAB_TRACE_BUFFER_KB=%s\n' "${LAB_TRACE_BUFFER_KB:-}"
	} >"$job/job.env"

	local kernel_json
	if [[ -n ${LAB_KERNEL:-} ]]; then
		kernel_json=$(jq -n --arg k "$LAB_KERNEL" \
			'{release: null, series_sha: "unknown", config_sha: "unknown", image: $k}')
	else
		kernel_json=$(jq -c '{release, series_sha, config_sha}' "$kinfo")
	fi
	jq -n --arg run_id "$run_id" --argjson rep "$rep" --arg policy "$policy" \
		--arg flavour "$flavour" --arg workload "$workload" \
		--argjson args "$(printf '%s\n' "${args[@]}" | jq -R . | jq -sc .)" \
		--arg size "$size" --argjson seed "$rep_seed" --argjson mem_mib "$mem_mib" \
		--argjson vcpus "$vcpus" --arg accel "$accel" --argjson kernel "$kernel_json" \
		--arg source "$(linux_source_version)" --arg trace "$trace" \
		--arg started_at "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
		--argjson sysctl "$(printf '%s\n' "${sysctls[@]}" | jq -R 'select(. != "")' | jq -sc .)" \
		'{run_id: $run_id, rep: $rep, policy: $policy, kernel_flavour: $flavour,
		  workload: $workload, params: {size: $size, args: $args, sysctl: $sysctl}, seed: $seed,
		  mem_mib: $mem_mib, vcpus: $vcpus, accel: $accel, kernel: $kernel,
		  linux_source_version: $source, trace: $trace, started_at: $started_at}' \
		>"$part/request.json"

	guest_make_disks "$work" "$job" "$mem_mib"
	guest_qemu_argv "$kernel" "$work" "$mem_mib" "$vcpus" "$accel" "$cmdline" "file:$part/console.log"
	printf '%q ' "${qemu_argv[@]}" >"$part/qemu.cmdline"
	echo >>"$part/qemu.cmdline"

	say "[rep $rep/$reps] booting $policy ($flavour kernel, $accel, ${mem_mib} MiB, $vcpus vCPUs): $workload"
	: >"$part/console.log"
	qemu_rc=0
	local t0=$SECONDS qemu_pid
	printf '%s HOST: qemu start\n' "$(date +%s.%N)" >"$part/markers"
	timeout -s KILL "$timeout_s" "${qemu_argv[@]}" >"$part/qemu.log" 2>&1 &
	qemu_pid=$!
	# Progress: the guest's LAB lines, until QEMU is gone. Each is stamped
	# with the host's clock in markers: the timed phase's wall time comes
	# from there, whatever the guest's clock thinks.
	tail -n +1 -F --pid="$qemu_pid" "$part/console.log" 2>/dev/null |
		grep --line-buffered -aE '^LAB' | while IFS= read -r line; do
		line=${line%$'\r'}
		printf '%s %s\n' "$(date +%s.%N)" "$line" >>"$part/markers"
		printf '%s: [rep %s/%s] guest: %s\n' "$lab_prog" "$rep" "$reps" "$line" >&2
	done &
	wait "$qemu_pid" || qemu_rc=$?
	wait
	local qemu_s=$((SECONDS - t0))

	rc=0
	result_collect "$part" "$work/results.img" || true
	result_write "$part" "$qemu_rc" "$qemu_s" "$timeout_s" || rc=$?
	mv "$part" "$final"
	printf '%s\n' "$final" >>"$dirs_file"
	return "$rc"
}

mkdir -p "$LAB_BUILD/runs"
dirs_file=$LAB_BUILD/runs/.lab-run-dirs.$$
: >"$dirs_file"
trap 'rm -f "$dirs_file"' EXIT
status=0
for ((rep = 1; rep <= reps; rep++)); do
	rc=0
	run_one "$rep" || rc=$?
	if ((rc != 0)); then
		status=$rc
		say "[rep $rep/$reps] failed with exit code $rc; see $(tail -n1 "$dirs_file")"
		break
	fi
done
cat "$dirs_file"
exit "$status"
