#!/bin/sh
# shell_rtns_3: models the classic AIM shell_rtns_3 job, a script doing
# arithmetic with expr and test in a loop, then editing its output with sed.
# Runs in the current directory and leaves it as found.
# shellcheck disable=SC2003 # expr (a fork+exec per step) is the workload being modelled
set -e
trap 'rm -f sr3.nums sr3.edit' EXIT

: > sr3.nums
i=1
sum=0
while test "$i" -le 4; do
	sq=$(expr "$i" \* "$i")
	sum=$(expr "$sum" + "$sq")
	echo "row $i square $sq" >> sr3.nums
	i=$(expr "$i" + 1)
done
test "$sum" -eq 30
sed -e 's/^row /r/' -e 's/ square /=/' sr3.nums > sr3.edit
test "$(sed -n '$p' sr3.edit)" = "r4=16"
test "$(sed -n '/=1[0-9]*$/p' sr3.edit | wc -l)" -eq 2
rm sr3.nums sr3.edit
