# shellcheck shell=bash
# Reading LABREFS1 reference strings (CONTRACTS.md): a 16-byte header,
# then one little-endian u64 page id a reference (object << 40 | page).

# refs_magic FILE: the 8-byte magic of a reference-string file.
refs_magic() {
	head -c 8 "$1"
}

# refs_count FILE: number of references (ids after the 16-byte header).
refs_count() {
	local bytes
	bytes=$(stat -c %s "$1")
	echo $(((bytes - 16) / 8))
}

# refs_ids FILE N: the first N ids, space separated, as decimal numbers.
refs_ids() {
	od -An -v -tu8 -j16 -N$((8 * $2)) "$1" | xargs
}

# refs_header FILE: page size and flags as "PAGESIZE FLAGS".
refs_header() {
	od -An -v -tu4 -j8 -N8 "$1" | xargs
}

# refs_all FILE: every id, one per line.
refs_all() {
	od -An -v -w8 -tu8 -j16 "$1" | tr -d ' '
}

# refs_distinct FILE [BELOW]: how many distinct ids (those below BELOW, if given).
refs_distinct() {
	refs_all "$1" | awk -v below="${2:-}" 'below == "" || $1 < below + 0' | sort -u | wc -l
}
