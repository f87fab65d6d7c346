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
finish
