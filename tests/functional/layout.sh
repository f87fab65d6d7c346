#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The layout is the architecture: src/ holds main.c alone; the link graph of the program (file A
# uses a global that file B defines; main.o included) has no cycle between files and none between
# folders, the includes none between folders; no folder uses one its row of the layer table in
# docs/DESIGN.md ("Layout") does not name, by a link or by an include, whatever the include's form
# (and any form but "FOLDER/FILE.h", <system.h> and "config.h" is refused); every file is named in
# its folder's row and every folder in the data-flow picture; no function is over 80 lines or
# takes more than 7 parameters, and no file is over 800 lines (but for known lists that only
# shrink); src/analysis/ writes no English sentence (report/ words what it judges); below cmd/ no
# reason goes back through `const char **why` or `char *why, size_t` (one error idiom). The table is
# read from the document itself, so the rule and its check are one text.
# The script then runs itself on a copy of the sources with a planted violation of each kind and
# must fail each there.
. "$(dirname "$0")/lib.sh"
BUILDDIR=${REAIM_BUILDDIR:-$(pwd)}
DOC=$SRCDIR/docs/DESIGN.md

# edges DIR: "A B" for each object under DIR/src (main.o too; but the exec helper and the forker's
# main, programs of their own) that uses a symbol another defines, by source path without the extension. An object
# whose source is gone (a file renamed since the build) is left out.
edges() {
	(cd "$SRCDIR" && find src -name '*.c' ! -name exec_helper.c ! -name forker_main.c) | sort | sed "s|^|$1/|; s|\.c\$|.o|" |
		while read -r o; do [ ! -e "$o" ] || echo "$o"; done | xargs nm -A -P |
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
# subfolders DIR: the folders of DIR/src, by name ("analysis cmd ...").
subfolders() {
	(cd "$1/src" && ls -d -- */ | tr -d / | tr '\n' ' ')
}
# included DIR: "FILE HEADER" for each line of a source under DIR/src that includes a header of a
# folder, whatever its form, as the compiler finds it: '#include "store/store.h"',
# '#include "../store/store.h"' and '#include <store/store.h>' in src/measure/load.c are each
# "src/measure/load.c src/store/store.h".
included() {
	find "$1/src" -name '*.[ch]' | sort | xargs awk -v root="$1/" -v folders="$(subfolders "$1")" \
		'BEGIN { n = split(folders, w, " "); for (i = 1; i <= n; i++) folder[w[i]] = 1 }
		/^[ \t]*#[ \t]*include[ \t]*[<"]/ {
			h = $0; sub(/^[ \t]*#[ \t]*include[ \t]*/, "", h); q = substr(h, 1, 1); h = substr(h, 2); sub(/[>"].*/, "", h)
			if (h == "config.h") next
			f = substr(FILENAME, length(root) + 1); dir = f; sub(/\/[^\/]*$/, "", dir)
			top = h; sub(/\/.*/, "", top)
			if (q == "\"" && (h ~ /^\.\.?\// || h !~ /\//)) p = dir "/" h
			else if (top in folder) p = "src/" h
			else next
			k = split(p, part, "/"); m = 0
			for (i = 1; i <= k; i++) if (part[i] == "..") m -= m > 0; else if (part[i] != ".") out[++m] = part[i]
			p = out[1]; for (i = 2; i <= m; i++) p = p "/" out[i]
			print f, p }' | sort -u
}
# include_forms DIR: "FILE:LINE: TEXT" for each include line of a source under DIR/src written
# other than "FOLDER/FILE.h" (a folder of src/), "config.h" or <HEADER> of the system.
include_forms() {
	find "$1/src" -name '*.[ch]' | sort | xargs awk -v root="$1/" -v folders="$(subfolders "$1")" \
		'BEGIN { n = split(folders, w, " "); for (i = 1; i <= n; i++) folder[w[i]] = 1 }
		/^[ \t]*#[ \t]*include/ {
			l = $0; sub(/[ \t]*(\/\*.*|\/\/.*)?$/, "", l)
			h = l; sub(/^#include [<"]/, "", h); sub(/[>"]$/, "", h); top = h; sub(/\/.*/, "", top)
			if (l == "#include \"config.h\"" || (l ~ /^#include "[a-z_0-9]+\/[a-z_0-9]+\.h"$/ && top in folder) ||
			    (l ~ /^#include <[^<>]+>$/ && !(top in folder) && h !~ /(^|\/)\.\.?\//)) next
			print substr(FILENAME, length(root) + 1) ":" FNR ": " l }'
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
ok "$([ "$(wc -l <"$T/edges")" -gt 100 ] && grep -q '^src/main ' "$T/edges" && echo 0 || echo 1)" \
	"the program's link graph is read, main.c's uses among it ($(wc -l <"$T/edges") edges, $(grep -c '^src/main ' "$T/edges") of main.c)"
loops <"$T/edges" >"$T/file_loops"
ok "$([ -s "$T/file_loops" ] && echo 1 || echo 0)" "no cycle between files"
sed 's/^/#   /' "$T/file_loops"
folders <"$T/edges" | loops >"$T/folder_loops"
ok "$([ -s "$T/folder_loops" ] && echo 1 || echo 0)" "no cycle between folders"
sed 's/^/#   /' "$T/folder_loops"

# includes (a header-only use, an inline function or a struct, leaves no symbol for the link graph)
mkdir -p "$T/tree/src/a" "$T/tree/src/b" "$T/tree/src/c"
printf '#include "b/y.h"\n' >"$T/tree/src/a/x.c"
printf '#include "a/x.h"\n#include "b/z.h"\n' >"$T/tree/src/b/y.h"
printf '#include "config.h"\n#include <stdio.h>\n#include "../a/x.h" /* why */\n#include <b/y.h>\n#include "w.h"\n#include <sys/stat.h>\n' >"$T/tree/src/c/w.c"
ok "$([ "$(includes "$T/tree" | tr '\n' ' ')" = "src/a src/b src/b src/a src/c src/a src/c src/b " ] && echo 0 || echo 1)" \
	"an include between two folders is read in every form, one within a folder is not"
ok "$([ "$(include_forms "$T/tree" | tr '\n' ' ')" = \
	'src/c/w.c:3: #include "../a/x.h" src/c/w.c:4: #include <b/y.h> src/c/w.c:5: #include "w.h" ' ] && echo 0 || echo 1)" \
	"an include written other than \"FOLDER/FILE.h\" is found, a system header is not"
included "$SRCDIR" >"$T/included"
includes "$SRCDIR" >"$T/include_edges"
ok "$([ "$(wc -l <"$T/include_edges")" -gt 20 ] && echo 0 || echo 1)" "the includes are read ($(wc -l <"$T/include_edges") folder edges)"
loops <"$T/include_edges" >"$T/include_loops"
ok "$([ -s "$T/include_loops" ] && echo 1 || echo 0)" "no cycle between folders by their includes"
sed 's/^/#   /' "$T/include_loops"
include_forms "$SRCDIR" >"$T/include_forms"
ok "$([ -s "$T/include_forms" ] && echo 1 || echo 0)" \
	"every include of src/ is written \"FOLDER/FILE.h\" (or \"config.h\", or <HEADER> of the system)"
sed 's/^/#   /' "$T/include_forms"

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

# rowfiles DOC: "FOLDER FILE" for each file a row of the layer table names without a folder
# (`runner.c` in run/'s row: "src/run runner.c"; `cmd/vm.c` in vm/'s is cmd/'s to name).
rowfiles() {
	awk -F'|' '/^## / { on = ($0 ~ /^## Layout/); next }
		on && /^\| `[a-z_]+\/`/ { f = $2; gsub(/[` ]/, "", f); sub(/\/$/, "", f); t = $3
			while (match(t, /`[a-z_0-9]+\.[ch]`/)) { print "src/" f, substr(t, RSTART + 1, RLENGTH - 2); t = substr(t, RSTART + RLENGTH) } }' "$1" | sort -u
}
# commands DIR: the command table's names as files of cmd/ ("lab-install": lab_install.c,
# "__complete": complete.c), one a line: the files whose name the folder explains.
commands() {
	sed -n 's/.*{\.name = "\([^"]*\)".*\.fn = cmd_.*/\1/p' "$1"/src/cmd/*.c | sed 's/^_*//; s/-/_/g; s/$/.c/' | sort -u
}
commands "$SRCDIR" >"$T/commands"
ok "$([ "$(wc -l <"$T/commands")" -gt 10 ] && echo 0 || echo 1)" "the command table is read ($(wc -l <"$T/commands") commands)"
# each source of a folder is named in its row, but a command's file (cmd/'s row says "one file per
# command"); each file a row names is there
rowfiles "$DOC" >"$T/rowfiles"
ok "$([ "$(wc -l <"$T/rowfiles")" -gt 50 ] && echo 0 || echo 1)" "the files the layer table names are read ($(wc -l <"$T/rowfiles"))"
unnamed=$(cd "$SRCDIR" && find src -mindepth 2 -name '*.c' | sort |
	awk 'FILENAME == ARGV[1] { cmd["src/cmd/" $0] = 1; next } FILENAME == ARGV[2] { named[$1 "/" $2] = 1; next }
		!($0 in cmd) && !($0 in named)' "$T/commands" "$T/rowfiles" -)
ok "$([ -z "$unnamed" ] && echo 0 || echo 1)" "every source is named in its folder's row of the layer table"
[ -z "$unnamed" ] || echo "$unnamed" | sed 's/^/#   /'
gone=$(while read -r d b; do [ -e "$SRCDIR/$d/$b" ] || echo "$d/$b"; done <"$T/rowfiles")
ok "$([ -z "$gone" ] && echo 0 || echo 1)" "every file the layer table names is in its folder${gone:+ (not: $(echo $gone))}"
# the data-flow picture (the indented lines of "Data flow") names every folder, as FOLDER/
unpictured=$(awk '/^## / { on = ($0 ~ /^## Data flow/); next } on && /^    / { print }' "$DOC" >"$T/picture"
	for f in $(subfolders "$SRCDIR"); do grep -Eq "(^|[^a-z_])$f/" "$T/picture" || echo "$f/"; done)
ok "$([ -s "$T/picture" ] && [ -z "$unpictured" ] && echo 0 || echo 1)" \
	"the data-flow picture names every folder of src/${unpictured:+ (not: $(echo $unpictured))}"

# every dependency points down the layers, by the link graph and by the includes
cat "$T/edges" "$T/included" | breaches "$T/forbidden" - >"$T/breaches"
ok "$([ -s "$T/breaches" ] && echo 1 || echo 0)" "no folder uses one its layer does not name ($(wc -l <"$T/breaches") forbidden edges)"
sed 's/^/#   /' "$T/breaches"

# functions DIR: "FILE<tab>LINES<tab>PARAMETERS<tab>NAME<tab>FIRST LINE" for every function
# defined under DIR/src. A definition starts at a line at column 0 with a "(" and no "=" before any
# "{"; its signature ends at the first "{", on its own line or on the signature's, after a ")" (a
# ";" first makes it a prototype, a "{" after a name a struct); its body ends at the first "}" at
# column 0, or on the same line when its braces close there (a one-line function). LINES counts
# from the signature's first line to the closing "}"; "..." is one parameter, "(void)" none.
functions() {
	find "$1/src" -name '*.[ch]' | sort | xargs awk -v root="$1/" \
		'function emit(lines,   s, p, name, d, n, arg, i, c) {
			s = text; gsub(/__attribute__ *\(\([^)]*\)\)/, "", s); p = index(s, "("); name = substr(s, 1, p - 1); sub(/.*[ *]/, "", name)
			s = substr(s, p + 1); d = 1; n = 0; arg = ""
			for (i = 1; i <= length(s) && d > 0; i++) {
				c = substr(s, i, 1)
				if (c == "(") d++
				else if (c == ")" && --d == 0) break
				else if (c == "," && d == 1) n++
				if (c !~ /[ \t]/) arg = arg c
			}
			printf "%s\t%d\t%d\t%s\t%s\n", substr(FILENAME, length(root) + 1), lines,
				(arg == "" || arg == "void" ? 0 : n + 1), name, first
		}
		FNR == 1 { sig = start = 0 }
		start { if (/^\}/) { emit(FNR - start); start = 0 } next }
		!sig && /^[A-Za-z_]/ { head = $0; sub(/\{.*/, "", head)
			if (head !~ /\(/ || head ~ /=/ || (head == $0 && /;[ \t]*$/)) next
			sig = FNR; first = $0; text = "" }
		sig { b = index($0, "{")
			if (!b) { if (/;[ \t]*$/) sig = 0; else text = text " " $0; next }
			text = text " " substr($0, 1, b - 1); sub(/[ \t]+$/, "", text)
			if (text !~ /\)$/) { sig = 0; next }
			rest = substr($0, b); o = gsub(/\{/, "{", rest); c = gsub(/\}/, "}", rest)
			if (o == c) emit(FNR - sig); else start = sig
			sig = 0 }'
}
functions "$SRCDIR" >"$T/functions"
ok "$([ "$(wc -l <"$T/functions")" -gt 1000 ] && echo 0 || echo 1)" "every function is found ($(wc -l <"$T/functions") functions)"

# no function over 80 lines, whatever its signature and wherever its "{"
long=$(awk -F'\t' '$2 > 80 { print $1 ": " $2 " lines: " $5 }' "$T/functions")
ok "$([ -z "$long" ] && echo 0 || echo 1)" "no function is over 80 lines"
[ -z "$long" ] || echo "$long" | sed 's/^/#   /'

# No function takes more than 7 parameters: more travel together as a struct (struct verdict_xy,
# struct plot_query, struct bgload_setup, struct point_hook_where, struct store_point_rows). Those below
# are known and may only leave the list: callee15 is AIM's call of 15 arguments, the cost it measures;
# the others (8 each) wait their turn.
PARAM_BUDGET=7
over_budget_known="src/catalog/cpu_int.c:callee15 src/analysis/verdict.c:verdict_welch_looks
src/analysis/verdict.c:fieller src/report/html.c:workload_section src/report/plot.c:main_panel"
# "FILE: N parameters: NAME" for every function
awk -F'\t' '{ print $1 ": " $3 " parameters: " $4 }' "$T/functions" >"$T/params"
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

# No file is over 800 lines (a newcomer reads a file whole; a bigger one is split by concern). Those
# below are known and may only leave the list: cpu_values.h is a generated table of classic's
# values; the others wait their turn.
SIZE_BUDGET=800
over_size_known="src/catalog/cpu_values.h src/config/options.c src/measure/cgroup.c
src/report/compare.c src/report/html.c src/report/plot.c"
(cd "$SRCDIR" && find src -name '*.[ch]' | sort | xargs wc -l) | awk '$2 != "total" { print $2 ": " $1 " lines" }' >"$T/sizes"
ok "$([ "$(wc -l <"$T/sizes")" -gt 100 ] && echo 0 || echo 1)" "every file's lines are counted ($(wc -l <"$T/sizes") files)"
awk -v max=$SIZE_BUDGET -v known="$over_size_known" 'BEGIN { n = split(known, k, /[ \n]+/); for (i = 1; i <= n; i++) ok[k[i] ":"] = 1 }
	$2 > max && !($1 in ok)' "$T/sizes" >"$T/big"
ok "$([ -s "$T/big" ] && echo 1 || echo 0)" "no file is over $SIZE_BUDGET lines but those known ($(wc -l <"$T/big") more)"
sed 's/^/#   /' "$T/big"
stale=$(for k in $over_size_known; do
	awk -v max=$SIZE_BUDGET -v k="$k:" '$1 == k && $2 > max { found = 1 } END { exit !found }' "$T/sizes" || echo "$k"; done)
ok "$([ -z "$stale" ] && echo 0 || echo 1)" "every file known over the budget still is (the list only shrinks)${stale:+ (not: $(echo $stale))}"
echo "# $(awk -v max=$SIZE_BUDGET '$2 > max' "$T/sizes" | wc -l) of $(wc -l <"$T/sizes") files are over $SIZE_BUDGET lines:"
awk -v max=$SIZE_BUDGET '$2 > max' "$T/sizes" | sort -k2,2nr | sed 's/^/#   /'

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
# (cmd/NAME.c is the command NAME of the command table; internal.h is its folder's private header)
reused=$(cd "$SRCDIR" && find src -name '*.[ch]' ! -name internal.h | sort |
	awk 'NR == FNR { cmd["src/cmd/" $0] = 1; next } !($0 in cmd) { b = $0; sub(/.*\//, "", b); at[b] = at[b] " " $0; n[b]++ }
		END { for (b in n) if (n[b] > 1) print b ":" at[b] }' "$T/commands" - | sort)
ok "$([ -z "$reused" ] && echo 0 || echo 1)" "no basename is reused but a command's file of cmd/ and internal.h"
[ -z "$reused" ] || echo "$reused" | sed 's/^/#   /'

# analysis/ judges and report/ words: no English sentence is written in src/analysis/. A sentence is
# a string literal, outside comments, holding four words in a row (letters joined by single spaces).
# Allowed are the help of an option table (a line with a `.help =` field: --help prints it) and the
# literals of a call to an error function (a line calling a function whose name holds "err": set_err,
# errlist_add, ...): a failure's message is said where it happens. Notes, verdicts and the gate's
# reasons are codes and fields there, worded in report/ (note_text.c, verdict_states.c, gate_text.c).
# sentences FILE...: "FILE:LINE: LITERAL" for each sentence.
sentences() {
	awk 'FNR == 1 { incomment = 0 }
	{
		line = $0; out = ""
		while (line != "") { # the line without its comments, its literals kept whole
			if (incomment) {
				e = index(line, "*/"); if (!e) break
				line = substr(line, e + 2); incomment = 0; continue
			}
			c = substr(line, 1, 1)
			if (c == "\"") { # up to the next quote not escaped
				for (j = 2; j <= length(line); j++) { d = substr(line, j, 1); if (d == "\\") j++; else if (d == "\"") break }
				out = out substr(line, 1, j); line = substr(line, j + 1); continue
			}
			if (c == "'\''") { # a character constant, escaped or not
				j = substr(line, 2, 1) == "\\" ? 4 : 3; out = out substr(line, 1, j); line = substr(line, j + 1); continue
			}
			if (substr(line, 1, 2) == "/*") { incomment = 1; line = substr(line, 3); continue }
			if (substr(line, 1, 2) == "//") break
			out = out c; line = substr(line, 2)
		}
		if (out ~ /\.help[ \t]*=/ || out ~ /[A-Za-z_]*err[A-Za-z_]*[ \t]*\(/)
			next
		while (match(out, /"([^"\\]|\\.)*"/)) {
			lit = substr(out, RSTART, RLENGTH); out = substr(out, RSTART + RLENGTH)
			if (lit ~ /[A-Za-z]+ [A-Za-z]+ [A-Za-z]+ [A-Za-z]+/)
				print FILENAME ": " FNR ": " lit
		}
	}' "$@"
}
printf '%s\n' '/* a comment says "what the next four words say" */' 'x = "run %lld is slower than"; /* "ok" */' \
	'set_err(err, len, "the run cannot be read");' '.help = "the mean of the samples",' 'y = "two words", z = '\''"'\'';' \
	'w = "a \"quoted\" word in a line";' >"$T/words.c"
ok "$([ "$(sentences "$T/words.c" | sed "s|^$T/||" | tr '\n' '|')" = \
	'words.c: 2: "run %lld is slower than"|words.c: 6: "a \"quoted\" word in a line"|' ] && echo 0 || echo 1)" \
	"a sentence in a literal is found; a comment's, an error's, a help's and a short literal are not"
(cd "$SRCDIR" && sentences src/analysis/*.[ch]) >"$T/sentences"
ok "$([ -s "$T/sentences" ] && echo 1 || echo 0)" "no English sentence is written in src/analysis/ ($(wc -l <"$T/sentences") found)"
sed 's/^/#   /' "$T/sentences"

# One error idiom (docs/DESIGN.md, "Errors: one idiom"): below cmd/, a reason goes back in a caller's
# `char *err, size_t errlen`, never through `const char **why` (a static string handed back) nor a
# `char *why, size_t` pair (the same buffer under another name).
# shapes FILE...: "FILE:LINE: PARAMETER" for each parameter of a prototype, a definition or a
# pointer to a function written in either shape, across lines as written.
shapes() {
	awk 'function scan(   s, at, at_m, from, len, m, pre) {
			s = text; at = 0
			while (match(s, /[(,][ \t\n]*(const[ \t\n]+char[ \t\n]*\*[ \t\n]*\*[ \t\n]*why[ \t\n]*[,)]|char[ \t\n]*\*[ \t\n]*why[ \t\n]*,[ \t\n]*size_t)/)) {
				from = RSTART; len = RLENGTH; m = substr(s, from + 1, len - 1)
				match(m, /[^ \t\n]/); pre = substr(s, 1, from + RSTART - 1) # up to the parameter
				at_m = at + gsub(/\n/, "", pre) + 1
				gsub(/[ \t\n]+/, " ", m); sub(/^ /, "", m); sub(/ ?[,)]$/, "", m)
				print file ": " at_m ": " m
				pre = substr(s, 1, from + len - 2); at += gsub(/\n/, "", pre)
				s = substr(s, from + len - 1) # a "," ending one may begin the next
			}
		}
		FNR == 1 { if (NR > 1) scan(); file = FILENAME; text = "" }
		{ text = text $0 "\n" }
		END { if (NR) scan() }' "$@"
}
printf '%s\n' 'int a(const char *s, const char **why);' 'int b(int n, char *why,' '      size_t len);' \
	'int c(const char *why, size_t n, char *err, size_t errlen);' 'char *why = x, *y; const char **whys;' \
	'int (*d)(char *why, size_t len);' >"$T/shapes.c"
ok "$([ "$(shapes "$T/shapes.c" | sed "s|^$T/||" | tr '\n' '|')" = \
	'shapes.c: 1: const char **why|shapes.c: 2: char *why, size_t|shapes.c: 6: char *why, size_t|' ] && echo 0 || echo 1)" \
	"a reason's old shapes are found across lines; a given reason, err and a variable are not"
(cd "$SRCDIR" && shapes $(find src -name '*.[ch]' ! -path 'src/cmd/*' | sort)) >"$T/shapes"
ok "$([ -s "$T/shapes" ] && echo 1 || echo 0)" \
	"no reason below cmd/ goes back through const char **why or char *why, size_t ($(wc -l <"$T/shapes") found)"
sed 's/^/#   /' "$T/shapes"

loose=$(cd "$SRCDIR/src" && ls -p | grep -v / | grep "\.[ch]$" | grep -vx main.c)
ok "$([ -z "$loose" ] && echo 0 || echo 1)" "src/ holds main.c alone${loose:+ (also: $(echo $loose))}"

# the check fails on planted violations: run on a copy of the sources and of the build's objects,
# with main.o built again from the planted main.c
if [ -z "${REAIM_LAYOUT_PLANTED-}" ]; then
	# one copy holds every plant (a pass of the script is most of its time): each must fail its
	# own check, naming the plant, and no other check may fail
	rm -rf "$T/copy" "$T/build" && mkdir -p "$T/copy/docs" "$T/build" && cp -R "$SRCDIR/src" "$T/copy/" &&
		cp "$DOC" "$T/copy/docs/" && (cd "$BUILDDIR" && find src -name '*.o' | tar cf - -T -) | (cd "$T/build" && tar xf -)
	ok $? "a copy of the sources and the objects to plant violations in"
	# an include up the layers in each form: the one allowed, "../", and <>
	printf '#include "store/store.h"\n' >>"$T/copy/src/measure/sampler.c"
	load_at=$(($(wc -l <"$T/copy/src/measure/load.c") + 1)) peak_at=$(($(wc -l <"$T/copy/src/measure/peak.c") + 1))
	printf '#include "../store/store.h"\n' >>"$T/copy/src/measure/load.c"
	printf '#include <store/store.h>\n' >>"$T/copy/src/measure/peak.c"
	# main.c calls analysis through a prototype of its own (no include to read: only the link shows it)
	printf 'double stats_geomean(const double *ratios, size_t n);\ndouble planted_call(void);\n' >>"$T/copy/src/main.c"
	printf 'double planted_call(void)\n{\n\tdouble one = 1;\n\treturn stats_geomean(&one, 1);\n}\n' >>"$T/copy/src/main.c"
	${CC:-cc} -c -I"$BUILDDIR" -I"$T/copy/src" -o "$T/build/src/main.o" "$T/copy/src/main.c"
	ok $? "main.c with the planted call builds"
	# 81 lines with "{" on the signature's line
	{ printf 'const char *planted_long(void);\nconst char *planted_long(void) {\n'
	  i=0; while [ $i -lt 79 ]; do echo "	(void)0;"; i=$((i + 1)); done; printf '\treturn "";\n}\n'; } >>"$T/copy/src/util/text.c"
	printf 'int planted_params(int a, int b, int c, int d, int e, int f, int g, int h,\n\t\t     const char *i);\n' >>"$T/copy/src/measure/load.c"
	printf 'int planted_params(int a, int b, int c, int d, int e, int f, int g, int h,\n\t\t     const char *i)\n{\n' >>"$T/copy/src/measure/load.c"
	printf '\treturn a + b + c + d + e + f + g + h + (i != 0);\n}\n' >>"$T/copy/src/measure/load.c"
	# a new file of 801 lines, and a file of cmd/ that is no command beside util's of its name
	{ printf '/* planted */\n'; i=0; while [ $i -lt 800 ]; do echo "/* $i */"; i=$((i + 1)); done; } >"$T/copy/src/util/planted_big.c"
	printf '/* planted */\n' >"$T/copy/src/cmd/text.c"
	# a sentence worded in analysis/
	words_at=$(($(wc -l <"$T/copy/src/analysis/noise.c") + 1))
	printf 'const char *planted_words(void);\nconst char *planted_words(void)\n{\n\treturn "B is slower than A";\n}\n' \
		>>"$T/copy/src/analysis/noise.c"
	# a reason handed back in the shapes the one error idiom replaced, one across two lines
	why_at=$(($(wc -l <"$T/copy/src/config/options.c") + 1)) pair_at=$(($(wc -l <"$T/copy/src/util/parse.c") + 1))
	printf 'int planted_why(const char *s, const char **why);\n' >>"$T/copy/src/config/options.c"
	printf 'int planted_pair(int n, char *why,\n\t\t size_t len);\n' >>"$T/copy/src/util/parse.c"
	REAIM_LAYOUT_PLANTED=1 REAIM_SRCDIR="$T/copy" REAIM_BUILDDIR="$T/build" sh "$0" >"$T/planted" 2>&1
	ok "$([ $? -eq 1 ] && [ "$(grep -c '^not ok' "$T/planted")" -eq 9 ] && echo 0 || echo 1)" \
		"the planted copy fails nine checks, no more ($(grep -c '^not ok' "$T/planted"))"
	grep '^not ok' "$T/planted" | sed 's/^/#   /'
	# planted CHECK LINE DESCRIPTION: the planted copy fails CHECK, naming LINE (fixed strings)
	planted() {
		ok "$(grep -q "^not ok [0-9]* - $1" "$T/planted" && grep -qxF "#   $2" "$T/planted" && echo 0 || echo 1)" "$3"
	}
	planted 'no folder uses one its layer does not name' 'src/measure -> src/store: src/measure/sampler.c includes src/store/store.h' \
		'a planted measure -> store include fails the check'
	planted 'no folder uses one its layer does not name' 'src/measure -> src/store: src/measure/load.c includes src/store/store.h' \
		'a planted #include "../store/store.h" in measure/ fails the layer check'
	planted 'every include of src/ is written' "src/measure/load.c:$load_at: #include \"../store/store.h\"" \
		'a planted #include "../store/store.h" is refused'
	planted 'no folder uses one its layer does not name' 'src/measure -> src/store: src/measure/peak.c includes src/store/store.h' \
		'a planted #include <store/store.h> in measure/ fails the layer check'
	planted 'every include of src/ is written' "src/measure/peak.c:$peak_at: #include <store/store.h>" \
		'a planted #include <store/store.h> is refused'
	planted 'no folder uses one its layer does not name' 'src -> src/analysis: src/main uses src/analysis/stats' \
		"main.c calling analysis through a prototype of its own fails the check"
	planted 'no function is over 80 lines' 'src/util/text.c: 81 lines: const char *planted_long(void) {' \
		'a planted 81-line function with "{" on its signature line fails the check'
	planted 'no function takes more than' 'src/measure/load.c: 9 parameters: planted_params' \
		'a planted function of 9 parameters fails the check'
	planted 'no file is over' 'src/util/planted_big.c: 801 lines' 'a planted new file of 801 lines fails the check'
	planted 'no basename is reused' 'text.c: src/cmd/text.c src/util/text.c' 'a planted cmd/text.c beside util/text.c fails the check'
	planted 'no English sentence is written in src/analysis/' "src/analysis/noise.c: $((words_at + 3)): \"B is slower than A\"" \
		'a planted sentence in analysis/ fails the check'
	planted 'every source is named in its folder' 'src/cmd/text.c' 'a planted file no row names fails the check'
	planted 'no reason below cmd/ goes back through' "src/config/options.c: $why_at: const char **why" \
		'a planted const char **why parameter fails the check'
	planted 'no reason below cmd/ goes back through' "src/util/parse.c: $pair_at: char *why, size_t" \
		'a planted char *why, size_t pair across two lines fails the check'
fi
finish
