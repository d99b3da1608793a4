#!/usr/bin/env bash
# make check-vm: the suite of make check inside QEMU on each kernel (its
# share in each of a kernel's guests), as many guests at a time as the
# host's cores hold their vCPUs, then the kernel matrix compared with
# docs/kernel-matrix.md.
#   ARCH=arm64|s390x|i386         that architecture's guests (data/arches):
#                                 its kernels, the suite built for it in
#                                 FDS_TREE (make check-vm ARCH=... builds
#                                 build/tree-ARCH); i386 is 32-bit user space
#                                 on amd64's kernels, whose columns it must
#                                 match (default amd64, the source tree)
#   KERNELS=5.10,6.12             a subset of the matrix (data/kernels:
#                                 Debian's cloud kernels, fetched and cached
#                                 by vm/fetch-kernels.sh)
#   KERNEL="a/vmlinuz b/bzImage"  boot these instead; the column is named
#                                 after the file (or its directory)
#   KERNEL_SRC=DIR|debian         also a kernel built from the tree DIR
#                                 (debian: Debian's linux-source-6.12) by
#                                 vm/kernel-src.sh, column src-VERSION;
#                                 KERNELS=none boots it alone
#   ACCEL=kvm|tcg                 accelerator (default: KVM if a probe boot
#                                 works, else TCG)
#   VM_SHARDS=N                   guests per kernel under TCG, each running
#                                 its share of the suite at the same time
#                                 (default data/arches' shards: 2 for x86;
#                                 1 under KVM)
#   VM_SMP=N                      vCPUs of a guest under TCG (default 1),
#                                 each running a lane of tests
#   VM_JOBS=N                     guests at once (default: as many as their
#                                 vCPUs fit in the host's cores; 2 under KVM)
#   VM_TIMEOUT=seconds            per kernel (default 900 under TCG, 300 KVM,
#                                 times the architecture's slowdown)
#   VM_PVH=0                      boot x86 kernels as their bzImage, not
#                                 at their PVH entry point (see below)
#   VM_MACHINE, VM_CPU, VM_ACCEL_OPTS  QEMU's -M, -cpu (TCG) and -accel
#                                 options instead of the architecture's
#                                 (make bench compares them)
#   VM_APPEND="..."               extra kernel command line (FDS_BOOT_ONLY=1
#                                 no test), and items of the guests' plan:
#                                 FDS_TESTS=NAME runs only the tests
#                                 matching NAME, FDS_ARCH_ONCE=1 the
#                                 kernel-independent tests too, FDS_LANES=N
#                                 N lanes (see guest_initrd)
#   VM_SELFTEST=0                 skip the broken-guest checks
#   VM_OFF_GRACE=seconds          how long QEMU may run on after its guest
#                                 sent its results (default 10): a kernel
#                                 that cannot power off (no ACPI) halts,
#                                 and its QEMU is then ended
#   MATRIX_UPDATE=1               rewrite docs/kernel-matrix.md's columns
# Streams each guest's console, keeps it in build/vm/, and ends with a
# summary naming each failing test and step per kernel, and "N passed,
# N failed, N skipped" over all kernels. Under CI=true a skip in a guest fails.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build/vm
results=$top/build/results
cache=${CACHE:-$top/.cache}
mkdir -p "$build" "$results"
run_start=$EPOCHREALTIME

say() { printf 'check-vm: %s\n' "$*"; }
secs() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f\n", b - a }'; }
# die WHY: nothing could be booted; the closing line says so.
die() { say "$*"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }

# --- architecture ----------------------------------------------------------
# The record of data/arches for ARCH: see there.
arch=${ARCH:-amd64}
arch_setup()
{
	local a rest
	while read -r a rest; do
		[[ $a == "$arch" ]] || continue
		read -r kernel_arch _ qemu_bin machine cpu_model arch_shards devices console \
			results_port events_port slowdown <<< "$rest"
		return 0
	done < <(grep -v '^#' "$top/data/arches")
	die "ARCH=$arch is not an architecture of data/arches"
}
arch_setup
tree=${FDS_TREE:-$top}
[[ $arch == amd64 || -n ${FDS_TREE:-} ]] ||
	die "ARCH=$arch needs FDS_TREE, its build (make check-vm ARCH=$arch makes it)"
