# LKP's aim7 job as its programs/aim7/run does it, restated for our tests: from
# $BENCHMARK_ROOT/aim7, workfile (from workfiles/ when there is one) and config, then the
# answers piped into ./multitask -t in the background, and a wait.
# In: BENCHMARK_ROOT, test, load, DISKDIR.
cd "$BENCHMARK_ROOT/aim7" || exit 1
export PATH="$(pwd):$PATH"
if [ -f "workfiles/workfile.$test" ]; then
	cp "workfiles/workfile.$test" workfile
else
	printf 'FILESIZE: 1M\nPOOLSIZE: 10M\n10 %s\n' "$test" >workfile
fi
echo "$DISKDIR" >config
(
	echo "$(hostname)"
	echo "$test"
	echo 1
	echo "$load"
	echo 2
	echo "$load"
	echo 1
) | ./multitask -t &
wait $!
