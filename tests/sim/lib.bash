# shellcheck shell=bash source=../lib/sim.bash
source "$(dirname "${BASH_SOURCE[0]}")/../lib/sim.bash"

# pattern POLICY SIZE FILE [pagesim options...]: one letter per reference,
# m for a miss and h for a hit, from the misses of every prefix of FILE.
pattern() {
	local policy=$1 size=$2 file=$3 n last=0 got out=""
	shift 3
	n=$(grep -c . "$file")
	for ((i = 1; i <= n; i++)); do
		head -n "$i" "$file" >"$TMP/prefix.txt"
		got=$(misses "$policy" "$size" "$TMP/prefix.txt" "$@")
		if ((got > last)); then out+=m; else out+=h; fi
		last=$got
	done
	echo "$out"
}
