# LKP's aim9 job as its programs/aim9/run does it, restated for our tests: from
# $BENCHMARK_ROOT/aim9, an s9workfile naming the test, the answers piped into ./singleuser -nl.
# In: BENCHMARK_ROOT, test, testtime, DISKDIR.
cd "$BENCHMARK_ROOT/aim9" || exit 1
export PATH="$(pwd):$PATH"
printf '# @(#) s9workfile:1.2 1/22/96 00:00:00\n# AIM Independent Resource Benchmark - Suite IX Workfile\nFILESIZE: 5M\n%s\n' "$test" >s9workfile
(
	echo "$(hostname)"
	echo "$test"
	echo "${testtime%s}"
	echo "$DISKDIR"
) | ./singleuser -nl &
wait $!
