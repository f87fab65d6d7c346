#!/bin/sh
# shell_rtns_1: models the classic AIM shell_rtns_1 job, a user running a
# text-processing pipeline (cat, sort, uniq, grep, wc, cp) over a small file.
# Runs in the current directory (the task's scratch dir) and leaves it as found.
set -e
trap 'rm -f sr1.words sr1.sorted sr1.copy sr1.count' EXIT

cat > sr1.words <<'END'
kernel scheduler filesystem
pipe socket signal
fork exec wait
inode dentry superblock
page cache writeback
kernel module loader
sort grep uniq
fork exec wait
block device queue
kernel scheduler filesystem
END

tr ' ' '\n' < sr1.words | sort > sr1.sorted
test "$(wc -l < sr1.sorted)" -eq 30
sort -u sr1.sorted | wc -l > sr1.count
test "$(cat sr1.count)" -eq 23
test "$(grep -c '^kernel$' sr1.sorted)" -eq 3
test "$(uniq -d sr1.sorted | wc -l)" -eq 6
cp sr1.sorted sr1.copy
test "$(cat sr1.copy)" = "$(cat sr1.sorted)"
rm sr1.words sr1.sorted sr1.copy sr1.count
