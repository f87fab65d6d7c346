# mmtests' reaim shellpack (6c93ff57) as its reaim-bench does it, restated for our tests: it
# skips the install when $SHELLPACK_SOURCES/reaim-7.0.1.13-installed is there, runs there with
# reaim.config (the disk dir through a symlink) and the workfile without its size lines.
# In: SHELLPACK_SOURCES, SHELLPACK_DATA, LOGDIR_RESULTS, REAIM_WORKFILE, REAIM_EXCLUDE, REAIM_ENDUSERS.
[ -d "$SHELLPACK_SOURCES/reaim-7.0.1.13-installed" ] || { echo "the install would run: not installed" >&2; exit 1; }
cd "$SHELLPACK_SOURCES/reaim-7.0.1.13-installed" || exit 1
REAIM_SYMLINK="$SHELLPACK_DATA.link"
echo "FILESIZE 10k" >reaim.config
echo "POOLSIZE 1m" >>reaim.config
echo "DISKDIR $REAIM_SYMLINK" >>reaim.config
mkdir -p "$SHELLPACK_DATA"
rm -f "$REAIM_SYMLINK"
ln -s "$SHELLPACK_DATA" "$REAIM_SYMLINK"
cp "data/$REAIM_WORKFILE" "data/$REAIM_WORKFILE.mmtests"
for EXCLUDE in $REAIM_EXCLUDE; do
	grep -v " $EXCLUDE$" "data/$REAIM_WORKFILE.mmtests" >"data/$REAIM_WORKFILE.mmtests.tmp"
	mv -f "data/$REAIM_WORKFILE.mmtests.tmp" "data/$REAIM_WORKFILE.mmtests"
done
sed -i -e '/FILESIZE/d' -e '/POOLSIZE/d' "data/$REAIM_WORKFILE.mmtests"
mkdir -p "$LOGDIR_RESULTS/$REAIM_WORKFILE"
./src/reaim -s1 -e"$REAIM_ENDUSERS" -t -i1 -fdata/"$REAIM_WORKFILE".mmtests -r1 -c./reaim.config -l"$LOGDIR_RESULTS/$REAIM_WORKFILE/reaim"
