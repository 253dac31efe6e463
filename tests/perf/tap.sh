# shellcheck shell=bash source=../lib/tap.bash
source "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.bash"

# build_perf_tools: perf-reclaim and perf-diff into $build/analysis (a
# failed build is one failed test, and the script ends there).
build_perf_tools() {
	if ! lab_make analysis "$build/analysis/perf-reclaim" "$build/analysis/perf-diff" \
		OUT="$build/analysis" >"$tmp/build.log" 2>&1; then
		not_ok "perf-reclaim and perf-diff build" "$(tail -n 5 "$tmp/build.log")"
		done_testing
	fi
}
