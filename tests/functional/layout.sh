#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The layout is the architecture: src/ holds main.c alone; the link graph of the library (file A
# uses a global that file B defines) has no cycle between files and none between folders, the
# includes none between folders; no folder uses one its row of the layer table in docs/DESIGN.md
# ("Layout") does not name, by a link or by an include; no function is over 80 lines or takes more
# than 7 parameters (but for a known list that only shrinks). The table
# is read from the document itself, so the rule and its check are one text. The script then runs
# itself on a copy of the sources with a planted violation of each kind and must fail each there.
. "$(dirname "$0")/lib.sh"
BUILDDIR=${REAIM_BUILDDIR:-$(pwd)}
DOC=$SRCDIR/docs/DESIGN.md

# edges DIR: "A B" for each object under DIR/src (but main and the exec helper) that uses a symbol
# another defines, by source path without the extension.
edges() {
	find "$1/src" -name '*.o' ! -path "$1/src/main.o" ! -name exec_helper.o | sort | xargs nm -A -P |
		awk -v root="$1/" '{ f = substr($1, length(root) + 1); sub(/\.o:$/, "", f) }
			$3 ~ /^[TDBRCGSV]$/ { def[$2] = f; next } $3 == "U" { u[++n] = f " " $2 }
			END { for (i = 1; i <= n; i++) { split(u[i], w, " "); if ((w[2] in def) && def[w[2]] != w[1]) print w[1], def[w[2]] } }' |
		sort -u
}
# folders: the same edges between the files' folders (main.c's folder is src).
folders() {
	awk '{ a = $1; b = $2; sub(/\/[^\/]*$/, "", a); sub(/\/[^\/]*$/, "", b); if (a != b) print a, b }' | sort -u
}
# loops: what tsort names as being in a cycle, one per line (nothing when there is none).
loops() {
	tsort 2>&1 >/dev/null | sed -n 's/^tsort: \([^-].*\)/\1/p'
}
# included DIR: "FILE HEADER" for each line of a source under DIR/src that includes a header of a
# folder ('#include "store/store.h"' in src/measure/load.c: "src/measure/load.c src/store/store.h").
included() {
	find "$1/src" -name '*.[ch]' | sort | xargs awk -v root="$1/" \
		'/^#[ \t]*include[ \t]*"[a-z_]+\// { h = $0; sub(/^[^"]*"/, "", h); sub(/".*/, "", h)
			print substr(FILENAME, length(root) + 1), "src/" h }' | sort -u
}
# includes DIR: "A B" for each folder A with a file that includes a header of folder B.
includes() {
	included "$1" | folders
}
# layers DOC: the layer table of the document's "Layout" section as "row FOLDER" for each row, in
# order, and "may FOLDER USED" for each folder a row may use ("everything below": every later row;
# "(libc)": none). main.c's row is the folder src.
layers() {
	awk -F'|' '/^## / { on = ($0 ~ /^## Layout/); next }
		on && /^\| `/ { f = $2; gsub(/[` ]/, "", f); sub(/\/$/, "", f); f = f == "main.c" ? "src" : "src/" f
			u = $4; gsub(/^ +| +$/, "", u); row[++n] = f; use[n] = u; print "row", f }
		END { for (i = 1; i <= n; i++) {
			if (use[i] == "everything below") { for (j = i + 1; j <= n; j++) print "may", row[i], row[j]; continue }
			if (use[i] == "(libc)") continue
			k = split(use[i], w, /, */); for (j = 1; j <= k; j++) print "may", row[i], "src/" w[j] } }' "$1"
}
# forbidden LAYERS: "A B" for every pair of rows where A's row does not name B (nothing uses src).
forbidden() {
	awk '$1 == "row" { row[++n] = $2 } $1 == "may" { may[$2 " " $3] = 1 }
		END { for (i = 1; i <= n; i++) for (j = 1; j <= n; j++)
			if (i != j && row[j] != "src" && !((row[i] " " row[j]) in may)) print row[i], row[j] }' "$1" | sort
}
# breaches FORBIDDEN FILE_EDGES: "A -> B: evidence" for each file edge whose folders are forbidden.
breaches() {
	awk 'NR == FNR { no[$1 " " $2] = 1; next }
		{ a = $1; b = $2; sub(/\/[^\/]*$/, "", a); sub(/\/[^\/]*$/, "", b)
			if ((a " " b) in no) print a " -> " b ": " $1 " " ($2 ~ /\.[ch]$/ ? "includes " : "uses ") $2 }' "$1" "$2" | sort -u
}

