#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# reaim report: one self-contained HTML page for two runs and for one, escaped labels, the environment's
# differences, every option each run stored, the counters section (and its sentence for runs without
# counters), and a real headless browser that renders it without asking the network for anything.
. "$(dirname "$0")/lib.sh"

printf 'FILESIZE: 16K\n10 add_int\n10 pipe_cpy\n10 sync_disk_wrt\n' >"$T/mix"
check "run A" "$REAIM" -q --no-quiet-check -f "$T/mix" -t 1,2 -j 6 -r 2 -d "$T/scratch" --label kernel-a
check "run B (O_SYNC both)" "$REAIM" -q --no-quiet-check -f "$T/mix" -t 1,2 -j 6 -r 2 -d "$T/scratch" --label kernel-b --osync both
check "a third run" "$REAIM" -q --no-quiet-check -f "$T/mix" -t 1 -j 4 -d "$T/scratch" --label evil --warmup 1 --pin on
# reaim refuses such a label on its command line; another program may have stored one
if have "an odd label stored" sqlite3; then
	sqlite3 "$REAIM_DB" "UPDATE runs SET label = 'ev<b>il&\"x' || char(1) || CAST(x'ff' AS TEXT) || 'y' WHERE label = 'evil'"
	ok $? "a label of markup, a control character and a byte that is not UTF-8 stored"
fi

# a difference in the environment the page must point out
if command -v sqlite3 >/dev/null 2>&1; then
	sqlite3 "$REAIM_DB" "UPDATE env SET value = 'none mq-deadline kyber [bfq]' WHERE key = 'dir0.scheduler'
		AND run_id = (SELECT id FROM runs WHERE label = 'kernel-b')"
fi

page="$T/ab.html"
status 0 "report two runs" "$REAIM" report kernel-a kernel-b -o "$page"
ok "$(head -c 15 "$page" | grep -q '<!DOCTYPE html>'; echo $?)" "an HTML5 page"
if have "the page is well-formed" xmllint; then
	check "the page is well-formed (xmllint)" xmllint --noout "$page"
fi
contains "$page" '<h2 id="verdict">Verdict: Jobs/Min</h2>' "a verdict section, naming what it judges"
# --metric: the page judges the figure chosen, with the same model as compare --metric
status 0 "report --metric real_s" "$REAIM" report kernel-a kernel-b -o "$T/real.html" --metric real_s
contains "$T/real.html" '<h2 id="verdict">Verdict: Real time (s)</h2>' "--metric: the verdict names the metric"
contains "$T/real.html" 'Real time (s) by task count: mix' "--metric: the plot is of it"
if have "--metric: the page's means are compare's" python3; then
	"$REAIM" compare kernel-a kernel-b --metric real_s --format json >"$T/real.json"
	python3 - "$T/real.json" "$T/real.html" >"$T/py.out" 2>&1 <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
page = open(sys.argv[2]).read()
assert d["metric"] == "real_s", d["metric"]
want = [r["other_mean"] for r in d["rows"] if r["other_mean"] is not None]
got = [float(x) for x in re.findall(r'<td>([0-9.]+)</td><td>[0-9]+</td><td[^>]*data-pct=', page)]
# the page prints 4 significant digits of each mean compare's JSON holds
assert want and len(got) == len(want) and all(abs(g - w) <= 5e-4 * abs(w) for g, w in zip(got, want)), (want, got)
PY
	ok $? "--metric: the page's means are compare --metric's"
	sed 's/^/#   /' "$T/py.out" | head -5
