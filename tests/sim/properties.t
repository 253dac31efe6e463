#!/bin/bash
# Properties every model must have on random strings, and exact agreement of
# the simple models with slow reference implementations.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.bash
source "$(dirname "$0")/lib.bash"

awk_models="$(dirname "$0")/reference_models.awk"
sizes=4,16,64,200,700,3000
n_models=$("$PAGESIM" --list-policies | wc -l)

for seed in 1 2 3; do
	for dist in uniform zipf cyclic; do
		pages=$((seed * 150 + 250))
		file="$TMP/$dist-$seed.bin"
		"$REFGEN" --dist "$dist" --refs 20000 --pages "$pages" --seed "$seed" -o "$file"
		out=$("$PAGESIM" --sizes "$sizes" --seed "$seed" "$file")
		what="$dist seed $seed"

		is "$(awk -F, 'NR > 1 && $1 == "opt" { opt[$2] = $5 }
			NR > 1 && $1 != "opt" { row[NR] = $0 }
			END { for (r in row) { split(row[r], f, ","); if (f[5] < opt[f[2]]) bad++ }; print bad + 0 }' <<<"$out")" 0 \
			"$what: OPT <= every other model at every size"
		for stack in opt lru; do
			is "$(awk -F, -v p="$stack" '$1 == p { if (seen && $5 > last) bad++; last = $5; seen = 1 }
				END { print bad + 0 }' <<<"$out")" 0 "$what: $stack misses never grow with the cache"
		done
		is "$(awk -F, 'NR > 1 && ($5 < $4 || $5 > $3) { bad++ } END { print bad + 0 }' <<<"$out")" 0 \
			"$what: distinct <= misses <= refs for every model"
		is "$(awk -F, 'NR > 1 && $2 >= $4 && $5 != $4 { bad++ } END { print bad + 0 }' <<<"$out")" 0 \
			"$what: a cache holding every page misses only first references"
		is "$(awk -F, 'NR > 1 { n[$1]++ } END { for (p in n) c++; print c }' <<<"$out")" "$n_models" \
			"$what: all $n_models models reported"
	done
done

# Exact agreement with the awk models (OPT, LRU, FIFO, CLOCK) and the perl
# ones (refsim.pl, every model it has) on small strings.
reference() {
	case $1 in
	opt | lru | fifo | clock) awk -v policy="$1" -v size="$2" -f "$awk_models" "$3" ;;
	*) perl "$(dirname "$0")/refsim.pl" "$1" "$2" "$3" | cut -d' ' -f2 ;;
	esac
}
for seed in 4 5; do
	for dist in uniform zipf; do
		file="$TMP/small-$dist-$seed.txt"
		"$REFGEN" --dist "$dist" --refs 1500 --pages 60 --seed "$seed" --format text -o "$file"
		for policy in opt lru fifo clock car lirs arc 2q s3fifo sieve; do
			for size in 1 5 17 40; do
				is "$(misses "$policy" "$size" "$file")" \
					"$(reference "$policy" "$size" "$file")" \
					"$dist seed $seed: $policy with $size frames matches the reference model"
			done
		done
	done
done

# The random model is reproducible for a seed and depends on it.
file="$TMP/zipf-1.bin"
first=$(misses random 64 "$file" --seed 7)
is "$(misses random 64 "$file" --seed 7)" "$first" "random: the same seed gives the same misses"
distinct_counts=$(for seed in 1 2 3 4 5; do misses random 64 "$file" --seed "$seed"; done | sort -u | wc -l)
check "random: different seeds give different misses ($distinct_counts distinct values of 5)" \
	test "$distinct_counts" -ge 2
is "$("$PAGESIM" --sizes "$sizes" "$file" | grep -v '^random' | md5sum)" \
	"$("$PAGESIM" --sizes "$sizes" --seed 99 "$file" | grep -v '^random' | md5sum)" \
	"the deterministic models do not depend on --seed"

# refgen itself is reproducible and seed-dependent.
"$REFGEN" --dist zipf --refs 1000 --pages 100 --seed 9 -o "$TMP/a.bin"
"$REFGEN" --dist zipf --refs 1000 --pages 100 --seed 9 -o "$TMP/b.bin"
"$REFGEN" --dist zipf --refs 1000 --pages 100 --seed 10 -o "$TMP/c.bin"
check "refgen: same seed, same bytes" cmp -s "$TMP/a.bin" "$TMP/b.bin"
check "refgen: other seed, other bytes" test "$(cmp -s "$TMP/a.bin" "$TMP/c.bin" && echo same)" != same
is "$(stat -c %s "$TMP/a.bin")" $((16 + 8 * 1000)) "refgen: LABREFS1 header plus 8 bytes per reference"

# Model options are real parameters, and the shorthands set them.
is "$(misses clockpro 200 "$TMP/zipf-2.bin" --clockpro-min-cold 2)" \
	"$(misses clockpro 200 "$TMP/zipf-2.bin" --clockpro-min-cold 2)" "clockpro is deterministic"
for policy in clockpro clockpro-2006; do
	check "$policy: :min-cold changes the result" \
		test "$(misses "$policy:min-cold=1" 200 "$TMP/zipf-2.bin")" != "$(misses "$policy:min-cold=150" 200 "$TMP/zipf-2.bin")"
	is "$(misses "$policy" 200 "$TMP/zipf-2.bin" --clockpro-min-cold 150)" \
		"$(misses "$policy:min-cold=150" 200 "$TMP/zipf-2.bin")" "$policy: --clockpro-min-cold N is :min-cold=N"
done
is "$(misses clockpro:min-cold=3 200 "$TMP/zipf-2.bin" --clockpro-min-cold 150)" \
	"$(misses clockpro:min-cold=3 200 "$TMP/zipf-2.bin")" "a model's own option wins over the shorthand"
for spec in lirs:hir=20 lirs:hir-pages=40 2q:kin=50 2q:kout=100 s3fifo:small=30 clockpro-lirs:hir=20 \
	clockpro-lirs:batch=1; do
	check "$spec changes the result" test "$(misses "$spec" 200 "$TMP/zipf-2.bin")" != "$(misses "${spec%%:*}" 200 "$TMP/zipf-2.bin")"
done
is "$("$PAGESIM" --sizes 9 --policies lirs:hir=20,lirs "$TMP/zipf-2.bin" | cut -d, -f1 | paste -sd' ')" \
	"policy lirs:hir=20 lirs" "a model with options is labelled with its spec"

done_testing
