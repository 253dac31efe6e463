#!/usr/bin/env bash
# The lab's front door: a thin dispatcher over lab/*.sh, one job each.
set -euo pipefail
lab_prog=lab
# shellcheck source=lab/common.sh
source "$(dirname "$0")/lab/common.sh"

usage() {
	cat <<'USAGE'
usage: ./lab.sh COMMAND [ARGS...]

  run POLICY WORKLOAD [options] [-- WORKLOAD-OPTIONS]
                      boot POLICY's kernel in QEMU, run WORKLOAD, store
                      results/<run-id>/ (lab.sh run --help for options)
  list                policies, workloads and kernels
  shell POLICY        interactive console of a guest running POLICY
  matrix              run policies x workloads x reps, resumable
  compare RESULTS...  cover-letter table: mean +- 95% CI, ratio, significance
  plot RUN...         reclaim timelines of runs with --trace events
  report DIR          one HTML page with the tables and plots
  bound RUN...        Belady's OPT and the policy models on a run's references
  stress POLICY       the reliability gate: stress-ng, mm selftests, memcg

Exit codes of run: 0 ok, 1 harness error, 2 bad arguments, 3 data
verification failed, 4 workload failed, 5 guest panic/oops, 6 timeout,
7 policy mismatch, 8 kernel or image missing/corrupt.
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
run | list | shell | matrix | compare | plot | report | bound | stress)
	script=$LAB_TOP/lab/$cmd.sh
	[[ -x $script ]] || die "$EX_USAGE" "'$cmd' is not available in this checkout yet"
	exec "$script" "$@"
	;;
*) die "$EX_USAGE" "unknown command '$cmd' (./lab.sh --help)" ;;
esac
