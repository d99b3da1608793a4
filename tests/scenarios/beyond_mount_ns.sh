#!/usr/bin/env bash
# Pins and mount namespaces, as containers meet them: a namespace's own
# bpffs is invisible to its parent; a bpffs shared with a namespace by a
# bind mount shows pins both ways, and new mounts as its propagation
# (shared, slave, private) says; a namespace's exit frees what only its
# bpffs held; a second bpffs on one mount point hides the first until it
# is unmounted. "The parent" is this scenario's own namespace, never the
# machine's.
. "$(dirname "$0")/../lib.sh"
scenario_begin
MAP_IDS=$TOP/tests/bin/helpers/map_ids

# ns_start PROPAGATION: a process holding a new mount namespace, a copy of
# this one with its mounts made PROPAGATION (private; unchanged leaves a
# shared mount a peer of ours). Its pid in $ns; killed when the step ends.
ns_start()
{
	local i comm=
	unshare --mount --propagation "$1" sleep 300 < /dev/null > /dev/null 2>&1 &
	ns=$!
	when_finished ns_gone "$ns"
	# it runs sleep once unshare has made the namespace
	for ((i = 0; i < 500; i++)); do
		read -r comm < "/proc/$ns/comm" || break
		[[ $comm == sleep ]] && return 0
		sleep 0.01
	done
	fail "the namespace holder $ns did not start (comm: $comm)"
}

# ns_do PID CMD...: CMD in the mount namespace of process PID.
ns_do()
{
	nsenter --mount --target "$1" "${@:2}"
}

# ns_stop PID: the holder ends, and with it its namespace; in the step
# that started it, which alone can wait for it.
ns_stop()
{
	kill "$1"
	wait "$1" || true
}

# ns_gone PID: the cleanup of ns_start: ends the holder unless it has ended.
ns_gone()
{
	kill "$1" 2> /dev/null || true
}

# fds_in PID ARGS...: fds (lib.sh), run in the mount namespace of PID.
fds_in()
{
	local pid=$1 run=("${FDS_RUN[@]}")
	shift
	FDS_RUN=(nsenter --mount --target "$pid" "${run[@]}")
	fds "$@"
	FDS_RUN=("${run[@]}")
}

# seen PID|- PATH VALUE: "yes" if PATH, looked up in the namespace of PID
# (- for this one), holds a map whose key 1 is VALUE; "no" if nothing is
# pinned there. Anything else fails.
seen()
{
	local pid=$1 path=$2 want=$3
	if [[ $pid == - ]]; then
		fds -F "$path" -G -m -k 1
	else
		fds_in "$pid" -F "$path" -G -m -k 1
	fi
	# shellcheck disable=SC2154 # status: set by fds (lib.sh)
	if ((status == 1)) &&
		[[ $(<"$T/out") == "bpf: get fd:-1 (No such file or directory)" ]]; then
		echo no
		return 0
	fi
	expect_status 0
	expect_out "bpf: get fd:3 (Success)" "bpf: fd:3 l->(1):$want ret:(0,Success)"
	echo yes
}

# crossing TO_NS FROM_NS: which way something crossed, from whether the
# namespace saw the parent's (TO_NS) and the parent the namespace's.
crossing()
{
	case $1,$2 in
	yes,yes) echo both-ways ;;
	yes,no) echo parent-to-ns ;;
	no,yes) echo ns-to-parent ;;
	*) echo none ;;
	esac
}

# bind_shared_bpffs MODE: a bpffs at $host, made shared, and a namespace
# $ns that bind-mounts it at $ctr, then makes its bind MODE.
bind_shared_bpffs()
{
	host=$T/host_$1 ctr=$T/ctr_$1
	mkdir "$host" "$ctr"
	mount -t bpf bpf "$host"
	when_finished umount -R "$host"
	mount --make-shared "$host"
	ns_start unchanged
	ns_do "$ns" mount --bind --make-"$1" "$host" "$ctr"
}

# check_bind MODE PINS MOUNTS: what crosses between the parent's bpffs and
# the namespace's bind of it (both-ways, parent-to-ns, ns-to-parent, none),
# for new pins and for new bpffs mounted inside; recorded, then checked.
check_bind()
{
	local pins mounts
	bind_shared_bpffs "$1"
	fds -F "$host/from_parent" -P -m -k 1 -v 1
	expect_status 0
	fds_in "$ns" -F "$ctr/from_ns" -P -m -k 1 -v 2
	expect_status 0
	pins=$(crossing "$(seen "$ns" "$ctr/from_parent" 1)" "$(seen - "$host/from_ns" 2)")

	mkdir "$host/parent_mnt" "$host/ns_mnt"
	mount -t bpf bpf "$host/parent_mnt"
	fds -F "$host/parent_mnt/m" -P -m -k 1 -v 3
	expect_status 0
	ns_do "$ns" mount -t bpf bpf "$ctr/ns_mnt"
	fds_in "$ns" -F "$ctr/ns_mnt/m" -P -m -k 1 -v 4
	expect_status 0
	mounts=$(crossing "$(seen "$ns" "$ctr/parent_mnt/m" 3)" "$(seen - "$host/ns_mnt/m" 4)")

	matrix_record "ns-bind-$1-pins" "$pins"
	matrix_record "ns-bind-$1-mounts" "$mounts"
	[[ $pins == "$2" ]] || fail "new pins crossed $pins, expected $2"
	[[ $mounts == "$3" ]] || fail "new mounts crossed $mounts, expected $3"
}

