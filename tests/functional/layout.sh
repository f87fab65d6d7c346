#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The layout is the architecture: src/ holds main.c alone, and the link graph of the library (file A
# uses a global that file B defines) has no cycle between files and none between folders, the
# includes none between folders, and neither points up the layers.
. "$(dirname "$0")/lib.sh"
BUILDDIR=${REAIM_BUILDDIR:-$(pwd)}

# edges DIR: "A B" for each object under DIR/src (but main and the exec helper) that uses a symbol
# another defines, by source path without the extension.
edges() {
	find "$1/src" -name '*.o' ! -path "$1/src/main.o" ! -name exec_helper.o | sort | while read -r o; do
		f=${o#"$1"/}
		nm "$o" | awk -v f="${f%.o}" '$2 ~ /^[TDBRCGSV]$/ { print "def", f, $3 } $1 == "U" { print "use", f, $2 }'
	done | awk '$1 == "def" { def[$3] = $2; next } { u[NR] = $2 " " $3 }
		END { for (i in u) { split(u[i], w, " "); if ((w[2] in def) && def[w[2]] != w[1]) print w[1], def[w[2]] } }' |
		sort -u
}
# folders: the same edges between the files' folders.
folders() {
	awk '{ a = $1; b = $2; sub(/\/[^\/]*$/, "", a); sub(/\/[^\/]*$/, "", b); if (a != b) print a, b }' | sort -u
}
# loops: what tsort names as being in a cycle, one per line (nothing when there is none).
loops() {
	tsort 2>&1 >/dev/null | sed -n 's/^tsort: \([^-].*\)/\1/p'
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

# includes: "A B" for each file under src/A that includes a header of src/B (a header-only use,
# an inline function or a struct, leaves no symbol for the link graph)
includes() {
	find "$1/src" -mindepth 2 -name '*.[ch]' | sort | while read -r f; do
		d=${f#"$1"/}
		d=${d%/*}
		sed -n 's|^#include "\([a-z_]*\)/.*|\1|p' "$f" | sort -u | while read -r to; do
			[ "src/$to" = "$d" ] || echo "$d src/$to"
		done
	done | sort -u
}
mkdir -p "$T/tree/src/a" "$T/tree/src/b"
printf '#include "b/y.h"\n' >"$T/tree/src/a/x.c"
printf '#include "a/x.h"\n#include "b/z.h"\n' >"$T/tree/src/b/y.h"
ok "$([ "$(includes "$T/tree" | tr '\n' ' ')" = "src/a src/b src/b src/a " ] && echo 0 || echo 1)" \
	"an include between two folders is read, one within a folder is not"
includes "$SRCDIR" >"$T/include_edges"
ok "$([ "$(wc -l <"$T/include_edges")" -gt 20 ] && echo 0 || echo 1)" "the includes are read ($(wc -l <"$T/include_edges") folder edges)"
loops <"$T/include_edges" >"$T/include_loops"
ok "$([ -s "$T/include_loops" ] && echo 1 || echo 0)" "no cycle between folders by their includes"
sed 's/^/#   /' "$T/include_loops"

# every dependency points down the layers: nothing below the commands uses them, nothing but the
# commands uses the run, the measuring code uses no judgement or rendering, analysis renders nothing
# (by the link graph and by the includes)
folders <"$T/edges" | cat - "$T/include_edges" | sort -u >"$T/folder_edges"
for rule in "src/run src/cmd" "src/report src/cmd" "src/analysis src/cmd" "src/report src/run" "src/analysis src/run" \
	"src/analysis src/report" "src/store src/analysis" "src/measure src/analysis" "src/measure src/report" \
	"src/engine src/run" "src/engine src/store" "src/store src/report" "src/util src/config" "src/vm src/cmd" \
	"src/vm src/run" "src/store src/vm" "src/analysis src/vm"; do
	ok "$(grep -qx "$rule" "$T/folder_edges" && echo 1 || echo 0)" "${rule% *} does not use ${rule#* }"
done

# no function over 80 lines (a definition starts at column 0 and ends at the first "}" there)
long=$(find "$SRCDIR/src" -name '*.c' | sort | while read -r f; do
	awk -v f="${f#"$SRCDIR"/}" '/^[a-z].*\(.*[^;]$/ && !/^(static )?const / { name = $0; start = NR }
		/^}/ && start { if (NR - start > 80) print f ": " NR - start " lines: " name; start = 0 }' "$f"
done)
ok "$([ -z "$long" ] && echo 0 || echo 1)" "no function is over 80 lines"
[ -z "$long" ] || echo "$long" | sed 's/^/#   /'

loose=$(cd "$SRCDIR/src" && ls -p | grep -v / | grep "\.[ch]$" | grep -vx main.c)
ok "$([ -z "$loose" ] && echo 0 || echo 1)" "src/ holds main.c alone${loose:+ (also: $(echo $loose))}"
finish
