#!/bin/sh
# shell_rtns_2: models the classic AIM shell_rtns_2 job, a user shuffling
# directories (mkdir, cp, mv, ls, rm -r); classic slept 5 s at light load, ours
# never sleeps. Runs in the current directory and leaves it as found.
# shellcheck disable=SC2010,SC2012 # ls is part of the workload being modelled
set -e
trap 'rm -rf sr2.src sr2.dst' EXIT

mkdir -p sr2.src/a/b
for f in one two three four; do
	echo "$f" > "sr2.src/$f"
done
echo deep > sr2.src/a/b/leaf
cp -R sr2.src sr2.dst
mv sr2.dst/one sr2.dst/a/one
mv sr2.dst/a/b sr2.dst/c
test "$(ls sr2.dst | wc -l)" -eq 5
test "$(ls -R sr2.dst | grep -c -e '^one$' -e '^leaf$')" -eq 2
test "$(cat sr2.dst/c/leaf)" = deep
rm -r sr2.src sr2.dst
