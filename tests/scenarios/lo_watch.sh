#!/usr/bin/env bash
# examples/lo_watch, which the walkthrough runs: its arguments (PIN, then
# COUNT 1-100 and SIZE 1-1400, 3 and 100 when left out) and its failure to
# listen on 127.0.0.1:9, checked by its whole output and exit status. Each
# run has a network namespace of its own with lo up, so only its own
# packets are on lo. Its failures are provoked with util-linux's setpriv
# (--bounding-set), which a guest's busybox lacks; what lo_watch does with
# its arguments is the same on every kernel.
# kselftest: source tree only
. "$(dirname "$0")/../lib.sh"
scenario_begin

# lo_watch_run ARG...: runs examples/lo_watch ARG... in a new network
# namespace with lo up; leaves $status, and its stdout and stderr in $T/out
# and $T/err, like fds. WATCH_PREFIX: a command to run it under (or none).
WATCH_PREFIX=()
lo_watch_run()
{
	status=0
	unshare --net sh -c 'ip link set lo up && exec "$@"' sh \
		"${WATCH_PREFIX[@]}" examples/lo_watch "$@" \
		> "$T/out" 2> "$T/err" || status=$?
	{
		echo "\$ lo_watch $* -> exit $status"
		show_file "  out: " "$T/out"
		show_file "  err: " "$T/err"
	} >&2
}

step "setup: the default program and sockex1, pinned" '
	fds -F "$FS/p" -P -p
	expect_status 0
	fds -F "$FS/s" -P -p -o "$SOCKEX1"
	expect_status 0
'

# On lo each datagram passes the raw socket twice, out and back in; the
# default program keeps 1 byte of each.
step "PIN alone: 3 datagrams of 100 bytes, each seen twice, cut to 1 byte" --needs unshare '
	lo_watch_run "$FS/p"
	expect_status 0
	expect_out "sent 3 UDP datagrams of 100 bytes to 127.0.0.1:9" \
		"the raw socket received: 1 1 1 1 1 1 (bytes per packet)"
	expect_no_err
'

# sockex1 passes nothing, so no receive buffer can overflow with 100.
step "COUNT goes up to 100; 101 is a usage error" --needs unshare '
	lo_watch_run "$FS/s" 100 1
	expect_status 0
	expect_out "sent 100 UDP datagrams of 1 bytes to 127.0.0.1:9" \
		"the raw socket received: nothing"
	expect_no_err
	lo_watch_run "$FS/s" 101 1
	expect_status 2
	expect_out
	expect_err "^usage: lo_watch PIN"
'

# SIZE 1400, the largest, fits in lo's datagrams as it is; 1401 is
# refused by the usage check (below), not by the send.
step "SIZE goes up to 1400" --needs unshare '
	lo_watch_run "$FS/s" 1 1400
	expect_status 0
	expect_out "sent 1 UDP datagrams of 1400 bytes to 127.0.0.1:9" \
		"the raw socket received: nothing"
	expect_no_err
'

# COUNT alone: SIZE stays 100.
step "COUNT without SIZE: datagrams of 100 bytes" --needs unshare '
	lo_watch_run "$FS/s" 2
	expect_status 0
	expect_out "sent 2 UDP datagrams of 100 bytes to 127.0.0.1:9" \
		"the raw socket received: nothing"
	expect_no_err
'

# What usage prints, line by line.
# shellcheck disable=SC2034 # read in step bodies, which step() evals
USAGE=("usage: lo_watch PIN [COUNT (1-100) [SIZE (1-1400)]]"
	"Gets the socket filter pinned at PIN (made by fds_example -P -p),"
	"attaches it to a raw socket on lo, sends COUNT UDP datagrams of"
	"SIZE bytes (default 3 of 100) to 127.0.0.1:9 and prints the length"
	"of each packet the socket received, as the filter left it.")

step "-h and --help: the usage on stdout, exit 0" --needs unshare '
	for opt in -h --help; do
		lo_watch_run "$opt"
		expect_status 0
		expect_out "${USAGE[@]}"
		expect_no_err
	done
'

# usage_error NAME ARG...: lo_watch ARG... is refused before it gets the
# pin: exit 2, nothing on stdout, the usage alone on stderr.
usage_error()
{
	local name=$1
	shift
	step "usage: $name" --needs unshare --kernel-independent '
		lo_watch_run "$@"
		expect_status 2
		expect_out
		printf -v want "%s\n" "${USAGE[@]}"
		slurp got "$T/err"
		[[ $got == "$want" ]] || fail "stderr: $got"
	' "$@"
}

usage_error "COUNT with trailing junk" "$FS/s" 5x
usage_error "COUNT 0" "$FS/s" 0
usage_error "COUNT empty" "$FS/s" ""
usage_error "COUNT negative" "$FS/s" -1
usage_error "COUNT past a long" "$FS/s" 99999999999999999999
usage_error "SIZE 1401" "$FS/s" 2 1401
usage_error "SIZE 0" "$FS/s" 2 0
usage_error "SIZE with trailing junk" "$FS/s" 2 10y
usage_error "an argument too many" "$FS/s" 2 3 4
usage_error "-h with an argument" -h 1
usage_error "no PIN"

# A raw socket needs CAP_NET_RAW: without it nothing is attached or sent.
step "without the right to open a raw socket: says so, sends nothing, exit 1" --needs unshare,setpriv '
	WATCH_PREFIX=(setpriv --bounding-set=-net_raw)
	lo_watch_run "$FS/p"
	expect_status 1
	expect_out
	[[ $(<"$T/err") == "lo_watch: cannot attach to a raw socket on lo: Operation not permitted" ]] ||
		fail "stderr: $(<"$T/err")"
'

# Port 9 is below 1024: without CAP_NET_BIND_SERVICE the listener cannot
# bind it, and lo_watch sends nothing.
step "without the right to bind port 9: says so, sends nothing, exit 1" --needs unshare,setpriv '
	WATCH_PREFIX=(setpriv --bounding-set=-net_bind_service)
	lo_watch_run "$FS/p"
	expect_status 1
	expect_out
	[[ $(<"$T/err") == "lo_watch: cannot listen on 127.0.0.1:9: Permission denied" ]] ||
		fail "stderr: $(<"$T/err")"
'
scenario_end