fi
ok "$(grep -Eq 'class="badge (worse|better|unchanged|mixed|unjudged|confounded)"' "$page"; echo $?)" "a verdict per workload and O_SYNC setting"
contains "$page" "As <code>reaim compare</code> judges them" "the verdict is compare's"
contains "$page" "Welch's t test" "and says how it was judged"
contains "$page" "adjusted by Holm's method" "with the correction"
ok "$([ "$(grep -c '<svg xmlns' "$page")" -eq 1 ] && echo 0 || echo 1)" "a plot per workload, inline"
contains "$page" 'class="diff-series"' "the plot has a difference panel"
contains "$page" "kernel-b (run 2), O_SYNC off" "the O_SYNC off curve of the run made with both"
contains "$page" "% interval</th>" "the compare table has the interval of each change"
contains "$page" "<h4>System figures</h4>" "system figures"
contains "$page" "iowait %" "with iowait"
contains "$page" "disk util %" "and disk utilisation"
contains "$page" "Subtests behind the change" "the subtests that moved"
contains "$page" "sync_disk_wrt" "naming the tests"
contains "$page" '<h2 id="counters">Counters that moved with Jobs/Min</h2>' "a section of the counters that moved"
contains "$page" "As <code>reaim compare --counters</code> lists them" "as compare --counters judges them"
contains "$page" '<h2 id="environment">Environment</h2>' "the environment"
if have "the differing environment named" sqlite3; then
	contains "$page" "The runs differ in <code>dir0.scheduler</code>" "names what differs"
	ok "$([ "$(grep -c '<tr class="differs"><td class="l"><code>dir0.scheduler' "$page")" -eq 1 ] && echo 0 || echo 1)" \
		"and highlights its row"
fi
contains "$page" "How each run was made" "each run's provenance"
contains "$page" "-f $T/mix -t 1,2 -j 6 -r 2 -d $T/scratch --label kernel-b --osync both" "the command line"
contains "$page" "<dt>Seed</dt>" "the seed"
contains "$page" "<dt>reaim version</dt>" "the version"
contains "$page" '<td class="l moved">both</td>' "an option that differs from the base is highlighted"
ok "$(grep -qi '<script' "$page"; [ $? -ne 0 ]; echo $?)" "no script"
ok "$(grep -Eqi '(src|href)=["'"'"']?(https?:)?//' "$page"; [ $? -ne 0 ]; echo $?)" "nothing to fetch: no http(s) src or href"
ok "$([ -z "$(grep -o 'https\?://[^" ]*' "$page" | grep -v '^http://www.w3.org/2000/svg$')" ] && echo 0 || echo 1)" \
	"no URL but the SVG namespace"

# every form compare takes: id lists as groups, last~N
status 0 "report of id lists as groups" "$REAIM" report 1,3 2 -o "$T/groups.html"
contains "$T/groups.html" "(runs 1, 3)" "the base side named with its runs"
contains "$T/groups.html" "B: kernel-b (run 2)" "and the other side"
ok "$(grep -q ' vs .* vs ' "$T/groups.html"; [ $? -ne 0 ]; echo $?)" "a side named once, not once per run"
status 0 "report of last~N" "$REAIM" report last~2 last~1 -o "$T/lastn.html"
status 0 "plot of id lists as groups" "$REAIM" plot 1,3 2 -o "$T/groups.svg" --diff
contains "$T/groups.svg" "(runs 1, 3)" "the plot names the group"
status 0 "report one run made with O_SYNC both" "$REAIM" report kernel-b -o "$T/one.html"
ok "$(grep -q 'badge worse' "$T/one.html"; [ $? -ne 0 ]; echo $?)" "what O_SYNC costs is not painted as a regression"
status 0 "compare the run made with O_SYNC both" "$REAIM" compare kernel-b
ok "$(grep -q 'one after the other' "$T/out"; [ $? -ne 0 ]; echo $?)" "interleaved: paired round by round without a caution"
contains "$T/one.html" "O_SYNC on against off" "its O_SYNC ratio"
contains "$T/one.html" "System figures, O_SYNC off (base) and on" "and where the time went in each"
contains "$T/one.html" "Peak:" "its peaks"

