# shellcheck shell=bash
# Kernel reports on a guest's console: what the reliability gate fails on,
# and what makes a stalled boot not worth booting again. Sourced.

# Most specific first: the first pattern a line matches names its kind.
# Extended regexps over the console, "LAB" lines excluded (those are the
# harness's own, and they quote test names).
scan_patterns=(
	'kasan|KASAN:'
	'lockdep|possible circular locking dependency|inconsistent lock state|possible recursive locking|possible irq lock inversion|suspicious RCU usage|bad unlock balance|lock held when returning to user space|held lock freed'
	'soft-lockup|soft lockup - CPU#|BUG: workqueue lockup'
	'hung-task|blocked for more than [0-9]+ seconds'
	'sleep-in-atomic|BUG: sleeping function called from invalid context|BUG: scheduling while atomic'
	'bad-page|BUG: Bad page (state|map)|Bad rss-counter'
	'list-corruption|list_(add|del) corruption'
	'bug|BUG: |kernel BUG at'
	'oops|Oops: |general protection fault'
	'warning|WARNING: '
	'panic|Kernel panic'
	'ubsan|UBSAN:'
)

# scan_console FILE: "KIND<tab>LINE<tab>TEXT" per finding, on stdout.
scan_console() {
	local file=$1 p
	local kinds=() regexes=()
	for p in "${scan_patterns[@]}"; do
		kinds+=("${p%%|*}")
		regexes+=("${p#*|}")
	done
	# Through the environment: awk -v would eat the regexps' backslashes.
	LAB_SCAN_KINDS="${kinds[*]}" LAB_SCAN_RES="$(printf '%s\n' "${regexes[@]}")" awk '
		BEGIN { n = split(ENVIRON["LAB_SCAN_KINDS"], k, " "); split(ENVIRON["LAB_SCAN_RES"], r, "\n") }
		{ sub(/\r$/, "") }
		/^LAB/ { next }
		# a "[ cut here ]" line announces the WARNING/BUG that follows
		/-\[ cut here \]-/ { next }
		{
			for (i = 1; i <= n; i++)
				if ($0 ~ r[i]) {
					text = $0
					gsub(/\t/, " ", text)
					printf "%s\t%d\t%s\n", k[i], NR, substr(text, 1, 300)
					break
				}
		}' "$file"
}
