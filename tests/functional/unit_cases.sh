#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A unit test's cases run alone by name: TAP_ONLY=NAME[,NAME] runs those cases of the program and
# no other, and a name that is no case of it fails the program.
. "$(dirname "$0")/lib.sh"
BUILDDIR=${REAIM_BUILDDIR:-$(pwd)}
prog=$BUILDDIR/tests/unit/test_options

"$prog" >"$T/all"
TAP_ONLY=table "$prog" >"$T/table"
ok $? "one case alone passes"
contains "$T/table" "osync both" "the case named runs"
ok "$(grep -q 'each option writes its own member' "$T/table" && echo 1 || echo 0)" "another case does not"
ok "$([ "$(grep -c '^ok' "$T/table")" -lt "$(grep -c '^ok' "$T/all")" ] && echo 0 || echo 1)" \
	"fewer checks than the whole program ($(grep -c '^ok' "$T/table") of $(grep -c '^ok' "$T/all"))"
TAP_ONLY=table,own_members "$prog" >"$T/two"
contains "$T/two" "each option writes its own member" "two cases by a comma"
TAP_ONLY=no_such_case "$prog" >"$T/none"
ok "$([ $? -ne 0 ] && grep -q "^not ok.*'no_such_case' is a case" "$T/none" && echo 0 || echo 1)" \
	"a name that is no case fails the program"

# every unit test program registers its cases through tap_case, so each can be aimed at by name;
# the list of those that did not yet (their checks ran in main) is empty and stays so
not_yet=""
missing=$(for f in "$SRCDIR"/tests/unit/test_*.c; do
	name=$(basename "$f" .c)
	grep -q 'tap_case(' "$f" || echo " $not_yet " | tr '\n' ' ' | grep -q " $name " || echo "$name"
done)
ok "$([ -z "$missing" ] && echo 0 || echo 1)" "every unit test registers its cases by name${missing:+ (not: $(echo $missing))}"
stale=$(for name in $not_yet; do grep -q 'tap_case(' "$SRCDIR/tests/unit/$name.c" 2>/dev/null && echo "$name"; done)
ok "$([ -z "$stale" ] && echo 0 || echo 1)" "the list of those that do not yet only shrinks${stale:+ (now registered: $(echo $stale))}"
finish
