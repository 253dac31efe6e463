#!/bin/bash
# The reference strings of the file workloads against expectations computed
# independently of the workloads' C code: mdb-bench's key stream from the
# published xoshiro256**/splitmix64 algorithm (in Python), webtrace's pages
# from the SPC text (in awk), cyclic-file's by counting.
set -euo pipefail
# shellcheck source=tests/workloads/tap.sh
source "$(dirname "$0")/tap.sh"

build_workloads
DIR=$TAP_TMP/data
mkdir -p "$DIR"

# --- mdb-bench: 4 MiB = 11 index pages, 1013 record pages, 2026 keys -------
expect_exit 0 "mdb-bench 4M, 5000 ops, seed 7" "$BIN/mdb-bench" --size 4M --ops 5000 --seed 7 \
	--dir "$DIR" --no-drop-caches --emit-refs "$TAP_TMP/mdb.refs"
python3 - 7 5000 2026 11 >"$TAP_TMP/mdb.want" <<'PY'
# xoshiro256** (Blackman & Vigna) seeded with splitmix64 steps: state word i
# is splitmix64's finaliser of seed + (i + 2) * golden; a key is drawn by
# rejection below the largest multiple of the key count.
import sys
seed, ops, keys, index_pages = (int(a) for a in sys.argv[1:])
M, G = (1 << 64) - 1, 0x9E3779B97F4A7C15
def mix(x):
    x = (x + G) & M
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M
    return x ^ (x >> 31)
s, x = [], seed
for _ in range(4):
    x = (x + G) & M
    s.append(mix(x))
def rotl(v, k):
    return ((v << k) | (v >> (64 - k))) & M
def nxt():
    r = (rotl((s[1] * 5) & M, 7) * 9) & M
    t = (s[1] << 17) & M
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t
    s[3] = rotl(s[3], 45)
    return r
limit = M - M % keys
per_index = -(-keys // index_pages)
for _ in range(ops):
    v = nxt()
    while v >= limit:
        v = nxt()
    k = v % keys
    print(k // per_index)
    print((1 << 40) | (k // 2))
PY
check "mdb-bench's references are the independently drawn index/record pages" \
	cmp -s <(refs_all "$TAP_TMP/mdb.refs") "$TAP_TMP/mdb.want"

# --- webtrace: every page of every request, from the SPC text ----------------
GEN=(--footprint 6M --requests 2000 --asus 4 --seed 3)
expect_exit 0 "webtrace-gen writes the trace" "$BIN/webtrace-gen" "${GEN[@]}" --out "$TAP_TMP/w.spc"
expect_exit 0 "webtrace replays it with --emit-refs" "$BIN/webtrace" "${GEN[@]}" --dir "$DIR" \
	--no-drop-caches --emit-refs "$TAP_TMP/w.refs"
# shellcheck disable=SC2016 # awk's own $1..$3
awk -F, '{ first = int($2 * 512 / 4096); last = int(($2 * 512 + $3 - 1) / 4096)
	   for (p = first; p <= last; p++) printf "%.0f\n", $1 * 2^40 + p }' "$TAP_TMP/w.spc" >"$TAP_TMP/w.want"
check "webtrace's references are the SPC requests' pages, object = ASU" \
	cmp -s <(refs_all "$TAP_TMP/w.refs") "$TAP_TMP/w.want"
check "the trace uses all 4 ASUs" test "$(cut -d, -f1 "$TAP_TMP/w.spc" | sort -u | wc -l)" = 4

# A hand trace with a write: written pages are references too, in order.
printf '1,8,8192,w,0\n1,0,4096,r,0.1\n0,16,4096,r,0.2\n' >"$TAP_TMP/rw.spc"
mkdir -p "$DIR/rw"
expect_exit 0 "webtrace replays a read/write trace" "$BIN/webtrace" --spc "$TAP_TMP/rw.spc" \
	--dir "$DIR/rw" --no-drop-caches --emit-refs "$TAP_TMP/rw.refs"
is "$(refs_all "$TAP_TMP/rw.refs" | xargs)" "$(((1 << 40) | 1)) $(((1 << 40) | 2)) $((1 << 40)) 2" \
	"written and read pages, in request order"

# --- cyclic-file: pages 0..N-1, passes times --------------------------------
expect_exit 0 "cyclic-file 64K, 2 passes, readahead off" "$BIN/cyclic-file" --size 64K --passes 2 \
	--dir "$DIR" --no-drop-caches --readahead off --emit-refs "$TAP_TMP/cf.refs"
is "$(refs_all "$TAP_TMP/cf.refs" | xargs)" "$(seq 0 15 | xargs) $(seq 0 15 | xargs)" \
	"cyclic-file's references are pages 0..15 twice"
done_testing
