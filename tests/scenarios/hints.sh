#!/usr/bin/env bash
# Errors that teach: after the "cannot ..." line, one stderr line
# "fds_example: hint: ..." names the likely cause of a learner's first
# mistakes and the command that fixes it. stdout stays the 2015 contract.
# Every hint is checked whole, word for word. lo_watch and pinctl, which
# the documents run, hint at a loopback left down. (The memlock hint, which
# needs a kernel before 5.11, is checked in memlock.sh.)
. "$(dirname "$0")/../lib.sh"
scenario_begin

# expect_hint [--from PROG] TEXT: stderr has exactly one hint line, and it is
# "PROG: hint: TEXT" (PROG is fds_example unless given).
expect_hint()
{
	local from=fds_example lines line n=0
	if [[ $1 == --from ]]; then
		from=$2
		shift 2
	fi
	mapfile -t lines < "$T/err"
	for line in "${lines[@]}"; do
		[[ $line == *": hint: "* ]] || continue
		n=$((n + 1))
		[[ $line == "$from: hint: $1" ]] ||
			fail "hint [$line], expected [$from: hint: $1]"
	done
	((n == 1)) || fail "$n hint lines, expected 1"
}

# run_tool CMD...: like fds, for the other programs the documents run.
run_tool()
{
	status=0
	"$@" > "$T/out" 2> "$T/err" || status=$?
	{
		echo "\$ $* -> exit $status"
		show_file "  out: " "$T/out"
		show_file "  err: " "$T/err"
	} >&2
}

# shellcheck disable=SC2034 # read in step bodies, which step() evals
Q="'"	# a quote, for the hints that quote a name
mkdir -p "$T/plain" "$T/full" "$T/sys"
: > "$T/full/file"

step "an empty directory outside any bpffs: mount one on it" '
	fds -F "$T/plain/x" -P -m
	expect_status 1
	expect_out "bpf: map fd:3 (Success)" "bpf: pin ret:(-1,Operation not permitted)"
	expect_hint "$T/plain is no BPF filesystem but an empty directory on another (stat -f -c %T $T/plain): mount one on it first (mount -t bpf bpf $T/plain)"
'

step "a directory with files, outside any bpffs: pin under a bpffs mount" '
	fds -F "$T/full/x" -P -m
	expect_status 1
	expect_hint "$T/full/x is not on a BPF filesystem (stat -f -c %T $T/full): pins live only under a bpffs mount (mount -t bpf bpf DIR, DIR an empty directory)"
'

# A fresh sysfs mount of the scenario's own namespace stands for /sys: its
# fs/bpf is the empty directory a student pins into before mounting bpffs
# there. The kernel says ENOENT for it, not EPERM.
step "/sys/fs/bpf with nothing mounted on it: mount -t bpf bpf /sys/fs/bpf" '
	mount -t sysfs sysfs "$T/sys"
	fds -F "$T/sys/fs/bpf/m" -P -m
	expect_status 1
	expect_out "bpf: map fd:3 (Success)" "bpf: pin ret:(-1,No such file or directory)"
	expect_hint "$T/sys/fs/bpf is no BPF filesystem but an empty directory on another (stat -f -c %T $T/sys/fs/bpf): mount one on it first (mount -t bpf bpf $T/sys/fs/bpf)"
	fds -F "$T/sys/fs/bpf/m" -G -m
	expect_status 1
	expect_out "bpf: get fd:-1 (No such file or directory)"
	expect_hint "$T/sys/fs/bpf is no BPF filesystem but an empty directory on another (stat -f -c %T $T/sys/fs/bpf): mount one on it first (mount -t bpf bpf $T/sys/fs/bpf)"
	fds -F "$T/sys/fs/bpf/sub/m" -P -m
	expect_status 1
	expect_hint "$T/sys/fs/bpf/sub does not exist and $T/sys/fs/bpf is no BPF filesystem but an empty directory on another: mount one on it first (mount -t bpf bpf $T/sys/fs/bpf; mkdir -p $T/sys/fs/bpf/sub)"
'

step "a missing directory with no bpffs above it: mount one there" '
	fds -F "$T/nomount/sub/x" -P -m
	expect_status 1
	expect_hint "$T/nomount/sub does not exist and $T is no BPF filesystem: mount one first (mkdir -p $T/nomount/sub; mount -t bpf bpf $T/nomount/sub)"
'

