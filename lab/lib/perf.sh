# shellcheck shell=bash
# --trace perf on the host: the sampling rate, the check that the guest
# image carries perf before a boot, and the profile a guest recorded
# turned into perf/ (report.txt, folded.txt, metrics.json) and the
# metrics of result.json's perf object by analysis/perf's perf-reclaim.
# Sourced by run.sh after common.sh.

# cpu-clock samples per second of CPU time, per CPU, unless lab.sh run
# --perf-hz says otherwise: at 99 a profiled cyclic-anon takes 1.04-1.06x
# the wall time of an unprofiled one, with the same faults and swap-ins
# (BENCHMARKS.md, "What perf costs"); a prime, so that sampling does not
# beat with the 250 Hz tick.
# shellcheck disable=SC2034 # read by run.sh
LAB_PERF_HZ_DEFAULT=99

# perf_hz_check HZ: print HZ, or exit 2 with one line unless it is 1 to
# 10000.
perf_hz_check() {
	if [[ ! $1 =~ ^[1-9][0-9]{0,4}$ ]] || (($1 > 10000)); then
		die "$EX_USAGE" "bad --perf-hz '$1' (samples a second, 1 to 10000)"
	fi
	echo "$1"
}

# perf_image_check IMAGE: exit 8 with one line unless the guest image
# IMAGE carries /usr/bin/perf (read with debugfs, nothing mounted).
perf_image_check() {
	debugfs -R 'stat /usr/bin/perf' "$1" 2>/dev/null | grep -q '^Inode:' ||
		die "$EX_MISSING" "--trace perf: the guest image has no perf (/usr/bin/perf); rebuild it with make image (linux-perf must be installed: make deps)"
}

# perf_metrics PART RESULT: when the guest left PART/perf.data, resolve its
# samples with the kernel's own symbols (PART/perf/kallsyms, which the
# guest copied from /proc/kallsyms after the timed phase; the host's
# vmlinux and kallsyms are never read), write PART/perf/report.txt,
# folded.txt and metrics.json, and print the metrics, result.json's
# "perf" (null, with a note on stderr, when the profile cannot be read;
# nothing without a perf.data). RESULT is the run's result.json as it
# will be, whose counters the tool reads (reclaimed pages).
perf_metrics() {
	local part=$1 result=$2 tool=$LAB_BUILD/analysis/perf-reclaim metrics=null err rc=()
	[[ -e $part/perf.data ]] || return 0
	err=$part/perf/analyse.err
	mkdir -p "$part/perf"
	if [[ ! -x $tool ]]; then
		echo "no ${tool#"$LAB_TOP"/} (run make analysis)" >"$err"
	elif [[ ! -s $part/perf/kallsyms ]]; then
		echo "the guest left no perf/kallsyms to resolve kernel symbols with" >"$err"
	else
		# --kallsyms is the only symbol source perf script then reads.
		perf script -f -i "$part/perf.data" --kallsyms "$part/perf/kallsyms" \
			-F comm,tid,cpu,time,period,event,ip,sym,dso 2>"$part/perf/script.err" |
			"$tool" --result "$result" --folded "$part/perf/folded.txt" \
				--report "$part/perf/report.txt" --json "$part/perf/metrics.json" 2>"$err" ||
			rc=("${PIPESTATUS[@]}")
		# perf script killed by SIGPIPE (141) means the tool stopped
		# reading: the tool's own message, in $err, says why
		if ((${#rc[@]} == 0)); then
			metrics=$(jq -c . "$part/perf/metrics.json")
		elif ((rc[0] != 0 && rc[0] != 141)); then
			echo "perf script failed: $(grep -v '^ *$' "$part/perf/script.err" | head -n 1)" >"$err"
		fi
	fi
	[[ $metrics != null ]] || say "note: the perf profile of ${part##*/} could not be read: $(head -n 1 "$err")"
	printf '%s\n' "$metrics"
	[[ -s $err ]] || rm -f "$err"
	[[ -s $part/perf/script.err ]] || rm -f "$part/perf/script.err"
}
