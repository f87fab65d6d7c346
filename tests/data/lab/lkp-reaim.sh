# LKP's reaim job as its programs/reaim/run does it, restated for our tests: from
# $BENCHMARK_ROOT/reaim, the test's workfile from data/, reaim.config, the classic command line.
# In: BENCHMARK_ROOT, RESULT_ROOT, test, nr_task, nr_job, DISKDIR.
cd "$BENCHMARK_ROOT/reaim" || exit 1
if [ -f "data/workfile.$test" ]; then cp "data/workfile.$test" .; else echo "10 $test" >"workfile.$test"; fi
echo "FILESIZE 10k" >reaim.config
echo "POOLSIZE 1m" >>reaim.config
echo "DISKDIR $DISKDIR" >>reaim.config
./reaim -s"$nr_task" -e"$nr_task" -i"$nr_task" -fworkfile."$test" -r1 -c./reaim.config -l"$RESULT_ROOT/reaim_debug" -j"$nr_job"
