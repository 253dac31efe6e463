#!/usr/bin/env bash
# The registry (lab/registry/policies.tsv, workloads.tsv) agrees with what
# it describes, each read here from its own source:
#  - the kernel series (kernel/patches/series, in order): every policy a
#    mm/page_replace*.c registers (struct page_replace_ops, .name) is a row
#    naming that file, and every row with a file is registered there; the
#    CONFIG symbol that builds each file (mm/Makefile's obj-$(CONFIG_...)
#    lines, obj-y for none) is the row's config, defined in mm/Kconfig,
#    depending on DEBUG_KERNEL exactly for the test kernels' rows; each
#    row's trace event is a TRACE_EVENT of the series, and each perf symbol
#    glob matches a function its file defines;
#  - the workload programs (workloads/*.c with a wl_main or ycsb_main);
#  - the simulator: each model is one pagesim --list-policies prints.
# The series check also runs on a doctored registry and a doctored series,
# where it must report the disagreement (so it can fail).
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"

reg=$top/lab/registry
us=$'\037'
patches=$top/kernel/patches

# registry_rows FILE: FILE's rows without comments and header, tab-separated.
registry_rows() {
	awk -F'\t' '/^#/ || NF == 0 { next } !h++ { next } { print }' "$1"
}
# column FILE NAME: the index (1-based) of column NAME in FILE's header.
column() {
	awk -F'\t' -v n="$2" '/^#/ || NF == 0 { next } { for (i = 1; i <= NF; i++) if ($i == n) print i; exit }' "$1"
}

# series_added PATCHDIR: every added line of the series, in order, each
# prefixed with the file it is added to and a unit separator (\037): the
# lines hold tabs.
series_added() {
	local p
	grep -v '^#' "$1/series" | while IFS= read -r p; do
		[[ -n $p ]] && awk '/^\+\+\+ b\// { f = substr($2, 3); next } /^\+/ { print f "\037" $0 }' "$1/$p"
	done
}

# like GOT SUBSTRING DESCRIPTION: GOT contains SUBSTRING.
like() {
	if [[ $1 == *"$2"* ]]; then ok "$3"; else not_ok "$3" "got: '$1'" "want a line with: '$2'"; fi
}