status 0 "report a run with an odd label" "$REAIM" report last -o "$T/evil.html"
contains "$T/evil.html" "$(printf 'ev&lt;b&gt;il&amp;&quot;x \357\277\275y')" "markup escaped, a control character as a space, a bad byte as U+FFFD"
ok "$(grep -q 'ev<b>' "$T/evil.html"; [ $? -ne 0 ]; echo $?)" "no raw markup from the label"
contains "$T/evil.html" '<code>--warmup</code></td><td class="l">1</td>' "every stored option listed: --warmup"
contains "$T/evil.html" '<code>--pin</code></td><td class="l">on</td>' "and --pin"
contains "$T/evil.html" 'Options that do not change a point' "those that do not change a point apart"
# the other views of the same stored rows name the same options
status 0 "show -v of the run" "$REAIM" show -v last
ok "$(grep -Eq '^  warmup +1$' "$T/out" && grep -Eq '^  pin +on$' "$T/out"; echo $?)" "show -v lists --warmup and --pin"
status 0 "its JSON export" "$REAIM" export last --format json
contains "$T/out" '"warmup": "1"' "the JSON export has --warmup"
contains "$T/out" '"pin": "on"' "and --pin"
if have "the page with the odd label is well-formed" xmllint; then
	check "the page with the odd label is well-formed" xmllint --noout "$T/evil.html"
fi

status 1 "report without -o" "$REAIM" report kernel-a
status 1 "report of an unknown run" "$REAIM" report kernel-a nosuch -o "$T/x.html"
contains "$T/err" "no run matches 'nosuch'" "names the run"
ok "$([ ! -e "$T/x.html" ] && echo 0 || echo 1)" "and leaves no page"
status 2 "report to a directory that does not exist" "$REAIM" report kernel-a -o "$T/no/such/r.html"

# the page's file: a failed write never destroys what was at the path
status 2 "report to /dev/full fails" "$REAIM" report kernel-a -o /dev/full
contains "$T/err" "/dev/full" "naming the device"
ok "$([ -c /dev/full ] && echo 0 || echo 1)" "and /dev/full is still there"
# a page longer than the limit, which leaves room for the database's 32 KiB shared-memory file
long_title=$(head -c 60000 /dev/zero | tr '\0' t)
"$REAIM" report kernel-a kernel-b --title "$long_title" -o "$T/kept.html"
cp "$T/kept.html" "$T/before.html"
status 2 "report past the file-size limit fails" sh -c 'ulimit -f 96 && exec "$@"' sh "$REAIM" report kernel-a \
	kernel-b --title "$long_title" -o "$T/kept.html"
contains "$T/err" "$T/kept.html" "naming the file"
ok "$(cmp -s "$T/before.html" "$T/kept.html"; echo $?)" "and the report there before stays intact"
ok "$([ -z "$(find "$T" -maxdepth 1 -name '.kept.html.*')" ] && echo 0 || echo 1)" "no temporary file is left"
ln -s kept.html "$T/link.html"
status 0 "report to a symlink" "$REAIM" report kernel-a -o "$T/link.html"
ok "$([ -L "$T/link.html" ] && echo 0 || echo 1)" "the link is still a link"
contains "$T/kept.html" "kernel-a (run 1)" "and the file it names holds the page"
status 2 "a failed report through a symlink" sh -c 'ulimit -f 96 && exec "$@"' sh "$REAIM" report kernel-a \
	kernel-b --title "$long_title" -o "$T/link.html"
contains "$T/err" "$T/link.html" "naming the file"
ok "$([ -L "$T/link.html" ] && [ -s "$T/kept.html" ] && echo 0 || echo 1)" "keeps the link and its file"
status 2 "a plot to /dev/full fails" "$REAIM" plot kernel-a -o /dev/full
ok "$([ -c /dev/full ] && echo 0 || echo 1)" "and leaves /dev/full as it was"

# umask 0777 masks everyone's bits but never the owner's: a new page is 0600, one made through a
# dangling link too; under 022 it is 0644
status 0 "report under umask 0777" sh -c 'umask 0777 && exec "$@"' sh "$REAIM" report kernel-b -o "$T/masked.html"
ok "$([ "$(stat -c %a "$T/masked.html")" = 600 ] && echo 0 || echo 1)" \
	"the page stays its owner's to read ($(stat -c %a "$T/masked.html"))"
ln -s masked-target.html "$T/masked-link.html"
status 0 "report through a dangling link under umask 0777" sh -c 'umask 0777 && exec "$@"' sh "$REAIM" report \
	kernel-b -o "$T/masked-link.html"
ok "$([ -L "$T/masked-link.html" ] && [ "$(stat -c %a "$T/masked-target.html")" = 600 ] && echo 0 || echo 1)" \
	"the page made where the link leads, its owner's to read"
