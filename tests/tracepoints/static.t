#!/usr/bin/env bash
# Every bpftrace program, checked against the kernel sources without
# booting: its header says what it shows and what its output must hold,
# every tracepoint it uses exists in the kernel it targets and has the
# fields it reads (scripts rot: vmscan's mm_vmscan_writepage became
# mm_vmscan_write_folio in 6.1), and its kprobes name real symbols.
# Every trace-cmd profile (tracepoints/*.events) names real events.
set -euo pipefail
# shellcheck source=tap.sh
source "$(dirname "$0")/tap.sh"
# shellcheck source=lib.bash
source "$top/tests/tracepoints/lib.bash"

vanilla_events=$top/build/src/vanilla/include/trace/events
lab_events=$top/build/src/lab/include/trace/events
if [[ ! -d $vanilla_events ]]; then
	skip_all "no build/src/vanilla (make kernel-vanilla)"
fi
events_fields "$vanilla_events"/*.h >"$tmp/vanilla"
if [[ -d $lab_events ]]; then events_fields "$lab_events"/*.h >"$tmp/lab"; else : >"$tmp/lab"; fi
check "the event parser finds 6.1's vmscan events and fields" \
	grep -qx 'mm_vmscan_lru_isolate nr_taken' "$tmp/vanilla"
check "... including DEFINE_EVENTs of a class" grep -qx 'mm_vmscan_direct_reclaim_end nr_reclaimed' "$tmp/vanilla"
check "... and 6.1 has no mm_vmscan_writepage (the rename scripts trip over)" \
	bash -c "! grep -q '^mm_vmscan_writepage ' '$tmp/vanilla'"

shopt -s nullglob
bts=("$top"/tracepoints/*.bt)
check "there are bpftrace programs" test "${#bts[@]}" -ge 4
for bt in "${bts[@]}"; do
	name=$(basename "$bt")
	check "$name: header says what it shows" grep -qE "^ \* $name: .+" "$bt"
	check "$name: header says what its output must hold (Expect:)" test -n "$(bt_expects "$bt")"
	bad=0
	while IFS= read -r re; do
		rc=0
		grep -qE -- "$re" /dev/null || rc=$?
		((rc <= 1)) || bad=1
	done < <(bt_expects "$bt")
	check "$name: the Expect: lines are valid regular expressions" test "$bad" = 0
	if bt_needs_framework "$bt"; then
		check "$name: example output or the reason there is none" grep -qE '^ \* (Example output|Limits:)' "$bt"
		table=$tmp/lab kernel=lab
		if ! [[ -s $tmp/lab ]] || ! grep -q '^page_replace_' "$tmp/lab"; then
			skip "$name: its events and fields exist in the lab kernel" \
				"build/src/lab has no page_replace events yet (the framework has not landed)"
			continue
		fi
	else
		check "$name: header shows an example of its output" grep -q '^ \* Example output' "$bt"
		check "$name: the example is real output, not a placeholder" bash -c "! grep -qx 'EXAMPLE' '$bt'"
		table=$tmp/vanilla kernel=vanilla
	fi
	missing=()
	while read -r sys ev; do
		[[ -n $ev ]] || continue
		grep -q "^$ev " "$table" || missing+=("$sys:$ev")
	done < <(bt_tracepoints "$bt")
	check "$name: every tracepoint exists in the $kernel kernel" test "${#missing[@]}" = 0
	((${#missing[@]} == 0)) || diag "missing: ${missing[*]}"
	fields=()
	while read -r f; do
		found=0
		while read -r sys ev; do grep -qx "$ev $f" "$table" && found=1; done < <(bt_tracepoints "$bt")
		((found)) || fields+=("$f")
	done < <(bt_args "$bt")
	check "$name: every args->field is a field of its events" test "${#fields[@]}" = 0
	((${#fields[@]} == 0)) || diag "unknown fields: ${fields[*]}"
	map=$top/build/src/$kernel/_out-$kernel/System.map
	syms=$(bt_kprobes "$bt")
	if [[ -n $syms ]]; then
		if [[ -f $map ]]; then
			gone=$(for s in $syms; do grep -qE " [tT] $s\$" "$map" || echo "$s"; done)
			check "$name: every kprobe names a function of the $kernel kernel" test -z "$gone"
		else
			skip "$name: kprobe symbols" "no System.map of the $kernel kernel"
		fi
	fi
done

# Every trace-cmd profile: each event it names exists in the lab kernel
# (6.1's vmscan and block events in vanilla too), each include names a
# profile, and the default profile leaves the per-folio stream out.
profiles=("$top"/tracepoints/*.events)
check "there are trace-cmd profiles, default among them" test -f "$top/tracepoints/default.events"
for prof in "${profiles[@]}"; do
	name=$(basename "$prof")
	missing=() includes=()
	while read -r spec _; do
		case $spec in '' | '#'* | *=*) continue ;; include) ;; esac
		[[ $spec == *:* ]] || continue	# a whole system
		ev=${spec#*:}
		grep -q "^$ev " "$tmp/lab" "$tmp/vanilla" || missing+=("$spec")
	done <"$prof"
	while read -r _ inc; do
		[[ -f $top/tracepoints/$inc.events ]] || includes+=("$inc")
	done < <(grep '^include ' "$prof")
	if [[ -s $tmp/lab ]] && grep -q '^page_replace_' "$tmp/lab"; then
		check "$name: every event exists in the kernel sources" test "${#missing[@]}" = 0
		((${#missing[@]} == 0)) || diag "missing: ${missing[*]}"
	else
		skip "$name: every event exists in the kernel sources" "build/src/lab has no page_replace events"
	fi
	check "$name: every include names a profile" test "${#includes[@]}" = 0
done
check "default.events records no per-folio event" \
	bash -c "! grep -qE '^page_replace(:page_replace_(activate|remember|forget))?( |\$)' '$top/tracepoints/default.events'"
# shellcheck disable=SC2016 # the program expands its own $1 and $e
check "per-folio.events adds activate, remember and forget" \
	bash -c 'grep -q "^include default" "$1" && for e in activate remember forget; do
		grep -q "^page_replace:page_replace_$e" "$1" || exit 1; done' _ "$top/tracepoints/per-folio.events"
done_testing
