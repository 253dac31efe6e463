#!/bin/bash
# file-search on the host's ripgrep, on a small tree written here: the
# manifest tool counts each pattern per file, the workload copies a prefix
# of the tree and holds rg's counts to the manifest's, so a changed or lost
# file fails the run (exit 3); bad manifests and sizes are one error line.
set -euo pipefail
# shellcheck source=tests/workloads/tap.sh
source "$(dirname "$0")/tap.sh"

build_workloads
SRC=$TAP_TMP/sources
mkdir -p "$SRC/linux/mm" "$SRC/linux/kernel" "$SRC/linux/.hidden"
# 64 files of 64 KiB in mm/ (4 MiB), each with i EXPORT_SYMBOLs and one
# spin_lock( every fourth file; a few more files elsewhere.
for i in $(seq 0 63); do
	f=$SRC/linux/mm/file$(printf %02d "$i").c
	{
		for _ in $(seq 1 "$i"); do echo "EXPORT_SYMBOL(x);"; done
		((i % 4)) || echo "spin_lock(&l);"
	} >"$f"
	# padded to 64 KiB with text: a NUL would make the file binary to rg
	printf '%*s' $((65536 - $(stat -c %s "$f"))) '' >>"$f"
done
printf 'struct page *p;\nstruct page *q; EXPORT_SYMBOL(y);\n' >"$SRC/linux/kernel/fork.c"
printf 'EXPORT_SYMBOL(z);\n' >"$SRC/linux/.hidden/h.c"
ln -s mm/file01.c "$SRC/linux/link.c"

expect_exit 0 "file-search-manifest writes the manifest" "$BIN/file-search-manifest" "$SRC/linux/"
printf '%s\n' "$OUT" >"$SRC/manifest"
check "66 files, hidden ones too, the symbolic link left out, in path order" \
	test "$(tail -n +2 "$SRC/manifest" | cut -f5 | tr '\n' ' ')" \
	= ".hidden/h.c kernel/fork.c $(printf 'mm/file%02d.c ' $(seq 0 63))"
check "per file: size, EXPORT_SYMBOL, spin_lock(, struct page * counts" \
	test "$(grep -P '\tkernel/fork.c$' "$SRC/manifest") $(grep -P '\tmm/file08.c$' "$SRC/manifest" | cut -f1-4)" \
	= "$(printf '50\t1\t0\t2\tkernel/fork.c 65536\t8\t1\t0')"

DIR=$TAP_TMP/data
mkdir -p "$DIR"
FS=("$BIN/file-search" --sources "$SRC" --dir "$DIR" --no-drop-caches)
expect_exit 0 "file-search over 2 MiB of it, 3 passes" "${FS[@]}" --size 2M
check "the first files in path order up to 2 MiB: 34, verified" \
	test "$(result_json | jq -c '[.verified, .files, .tree_bytes, .passes]')" \
	= "[true,34,$((50 + 18 + 32 * 65536)),3]"
check "matches: pass 0's EXPORT_SYMBOLs (1 + 1 + 0..31) + pass 1's 8 spin_locks + pass 2's 2" \
	test "$(result_field matches)" = $((2 + 496 + 8 + 2))
check "the tree is on the data disk with its record, no temporary left" \
	test "$(find "$DIR/file-search.tree" -type f | wc -l) $(cat "$DIR/file-search.tree.meta") $(find "$DIR" -maxdepth 1 -name '*.tmp.*' | wc -l)" \
	= "34 labtree1 files=34 bytes=$((50 + 18 + 32 * 65536)) 0"

sed -i '0,/EXPORT_SYMBOL/s//EXPORT_SYMBAL/' "$DIR/file-search.tree/mm/file05.c"
expect_exit 3 "a changed file fails the run (exit 3)" "${FS[@]}" --size 2M --phase run
check "naming the pass and the file" test "$(result_field verify_error)" = "pass 0: mm/file05.c"
check "one line: 4 matches, the host found 5" \
	test "$ERR" = "file-search: pass 0: 4 matches of 'EXPORT_SYMBOL' in mm/file05.c, the host's ripgrep found 5"
rm "$DIR/file-search.tree/mm/file05.c"
expect_exit 3 "a lost file fails the run (exit 3)" "${FS[@]}" --size 2M --phase run
check "... saying rg found none there" grep -q "rg found no 'EXPORT_SYMBOL' in mm/file05.c, the host's found 5" <<<"$ERR"

expect_exit 1 "a tree set up for another size is refused" "${FS[@]}" --size 1M --phase run
check "... naming its record" grep -q "file-search.tree was set up as 'labtree1 files=34" <<<"$ERR"
expect_exit 2 "a size larger than the tree is refused" "${FS[@]}" --size 8M --phase setup
check "... saying how large the tree is" grep -q "the source tree holds $((50 + 18 + 64 * 65536)) bytes" <<<"$ERR"
mkdir -p "$TAP_TMP/bad-manifest"
printf 'labsources1 patterns=3\n10\t1\t2\tx\n' >"$TAP_TMP/bad-manifest/manifest"
expect_exit 1 "a malformed manifest line is one error naming file:line" \
	"$BIN/file-search" --sources "$TAP_TMP/bad-manifest" --dir "$DIR" --size 4K --phase setup
check "... file:line" test "$ERR" = "file-search: $TAP_TMP/bad-manifest/manifest:2: not SIZE, the counts and PATH, tab-separated"
expect_exit 2 "--readahead off is refused: rg reads the files" "${FS[@]}" --readahead off
expect_exit 2 "--emit-refs is refused" "${FS[@]}" --emit-refs "$TAP_TMP/r"
expect_exit 1 "a missing rg is one error line" "${FS[@]}" --size 2M --phase run --rg "$TAP_TMP/no-rg"
done_testing
