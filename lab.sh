#!/usr/bin/env bash
# The lab's front door: a thin dispatcher over lab/commands/*.sh, one job
# each (lab/lib/: what they share; lab/schedulers/: where a matrix's cells
# run; lab/make/: what make runs).
set -euo pipefail
lab_prog=lab
# shellcheck source=lab/lib/common.sh
source "$(dirname "$0")/lab/lib/common.sh"

usage() {
	cat <<'USAGE'
usage: ./lab.sh COMMAND [ARGS...]

  run POLICY WORKLOAD [options] [-- WORKLOAD-OPTIONS]
                      boot POLICY's kernel in QEMU, run WORKLOAD, store
                      results/<run-id>/ (lab.sh run --help for options)
  list                policies, workloads and kernels
  shell POLICY        interactive console of a guest running POLICY
  matrix              run policies x workloads x reps, resumable; or an
                      experiment: matrix --experiment NAME (experiments/)
  sweep               the kernel's miss-ratio curve: matrix over workload
                      sizes, each run beside its model and OPT
  compare RESULTS...  cover-letter table: mean +- 95% CI, ratio, significance
                      (compare --experiment NAME: that experiment's runs)
  results             RESULTS.md from the headline experiments' runs
  plot RUN...         reclaim timelines of runs with --trace events
  report DIR          one HTML page with the tables and plots
  bound RUN...        Belady's OPT and the policy models on a run's references
  stress POLICY       the reliability gate: stress-ng, mm selftests, memcg

  build               make: packages, kernels, image and tools (README)
  test [AREA...]      make test, or tests/run on those areas only
  bench               make bench: the headline experiments (experiments/)

Exit codes of run: 0 ok, 1 harness error, 2 bad arguments, 3 data
verification failed, 4 workload failed, 5 guest panic/oops, 6 timeout,
7 policy mismatch, 8 kernel or image missing/corrupt, 128+N killed by
signal N (130: Ctrl-C; the guest is stopped and nothing partial is kept).

Guests run at the same time (two lab commands, or a matrix beside a run)
do not wait for each other: each result records how many others ran
beside it (concurrent_guests in result.json).

Environment (every other setting is an option of a command):
  LAB_RESULTS=DIR       where results go (default results/; --results wins)
  LAB_BUILD=DIR         the build tree (default build/)
  LAB_KERNEL=FILE       boot this bzImage (as run/shell/stress --kernel-image)
  LAB_ACCEL=kvm|tcg     skip the KVM probe
  LAB_TARBALL=FILE      kernel source (default /usr/src/linux-source-6.1.tar.xz)
  LAB_TARBALL_612=FILE  today's kernel's source, for vanilla-6.12 (default
                        /usr/src/linux-source-6.12.tar.xz)
  LAB_PATCHES=DIR       the series (default kernel/patches)
  LAB_SELFTESTS_SRC=DIR tree whose selftests the image gets (default build/src/lab)
For the lab's own tests only:
  LAB_EXPERIMENTS=DIR      the experiments' .conf files (default experiments/)
  LAB_INJECT=panic|hang|crash|fill|policy|corrupt|stuck-tracer|stalled-trace-reader
                           a fault in a run's guest
  LAB_STRESS_INJECT=warn|fail|panic|hang|die       a fault in the gate's guest
  LAB_RESULTS_DISK_MIB=N   a run's results disk (default 512)
  LAB_TRACE_WARMUP=S       seconds tracers get to attach (default 5)
  LAB_TRACER_STOP_S=S      seconds a tracer gets to exit after SIGINT (120)
For debugging a guest:
  LAB_QEMU_GDB=PORT        QEMU's gdb stub on 127.0.0.1:PORT (gdb vmlinux,
                           target remote :PORT); one guest at a time
  LAB_TEST_JOBS=N          test scripts tests/run runs at a time (the CPUs)
  LAB_TEST_STRESS_DURATION=S  stress-ng seconds of tests/stress/gate.t (12)
  LAB_TEST_POLICIES="P ..."   the policies tests/policies runs
  LAB_TEST_CELLS="P:W ..."    the cells tests/policies/model.t holds to their model
  LAB_CHECK_PREFIXES=1,5,...  the prefixes make kernel-check builds (default all)
  LAB_SANITIZE=1           tests build the host tools with ASan and UBSan
  LAB_LIRS_TRACES=DIR      the LIRS traces of tests/sim (default ../shared/data)
USAGE
}

cmd=${1:-}
[[ -n $cmd ]] || {
	usage >&2
	exit "$EX_USAGE"
}
shift
case $cmd in
-h | --help | help) usage ;;
run | list | shell | matrix | sweep | compare | results | plot | report | bound | stress)
	script=$LAB_TOP/lab/commands/$cmd.sh
	[[ -x $script ]] || die "$EX_USAGE" "'$cmd' is not available in this checkout yet"
	exec "$script" "$@"
	;;
build | bench)
	(($# == 0)) || die "$EX_USAGE" "$cmd takes no arguments"
	target=all
	[[ $cmd == bench ]] && target=bench
	exec make -C "$LAB_TOP" --no-print-directory "$target"
	;;
test)
	(($#)) || exec make -C "$LAB_TOP" --no-print-directory test
	exec "$LAB_TOP/tests/run" "$@"
	;;
*) die "$EX_USAGE" "unknown command '$cmd' (./lab.sh --help)" ;;
esac