# the checker itself finds a cycle, so a pass below means something
printf 'src/a/x src/b/y\nsrc/b/y src/a/x\nsrc/a/x src/c/z\n' >"$T/cyclic"
ok "$([ -n "$(loops <"$T/cyclic")" ] && echo 0 || echo 1)" "a cycle between two files is found"
printf 'src/a/x src/b/y\nsrc/b/z src/a/w\n' >"$T/cyclic"
ok "$([ -n "$(folders <"$T/cyclic" | loops)" ] && echo 0 || echo 1)" "a cycle between two folders is found"

edges "$BUILDDIR" >"$T/edges"
ok "$([ "$(wc -l <"$T/edges")" -gt 100 ] && echo 0 || echo 1)" "the library's link graph is read ($(wc -l <"$T/edges") edges)"
loops <"$T/edges" >"$T/file_loops"
ok "$([ -s "$T/file_loops" ] && echo 1 || echo 0)" "no cycle between files"
sed 's/^/#   /' "$T/file_loops"
folders <"$T/edges" | loops >"$T/folder_loops"
ok "$([ -s "$T/folder_loops" ] && echo 1 || echo 0)" "no cycle between folders"
sed 's/^/#   /' "$T/folder_loops"

# includes (a header-only use, an inline function or a struct, leaves no symbol for the link graph)
mkdir -p "$T/tree/src/a" "$T/tree/src/b"
printf '#include "b/y.h"\n' >"$T/tree/src/a/x.c"
printf '#include "a/x.h"\n#include "b/z.h"\n' >"$T/tree/src/b/y.h"
ok "$([ "$(includes "$T/tree" | tr '\n' ' ')" = "src/a src/b src/b src/a " ] && echo 0 || echo 1)" \
	"an include between two folders is read, one within a folder is not"
included "$SRCDIR" >"$T/included"
includes "$SRCDIR" >"$T/include_edges"
ok "$([ "$(wc -l <"$T/include_edges")" -gt 20 ] && echo 0 || echo 1)" "the includes are read ($(wc -l <"$T/include_edges") folder edges)"
loops <"$T/include_edges" >"$T/include_loops"
ok "$([ -s "$T/include_loops" ] && echo 1 || echo 0)" "no cycle between folders by their includes"
sed 's/^/#   /' "$T/include_loops"

# the layer table: read from the document, and a small one read as meant
printf '## Layout\n\n| folder | owns | may use |\n|---|---|---|\n| `main.c` | x | a |\n| `a/` | x | everything below |\n| `b/` | x | c |\n| `c/` | x | (libc) |\n## Next\n| `d/` | x | a |\n' >"$T/doc"
layers "$T/doc" >"$T/layers"
ok "$([ "$(forbidden "$T/layers" | tr '\n' ' ')" = "src src/b src src/c src/b src/a src/c src/a src/c src/b " ] && echo 0 || echo 1)" \
	"a layer table is read: 'everything below', a list, '(libc)'; only the Layout section's"
printf 'src/b/y src/a/x.h\nsrc/a/x src/b/y\nsrc/c/z src/b/y\n' >"$T/file_edges"
ok "$([ "$(breaches "$(forbidden "$T/layers" >"$T/no"; echo "$T/no")" "$T/file_edges" | tr '\n' ' ')" = \
	"src/b -> src/a: src/b/y includes src/a/x.h src/c -> src/b: src/c/z uses src/b/y " ] && echo 0 || echo 1)" \
	"a forbidden link and a forbidden include are found, an allowed one is not"
layers "$DOC" >"$T/layers"
forbidden "$T/layers" >"$T/forbidden"
ok "$([ "$(grep -c '^row' "$T/layers")" -gt 10 ] && [ "$(wc -l <"$T/forbidden")" -gt 50 ] && echo 0 || echo 1)" \
	"docs/DESIGN.md's layer table is read ($(grep -c '^row' "$T/layers") rows, $(wc -l <"$T/forbidden") forbidden pairs)"
