#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Malformed workfiles, suites and command lines: the exact message, exit 1, nothing stored.
. "$(dirname "$0")/lib.sh"

for f in "$SRCDIR"/tests/data/bad/*.wf "$SRCDIR"/tests/data/bad/*.cfg; do
	name=$(basename "$f")
	expect="reaim: error: $(sed "s|@FILE@|$f|" "$f.expect")"
	status 1 "check $name exits 1" "$REAIM" check "$f"
	got=$(head -n 1 "$T/err")
	case "$got" in
	"$expect"*) ok 0 "$name: message" ;;
	*) ok 1 "$name: message"; echo "#   got:  $got"; echo "#   want: $expect" ;;
	esac
	case $f in
	*.wf) status 1 "run -f $name exits 1" "$REAIM" -f "$f" -d "$T/scratch" ;;
	*) status 1 "run -s $name exits 1" "$REAIM" -s "$f" -d "$T/scratch" ;;
	esac
	ok "$([ ! -e "$REAIM_DB" ] && echo 0 || echo 1)" "$name: no database written"
done

tab=$(printf '\t')
ctrl=$(printf 'a\033[2Jb')
badutf8=$(printf 'a\377b')
grep -v '^#' "$SRCDIR/tests/data/bad_cli.tsv" | while IFS="$tab" read -r args expect; do
	args=$(echo "$args" | LC_ALL=C sed -e "s|@SRC@|$SRCDIR|g" -e "s|@CTRL@|$ctrl|g" -e "s|@BADUTF8@|$badutf8|g")
	# shellcheck disable=SC2086
	"$REAIM" $args >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc -eq 1 ] && grep -qF -- "$expect" "$T/err" && [ ! -e "$REAIM_DB" ]; then
		echo "ok - reaim $args"
	else
		echo "not ok - reaim $args (exit $rc)"
		sed 's/^/#   /' "$T/err" | head -3
	fi
done >"$T/cli.tap"
while read -r line; do
	case $line in
	"ok - "*) ok 0 "${line#ok - }" ;;
	"not ok - "*) ok 1 "${line#not ok - }" ;;
	*) echo "$line" ;;
	esac
done <"$T/cli.tap"

# a workfile the user owns is never touched, even when the run fails
cp "$SRCDIR/tests/data/bad/bad_filesize.wf" "$T/mine.wf"
"$REAIM" -f "$T/mine.wf" -d "$T/scratch" >/dev/null 2>&1
ok "$(cmp -s "$SRCDIR/tests/data/bad/bad_filesize.wf" "$T/mine.wf"; echo $?)" "user's workfile unchanged"
finish
