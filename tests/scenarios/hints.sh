#!/usr/bin/env bash
# Errors that teach: after the "cannot ..." line, one stderr line
# "fds_example: hint: ..." names the likely cause of a learner's first
# mistakes and what to do. stdout stays the 2015 contract. (The memlock
# hint, which needs a kernel before 5.11, is checked in memlock.sh.)
. "$(dirname "$0")/../lib.sh"
scenario_begin

# expect_hint REGEX: exactly one hint line, and it matches.
expect_hint()
{
	local lines line n=0 found=0
	mapfile -t lines < "$T/err"
	for line in "${lines[@]}"; do
		[[ $line == "fds_example: hint: "* ]] || continue
		n=$((n + 1))
		[[ ${line#fds_example: hint: } =~ $1 ]] && found=1
	done
	((n == 1)) || fail "$n hint lines, expected 1"
	((found)) || fail "the hint does not match /$1/"
}

mkdir -p "$T/plain"

step "a path outside any bpffs: says so and how to mount one" '
	fds -F "$T/plain/x" -P -m
	expect_status 1
	expect_out "bpf: map fd:3 (Success)" "bpf: pin ret:(-1,Operation not permitted)"
	expect_hint "^$T/plain/x is not on a BPF filesystem \(stat -f -c %T $T/plain\): pin under a bpffs mount \(mount -t bpf bpf DIR\)$"
'

step "a missing directory with no bpffs above it: mount one there" '
	fds -F "$T/nomount/sub/x" -P -m
	expect_status 1
	expect_hint "^$T/nomount/sub does not exist and $T is no BPF filesystem: mount one first \(mkdir -p $T/nomount/sub; mount -t bpf bpf $T/nomount/sub\)$"
'

step "a missing directory inside a bpffs: mkdir it" '
	fds -F "$FS/nodir/x" -P -m
	expect_status 1
	expect_out "bpf: map fd:3 (Success)" "bpf: pin ret:(-1,No such file or directory)"
	expect_hint "^$FS/nodir does not exist: make it first \(mkdir -p $FS/nodir\)"
'

step "a dotted name: dots are for the kernel" '
	fds -F "$FS/a.b" -P -m
	expect_status 1
	expect_hint "^.a\.b. has a dot: bpffs keeps dotted names for the kernel"
'

step "pinning twice: -G or rm" '
	fds -F "$FS/m" -P -m -k 1 -v 5
	expect_status 0
	fds -F "$FS/m" -P -m
	expect_status 1
	expect_hint "^something is pinned at $FS/m already: -G gets it; rm $FS/m removes it$"
'

step "a key past the last slot: the map has 1024" '
	fds -F "$FS/m" -G -m -k 1024
	expect_status 1
	expect_out "bpf: get fd:3 (Success)" "bpf: fd:3 l->(1024):0 ret:(-1,No such file or directory)"
	expect_hint "^the map has 1024 slots: keys 0\.\.1023 exist, 1024 is past the end$"
	fds -F "$FS/m" -G -m -k 4000000000 -v 1
	expect_status 1
	expect_hint "^the map has 1024 slots: keys 0\.\.1023 exist, 4000000000 is past the end$"
'

step "a key inside the map gets no slot hint" '
	fds -F "$FS/m" -G -m -k 1023
	expect_status 0
	[[ ! -s $T/err ]] || fail "stderr: $(<"$T/err")"
'

step "-G on a directory: name a pin inside it" '
	fds -F "$FS" -G -m
	expect_status 1
	expect_hint "^$FS is a directory: -G wants a pinned map or program in it$"
'

step "-G on a dotted name that is not there: dots are for the kernel" '
	fds -F "$FS/x.debug" -G -m
	expect_status 1
	expect_out "bpf: get fd:-1 (Operation not permitted)"
	expect_hint "^.x\.debug. has a dot: bpffs keeps dotted names for the kernel"
'

# bpf_preload, where the kernel has it, lists maps.debug in every new bpffs;
# BPF_OBJ_GET says ENOENT for it, though ls shows it. Kernels without it
# have nothing to check here.
if [[ -e $FS/maps.debug ]]; then
	step "-G on maps.debug, a file of the kernel: not a pin of yours" '
		fds -F "$FS/maps.debug" -G -m
		expect_status 1
		expect_hint "^$FS/maps\.debug is one of the kernel.s own files, not a pinned map or program"
	'
fi

step "-G where nothing is pinned: ls shows what is" '
	fds -F "$FS/none" -G -m
	expect_status 1
	expect_hint "^nothing is pinned at $FS/none \(ls $FS shows what is\)$"
'

step "another user: the pin mode, or the privilege and the sysctl" --needs setpriv '
	chmod 0755 "$T"
	install -m 0755 "$FDS_EXAMPLE" "$T/fds_example"
	chmod 0644 "$FS/m"
	chmod 0755 "$FS"
	sysctl=$(< /proc/sys/kernel/unprivileged_bpf_disabled)
	FDS_RUN=(setpriv --reuid=65534 --regid=65534 --clear-groups
		 --inh-caps=-all "$T/fds_example")
	fds -F "$FS/m" -G -m -k 1
	expect_status 1
	if [[ $(<"$T/out") == *"(Permission denied)" ]]; then
		expect_hint "^$FS/m is mode 0644: -G asks to read and write the object"
	else
		expect_out "bpf: get fd:-1 (Operation not permitted)"
		expect_hint "^this needs root or CAP_BPF: kernel\.unprivileged_bpf_disabled is $sysctl,"
	fi
	fds -F "$FS/n" -P -m
	expect_status 1
	expect_out "bpf: map fd:-1 (Operation not permitted)"
	expect_hint "^this needs root or CAP_BPF: kernel\.unprivileged_bpf_disabled is $sysctl, and only 0 lets other users create maps and programs$"
	fds -F "$FS/q" -P -p
	expect_status 1
	expect_out "bpf: prog fd:-1 (Operation not permitted)"
	expect_hint "^this needs root or CAP_BPF: kernel\.unprivileged_bpf_disabled is $sysctl,"
	! grep -q "verifier log" "$T/err" || fail "a verifier log for a load the verifier never saw"
'
scenario_end
