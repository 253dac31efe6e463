#!/usr/bin/env bash
# Fuzz the lab's file parsers for a bounded time, or replay the inputs
# kept in the repository.
#   fuzz/run.sh [--seconds N] [TARGET...]   fuzz each target N seconds
#                                           (default FUZZ_SECONDS or 120)
#   fuzz/run.sh --replay [TARGET...]        run every seed once: fuzz/corpus/,
#                                           fuzz/regress/ and the repository's
# Targets: spc pagesim-trace labstat trace-timeline trace-page-cache
# (fuzz/README.md).
# Seeds: fuzz/corpus/TARGET (small hand-made files), fuzz/regress/TARGET
# (inputs that once crashed a parser) and the real files of the
# repository: the test fixtures, the LIRS traces of shared/data and
# webtrace-gen's SPC output. The growing corpus and any crash go to
# build/fuzz/. Prints a row per target; exits 1 when a target crashed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
out=$top/build/fuzz
prog=fuzz
die() { echo "$prog: $2" >&2; exit "$1"; }

mode=fuzz seconds=${FUZZ_SECONDS:-120}
targets=()
while (($#)); do
	case $1 in
	--replay) mode=replay ;;
	--seconds)
		[[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die 2 "--seconds needs a positive number"
		seconds=$2
		shift
		;;
	-h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) die 2 "unknown option '$1' (see fuzz/run.sh --help)" ;;
	*) targets+=("$1") ;;
	esac
	shift
done
all=(spc pagesim-trace labstat trace-timeline trace-page-cache)
((${#targets[@]})) || targets=("${all[@]}")
for t in "${targets[@]}"; do
	[[ " ${all[*]} " == *" $t "* ]] || die 2 "unknown target '$t' (${all[*]})"
done
for t in "${targets[@]}"; do
	[[ -x $out/$t ]] || die 8 "no $out/$t (make -C fuzz)"
done

# Per target: the longest input worth mutating, and whether leaks count
# (the trace tools' SIGBUS exit leaks what libtracecmd held, as the tools'
# exit does).
max_len() {
	case $1 in
	trace-timeline | trace-page-cache) echo 1048576 ;;
	pagesim-trace) echo 32768 ;;
	*) echo 65536 ;;
	esac
}
leaks() { [[ $1 == trace-timeline || $1 == trace-page-cache ]] && echo 0 || echo 1; }
# A calloc or malloc too large returns NULL, as glibc's does (the parsers
# and libtracecmd check for it), instead of ASan's report.
asan_options() {
	echo "${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=$(leaks "$1"):allocator_may_return_null=1"
}

# seeds TARGET DIR: the repository's real files for TARGET, copied into DIR.
seeds() {
	local t=$1 dir=$2 f i=0
	rm -rf "$dir"
	mkdir -p "$dir"
	case $t in
	spc)
		if [[ -x $top/build/workloads/webtrace-gen ]]; then
			"$top/build/workloads/webtrace-gen" --requests 300 --footprint 8M --out "$dir/gen-300.spc" >/dev/null
			"$top/build/workloads/webtrace-gen" --requests 40 --footprint 1G --seed 3 --out "$dir/gen-1g.spc" >/dev/null
		fi
		;;
	pagesim-trace)
		for f in "$top"/../shared/data/lirs-traces/*; do
			[[ $f == *.md ]] || cp "$f" "$dir/"
		done
		for f in "$top"/tests/commands/fixtures/runs/*/refs.bin.xz; do
			[[ -f $f ]] || continue
			i=$((i + 1))
			# xz -dc | head: head closes the pipe early on purpose
			xz -dc "$f" 2>/dev/null | head -c 131072 >"$dir/refs-$i.bin" || true
		done
		;;
	labstat)
		while IFS= read -r f; do
			cp "$f" "$dir/result-$((i += 1)).json"
		done < <(find "$top/tests" -name '*result.json' | sort)
		;;
	trace-timeline)
		cp "$top"/tests/analysis/fixtures/*.dat "$dir/"
		;;
	trace-page-cache)
		# and the traces that once crashed trace-timeline's reading of them
		cp "$top"/tests/analysis/fixtures/*.dat "$here"/regress/trace-timeline/* "$dir/"
		;;
	esac
}

rc=0
if [[ $mode == replay ]]; then
	for t in "${targets[@]}"; do
		inputs=()
		seeds "$t" "$out/seeds/$t"
		for d in "$out/seeds/$t" "$here/corpus/$t" "$here/regress/$t"; do
			[[ -d $d ]] && while IFS= read -r f; do inputs+=("$f"); done < <(find "$d" -type f | sort)
		done
		((${#inputs[@]})) || { printf '%-16s no inputs\n' "$t"; continue; }
		if ASAN_OPTIONS="$(asan_options "$t")" \
			"$out/$t" "${inputs[@]}" >"$out/$t.replay.log" 2>&1; then
			printf '%-16s %4d inputs replayed, no crash\n' "$t" "${#inputs[@]}"
		else
			printf '%-16s CRASH replaying (see %s)\n' "$t" "${out#"$top"/}/$t.replay.log"
			grep -m3 -E 'ERROR|runtime error|Running:' "$out/$t.replay.log" | sed 's/^/    /' || true
			rc=1
		fi
	done
	exit "$rc"
fi

printf '%-16s %12s %8s %s\n' target executions seconds result
for t in "${targets[@]}"; do
	corpus=$out/corpus/$t
	mkdir -p "$corpus" "$out/crashes"
	seeds "$t" "$out/seeds/$t"
	dirs=("$corpus" "$out/seeds/$t")
	for d in "$here/corpus/$t" "$here/regress/$t"; do [[ -d $d ]] && dirs+=("$d"); done
	start=$SECONDS
	status=0
	ASAN_OPTIONS="$(asan_options "$t")" \
		"$out/$t" -max_total_time="$seconds" -max_len="$(max_len "$t")" -detect_leaks="$(leaks "$t")" \
		-timeout=20 -rss_limit_mb=4096 -close_fd_mask=3 -print_final_stats=1 \
		-artifact_prefix="$out/crashes/$t-" "${dirs[@]}" >"$out/$t.log" 2>&1 || status=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$t.log" | tail -n1)
	[[ -n $execs ]] || execs=$(grep -oE '^#[0-9]+' "$out/$t.log" | tail -n1 | tr -d '#')
	if ((status == 0)); then
		result="no crash"
	else
		result="CRASH: $(grep -m1 -oE 'Test unit written to .*' "$out/$t.log" || echo "see ${out#"$top"/}/$t.log")"
		rc=1
	fi
	printf '%-16s %12s %8d %s\n' "$t" "${execs:-?}" "$((SECONDS - start))" "$result"
done
exit "$rc"