# A missing directory right under /: the nearest directory that exists is
# / itself, whatever the missing one is called.
step "a missing directory right under /: / is no bpffs" '
	dir=/fds-hints-missing.${T##*.}
	[[ ! -e $dir ]] || fail "$dir exists"
	fds -F "$dir/m" -G -m
	expect_status 1
	expect_out "bpf: get fd:-1 (No such file or directory)"
	expect_hint "$dir does not exist and / is no BPF filesystem: mount one first (mkdir -p $dir; mount -t bpf bpf $dir)"
'

step "a missing directory inside a bpffs: mkdir it" '
	fds -F "$FS/nodir/x" -P -m
	expect_status 1
	expect_out "bpf: map fd:3 (Success)" "bpf: pin ret:(-1,No such file or directory)"
	expect_hint "$FS/nodir does not exist: make it first (mkdir -p $FS/nodir); a BPF filesystem holds directories"
'

step "a dotted name: dots are for the kernel" '
	fds -F "$FS/a.b" -P -m
	expect_status 1
	expect_hint "${Q}a.b$Q has a dot: bpffs keeps dotted names for the kernel${Q}s own files (maps.debug, progs.debug); pick a name without one"
'

step "pinning twice: -G or rm" '
	fds -F "$FS/m" -P -m -k 1 -v 5
	expect_status 0
	fds -F "$FS/m" -P -m
	expect_status 1
	expect_hint "something is pinned at $FS/m already: -G gets it; rm $FS/m removes it"
'

# An error no hint explains gets none: the kernel's own words say it.
step "a name longer than a bpffs takes, pinned by root: no hint" '
	printf -v name "%0256d" 0
	fds -F "$FS/$name" -P -m
	expect_status 1
	expect_out "bpf: map fd:3 (Success)" "bpf: pin ret:(-1,File name too long)"
	[[ $(<"$T/err") == "fds_example: cannot pin the map at $FS/$name: File name too long" ]] ||
		fail "stderr: $(<"$T/err")"
'

# Out of file descriptors the get of a pin fails with EMFILE; no hint.
# strace makes the get, the first bpf(2) call, fail as if no fd were left
# (an rlimit would stop a dynamically linked build before main). LeakSanitizer
# cannot run under ptrace: off here, nothing changes without ASan.
step "no fd left for the pin got: no hint" --needs strace '
	export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"
	FDS_RUN=(strace -o /dev/null -e trace=bpf -e inject=bpf:error=EMFILE:when=1
		 "$FDS_EXAMPLE")
	fds -F "$FS/m" -G -m
	expect_status 1
	expect_out "bpf: get fd:-1 (Too many open files)"
	[[ $(<"$T/err") == "fds_example: cannot get $FS/m: Too many open files" ]] ||
		fail "stderr: $(<"$T/err")"
'

# A file that is no pin: the kernel says EACCES, whatever its mode.
step "-G of a file outside any bpffs: pin under a bpffs mount" '
	fds -F "$T/full/file" -G -m
	expect_status 1
	expect_out "bpf: get fd:-1 (Permission denied)"
	expect_hint "$T/full/file is not on a BPF filesystem (stat -f -c %T $T/full): pins live only under a bpffs mount (mount -t bpf bpf DIR, DIR an empty directory)"
'

step "a key past the last entry: the map has 1024" '
	fds -F "$FS/m" -G -m -k 1024
	expect_status 1
	expect_out "bpf: get fd:3 (Success)" "bpf: fd:3 l->(1024):0 ret:(-1,No such file or directory)"
	expect_hint "the map has 1024 entries: keys 0..1023 exist, 1024 is past the end"
	fds -F "$FS/m" -G -m -k 4000000000 -v 1
	expect_status 1
	expect_hint "the map has 1024 entries: keys 0..1023 exist, 4000000000 is past the end"
'

step "a key inside the map gets no hint" '
	fds -F "$FS/m" -G -m -k 1023
	expect_status 0
	expect_no_err
'

# Another tool's hash map: a lookup finds only the keys stored in it, and
# the lookup line's 0 is no value read.
step "a key never stored in a hash map: store one with -v" --needs bpftool '
	bpftool map create "$FS/hash" type hash key 4 value 4 entries 4 name hash
	fds -F "$FS/hash" -G -m -k 3
	expect_status 1
	expect_out "bpf: get fd:3 (Success)" "bpf: fd:3 l->(3):0 ret:(-1,No such file or directory)"
	expect_hint "key 3 is not in this hash map, which holds only the keys stored in it: -k 3 -v VALUE stores one"
	fds -F "$FS/hash" -G -m -k 3 -v 9
	expect_status 0
	fds -F "$FS/hash" -G -m -k 3
	expect_status 0
	expect_out "bpf: get fd:3 (Success)" "bpf: fd:3 l->(3):9 ret:(0,Success)"
	expect_no_err
'

step "a map got as a program, a program as a map: the other mode" '
	fds -F "$FS/m" -G -p
	expect_status 1
	expect_out "bpf: get fd:3 (Success)"
	expect_hint "$FS/m holds a map: use -m for it (fds_example -F $FS/m -G -m)"
	fds -F "$FS/prog" -P -p
	expect_status 0
	fds -F "$FS/prog" -G -m -k 1
	expect_status 1
	expect_out "bpf: get fd:3 (Success)"
	expect_hint "$FS/prog holds a program: use -p for it (fds_example -F $FS/prog -G -p)"
'

# -o of a program of this machine (fds_example itself): the hint names the
# machine as uname -m does, in words; another machine's number, as a number.
# elf_machine FILE: the machine FILE's ELF header names, in the words of
# fds_example's hint; nothing for one it has no words for. (uname -m cannot
# tell: an i386 build runs on an x86_64 kernel.)
elf_machine()
{
	local data lo hi m
	read -r data < <(od -An -tu1 -j5 -N1 "$1")
	read -r lo hi < <(od -An -tu1 -j18 -N2 "$1")
	if ((data == 2)); then
		m=$((lo * 256 + hi))
	else
		m=$((hi * 256 + lo))
	fi
	case $m in
	62) echo x86-64 ;;
	3) echo "32-bit x86" ;;
	183) echo arm64 ;;
	40) echo "32-bit Arm" ;;
	22) echo s390x ;;
	21) echo "64-bit PowerPC" ;;
	243) echo RISC-V ;;
	8) echo MIPS ;;
	esac
}