status 0 "report under umask 022" sh -c 'umask 022 && exec "$@"' sh "$REAIM" report kernel-b -o "$T/open.html"
ok "$([ "$(stat -c %a "$T/open.html")" = 644 ] && echo 0 || echo 1)" "the page is 0644"

# A real browser, with the network out of reach: the proxy is a closed port and no name resolves.
# Chromium's own background requests carry no page origin ("not an origin"); a request the page made
# would carry the file's ("null"), so the net log tells them apart.
browser=""
for b in chromium chromium-browser; do
	command -v "$b" >/dev/null 2>&1 && browser=$b && break
done
if [ -z "$browser" ]; then
	echo "ok $((n + 1)) - headless browser checks # SKIP chromium is not installed (Debian: apt-get install chromium)"
	n=$((n + 1))
	finish
	exit $?
fi
headless() {
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync --user-data-dir="$T/profile" \
		--proxy-server=127.0.0.1:9 --host-resolver-rules="MAP * ~NOTFOUND" "$@" 2>>"$T/browser.err"
}
page_requests() {
	grep -o '"initiator":"[^"]*"' "$1" | grep -v '"not an origin"' | wc -l
}
# one launch parses the page (--dump-dom), takes its screenshot and logs its requests
headless --log-net-log="$T/net.json" --window-size=1200,1600 --screenshot="$T/shot.png" --dump-dom "file://$page" \
	>"$T/dom.html"
contains "$T/dom.html" "<svg" "chromium parses the page with its plot (--dump-dom)"
contains "$T/dom.html" "How each run was made" "to its end"
ok "$([ -s "$T/net.json" ] && [ "$(page_requests "$T/net.json")" -eq 0 ] && echo 0 || echo 1)" \
	"the page asks the network for nothing (net log)"
# the same check catches a page that does fetch something
printf '<!DOCTYPE html><html><body><img src="http://example.invalid/x.png"/>x</body></html>' >"$T/fetching.html"
headless --log-net-log="$T/net2.json" --dump-dom "file://$T/fetching.html" >/dev/null
ok "$([ "$(page_requests "$T/net2.json")" -ge 1 ] && echo 0 || echo 1)" "the net-log check sees a page's own request"

ok "$([ "$(head -c 8 "$T/shot.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] && echo 0 || echo 1)" \
	"chromium takes a screenshot"
# distinct colours in the screenshot: a blank or failed render has one or two
colours=""
if command -v python3 >/dev/null 2>&1; then
	colours=$(python3 - "$T/shot.png" <<'EOF'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
pos, idat, w = 8, b"", 0
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        bpp = {2: 3, 6: 4}[ctype]
        assert depth == 8
    elif kind == b"IDAT":
        idat += body
    pos += 12 + length
raw, stride, prev, seen, i = zlib.decompress(idat), w * bpp, None, set(), 0
while i < len(raw) and i < 700 * (1 + stride):  # the top 700 rows: title, tables and plot (quick in Python)
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b = prev[x] if prev else 0
        c = prev[x - bpp] if prev and x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    seen.update(bytes(line[k:k + bpp]) for k in range(0, stride, bpp))
    prev = line
print(len(seen))
EOF
)
elif command -v identify >/dev/null 2>&1; then
	colours=$(identify -format %k "$T/shot.png")
fi
if [ -n "$colours" ]; then
	ok "$([ "$colours" -gt 50 ] && echo 0 || echo 1)" "the screenshot is not blank ($colours colours)"
else
	echo "ok $((n + 1)) - the screenshot is not blank # SKIP neither python3 nor ImageMagick to decode it"
	n=$((n + 1))
fi

# runs that stored no counters: the counters section says so in place of a table
check "run without counters" "$REAIM" -q --no-quiet-check -f "$T/mix" -t 1 -j 4 -r 2 -d "$T/scratch" --label bare-a --no-counters
check "another" "$REAIM" -q --no-quiet-check -f "$T/mix" -t 1 -j 4 -r 2 -d "$T/scratch" --label bare-b --no-counters
status 0 "report of runs without counters" "$REAIM" report bare-a bare-b -o "$T/bare.html"
contains "$T/bare.html" "No counters to compare" "the counters section says the runs hold none"

finish