# ns_pin DIR VALUE: a namespace ($ns) with its own bpffs at DIR and a map
# pinned at DIR/m holding VALUE at key 1; the map's id in $id.
ns_pin()
{
	mkdir "$1"
	ns_start private
	ns_do "$ns" mount -t bpf bpf "$1"
	fds_in "$ns" -F "$1/m" -P -m -k 1 -v "$2"
	expect_status 0
	# shellcheck disable=SC2034 # read in step bodies, which step() evals
	id=$("$MAP_IDS" pinned "/proc/$ns/root$1/m")
}

step "a pin in a namespace's own bpffs is not seen from the parent namespace" '
	ns_pin "$T/own" 7
	got=$(seen - "$T/own/m" 7)
	matrix_record ns-own-bpffs-pin-seen-from-parent "$got"
	[[ $got == no ]] || fail "the parent sees the namespace'"'"'s pin"
	[[ -z $(ls -A "$T/own") ]] || fail "the parent sees: $(ls -A "$T/own")"
	[[ $(seen "$ns" "$T/own/m" 7) == yes ]] || fail "the pin is gone inside too"
'

step "the parent reaches that pin through /proc/PID/root while the namespace lives" '
	ns_pin "$T/own2" 8
	got=$(seen - "/proc/$ns/root$T/own2/m" 8)
	matrix_record ns-own-bpffs-pin-via-proc-pid-root "$got"
	[[ $got == yes ]] || fail "not found through /proc/$ns/root"
'

step "a namespace made by unshare shares the bpffs it copied: pins cross both ways" '
	ns_start private
	fds -F "$FS/parent_pin" -P -m -k 1 -v 1
	expect_status 0
	fds_in "$ns" -F "$FS/ns_pin" -P -m -k 1 -v 2
	expect_status 0
	got=$(crossing "$(seen "$ns" "$FS/parent_pin" 1)" "$(seen - "$FS/ns_pin" 2)")
	matrix_record ns-unshare-copied-bpffs-pins "$got"
	[[ $got == both-ways ]] || fail "pins crossed $got"
'

step "a bpffs bind-mounted shared: pins and new mounts cross both ways" '
	check_bind shared both-ways both-ways
'

step "bind-mounted slave: pins both ways, new mounts only into the namespace" '
	check_bind slave both-ways parent-to-ns
'

step "bind-mounted private: pins both ways, new mounts in neither direction" '
	check_bind private both-ways none
'

step "when the namespace exits, the map pinned only in its bpffs is freed" --needs bpftool '
	ns_pin "$T/gone" 5
	[[ -n $id ]] || fail "no id for the pinned map"
	ns_stop "$ns"
	wait_gone map "$id"
	matrix_record ns-exit-map-pinned-only-inside freed
'

step "a map also pinned in the parent outlives the namespace, until that pin goes" --needs bpftool '
	ns_pin "$T/kept" 6
	bpftool map pin id "$id" "$FS/kept"
	ns_stop "$ns"
	[[ $("$MAP_IDS" pinned "$FS/kept") == "$id" ]] || fail "another map at $FS/kept"
	expect_value "$FS/kept" 1 6
	matrix_record ns-exit-map-also-pinned-outside kept
	rm "$FS/kept"
	wait_gone map "$id"
'

step "a second bpffs on one mount point hides the first and its pins" '
	mkdir "$T/stack"
	mount -t bpf bpf "$T/stack"
	fds -F "$T/stack/first" -P -m -k 1 -v 1
	expect_status 0
	"$MAP_IDS" pinned "$T/stack/first" > "$T/first.id"
	mount -t bpf bpf "$T/stack"
	got=$(seen - "$T/stack/first" 1)
	matrix_record bpffs-stacked-first-pin-seen "$got"
	[[ $got == no ]] || fail "the first bpffs'"'"'s pin shows through the second"
	fds -F "$T/stack/second" -P -m -k 1 -v 2
	expect_status 0
	"$MAP_IDS" pinned "$T/stack/second" > "$T/second.id"
	first=$(<"$T/first.id")
	# hidden, not gone: its map lives on
	[[ $("$MAP_IDS" between $((first - 1)) $((first + 1))) == "$first" ]] ||
		fail "the hidden pin'"'"'s map $first is gone"
'

step "unmounting the second shows the first again with its pins, and frees the second's map" --needs bpftool '
	when_finished umount "$T/stack"
	umount "$T/stack"
	got=$(seen - "$T/stack/first" 1)
	matrix_record bpffs-stacked-unmount-first-pin-seen "$got"
	[[ $got == yes ]] || fail "the first bpffs'"'"'s pin is not back"
	[[ $("$MAP_IDS" pinned "$T/stack/first") == "$(<"$T/first.id")" ]] ||
		fail "another map at first"
	[[ ! -e $T/stack/second ]] || fail "the second bpffs'"'"'s pin is still there"
	wait_gone map "$(<"$T/second.id")"
	matrix_record bpffs-stacked-unmount-second-map freed
'
scenario_end