step "-o of an ELF file for this machine: a BPF object, from clang -target bpf" '
	machine=$(elf_machine "$FDS_EXAMPLE")
	fds -F "$FS/o" -P -p -o "$FDS_EXAMPLE"
	expect_status 1
	expect_out "bpf: prog fd:-1 (Exec format error)"
	if [[ -n $machine ]]; then
		expect_hint "$FDS_EXAMPLE is an ELF file for $machine, not a BPF object: -o wants one compiled with clang -target bpf, like sockex1_kern.o"
	else
		expect_hint "$FDS_EXAMPLE is an ELF file for machine $(sed -n "s/.*machine \([0-9]*\) is not BPF.*/\1/p" "$T/err"), not a BPF object: -o wants one compiled with clang -target bpf, like sockex1_kern.o"
	fi
	[[ ! -e $FS/o ]] || fail "$FS/o was pinned"
'

# A machine with no words, in either byte order: the number as the header
# says it (0x1234 both times), two bytes read in the order EI_DATA names.
step "-o of an ELF file for a machine without words, either byte order: its number" '
	for order in 1 2; do
		if ((order == 1)); then bytes="\\x34\\x12"; else bytes="\\x12\\x34"; fi
		{
			printf "\\x7fELF\\x02\\x$order\\x01"
			head -c 9 /dev/zero
			printf "\\x00\\x00$bytes"
			head -c 44 /dev/zero
		} > "$T/m$order.o"
		fds -F "$FS/o" -P -p -o "$T/m$order.o"
		expect_status 1
		expect_out "bpf: prog fd:-1 (Exec format error)"
		expect_hint "$T/m$order.o is an ELF file for machine 4660, not a BPF object: -o wants one compiled with clang -target bpf, like sockex1_kern.o"
	done
'

step "-o of a file that is not there: its path, not the kernel" '
	fds -F "$FS/o" -P -p -o "$T/nosuch.o"
	expect_status 1
	expect_out "bpf: prog fd:-1 (No such file or directory)"
	expect_hint "the object file $T/nosuch.o could not be opened (No such file or directory), so the kernel was never asked: check the path given to -o"
	cd "$T"
	fds -F "$FS/o" -P -p -o nosuch.o
	expect_status 1
	expect_hint "the object file nosuch.o could not be opened (No such file or directory), so the kernel was never asked: check the path given to -o"
