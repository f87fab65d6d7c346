#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A LAVA lab on this machine for `reaim lab`, from Debian's packages, on the loopback only: lava-server
# (PostgreSQL, the web app under gunicorn, the scheduler, the publisher), a worker with two QEMU
# devices run under TCG (qemu01, qemu02, each tagged with its own name so a job can be pinned to it), a
# user and its API token, written into lavacli's identity file as the identity reaim-lab. Idempotent:
# run again it starts what is not running and changes nothing else. Needs root. Without systemd the
# daemons are started here by hand, each in its own session, its pid in /run/reaim-lab; with --stop it
# ends them (only those it started, by their pid files).
#
# Measured obstacles it deals with: the units' commands must be run by hand without systemd; LAVA
# builds its overlay disk with libguestfs, which boots a VM of its own and needs TCG (force_tcg) in
# the worker's env.yaml where there is no KVM; apache and the publisher listen on every address by
# default (no apache here: gunicorn serves on 127.0.0.1, the publisher binds 127.0.0.1); the worker
# reports a finished job only at its next ping, 20 s by default (--ping-interval 5).
#
# Environment: LAB_PORT (8000) the web app's port on 127.0.0.1; LAB_WORKER (this host's name) the
# worker; LAB_KERNEL a Debian kernel for libguestfs's appliance (default: the one
# tests/long/debian_kernel.sh caches).
set -eu
PORT=${LAB_PORT:-8000}
WORKER=${LAB_WORKER:-$(hostname)}
RUN=/run/reaim-lab
LOGS=/var/log/lava-server
URL=http://127.0.0.1:$PORT
here=$(cd "$(dirname "$0")" && pwd)

say() { echo "lab-setup: $*" >&2; }
die() { say "$*"; exit 1; }

# A daemon by name: started unless its pid file names a live process of it.
alive() { [ -f "$RUN/$1.pid" ] && kill -0 "$(cat "$RUN/$1.pid")" 2>/dev/null; }
start() { # NAME COMMAND...
	name=$1
	shift
	if alive "$name"; then
		say "$name is running (pid $(cat "$RUN/$name.pid"))"
		return 0
	fi
	setsid "$@" >>"$LOGS/reaim-lab-$name.out" 2>&1 </dev/null &
	echo $! >"$RUN/$name.pid"
	say "$name started (pid $!)"
}