unknown=$( (ls -d "$SRCDIR"/src/*/ | sed "s|^$SRCDIR/||; s|/\$||"; awk '$1 == "may" { print $3 }' "$T/layers") | sort -u |
	while read -r f; do grep -qx "row $f" "$T/layers" || echo "$f"; done)
ok "$([ -z "$unknown" ] && echo 0 || echo 1)" "every folder of src/ and every folder a row names has its row${unknown:+ (not: $(echo $unknown))}"

# every dependency points down the layers, by the link graph and by the includes
cat "$T/edges" "$T/included" | breaches "$T/forbidden" - >"$T/breaches"
ok "$([ -s "$T/breaches" ] && echo 1 || echo 0)" "no folder uses one its layer does not name ($(wc -l <"$T/breaches") forbidden edges)"
sed 's/^/#   /' "$T/breaches"

# no function over 80 lines, whatever its signature: a definition starts at a line at column 0
# with a "(" and no "=" and ends at the first "}" at column 0 after its "{" there; a prototype
# (a ";" before the "{") is none
long=$(find "$SRCDIR/src" -name '*.[ch]' | sort | xargs awk -v root="$SRCDIR/" \
	'FNR == 1 { sig = 0; start = 0 }
	!start && /^[A-Za-z_].*\(/ && !/=/ && !/;[ \t]*$/ { sig = FNR; name = $0; next }
	sig && !start && /;[ \t]*$/ { sig = 0 }
	sig && !start && /^\{/ { start = sig }
	start && /^\}/ { if (FNR - start > 80) print substr(FILENAME, length(root) + 1) ": " FNR - start " lines: " name; sig = start = 0 }')
ok "$([ -z "$long" ] && echo 0 || echo 1)" "no function is over 80 lines"
[ -z "$long" ] || echo "$long" | sed 's/^/#   /'

# parameters: "FILE: N parameters: NAME" for every function definition (found as the length check
# finds them; "..." counts as one, "(void)" as none)
params() {
	find "$1/src" -name '*.[ch]' | sort | xargs awk -v root="$1/" \
		'FNR == 1 { sig = 0; text = "" }
		!sig && /^[A-Za-z_].*\(/ && !/=/ && !/;[ \t]*$/ { sig = FNR; text = $0; next }
		sig && /;[ \t]*$/ && !/^\{/ { sig = 0; text = ""; next }
		sig && /^\{/ { s = text; p = index(s, "("); name = substr(s, 1, p - 1); sub(/.*[ *]/, "", name)
			s = substr(s, p + 1); d = 1; n = 0; arg = ""
			for (i = 1; i <= length(s) && d > 0; i++) {
				c = substr(s, i, 1)
				if (c == "(") d++
				else if (c == ")" && --d == 0) break
				else if (c == "," && d == 1) n++
				if (c !~ /[ \t]/) arg = arg c
			}
			print substr(FILENAME, length(root) + 1) ": " (arg == "" || arg == "void" ? 0 : n + 1) " parameters: " name
			sig = 0; text = ""; next }
		sig { text = text " " $0 }'
}
# No function takes more than 7 parameters: more travel together as a struct (struct verdict_xy,
# struct plot_query, struct bgload_setup, struct point_hook_where, struct store_point_rows). Those below
# are known and may only leave the list: callee15 is AIM's call of 15 arguments, the cost it measures;
# the others (8 each) wait their turn.
PARAM_BUDGET=7
over_budget_known="src/catalog/cpu_int.c:callee15 src/analysis/verdict.c:verdict_welch_looks
src/analysis/verdict.c:fieller src/report/html.c:workload_section src/report/plot.c:main_panel
src/vm/qemu.c:vm_qemu_run"
params "$SRCDIR" >"$T/params"
ok "$([ "$(wc -l <"$T/params")" -gt 1000 ] && echo 0 || echo 1)" "every function's parameters are counted ($(wc -l <"$T/params") functions)"
awk -v max=$PARAM_BUDGET -v known="$over_budget_known" 'BEGIN { n = split(known, k, /[ \n]+/); for (i = 1; i <= n; i++) ok[k[i]] = 1 }
	$2 > max { f = $1; sub(/:$/, "", f); if (!((f ":" $4) in ok)) print }' "$T/params" >"$T/over"
ok "$([ -s "$T/over" ] && echo 1 || echo 0)" "no function takes more than $PARAM_BUDGET parameters but those known ($(wc -l <"$T/over") more)"
sed 's/^/#   /' "$T/over"
stale=$(for k in $over_budget_known; do
	awk -v max=$PARAM_BUDGET -v k="$k" '{ f = $1; sub(/:$/, "", f) } f ":" $4 == k && $2 > max { found = 1 } END { exit !found }' \
		"$T/params" || echo "$k"; done)
ok "$([ -z "$stale" ] && echo 0 || echo 1)" "every function known over the budget still is (the list only shrinks)${stale:+ (not: $(echo $stale))}"
echo "# $(awk '$2 >= 7' "$T/params" | wc -l) of $(wc -l <"$T/params") functions take 7 or more parameters:"
awk '$2 >= 7' "$T/params" | sort -t: -k2,2nr | sed 's/^/#   /'

# one guard style: src/FOLDER/FILE.h is guarded by REAIM_FOLDER_FILE_H
# (one awk over every header: a few processes, not a few per header)
guards=$(find "$SRCDIR/src" -name '*.h' | sort | xargs awk -v root="$SRCDIR/src/" \
	'FNR == 1 { f[++n] = substr(FILENAME, length(root) + 1); w = f[n]; sub(/\.h$/, "", w); gsub(/\//, "_", w)
		want[n] = "REAIM_" toupper(w) "_H"; first[n] = ""; seen = def[n] = 0 }
	!seen && /^#ifndef / { first[n] = substr($0, 9); seen = 1 }
	$0 == "#define " want[n] { def[n] = 1 }
	END { for (i = 1; i <= n; i++) if (first[i] != want[i] || !def[i]) print f[i] " (want " want[i] ")" }')
ok "$([ -z "$guards" ] && echo 0 || echo 1)" "every header's guard is REAIM_FOLDER_FILE_H"
[ -z "$guards" ] || echo "$guards" | sed 's/^/#   /'

# names say where things are: no two sources share a basename, but where the folder is the point
# (cmd/NAME.c is the command NAME; internal.h is its folder's private header)
reused=$(cd "$SRCDIR/src" && find . -name '*.[ch]' ! -path './cmd/*' ! -name internal.h |
	sed 's|.*/||' | sort | uniq -d)
ok "$([ -z "$reused" ] && echo 0 || echo 1)" "no basename is reused outside cmd/${reused:+ (reused: $(echo $reused))}"

loose=$(cd "$SRCDIR/src" && ls -p | grep -v / | grep "\.[ch]$" | grep -vx main.c)
ok "$([ -z "$loose" ] && echo 0 || echo 1)" "src/ holds main.c alone${loose:+ (also: $(echo $loose))}"

# the check fails on planted violations: run on a copy of the sources (the objects stay the
# build's) with an include up the layers, an 81-line function whose signature begins with const
# and a function of 9 parameters
if [ -z "${REAIM_LAYOUT_PLANTED-}" ]; then
	# one copy holds all three plants (a pass of the script is most of its time): each must fail
	# its own check, naming the plant, and no other check may fail
	rm -rf "$T/copy" && mkdir -p "$T/copy/docs" && cp -R "$SRCDIR/src" "$T/copy/" && cp "$DOC" "$T/copy/docs/"
	ok $? "a copy of the sources to plant violations in"
	printf '#include "store/store.h"\n' >>"$T/copy/src/measure/load.c"
	{ printf 'const char *planted_long(void);\nconst char *planted_long(void)\n{\n'
	  i=0; while [ $i -lt 78 ]; do echo "	(void)0;"; i=$((i + 1)); done; printf '\treturn "";\n}\n'; } >>"$T/copy/src/util/text.c"
	printf 'int planted_params(int a, int b, int c, int d, int e, int f, int g, int h,\n\t\t     const char *i);\n' >>"$T/copy/src/measure/load.c"
	printf 'int planted_params(int a, int b, int c, int d, int e, int f, int g, int h,\n\t\t     const char *i)\n{\n' >>"$T/copy/src/measure/load.c"
	printf '\treturn a + b + c + d + e + f + g + h + (i != 0);\n}\n' >>"$T/copy/src/measure/load.c"
	REAIM_LAYOUT_PLANTED=1 REAIM_SRCDIR="$T/copy" REAIM_BUILDDIR="$BUILDDIR" sh "$0" >"$T/planted" 2>&1
	ok "$([ $? -eq 1 ] && [ "$(grep -c '^not ok' "$T/planted")" -eq 3 ] && echo 0 || echo 1)" \
		"the planted copy fails three checks, no more ($(grep -c '^not ok' "$T/planted"))"
	grep '^not ok' "$T/planted" | sed 's/^/#   /'
	ok "$(grep -q '^not ok [0-9]* - no folder uses one its layer does not name' "$T/planted" &&
		grep -q '^#   src/measure -> src/store: src/measure/load.c includes src/store/store.h$' "$T/planted" &&
		echo 0 || echo 1)" "a planted measure -> store include fails the check"
	ok "$(grep -q '^not ok [0-9]* - no function is over 80 lines' "$T/planted" &&
		grep -q '^#   src/util/text.c: 81 lines: const char \*planted_long(void)$' "$T/planted" &&
		echo 0 || echo 1)" "a planted 81-line const function fails the check"
	ok "$(grep -q '^not ok [0-9]* - no function takes more than' "$T/planted" &&
		grep -q '^#   src/measure/load.c: 9 parameters: planted_params$' "$T/planted" &&
		echo 0 || echo 1)" "a planted function of 9 parameters fails the check"
fi
finish
