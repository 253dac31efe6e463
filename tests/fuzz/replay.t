#!/usr/bin/env bash
# The fuzz targets of fuzz/ build, and every input kept for them (the
# hand-made seeds, the repository's real files and each input that once
# crashed a parser) runs through its target with AddressSanitizer and
# UndefinedBehaviorSanitizer without a report; an input that crashed a
# tool, given to the tool itself, gets its one-line refusal.
set -euo pipefail
# shellcheck source=../lib/tap.bash
source "$(dirname "$0")/../lib/tap.bash"

command -v clang >/dev/null || skip_all "clang is not installed (make deps)"
if make -s -C "$top/fuzz" >"$tmp/build.log" 2>&1; then
	ok "the fuzz targets build (clang, libFuzzer)"
else
	not_ok "the fuzz targets build (clang, libFuzzer)" "$(tail -n 5 "$tmp/build.log")"
	done_testing
fi

for t in spc pagesim-trace labstat trace-timeline trace-page-cache; do
	rc=0
	"$top/fuzz/run.sh" --replay "$t" >"$tmp/$t" 2>&1 || rc=$?
	n=$({ find "$top/fuzz/corpus/$t" "$top/fuzz/regress/$t" -type f 2>/dev/null || true; } | wc -l)
	if [[ $rc == 0 ]] && grep -q 'no crash' "$tmp/$t"; then
		ok "$t: $n kept inputs and the repository's files replay clean"
	else
		not_ok "$t: $n kept inputs and the repository's files replay clean" "$(cat "$tmp/$t")"
	fi
done

# The tools themselves on the inputs that crashed them once.
lab_make analysis tools OUT="$build/analysis" >/dev/null
for f in "$top"/fuzz/regress/trace-timeline/*; do
	rc=0
	"$build/analysis/trace-timeline" -o "$tmp/out.csv" "$f" 2>"$tmp/err" || rc=$?
	is "$rc $(wc -l <"$tmp/err") $(test -e "$tmp/out.csv" && echo written || echo none)" "1 1 none" \
		"trace-timeline on regress/$(basename "$f"): exit 1, one error line, no output"
	rc=0
	"$build/analysis/trace-page-cache" -o "$tmp/out.csv" "$f" 2>"$tmp/err" || rc=$?
	is "$rc $(wc -l <"$tmp/err") $(test -e "$tmp/out.csv" && echo written || echo none)" "1 1 none" \
		"trace-page-cache on regress/$(basename "$f"): exit 1, one error line, no output"
done
done_testing
