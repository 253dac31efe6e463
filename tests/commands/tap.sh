# shellcheck shell=bash source=../lib/analysis.bash
source "$(dirname "${BASH_SOURCE[0]}")/../lib/analysis.bash"
# shellcheck source=../lib/fixtures.bash
source "$(dirname "${BASH_SOURCE[0]}")/../lib/fixtures.bash"

# build_analysis: the analysis tools the commands run, built (a failed
# build fails the script; it is never skipped), and lab.sh pointed at them.
build_analysis() {
	if ! lab_make analysis OUT="$build/analysis" >"$tmp/build.log" 2>&1; then
		not_ok "analysis tools build" "$(tail -n 5 "$tmp/build.log")"
		done_testing
	fi
	export LAB_BUILD=$build
}

# need_gnuplot: the plotting tests skip themselves, visibly, without it.
need_gnuplot() {
	command -v gnuplot >/dev/null || skip_all "gnuplot is not installed (lab/make/deps.sh installs gnuplot-nox)"
}