# disagreements PATCHDIR POLICIES_TSV: one line per disagreement between
# the series and the policies' rows, nothing when they agree.
disagreements() {
	local added=$tmp/added rows=$tmp/rows name kernel config file perf event glob sym deps fns debug want
	series_added "$1" >"$added"
	registry_rows "$2" >"$rows"
	local cn ck cc cf cp ce
	cn=$(column "$2" name) ck=$(column "$2" kernel) cc=$(column "$2" config)
	cf=$(column "$2" file) cp=$(column "$2" perf) ce=$(column "$2" event)
	# Registered policies: "NAME FILE".
	awk -F'\037' '$2 ~ /struct page_replace_ops [a-z_]+ = \{/ { ops = 1; next }
		ops && match($2, /\.name = "[a-z0-9-]+"/) {
			n = substr($2, RSTART + 9, RLENGTH - 10); print n " " $1; ops = 0 }' "$added" |
		sort -u >"$tmp/registered"
	awk -F'\t' -v n="$cn" -v f="$cf" '$f != "-" { print $n " " $f }' "$rows" | sort -u >"$tmp/rows.files"
	comm -23 "$tmp/registered" "$tmp/rows.files" | sed 's/^/the series registers policy /; s/ mm/ in mm/; s/$/, the registry has no such row/'
	comm -13 "$tmp/registered" "$tmp/rows.files" | sed 's/^/the registry row /; s/ mm/ names mm/; s/$/, where the series registers no such policy/'
	# The symbol that builds each policy file: "CONFIG_X FILE" ("-" for obj-y).
	awk -F'\037' '$1 == "mm/Makefile" && $2 ~ /^\+obj-/ {
			sym = $2; sub(/^\+obj-/, "", sym); sub(/[ \t]*[+:]?=.*/, "", sym)
			sym = sym == "y" ? "-" : substr(sym, 3, length(sym) - 3)
			n = split($2, w, /[ \t]+/)
			for (i = 1; i <= n; i++)
				if (w[i] ~ /^page_replace_[a-z0-9_]+\.o$/) { sub(/\.o$/, ".c", w[i]); print sym " mm/" w[i] } }' \
		"$added" | sort -u >"$tmp/built"
	awk -F'\t' -v c="$cc" -v f="$cf" '$f != "-" { print $c " " $f }' "$rows" | sort -u >"$tmp/rows.config"
	comm -23 "$tmp/built" "$tmp/rows.config" | sed 's/^/mm\/Makefile builds /; s/$/, not the config of that file'"'"'s row/'
	comm -13 "$tmp/built" "$tmp/rows.config" | sed 's/^/the registry says /; s/$/, not how mm\/Makefile builds it/'
	while IFS=$'\t' read -r -a f; do
		name=${f[cn - 1]} kernel=${f[ck - 1]} config=${f[cc - 1]} file=${f[cf - 1]}
		perf=${f[cp - 1]} event=${f[ce - 1]}
		if [[ $config != - ]]; then
			sym=${config#CONFIG_}
			# the entry's lines: from "+config SYM" to the next blank or config line
			deps=$(awk -F'\037' -v s="$sym" '$1 == "mm/Kconfig" { if ($2 == "+config " s) { on = 1; print "defined"; next }
				if (on && ($2 ~ /^\+(config|menu|endmenu|if|endif)/ || $2 == "+")) on = 0; if (on) print $2 }' "$added")
			if [[ -z $deps ]]; then
				echo "$name: $config is not defined in the series' mm/Kconfig"
			else
				debug=no want=no
				grep -qE 'depends on.*DEBUG_KERNEL' <<<"$deps" && debug=yes
				[[ $kernel == test ]] && want=yes
				[[ $debug == "$want" ]] ||
					echo "$name: kernel $kernel, but $config depends on DEBUG_KERNEL: $debug"
			fi
		fi
		if [[ $event != - ]] && ! grep -qE "^[^$us]*$us\+TRACE_EVENT\($event,?\$" "$added"; then
			echo "$name: its event $event is no TRACE_EVENT of the series"
		fi
		if [[ $perf != - ]]; then
			fns=$(awk -F'\037' -v f="$file" '$1 == f && $2 ~ /^\+[a-z].*[a-z0-9_]+\(/ && $2 !~ /;[ \t]*$/ {
				s = $2; sub(/\(.*/, "", s); n = split(s, w, /[ \t*]+/); print w[n] }' "$added" | sort -u)
			IFS=, read -r -a globs <<<"$perf"
			for glob in "${globs[@]}"; do
				# shellcheck disable=SC2053 # a glob on purpose
				grep -qx "${glob//\*/.*}" <<<"$fns" || echo "$name: no function of $file matches its perf symbol $glob"
			done
		fi
	done <"$rows"
}

out=$(disagreements "$patches" "$reg/policies.tsv")
is "$out" "" "the kernel series and lab/registry/policies.tsv agree"
check "... the series registers policies at all" test -s "$tmp/registered"
check "... and builds some behind CONFIG symbols" grep -q '^CONFIG_PAGE_REPLACE_' "$tmp/built"

# It can fail: a registry without cart-r's row, one whose clockpro has
# the wrong symbol, and a series that adds a policy the registry lacks.
grep -v '^cart-r	' "$reg/policies.tsv" >"$tmp/no-cart-r.tsv"
like "$(disagreements "$patches" "$tmp/no-cart-r.tsv")" "policy cart-r in mm/page_replace_cart_r.c" \
	"a registry without cart-r's row disagrees, naming it"
# A registry changed by the sed expression $2 disagrees, saying $3.
mutant() {
	sed "$2" "$reg/policies.tsv" >"$tmp/$1.tsv"
	like "$(disagreements "$patches" "$tmp/$1.tsv")" "$3" "$4"
}
mutant sym 's/CONFIG_PAGE_REPLACE_CLOCKPRO	/CONFIG_PAGE_REPLACE_CLOCK	/' \
	"CONFIG_PAGE_REPLACE_CLOCK is not defined" \
	"a registry with a wrong CONFIG symbol disagrees, naming it"
mutant perf 's/	clockpro_\*	/	clockpro_nonesuch_*	/' \
	"no function of mm/page_replace_clockpro.c matches" \
	"a perf symbol that matches none of the policy's functions disagrees"
mutant kernel 's/^clockpro	lab	/clockpro	test	/' \
	"clockpro: kernel test, but CONFIG_PAGE_REPLACE_CLOCKPRO depends on DEBUG_KERNEL: no" \
	"a lab kernel policy said to be the test kernels' only disagrees"
mutant event 's/	page_replace_cart_r	/	page_replace_cartr	/' \
	"cart-r: its event page_replace_cartr is no TRACE_EVENT" \
	"an event the series does not define disagrees"
mkdir "$tmp/series"
cp "$patches"/*.patch "$tmp/series/"
{ grep -v '^#' "$patches/series"; echo 9999-new.patch; } >"$tmp/series/series"
cat >"$tmp/series/9999-new.patch" <<'PATCH'
--- /dev/null
+++ b/mm/page_replace_fifo.c
@@ -0,0 +1,3 @@
+const struct page_replace_ops page_replace_fifo_ops = {
+	.name = "fifo",
+};
--- a/mm/Makefile
+++ b/mm/Makefile
@@ -1,1 +1,2 @@
+obj-$(CONFIG_PAGE_REPLACE_FIFO) += page_replace_fifo.o
PATCH
out=$(disagreements "$tmp/series" "$reg/policies.tsv")
like "$out" "registers policy fifo in mm/page_replace_fifo.c" "a series with a policy the registry lacks disagrees"
like "$out" "builds CONFIG_PAGE_REPLACE_FIFO mm/page_replace_fifo.c" "... and names its CONFIG symbol"

# Workloads: the programs in workloads/ and the rows.
programs=$(cd "$top/workloads" && grep -lE '\b(wl|ycsb)_main\(argc' ./*.c | sed 's|^\./||; s|\.c$||' | sort)
is "$(registry_rows "$reg/workloads.tsv" | cut -f1 | sort)" "$programs" \
	"workloads.tsv's rows are the workload programs in workloads/"

# Models: each is a pagesim model.
pagesim=$build/analysis/pagesim
if [[ -x $pagesim ]]; then
	models=$("$pagesim" --list-policies | awk '{ print $1 }')
	cm=$(column "$reg/policies.tsv" model)
	for m in $(registry_rows "$reg/policies.tsv" | cut -f"$cm" | grep -vx -- - | sort -u); do
		check "model $m is a pagesim model" grep -qx -- "$m" <<<"$models"
	done
else
	not_ok "pagesim is built" "no $pagesim (make analysis)"
fi
done_testing