if [ "${1:-}" = --stop ]; then
	for n in worker publisher scheduler gunicorn; do
		if alive "$n"; then
			pid=$(cat "$RUN/$n.pid")
			kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid"
			for _ in $(seq 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
			kill -0 "$pid" 2>/dev/null && kill -KILL -- "-$pid" 2>/dev/null
			say "$n stopped"
		fi
		rm -f "$RUN/$n.pid"
	done
	rm -f "$RUN/worker.token"
	exit 0
fi

[ "$(id -u)" = 0 ] || die "run me as root: I install packages, start daemons and add users"

# ---- packages ----
need=""
for p in lava-server lava-dispatcher lavacli qemu-system-x86 postgresql python3-yaml curl; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || need="$need $p"
done
if [ -n "$need" ]; then
	say "installing$need"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null || die "apt-get install$need failed"
fi
mkdir -p "$RUN" "$LOGS"
chown lavaserver:lavaserver "$LOGS" 2>/dev/null || true

# ---- PostgreSQL and the database ----
ver=$(pg_lsclusters -h | awk 'NR == 1 { print $1 }')
[ -n "$ver" ] || die "no PostgreSQL cluster (pg_createcluster)"
pg_lsclusters -h | awk 'NR == 1 { exit $4 == "online" ? 0 : 1 }' || pg_ctlcluster "$ver" main start
# lava-server's postinst makes the role and the database when PostgreSQL ran then; else make them now
if ! su postgres -c "psql -tAc \"SELECT 1 FROM pg_database WHERE datname = 'lavaserver'\"" | grep -q 1; then
	pw=$(python3 -c 'import yaml; print(yaml.safe_load(open("/etc/lava-server/settings.d/00-database.yaml"))["DATABASES"]["default"]["PASSWORD"])')
	su postgres -c "psql -c \"CREATE ROLE lavaserver LOGIN PASSWORD '$pw'\"" >/dev/null 2>&1 || true
	su postgres -c "createdb -O lavaserver lavaserver"
fi
lava-server manage migrate --noinput >/dev/null

# ---- the loopback only ----
cat >/etc/lava-server/settings.d/01-reaim-lab.yaml <<EOF
# written by reaim's contrib/lava/lab-setup.sh: the loopback only
EVENT_SOCKET: "tcp://127.0.0.1:5500"
EOF

# ---- daemons ----
start gunicorn gunicorn3 lava_server.wsgi --log-level info --log-file "$LOGS/gunicorn.log" -u lavaserver \
	-g lavaserver --worker-class eventlet --workers 2 --bind "127.0.0.1:$PORT"
start scheduler lava-server manage lava-scheduler --level INFO --log-file "$LOGS/lava-scheduler.log"
start publisher lava-server manage lava-publisher --level INFO --log-file "$LOGS/lava-publisher.log" \
	--host 127.0.0.1 --port 8001
for i in $(seq 60); do
	curl -fs -o /dev/null "$URL/api/v0.2/" && break
	[ "$i" = 60 ] && die "the web app does not answer on $URL (see $LOGS/reaim-lab-gunicorn.out)"
	sleep 1
done

# ---- the user, its token, the identity ----
m() { lava-server manage "$@"; }
m users list 2>/dev/null | grep -qx "\* reaim-lab" || m users add reaim-lab --superuser --staff --passwd "$(head -c 24 /dev/urandom | base64)" >/dev/null
ident=${XDG_CONFIG_HOME:-$HOME/.config}/lavacli.yaml
mkdir -p "$(dirname "$ident")"
token=$(python3 - "$ident" <<'EOF'
import sys, yaml
try:
    print((yaml.safe_load(open(sys.argv[1])) or {}).get("reaim-lab", {}).get("token", ""))
except FileNotFoundError:
    print("")
EOF
)
if [ -z "$token" ] || [ "$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Token $token" "$URL/api/v0.2/workers/")" != 200 ]; then
	token=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
	m tokens add --user reaim-lab --description reaim-lab --secret "$token" >/dev/null
fi
# the identity (this lab's address, a token it takes) beside the file's others, which are kept
python3 - "$ident" "$URL/RPC2" "$token" <<'EOF'
import os, sys, yaml
path, uri, token = sys.argv[1:]
try:
    conf = yaml.safe_load(open(path)) or {}
except FileNotFoundError:
    conf = {}
want = {"uri": uri, "username": "reaim-lab", "token": token}
if conf.get("reaim-lab") != want:
    conf["reaim-lab"] = want
    tmp = path + ".tmp"
    with open(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
        yaml.safe_dump(conf, f, default_flow_style=False)
    os.rename(tmp, path)
    print("lab-setup: identity reaim-lab written into " + path, file=sys.stderr)
EOF

# ---- the device type, the worker, its environment, two devices each with its own tag ----
m device-types list 2>/dev/null | grep -q "\bqemu\b" || m device-types add qemu >/dev/null
m workers list 2>/dev/null | grep -q "\* $WORKER " || m workers add "$WORKER" >/dev/null
kernel=${LAB_KERNEL:-}
if [ -z "$kernel" ] && [ -f "$here/../../tests/long/debian_kernel.sh" ]; then
	kernel=$(sh "$here/../../tests/long/debian_kernel.sh" "${REAIM_KERNEL_CACHE:-$HOME/.cache/reaim/kernel}" 2>/dev/null || true)
fi
mkdir -p "/etc/lava-server/dispatcher.d/$WORKER"
{
	echo "# written by reaim's contrib/lava/lab-setup.sh"
	echo "purge: true"
	echo "overrides:"
	echo "  LC_ALL: C.UTF-8"
	echo "  LANG: C"
	echo "  PATH: /usr/local/bin:/usr/local/sbin:/bin:/usr/bin:/usr/sbin:/sbin"
	echo "  LIBGUESTFS_BACKEND: direct"
	[ -e /dev/kvm ] || echo "  LIBGUESTFS_BACKEND_SETTINGS: force_tcg"
	if [ -n "$kernel" ]; then
		release=${kernel##*/vmlinuz-}
		echo "  SUPERMIN_KERNEL: $kernel"
		echo "  SUPERMIN_MODULES: $(dirname "$kernel")/../lib/modules/$release"
	fi
} >"/etc/lava-server/dispatcher.d/$WORKER/env.yaml"
for dev in qemu01 qemu02; do
	f=/etc/lava-server/dispatcher-config/devices/$dev.jinja2
	[ -f "$f" ] || cat >"$f" <<EOF
{% extends 'qemu.jinja2' %}
{% set netdevice = 'user' %}
{% set memory = 1024 %}
{% set no_kvm = True %}
{% set guestfs_interface = 'virtio' %}
EOF
	m devices list 2>/dev/null | grep -q "\* $dev " || m devices add --device-type qemu --worker "$WORKER" "$dev" >/dev/null
	m device-tags list 2>/dev/null | grep -q "\b$dev\b" || m device-tags create "$dev" "pins a job to $dev" >/dev/null 2>&1 || true
	m device-tags add "$dev" --tags "$dev" >/dev/null
	m devices update "$dev" --health GOOD >/dev/null 2>&1 || true
done

# ---- the worker: its token from the server, a ping every 5 s ----
wtoken=$(m workers details "$WORKER" | awk '/^token/ { print $3 }')
printf '%s' "$wtoken" >"$RUN/worker.token"
chmod 600 "$RUN/worker.token"
start worker lava-worker --level INFO --url "$URL/" --name "$WORKER" --ping-interval 5 --token-file "$RUN/worker.token" \
	--log-file "$LOGS/reaim-lab-worker.log"
for i in $(seq 60); do
	lavacli -i reaim-lab workers show "$WORKER" 2>/dev/null | grep -q "state *: Online" && break
	[ "$i" = 60 ] && die "the worker $WORKER did not come online (see $LOGS/reaim-lab-worker.log)"
	sleep 1
done
say "a lab on $URL: worker $WORKER online, devices qemu01 and qemu02 (type qemu), identity reaim-lab"