'

# A BPF object refused for another reason gets no hint about the file.
step "-o of a BPF object the loader refuses: no hint" '
	head -c 100 "$SOCKEX1" > "$T/cut.o"
	fds -F "$FS/o" -P -p -o "$T/cut.o"
	expect_status 1
	expect_out "bpf: prog fd:-1 (Exec format error)"
	! grep -q ": hint: " "$T/err" || fail "stderr: $(<"$T/err")"
'

step "-G on a directory: name a pin inside it" '
	fds -F "$FS" -G -m
	expect_status 1
	expect_hint "$FS is a directory: -G wants a pinned map or program in it"
'

step "-G on a dotted name that is not there: dots are for the kernel" '
	fds -F "$FS/x.debug" -G -m
	expect_status 1
	expect_out "bpf: get fd:-1 (Operation not permitted)"
	expect_hint "${Q}x.debug$Q has a dot: bpffs keeps dotted names for the kernel${Q}s own files (maps.debug, progs.debug); pick a name without one"
'

# bpf_preload, where the kernel has it, lists maps.debug in every new bpffs;
# BPF_OBJ_GET says ENOENT for it, though ls shows it. Kernels without it
# have nothing to check here.
if [[ -e $FS/maps.debug ]]; then
	step "-G on maps.debug, a file of the kernel: not a pin of yours" '
		fds -F "$FS/maps.debug" -G -m
		expect_status 1
		expect_hint "$FS/maps.debug is one of the kernel${Q}s own files, not a pinned map or program (a name with a dot is never yours)"
	'
fi

step "-G where nothing is pinned: ls shows what is" '
	fds -F "$FS/none" -G -m
	expect_status 1
	expect_hint "nothing is pinned at $FS/none (ls $FS shows what is)"
'

# A bare name is in the current directory: ls shows it as ".".
step "-G of a bare name where nothing is pinned: ls ." '
	cd "$FS"
	fds -F none -G -m
	expect_status 1
	expect_out "bpf: get fd:-1 (No such file or directory)"
	expect_hint "nothing is pinned at none (ls . shows what is)"
'

# The other user is nobody, without capabilities; the sysctl decides the
# rest. Where it gates every bpf(2) call (Debian's 5.10) the get is refused
# before the pin's mode is read.
step "another user: the pin mode and chmod, or CAP_BPF and the sysctl" --needs setpriv '
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
		expect_hint "$FS/m is mode 0644: -G asks to read and write the object and the pin does not grant both to you; its owner can (chmod o+rw $FS/m)"
	else
		expect_out "bpf: get fd:-1 (Operation not permitted)"
		expect_hint "this needs CAP_BPF (CAP_SYS_ADMIN before Linux 5.8), which root has; for other users kernel.unprivileged_bpf_disabled decides: it is $sysctl, and only 0 lets them get pins"
	fi
	fds -F "$FS/n" -P -m
	expect_status 1
	expect_out "bpf: map fd:-1 (Operation not permitted)"
	expect_hint "this needs CAP_BPF (CAP_SYS_ADMIN before Linux 5.8), which root has; for other users kernel.unprivileged_bpf_disabled decides: it is $sysctl, and only 0 lets them create maps and programs"
	fds -F "$FS/q" -P -p
	expect_status 1
	expect_out "bpf: prog fd:-1 (Operation not permitted)"
	expect_hint "this needs CAP_BPF (CAP_SYS_ADMIN before Linux 5.8), which root has; for other users kernel.unprivileged_bpf_disabled decides: it is $sysctl, and only 0 lets them create maps and programs"
	! grep -q "verifier log" "$T/err" || fail "a verifier log for a load the verifier never saw"
'

