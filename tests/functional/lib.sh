# Shared by the functional tests: TAP output, a private temp dir, and the binary under test.
# shellcheck shell=sh
set -u
REAIM=${REAIM:-$(pwd)/reaim}
SRCDIR=${REAIM_SRCDIR:-$(pwd)}
T=$(mktemp -d "${TMPDIR:-/tmp}/reaim-ft.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/scratch"
export REAIM_DB="$T/results.db"
n=0
failed=0

ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi
}

# check DESCRIPTION COMMAND...: passes when the command succeeds.
check() {
	d=$1
	shift
	if "$@" >"$T/out" 2>"$T/err"; then ok 0 "$d"; else ok 1 "$d"; sed 's/^/#   /' "$T/err" | head -5; fi
}

# status WANT DESCRIPTION COMMAND...: passes when the command exits with WANT.
status() {
	want=$1 d=$2
	shift 2
	"$@" >"$T/out" 2>"$T/err"
	got=$?
	if [ "$got" -eq "$want" ]; then ok 0 "$d"; else ok 1 "$d (exit $got, want $want)"; sed 's/^/#   /' "$T/err" | head -5; fi
}

# contains FILE TEXT DESCRIPTION
contains() {
	if grep -qF -- "$2" "$1"; then ok 0 "$3"; else ok 1 "$3"; echo "#   '$2' not in:"; sed 's/^/#   /' "$1" | head -8; fi
}

# have DESCRIPTION TOOL...: 0 when every TOOL is installed; else one TAP line saying that the
# checks DESCRIPTION names are skipped and why, and 1. For `if have ...; then CHECKS; fi`, so
# no check is dropped without a SKIP line.
have() {
	what=$1
	shift
	for tool in "$@"; do
		if ! command -v "$tool" >/dev/null 2>&1; then
			n=$((n + 1))
			echo "ok $n - $what # SKIP $tool not installed"
			return 1
		fi
	done
	return 0
}

# start_session CMD...: start CMD in the background as the leader of a new session; its pid,
# which is also the session id, goes into $session. Every process a run starts (tasks, their
# children, scripts) stays in that session, so a test finds its own processes by session id,
# never by name across the machine, where another checkout's tests may be running.
start_session() {
	setsid "$@" &
	session=$!
	# until setsid(1) has made it a session (up to 10 s): on a loaded machine the background child
	# can still be in the shell's session when the caller looks it up by its session id
	_ss=0
	while [ $_ss -lt 200 ] && [ "$(ps -o sid= -p "$session" 2>/dev/null | tr -d ' ')" != "$session" ] &&
		kill -0 "$session" 2>/dev/null; do
		sleep 0.05
		_ss=$((_ss + 1))
	done
}

# session_pids SID: the processes still in session SID (by session id, never by name).
session_pids() {
	pgrep -s "$1"
}

# session_tasks SID: the tasks of the run that leads session SID: each makes a process group of its
# own, while reaim and the reaim-forker that forks them stay in reaim's.
session_tasks() {
	ps -e -o pid=,pgid=,sid= | awk -v s="$1" '$3 == s && $1 == $2 && $1 != s { print $1 }'
}

session_count() {
	session_pids "$1" | wc -l
}

# wait_session SID N: wait (up to 10 s) until session SID has at least N processes.
wait_session() {
	i=0
	while [ $i -lt 200 ] && [ "$(session_count "$1")" -lt "$2" ]; do sleep 0.05; i=$((i + 1)); done
}

# session_gone SID: 0 once no process of session SID is left (waits up to 5 s for exits).
session_gone() {
	i=0
	while [ $i -lt 100 ] && [ -n "$(session_pids "$1")" ]; do sleep 0.05; i=$((i + 1)); done
	[ -z "$(session_pids "$1")" ]
}

# live_left SID: the live processes of session SID (a zombie waits for init to reap it).
live_left() {
	for p in $(session_pids "$1"); do
		case $(ps -o stat= -p "$p" 2>/dev/null) in Z* | "") ;; *) echo "$p" ;; esac
	done
}

scratch_is_empty() {
	[ -z "$(ls -A "$T/scratch")" ]
}

finish() {
	echo "1..$n"
	[ "$failed" -eq 0 ]
}