# i386 names its guests i386-LABEL; its matrix columns are amd64's. The
# self-tests of an architecture but amd64 carry its name.
name_prefix='' selftest_prefix=''
[[ $arch == i386 ]] && name_prefix=i386-
[[ $arch == amd64 ]] || selftest_prefix=$arch-

# --- kernels ---------------------------------------------------------------
labels=() kernels=()
if [[ -n ${KERNEL:-} ]]; then
	read -ra kernels <<< "${KERNEL//,/ }"
	for k in "${kernels[@]}"; do
		# Debian's kernels sit in a directory named for their package.
		l=$(basename "$k")
		case $l in
		vmlinuz | bzImage) l=$(basename "$(dirname "$k")") ;;
		esac
		labels+=("$l")
	done
elif [[ ${KERNELS:-} != none ]]; then
	list=$(ARCH=$kernel_arch "$top/vm/fetch-kernels.sh" "$cache") ||
		die "fetching the kernels failed (see above); nothing booted"
	while read -r l k; do
		labels+=("$name_prefix$l") kernels+=("$k")
	done <<< "$list"
fi
# KERNEL_SRC=DIR (debian: Debian's linux-source-6.12): a kernel built
# from that tree by vm/kernel-src.sh, in build/kernel, joins the run as
# src-VERSION.
if [[ -n ${KERNEL_SRC:-} ]]; then
	[[ $kernel_arch == amd64 ]] || die "KERNEL_SRC builds x86-64 kernels only, not $arch's"
	kdir=$top/build/kernel/debian
	if [[ $KERNEL_SRC != debian ]]; then
		kdir=$(cd "$KERNEL_SRC" 2> /dev/null && pwd) ||
			die "KERNEL_SRC=$KERNEL_SRC: no such directory"
		kdir=$top/build/kernel/$(basename "$kdir")-$(printf '%s' "$kdir" | cksum | cut -d' ' -f1)
	fi
	say "building the kernel of KERNEL_SRC=$KERNEL_SRC in ${kdir#"$top"/}"
	line=$("$top/vm/kernel-src.sh" "$KERNEL_SRC" "$kdir") ||
		die "KERNEL_SRC=$KERNEL_SRC: no kernel built (see above)"
	read -r l k <<< "$line"
	labels+=("$name_prefix$l") kernels+=("$k")