# The hint names the class of the mode that applies: nobody owns one pin,
# and is in the group of another, and neither grants it read and write.
step "the owner or the group of a pin it cannot use: chmod u+rw, g+rw" --needs setpriv '
	chmod 0755 "$T" "$FS"
	install -m 0755 "$FDS_EXAMPLE" "$T/fds_example"
	sysctl=$(< /proc/sys/kernel/unprivileged_bpf_disabled)
	fds -F "$FS/own" -P -m
	expect_status 0
	fds -F "$FS/grp" -P -m
	expect_status 0
	chown 65534 "$FS/own"
	chmod 0406 "$FS/own"
	chown :65534 "$FS/grp"
	chmod 0640 "$FS/grp"
	FDS_RUN=(setpriv --reuid=65534 --regid=65534 --clear-groups
		 --inh-caps=-all "$T/fds_example")
	for pin in own grp; do
		fds -F "$FS/$pin" -G -m
		expect_status 1
		if [[ $(<"$T/out") == *"(Operation not permitted)" ]]; then
			expect_hint "this needs CAP_BPF (CAP_SYS_ADMIN before Linux 5.8), which root has; for other users kernel.unprivileged_bpf_disabled decides: it is $sysctl, and only 0 lets them get pins"
			continue
		fi
		expect_out "bpf: get fd:-1 (Permission denied)"
		[[ $pin == own ]] && mode=0406 class=u || mode=0640 class=g
		expect_hint "$FS/$pin is mode $mode: -G asks to read and write the object and the pin does not grant both to you; its owner can (chmod $class+rw $FS/$pin)"
	done
'

# The privilege hint reads the sysctl from /proc, and closes the file
# again: strace shows the fd the open returned, then its close.
step "the privilege hint closes the sysctl file it read" --needs setpriv,strace,awk '
	export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"
	chmod 0755 "$T" "$FS"
	install -m 0755 "$FDS_EXAMPLE" "$T/fds_example"
	FDS_RUN=(strace -f -o "$T/trace" -e trace=openat,close
		 setpriv --reuid=65534 --regid=65534 --clear-groups
		 --inh-caps=-all "$T/fds_example")
	fds -F "$FS/n" -P -m
	expect_status 1
	expect_out "bpf: map fd:-1 (Operation not permitted)"
	awk -v f=/proc/sys/kernel/unprivileged_bpf_disabled '"'"'
		!fd && index($0, "openat(AT_FDCWD, \"" f "\"") {
			fd = $NF; next
		}
		fd && $0 ~ "close\\(" fd "\\) += 0$" { closed = 1 }
		END { exit !(fd && closed) }
	'"'"' "$T/trace" || fail "the sysctl file was not opened and closed: $(<"$T/trace")"
'

# With CAP_BPF (ambient, so fds_example keeps it) nobody creates maps; a
# pin or a get that fails for a reason privilege does not change gets no
# hint.
prereq CAP_BPF "CAP_BPF came in Linux 5.8" \
	'setpriv --inh-caps=-all,+bpf --ambient-caps=+bpf true'
step "another user with CAP_BPF, a pin and a get under a map: no hint" --needs setpriv,CAP_BPF '
	chmod 0755 "$T" "$FS"
	install -m 0755 "$FDS_EXAMPLE" "$T/fds_example"
	fds -F "$FS/under" -P -m
	expect_status 0
	FDS_RUN=(setpriv --reuid=65534 --regid=65534 --clear-groups
		 --inh-caps=-all,+bpf --ambient-caps=+bpf "$T/fds_example")
	fds -F "$FS/under/x" -P -m
	expect_status 1
	expect_out "bpf: map fd:3 (Success)" "bpf: pin ret:(-1,Not a directory)"
	[[ $(<"$T/err") == "fds_example: cannot pin the map at $FS/under/x: Not a directory" ]] ||
		fail "stderr: $(<"$T/err")"
	fds -F "$FS/under/x" -G -m
	expect_status 1
	expect_out "bpf: get fd:-1 (Not a directory)"
	[[ $(<"$T/err") == "fds_example: cannot get $FS/under/x: Not a directory" ]] ||
		fail "stderr: $(<"$T/err")"
'

# A new network namespace starts with lo down: 127.0.0.1 is unreachable
# there until `ip link set lo up`, which the documents run first.
step "lo_watch with lo down: ip link set lo up" --needs unshare '
	fds -F "$FS/p" -P -p
	expect_status 0
	run_tool unshare --net examples/lo_watch "$FS/p" 1 10
	expect_status 1
	expect_out
	expect_hint --from lo_watch "127.0.0.1 is unreachable while lo is down, as it is in a new network namespace: ip link set lo up"
'

step "pinctl send with lo down: ip link set lo up" --needs unshare '
	run_tool unshare --net tests/bin/helpers/pinctl send 1
	expect_status 1
	expect_out
	expect_hint --from pinctl "127.0.0.1 is unreachable while lo is down, as it is in a new network namespace: ip link set lo up"
'
scenario_end
