# autotest's reaim client test as its reaim.py does it, restated for our tests: setup() is
# skipped when $AUTODIR/tmp/reaim/src/.version holds the test's version (1, pickled); execute()
# copies the test's reaim.config into the srcdir, appends DISKDIR, and runs ./reaim there.
# In: AUTODIR, BINDIR (the test's dir, with reaim.config), DISKDIR, start, end, increment, extra_args.
srcdir="$AUTODIR/tmp/reaim/src"
python3 -c 'import pickle, sys; sys.exit(pickle.loads(open(sys.argv[1], "rb").read()) != 1)' "$srcdir/.version" ||
	{ echo "setup() would run: .version is not 1" >&2; exit 1; }
cp -f "$BINDIR/reaim.config" "$srcdir/reaim.config"
echo "DISKDIR $DISKDIR" >>"$srcdir/reaim.config"
cd "$srcdir" || exit 1
# shellcheck disable=SC2086
LD_LIBRARY_PATH="$AUTODIR/deps/libaio/lib" ./reaim -f data/workfile.short -s "$start" -e "$end" -i "$increment" -c ./reaim.config $extra_args