fi
((${#kernels[@]})) || die "no kernel to boot"
for k in "${kernels[@]}"; do
	[[ -r $k ]] || die "kernel $k: not a readable file"
done
# An x86 kernel boots at its PVH entry point, the ELF file inside its
# bzImage that vm/pvh-kernel.sh unpacks into build/vm/pvh (once; again
# when the bzImage is newer or another): no firmware real-mode setup and
# no decompression in the guest, 0.5 to 1.5 s less per boot under TCG. A
# kernel without one boots as its bzImage, and says why; VM_PVH=0 boots
# every bzImage. boot_kernels[i] is what QEMU's -kernel gets.
boot_kernels=("${kernels[@]}")
if [[ $kernel_arch == amd64 && ${VM_PVH:-1} == 1 ]]; then
	mkdir -p "$build/pvh"
	for i in "${!kernels[@]}"; do
		elf=$build/pvh/${labels[i]#"$name_prefix"}.vmlinux
		if [[ ! -s $elf || ! $elf -nt ${kernels[i]} || $(cat "$elf.from" 2> /dev/null) != "${kernels[i]}" ]]; then
			rm -f "$elf.from"
			if ! why=$("$top/vm/pvh-kernel.sh" "${kernels[i]}" "$elf" 2>&1); then
				say "${labels[i]} boots as its bzImage: ${why#pvh-kernel: }"
				continue
			fi
			echo "${kernels[i]}" > "$elf.from"
		fi
		boot_kernels[i]=$elf
	done
fi

# --- root filesystem -----------------------------------------------------
initrd=$build/initramfs.cpio
[[ $arch == amd64 ]] || initrd=$build/initramfs-$arch.cpio
ARCH=$arch FDS_TREE=$tree "$top/vm/mkinitramfs.sh" "$initrd" || die "cannot build the initramfs"

# --- one boot --------------------------------------------------------------
# The verdict code, tested natively (tests/scenarios/vm_verdict.sh):
# events_file, unpack_results, verdict, merge_shards.
# shellcheck source=vm/verdict.sh
. "$top/vm/verdict.sh"

# qemu_cmd NAME KERNEL ACCEL APPEND INITRD VCPUS: the emulator's command
# line for this architecture (data/arches), into the array qemu: the
# console on stdio, the results and events ports on files.
qemu_cmd()
{
	local name=$1 accel=$3 d devs cpu=(-smp "$6")
	[[ $accel == tcg ]] && cpu+=(-cpu "${VM_CPU:-$cpu_model}")
	qemu=("$qemu_bin" -M "${VM_MACHINE:-$machine}"
	      -accel "$accel${VM_ACCEL_OPTS:+,$VM_ACCEL_OPTS}" "${cpu[@]}" -m 1024
	      -nographic -no-reboot -nodefaults -chardev "stdio,id=console"
	      -chardev "file,id=results,path=$build/$name.results")
	[[ $events_port == "$results_port" ]] ||
		qemu+=(-chardev "file,id=events,path=$build/$name.events")
	IFS=';' read -ra devs <<< "$devices"
	for d in "${devs[@]}"; do
		if [[ ${d%%:*} == serial ]]; then
			qemu+=(-serial "chardev:${d#*:}")
		else
			qemu+=(-device "${d%%:*},chardev=${d#*:}")
		fi
	done
	qemu+=(-kernel "$2" -initrd "$5"
	       -append "console=$console panic=-1 oops=panic loglevel=3 quiet FDS_RESULTS_PORT=$results_port FDS_EVENTS_PORT=$events_port $4")
}

# boot NAME KERNEL ACCEL LIMIT APPEND [INITRD [VCPUS]]: boots with three serial
# ports (vm/init): the console, streamed without its escape sequences
# behind a [NAME] prefix and kept in $build/NAME.log for people; the
# results port, a tar archive in NAME.results; the events port, lines in
# NAME.events. QEMU's own messages go to NAME.qemu. Leaves the seconds to
# the suite's start in NAME.boot, and kills the guest HANG_AFTER seconds
# after the suite started if that is set (the hang self-test). A guest
# still running VM_OFF_GRACE seconds after it said "off" (its results
# sent) has halted instead of powering off: it is ended, and NAME.halted
# says so.
boot()
{
	local name=$1 kernel=$2 accel=$3 limit=$4 append=$5 initramfs=${6:-$initrd} vcpus=${7:-1}
	local log=$build/$name.log qpid rc start=$EPOCHREALTIME line events qemu

	rm -f "$build/$name".{boot,total,killed,halted,results,events,qemu,times}
	# all exist before tail follows them
	: > "$log.raw"
	: > "$log"
	events=$(events_file "$name")
	: > "$events"
	qemu_cmd "$name" "$kernel" "$accel" "$append" "$initramfs" "$vcpus"
	timeout --kill-after=5 "$limit" "${qemu[@]}" \
		< /dev/null > "$log.raw" 2> "$build/$name.qemu" &
	qpid=$!
	# The suite's start, from the events port. Each tail checks every 0.1 s
	# whether QEMU has ended (by default every second, which each guest's
	# time then included: 1.1 s from the guest's last line to its end).
	tail -n +1 -s 0.1 -f --pid="$qpid" "$events" 2>/dev/null |
	while IFS= read -r line; do
		if [[ $line == off ]]; then
			off_wait "$qpid" "$name"
			continue
		fi
		[[ $line == "suite start" ]] || continue
		secs "$start" > "$build/$name.boot"
		if [[ -n ${HANG_AFTER:-} ]]; then
			sleep "$HANG_AFTER"
			echo "$HANG_AFTER" > "$build/$name.killed"
			kill "$qpid" 2>/dev/null
		fi
	done &
	# For people: the firmware clears the screen and sets modes; drop
	# escape sequences and carriage returns from the stream and the log.
	tail -n +1 -s 0.1 -f --pid="$qpid" "$log.raw" 2>/dev/null |
	sed -u -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' -e 's/\x1b[()][0-9A-Za-z]//g' \
		-e 's/\x1bc//g' -e 's/\r//g' |
	while IFS= read -r line; do
		printf '%s\n' "$line" >> "$log"
		[[ -n ${QUIET_VM:-} ]] || printf '[%s] %s\n' "$name" "$line"
		# when each test started and ended, and the suite (FDS-VM: exit):
		# where a guest's time goes (bench/vm.sh prints it)
		[[ $line == *"selftests: fds_example: "* || $line == "FDS-VM: exit "* ]] &&
			printf '%s\t%s\n' "$(secs "$start")" "$line" >> "$build/$name.times"
	done
	wait "$qpid"
	rc=$?
	wait
	secs "$start" > "$build/$name.total"
	rm -f "$log.raw"
	return "$rc"
}

# off_wait QPID NAME: QEMU (QPID) ends within VM_OFF_GRACE seconds of
# its guest's "off", or it is ended, and NAME.halted holds the grace.
off_wait()
{
	local tenths=$((off_grace * 10)) i
	for ((i = 0; i < tenths; i++)); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.1
	done
	echo "$off_grace" > "$build/$2.halted"
	kill "$1" 2>/dev/null
}
off_grace=${VM_OFF_GRACE:-10}
[[ $off_grace =~ ^[0-9]+$ ]] || die "VM_OFF_GRACE=$off_grace: not a number of seconds"

# --- accelerator -----------------------------------------------------------
# /dev/kvm can exist where KVM cannot run a guest (nested KVM here stops
# with "KVM internal error ... emulation failure"): boot once to find out.
kvm_why=
probe_kvm()
{
	local root probe=$build/probe.cpio warn
	if [[ ! -e /dev/kvm ]]; then
		kvm_why="no /dev/kvm"
		return 1
	fi
	if [[ ! -r /dev/kvm || ! -w /dev/kvm ]]; then
		kvm_why="/dev/kvm is not read-writable for $(id -un)"
		return 1
	fi
	root=$(mktemp -d) || return 1
	mkdir -p "$root/bin" "$root/dev"
	cp /bin/busybox "$root/bin/"
	printf '%s\n' '#!/bin/busybox sh' '/bin/busybox mount -t devtmpfs dev /dev' \
		'echo suite start > /dev/ttyS2' '/bin/busybox poweroff -f' > "$root/init"
	chmod 0755 "$root/init" "$root"
	(cd "$root" && find . | cpio --quiet -o -H newc -R 0:0) > "$probe"
	rm -rf "$root"
	QUIET_VM=1 HANG_AFTER='' boot probe "${boot_kernels[0]}" kvm 15 "" "$probe"
	grep -qx "suite start" "$build/probe.events" &&
		! grep -q "KVM internal error" "$build/probe.qemu" && return 0
	warn=$(grep -m1 -iE "warning: .*(CPUID|feature)" "$build/probe.qemu")
	if grep -q "KVM internal error" "$build/probe.qemu"; then
		kvm_why="the probe guest stopped: $(grep -m1 -o 'KVM internal error.*' "$build/probe.qemu")"
	elif [[ -n $warn ]]; then
		kvm_why="the probe guest stalled for 15s; QEMU said: $warn"
	else
		kvm_why="the probe guest stalled: no suite start within 15s"
	fi
	return 1
}

# The answer holds until the host reboots.
probe_cache=$build/kvm-probe
boot_id=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo unknown)
if [[ -n ${ACCEL:-} ]]; then
	accel=$ACCEL
elif [[ $kernel_arch != "$(dpkg --print-architecture)" ]]; then
	accel=tcg	# KVM runs this host's architecture only
elif [[ -f $probe_cache && $(head -n 1 "$probe_cache") == "$boot_id "* ]]; then
	read -r _ accel kvm_why < "$probe_cache"
	[[ $accel == kvm ]] || say "KVM rejected: $kvm_why; using TCG (probed since this host booted)"
elif probe_kvm; then
	accel=kvm
	echo "$boot_id kvm" > "$probe_cache"
else
	accel=tcg
	echo "$boot_id tcg $kvm_why" > "$probe_cache"
	say "KVM rejected: $kvm_why; using TCG"
fi
if [[ $accel == kvm ]]; then
	limit=${VM_TIMEOUT:-300}
else
	limit=${VM_TIMEOUT:-$((900 * slowdown))}
fi
# a broken guest's bound
selftest_limit=$((120 * slowdown))

# --- the jobs: each kernel's suite, then the self-tests ---------------------
# run_kernel LABEL KERNEL: one guest; leaves NAME.verdict, and its results
# (tests/run.sh's files, kernel, exit) in build/results/LABEL. Their KTAP
# is checked on this host by scripts/ktap_check.py (a guest has no Python),
# whose complaints, if any, are left in NAME.ktap-check.

# add_archive BASE DIR OUT: OUT, the initramfs BASE with the files under
# DIR appended as a second cpio archive (which the kernel unpacks over the
# first).
add_archive()
{
	(cd "$2" && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) > "$3.cpio" &&
	cat "$1" "$3.cpio" > "$3.new" && mv "$3.new" "$3"
	local rc=$?
	rm -f "$3.cpio" "$3.new"
	return "$rc"
}

# kernel_initrd LABEL KERNEL: the initramfs for KERNEL, made once for all
# its guests: the shared one with, appended as a second cpio archive, the
# modules for tc that vm/fetch-kernels.sh left beside it, in
# /lib/fds-modules (vm/init loads them); the shared one alone for a kernel
# without them (KERNEL=...). Prints its path.
kernel_initrd()
{
	local mods tmp out=$build/$1.initramfs.cpio
	mods=$(dirname "$2")/modules
	if [[ ! -f $mods/order ]]; then
		echo "$initrd"
		return 0
	fi
	tmp=$build/$1.modules
	rm -rf "$tmp" "$out"
	if ! { mkdir -p "$tmp/lib/fds-modules" && cp "$mods"/* "$tmp/lib/fds-modules/" &&
	       add_archive "$initrd" "$tmp" "$out"; }; then
		say "$1: cannot add its modules to the initramfs; its guests boot without them" >&2
		out=$initrd
	fi
	rm -rf "$tmp"
	echo "$out"
}

# The plan's items a person may give in VM_APPEND, as they were given
# before plans (vm/bisect-run.sh's FDS_TESTS=NAME): each FDS_TESTS=,
# FDS_ARCH_ONCE= and FDS_LANES= word becomes the plan's tests=, arch_once=
# and lanes= line (vm_plan), and append_rest keeps the other words, the
# guest's kernel command line.
vm_plan=() append_rest=''
for word in ${VM_APPEND:-}; do
	case $word in
	FDS_TESTS=*) vm_plan+=("tests=${word#*=}") ;;
	FDS_ARCH_ONCE=*) vm_plan+=("arch_once=${word#*=}") ;;
	FDS_LANES=*) vm_plan+=("lanes=${word#*=}") ;;
	*) append_rest+=" $word" ;;
	esac
done
append_rest=${append_rest# }

# guest_initrd NAME INITRD PLAN...: INITRD with the guest's plan
# (tests/runner/plan.sh), the lines PLAN..., appended as /plan, where
# vm/init gives it to tests/run.sh: the guest runs its installed suite
# from /kselftest in lanes, one per vCPU, its results in /tmp/results,
# which vm/init sends, and CI's strictness is the host's.
# Prints its path, $build/NAME.guest.cpio (removed after its boot).
guest_initrd()
{
	local rd=$2 tmp=$build/$1.plan out=$build/$1.guest.cpio rc=0
	shift 2
	rm -rf "$tmp"
	if ! { mkdir -p "$tmp" &&
	       printf '%s\n' guest=1 kselftest=/kselftest results=/tmp/results \
		       "lanes=$guest_cpus" "${ci_plan[@]}" "$@" "${vm_plan[@]}" > "$tmp/plan" &&
	       add_archive "$rd" "$tmp" "$out"; }; then
		rc=1
	fi
	rm -rf "$tmp"
	((rc == 0)) && echo "$out"
	return "$rc"
}
ci_plan=()
[[ -n ${CI:-} ]] && ci_plan=("ci=$CI")

# run_kernel LABEL KERNEL INITRD [PLAN [K/N]]: one guest, whose plan has
# also the line PLAN (arch_once=1, its architecture's first guest), and
# with K/N, guest K of the N that share the kernel's suite: named
# LABEL-shardK, its results in build/results/LABEL/shard-K, its start and
# end in NAME.span (microseconds). The guest plans its share by its
# kernel's column of tests/data/guest-seconds (label=: the matrix's name
# for it).
run_kernel()
{
	local label=$1 k=$2 rd=$3 name=$1 v rc dir=$results/$1 start=${EPOCHREALTIME/./}
	local -a plan=("timeout=$limit" "label=${label#"$name_prefix"}")
	[[ -n ${4:-} ]] && plan+=("$4")
	if [[ -n ${5:-} ]]; then
		name=$label-shard${5%/*} dir=$results/$label/shard-${5%/*}
		plan+=("shard=$5")
	fi
	say "booting $name: $k ($accel, timeout ${limit}s)"
	if rd=$(guest_initrd "$name" "$rd" "${plan[@]}"); then
		boot "$name" "$k" "$accel" "$limit" "$append_rest" "$rd" "$guest_cpus"
		rc=$?
		rm -f "$rd"
	else
		say "$name: cannot add its plan to the initramfs" > "$build/$name.log"
		rc=1
		echo 0 > "$build/$name.total"
	fi
	unpack_results "$name" "$dir"
	v=$(verdict "$name" "$rc" "$limit" "$dir")
	echo "$v" > "$build/$name.verdict"
	rm -f "$build/$name.ktap-check"
	if [[ -f $dir/counts ]] && ! "$top/scripts/ktap_check.py" "$dir" \
		> "$build/$name.ktap-check.new" 2>&1; then
		mv "$build/$name.ktap-check.new" "$build/$name.ktap-check"
		echo "FAIL: its KTAP: see ${build#"$top"/}/$name.ktap-check" > "$build/$name.verdict"
	elif [[ -f $build/$name.ktap-check.new ]]; then
		say "$name: $(<"$build/$name.ktap-check.new")"
	fi
	rm -f "$build/$name.ktap-check.new"
	[[ ! -f $build/$name.halted ]] ||
		say "$name: the guest halted instead of powering off; QEMU was ended $(<"$build/$name.halted")s after its results"
	say "$name: $(<"$build/$name.verdict") ($(<"$build/$name.total")s; console log: ${build#"$top"/}/$name.log)"
	echo "$start ${EPOCHREALTIME/./}" > "$build/$name.span"
}

# A broken guest must fail clearly and in bounded time.
# (panic: a kernel without block devices runs the initramfs's /bin/sh when
# rdinit= fails; an init= that fails panics every kernel)
selftests=("panic:rdinit=/nonexistent init=/nonexistent root=/dev/nonexistent:boot never reached the suite (qemu exit 0); console: Kernel panic:"
	   "hang:FDS_HANG=1:guest hung:3"
	   "no-bpffs:FDS_HIDE=bpffs:the kernel lacks bpffs:"
	   "halt:FDS_BOOT_ONLY=1 FDS_HALT=1:halted:")
run_selftest()
{
	local what append want after v name
	IFS=: read -r what append want after <<< "$1"
	name=${selftest_prefix}selftest-$what
	QUIET_VM=1 HANG_AFTER=$after boot "$name" "${boot_kernels[0]}" "$accel" "$selftest_limit" "$append" "$initrd" 1
	v=$?
	unpack_results "$name" "$build/$name.d"
	v=$(verdict "$name" "$v" "$selftest_limit" "$build/$name.d")
	# a guest that halts passes, its QEMU ended after the grace
	if [[ $want == halted ]]; then
		if [[ $v == PASS && -f $build/$name.halted ]]; then
			echo "PASS (reported: PASS; the guest halted, QEMU ended $(<"$build/$name.halted")s after its results)"
		elif [[ $v == PASS ]]; then
			echo "FAIL: expected QEMU ended by check-vm VM_OFF_GRACE s after the results; it was not (it ended by itself or at the limit)"
		else
			echo "FAIL: expected a PASS ended after the grace, got: $v"
		fi > "$build/$name.verdict"
		return
	fi
	if [[ $v == *"$want"* && $v == FAIL* ]]; then
		echo "PASS (reported: ${v#FAIL: })"
	else
		echo "FAIL: expected '$want', got: $v"
	fi > "$build/$name.verdict"
}

# --- the guests and their vCPUs -------------------------------------------
# Under TCG each vCPU is a host thread that keeps a core busy; by default
# as many guests run at once as their vCPUs fit in the host's cores
# (VM_JOBS says how many instead). A guest has one vCPU under TCG: with
# two, QEMU 7.2's TCG now and then runs code the guest kernel is
# live-patching (text_poke_bp, for static keys and the BPF dispatcher)
# on the other vCPU and the guest oopses on a stale int3 (seen at boot in
# 6.12's sched_clock_cpu, and in 2 of 6 runs of 5.10's suite in
# bpf_dispatcher_xdp_func, with its tests in two lanes). So a kernel's
# suite is shared out among guests instead: VM_SHARDS (data/arches'
# shards: 2 for x86) guests of the same kernel at once, each running its
# share (the shard= of its plan, tests/runner/plan.sh), their results put
# together for the kernel (merge_shards). On the 2-core CI machine a kernel's verdict then
# comes in under 30 s, where one guest took 33 to 48 s, and the whole
# matrix in about the same time. Under KVM a guest has 2 vCPUs, each
# running a lane of tests (vm/init), and a kernel one guest.
host_cpus=$(nproc)
if [[ $accel == kvm ]]; then
	guest_cpus=2
	jobs_max=${VM_JOBS:-2}
	shards=${VM_SHARDS:-1}
else
	guest_cpus=${VM_SMP:-1}
	[[ $guest_cpus =~ ^[1-9][0-9]*$ ]] || die "VM_SMP=$guest_cpus: not a number of vCPUs"
	jobs_max=${VM_JOBS:-$((host_cpus / guest_cpus))}
	((jobs_max >= 1)) || jobs_max=1
	shards=${VM_SHARDS:-$arch_shards}
fi
[[ $jobs_max =~ ^[1-9][0-9]*$ ]] || die "VM_JOBS=$jobs_max: not a number of guests"
[[ $shards =~ ^[1-9][0-9]*$ ]] || die "VM_SHARDS=$shards: not a number of guests per kernel"
vcpu_budget=$((jobs_max * guest_cpus))
declare -A job_vcpus=()
# wait_room VCPUS: until VCPUS more vCPUs fit in the budget beside the
# guests still running (or none runs).
wait_room()
{
	local need=$1 used pid
	while :; do
		used=0
		for pid in "${!job_vcpus[@]}"; do
			if kill -0 "$pid" 2> /dev/null; then
				used=$((used + job_vcpus[$pid]))
			else
				unset "job_vcpus[$pid]"
			fi
		done
		((used == 0 || used + need <= vcpu_budget)) && break
		wait -n
	done
}
# start_job VCPUS CMD...: CMD in the background once there is room for it.
start_job()
{
	local need=$1
	shift
	wait_room "$need"
	"$@" &
	job_vcpus[$!]=$need
}

# Newest first: newer kernels take longer, and the short self-tests fill
# the gaps at the end.
# The kernel-independent tests (tests/run.sh) depend on the architecture's
# user space only: make check runs amd64's natively; another
# architecture's, i386's 32-bit build too, run in its first guest.
for ((i = ${#kernels[@]} - 1; i >= 0; i--)); do
	once=''
	((i == 0)) && [[ $arch != amd64 ]] && once=arch_once=1
	rm -rf "${results:?}/${labels[i]}"
	rd=$(kernel_initrd "${labels[i]}" "${kernels[i]}")
	# A kernel's guests start together, once there is room for all of
	# them: its time is theirs, not theirs plus the wait for another
	# kernel's guest to end between one start and the next.
	wait_room $((shards * guest_cpus))
	for ((s = 1; s <= shards; s++)); do
		shard=()
		((shards > 1)) && shard=("$s/$shards")
		HANG_AFTER='' start_job "$guest_cpus" run_kernel "${labels[i]}" "${boot_kernels[i]}" "$rd" "$once" "${shard[@]}"
	done
done
if [[ ${VM_SELFTEST:-1} == 1 ]]; then
	for c in "${selftests[@]}"; do
		start_job 1 run_selftest "$c"
	done
fi
wait
if ((shards > 1)); then
	for label in "${labels[@]}"; do
		merge_shards "$label"
	done
fi

# --- summary ---------------------------------------------------------------
# One format for the table's every line, kept in a variable on purpose
# (SC2059 is disabled where printf uses it).
fmt='%-28s %-5s %7s %8s %6s %6s %7s  %s\n'
pass=0 fail=0 skip=0 all_ok=1 rows=() details=() cols=()
rm -f "$build/summary.tsv.new"
for label in "${labels[@]}"; do
	v=$(<"$build/$label.verdict") dir=$results/$label
	p=0 f=1 s=0
	[[ -f $dir/counts ]] && read -r p f s < "$dir/counts"
	[[ $v == PASS ]] || { all_ok=0; ((f == 0)) && f=1; }
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	boot_s=$(cat "$build/$label.boot" 2>/dev/null || echo -)
	# shellcheck disable=SC2059
	rows+=("$(printf "$fmt" "$label" "$accel" "$boot_s" \
		"$(<"$build/$label.total")" "$p" "$f" "$s" "$v")")
	printf '%s\t%s\t%s\t%s\t%s\n' "$label" "$accel" "$boot_s" \
		"$(<"$build/$label.total")" "$v" >> "$build/summary.tsv.new"
	if [[ -f $dir/failures ]]; then
		while IFS= read -r line; do
			details+=("  $label: $line")
		done < "$dir/failures"
	fi
	if [[ -f $build/$label.ktap-check ]]; then
		while IFS= read -r line; do
			details+=("  $label: $line")
		done < "$build/$label.ktap-check"
	fi
	[[ -f $dir/exit && -f $dir/matrix.tsv ]] && cols+=("${label#"$name_prefix"}=$dir")
done
if [[ ${VM_SELFTEST:-1} == 1 ]]; then
	for c in "${selftests[@]}"; do
		what=${c%%:*}
		v=$(<"$build/${selftest_prefix}selftest-$what.verdict")
		if [[ $v == PASS* ]]; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1)) all_ok=0
		fi
		# shellcheck disable=SC2059
		rows+=("$(printf "$fmt" "selftest: $what" "$accel" - \
			"$(<"$build/${selftest_prefix}selftest-$what.total")" - - - "$v")")
	done
fi

echo
if [[ " ${VM_APPEND:-} " == *" FDS_TESTS="* ]]; then
	say "a part of the suite ran (FDS_TESTS); the kernel matrix is not compared"
elif ((${#cols[@]})); then
	echo "Kernel matrix (docs/kernel-matrix.md):"
	if [[ ${MATRIX_UPDATE:-} == 1 && $arch == i386 ]]; then
		say "32-bit user space is compared with amd64's columns, never written into them"
	fi
	if [[ ${MATRIX_UPDATE:-} == 1 && $arch != i386 ]]; then
		"$top/scripts/matrix.py" update "${cols[@]}" || { all_ok=0; fail=$((fail + 1)); }
	else
		"$top/scripts/matrix.py" check "${cols[@]}" || { all_ok=0; fail=$((fail + 1)); }
	fi
	echo
fi
# shellcheck disable=SC2059
printf "$fmt" kernel accel "boot s" "total s" passed failed skipped verdict
printf '%s\n' "${rows[@]}"
if ((${#details[@]})); then
	echo "Failing tests and steps:"
	printf '%s\n' "${details[@]}"
fi
wall=$(secs "$run_start")
say "whole run: ${wall}s wall, $jobs_max guests of $guest_cpus vCPU(s) at a time, $shards per kernel"
# for make bench: per kernel, then the whole run
printf 'whole\t%s\t-\t%s\t%s guests of %s vCPU(s) at a time, %s per kernel\n' "$accel" "$wall" "$jobs_max" "$guest_cpus" "$shards" >> "$build/summary.tsv.new"
mv "$build/summary.tsv.new" "$build/summary.tsv"
echo "$pass passed, $fail failed, $skip skipped"
((all_ok))
