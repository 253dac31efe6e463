#!/bin/bash
# pagesim's random model and refgen draw from the lab's one PRNG,
# workloads/lib/prng.h: their streams equal tests/sim/refrandom.py, a
# second implementation written from the algorithms (xoshiro256**,
# splitmix64 seeding, rejection for integers below n) that first
# reproduces the published xoshiro256** and splitmix64 vectors.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.bash
source "$(dirname "$0")/lib.bash"

ref=$root/tests/sim/refrandom.py
is "$(python3 "$ref" selfcheck)" ok "refrandom.py reproduces the published xoshiro256** and splitmix64 outputs"

# refgen --dist uniform: one draw below PAGES per reference.
for args in "97 2000 5" "1000 3000 1" "3 500 18446744073709551615"; do
	read -r pages refs seed <<<"$args"
	"$REFGEN" --dist uniform --pages "$pages" --refs "$refs" --seed "$seed" --format text -o "$TMP/u.txt"
	check "refgen uniform, $pages pages, seed $seed: the stream of prng.h" \
		cmp -s "$TMP/u.txt" <(python3 "$ref" uniform "$pages" "$refs" "$seed")
done

# The random model: misses on strings where eviction happens often, for
# several cache sizes and seeds.
"$REFGEN" --dist zipf --pages 400 --refs 6000 --seed 2 --format text -o "$TMP/z.txt"
"$REFGEN" --dist cyclic --pages 120 --refs 2400 --format text -o "$TMP/c.txt"
for file in z c; do
	for size in 7 64 100; do
		for seed in 1 42; do
			is "$(misses random "$size" "$TMP/$file.txt" --seed "$seed")" \
				"$(python3 "$ref" random "$size" "$seed" "$TMP/$file.txt")" \
				"random model, $file string, $size frames, seed $seed: misses as refrandom.py"
		done
	done
done
done_testing
