# shellcheck shell=bash
# Reading the bpftrace programs and the kernel's event definitions, for
# tests/tracepoints. Sourced by its lib.bash.

# events_fields HEADER...: "event field" lines for every TRACE_EVENT and
# DEFINE_EVENT (fields of its DECLARE_EVENT_CLASS) in the trace headers.
events_fields() {
	awk '
		match($0, /^(TRACE_EVENT|DECLARE_EVENT_CLASS)\([A-Za-z0-9_]+/) {
			cur = substr($0, RSTART, RLENGTH); sub(/^[A-Z_]+\(/, "", cur)
			if ($0 ~ /^TRACE_EVENT/) event[cur] = 1
		}
		match($0, /^DEFINE_EVENT(_PRINT)?\([A-Za-z0-9_]+, *[A-Za-z0-9_]+/) {
			s = substr($0, RSTART, RLENGTH); sub(/^[A-Z_]+\(/, "", s)
			split(s, a, /, */); alias[a[2]] = a[1]; cur = ""
		}
		cur != "" && match($0, /__(field|field_struct|array|dynamic_array|string)\(.*\)/) {
			s = substr($0, RSTART, RLENGTH)
			kind = s; sub(/\(.*/, "", kind)
			sub(/^[a-z_]+\( */, "", s); sub(/ *\).*$/, "", s)
			n = split(s, a, / *, */)
			name = (kind == "__string") ? a[1] : a[2]
			gsub(/[ \t]/, "", name)
			fields[cur] = fields[cur] " " name
		}
		END {
			for (e in event) { n = split(fields[e], f, " "); for (i = 1; i <= n; i++) print e, f[i] }
			for (e in alias) { n = split(fields[alias[e]], f, " "); for (i = 1; i <= n; i++) print e, f[i] }
			for (e in event) if (fields[e] == "") print e, "-"
			for (e in alias) if (fields[alias[e]] == "") print e, "-"
		}' "$@"
}

# code_of FILE: the program without its comments.
code_of() {
	sed -e '/^\/\*/,/\*\//d' -e 's|//.*||' "$1"
}

# bt_tracepoints FILE: "system event" of every tracepoint probe.
bt_tracepoints() {
	code_of "$1" | { grep -oE '(tracepoint|t):[a-z0-9_]+:[a-z0-9_]+' || true; } |
		awk -F: '{print $2, $3}' | sort -u
}

# bt_kprobes FILE: every kprobe/kretprobe symbol.
bt_kprobes() {
	code_of "$1" | { grep -oE '(kprobe|kretprobe|k|kr):[A-Za-z0-9_.]+' || true; } |
		cut -d: -f2 | sort -u
}

# bt_args FILE: every args->FIELD used.
bt_args() {
	code_of "$1" | { grep -oE 'args->[a-z0-9_]+' || true; } | cut -d'>' -f2 | sort -u
}

# bt_expects FILE: the header's "Expect:" regular expressions, one a line.
bt_expects() {
	sed -n 's/^ \* Expect: //p' "$1"
}

# bt_needs_framework FILE: the program uses the lab kernel's events.
bt_needs_framework() {
	grep -q '^ \* Requires-framework: yes' "$1"
}

# bt_on_request FILE: the program runs only when --trace bpftrace:NAME
# names it, not under bpftrace or all.
bt_on_request() {
	grep -q '^ \* On-request: yes' "$1"
}

# bt_check_output FILE.bt OUTPUT.txt: prints what is wrong, if anything.
bt_check_output() {
	local bt=$1 out=$2 re
	[[ -s $out ]] || { echo "output is empty"; return; }
	if grep -qE '^ERROR|: ERROR:|fatal error|^Error|[Ff]ailed to' "$out"; then
		grep -m1 -E '^ERROR|: ERROR:|fatal error|^Error|[Ff]ailed to' "$out"
		return
	fi
	while IFS= read -r re; do
		grep -qE -- "$re" "$out" || echo "no line matches /$re/"
	done < <(bt_expects "$bt")
}
