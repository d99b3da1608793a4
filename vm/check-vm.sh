#!/usr/bin/env bash
# make check-vm: the suite of make check inside QEMU, once per kernel.
#   KERNEL="a/bzImage b/bzImage"  kernels to boot (default: Debian's 6.1 and
#                                 6.12 cloud kernels, fetched and cached)
#   ACCEL=kvm|tcg                 accelerator (default: KVM if a probe boot
#                                 works, else TCG)
#   VM_TIMEOUT=seconds            per kernel (default 900 under TCG, 300 KVM)
#   VM_APPEND="..."               extra kernel command line
#   VM_SELFTEST=0                 skip the broken-guest checks
# Streams each guest's console, keeps it in build/vm/, and ends with a
# summary and "N passed, N failed, N skipped" over all kernels.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build/vm
cache=${CACHE:-$top/.cache}
mkdir -p "$build"

say() { printf 'check-vm: %s\n' "$*"; }

# --- kernels ---------------------------------------------------------------
if [[ -n ${KERNEL:-} ]]; then
	read -ra kernels <<< "${KERNEL//,/ }"
else
	mapfile -t kernels < <("$top/vm/fetch-kernels.sh" "$cache") || true
fi
if ((${#kernels[@]} == 0)); then
	say "no kernel to boot (fetching Debian's failed?)"
	echo "0 passed, 1 failed, 0 skipped"
	exit 1
fi
for k in "${kernels[@]}"; do
	if [[ ! -r $k ]]; then
		say "kernel $k: not a readable file"
		echo "0 passed, 1 failed, 0 skipped"
		exit 1
	fi
done

# --- root filesystem -----------------------------------------------------
initrd=$build/initramfs.cpio
"$top/vm/mkinitramfs.sh" "$initrd" || { say "cannot build the initramfs"; exit 1; }

# --- one boot --------------------------------------------------------------
# boot NAME KERNEL ACCEL TIMEOUT APPEND: boots, streams the console with a
# prefix, leaves the log in $build/NAME.log and the seconds to the suite's
# start in $build/NAME.boot. Kills the guest on a KVM failure or a panic.
boot()
{
	local name=$1 kernel=$2 accel=$3 limit=$4 append=$5 initramfs=${6:-$initrd}
	local log=$build/$name.log qpid rc start=$EPOCHREALTIME
	# Under TCG one vCPU: with two, the guest kernel's live code patching
	# (text_poke_bp for static keys) now and then hits a stale int3 on the
	# other vCPU and oopses at boot (seen with 6.12 in sched_clock_cpu).
	local cpu=(-smp 2)
	[[ $accel == tcg ]] && cpu=(-cpu max -smp 1)

	rm -f "$build/$name.boot"
	timeout --kill-after=5 "$limit" qemu-system-x86_64 \
		-accel "$accel" "${cpu[@]}" -m 1024 \
		-nographic -no-reboot -nodefaults -serial stdio \
		-kernel "$kernel" -initrd "$initramfs" \
		-append "console=ttyS0 panic=-1 oops=panic loglevel=3 quiet $append" \
		< /dev/null > "$log" 2>&1 &
	qpid=$!
	tail -n +1 -f --pid="$qpid" "$log" 2>/dev/null |
	while IFS= read -r line; do
		line=${line%$'\r'}
		[[ -n ${QUIET_VM:-} ]] || printf '[%s] %s\n' "$name" "$line"
		case $line in
		*"FDS-VM: suite start"*)
			awk -v a="$start" -v b="$EPOCHREALTIME" \
				'BEGIN { printf "%.1f\n", b - a }' > "$build/$name.boot" ;;
		*"KVM internal error"* | *"Kernel panic"*)
			sleep 1; pkill -P "$qpid" 2>/dev/null; kill "$qpid" 2>/dev/null ;;
		esac
	done
	wait "$qpid"
	rc=$?
	awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f\n", b - a }' \
		> "$build/$name.total"
	return "$rc"
}

# verdict NAME QEMU_RC LIMIT: one line saying how the guest ended.
verdict()
{
	local log=$build/$1.log rc=$2 limit=$3 exit
	exit=$(tr -d '\r' < "$log" | sed -n 's/^FDS-VM: exit \([0-9]*\)$/\1/p' | tail -n 1)
	if [[ -n $exit ]]; then
		((exit == 0)) && echo "PASS" || echo "FAIL: the suite failed in the guest (exit $exit)"
	elif grep -q "KVM internal error" "$log"; then
		echo "FAIL: KVM internal error (try ACCEL=tcg)"
	elif grep -q "Kernel panic" "$log"; then
		echo "FAIL: kernel panic: $(tr -d '\r' < "$log" | grep -m1 -o 'Kernel panic.*')"
	elif ((rc == 124 || rc == 137)); then
		if grep -q "FDS-VM: suite start" "$log"; then
			echo "FAIL: guest hung in the suite; killed after ${limit}s"
		else
			echo "FAIL: boot never reached the suite; killed after ${limit}s"
		fi
	elif grep -q "FDS-VM: suite start" "$log"; then
		echo "FAIL: the guest stopped in the middle of the suite (qemu exit $rc)"
	else
		echo "FAIL: boot never reached the suite (qemu exit $rc)"
	fi
}

# --- accelerator -----------------------------------------------------------
# /dev/kvm can exist where KVM cannot run a guest (nested KVM here stops
# with "KVM internal error ... emulation failure"): boot once to find out.
probe_kvm()
{
	local root probe=$build/probe.cpio
	[[ -r /dev/kvm && -w /dev/kvm ]] || return 1
	root=$(mktemp -d) || return 1
	mkdir -p "$root/bin"
	cp /bin/busybox "$root/bin/"
	printf '#!/bin/busybox sh\necho FDS-VM: suite start\n/bin/busybox poweroff -f\n' > "$root/init"
	chmod 0755 "$root/init" "$root"
	(cd "$root" && find . | cpio --quiet -o -H newc -R 0:0) > "$probe"
	rm -rf "$root"
	QUIET_VM=1 boot probe "${kernels[0]}" kvm 15 "" "$probe"
	grep -q "FDS-VM: suite start" "$build/probe.log" &&
		! grep -q "KVM internal error" "$build/probe.log"
}

# The answer holds until the host reboots.
probe_cache=$build/kvm-probe
boot_id=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo unknown)
if [[ -n ${ACCEL:-} ]]; then
	accel=$ACCEL
elif [[ -f $probe_cache && $(head -n 1 "$probe_cache") == "$boot_id "* ]]; then
	accel=$(head -n 1 "$probe_cache" | cut -d' ' -f2)
	say "accelerator $accel (probed earlier since this host booted: ${probe_cache#$top/})"
elif probe_kvm; then
	accel=kvm
	echo "$boot_id kvm" > "$probe_cache"
else
	echo "$boot_id tcg" > "$probe_cache"
	accel=tcg
	why="no usable /dev/kvm"
	[[ -f $build/probe.log ]] && why="a probe guest did not boot within 15s"
	grep -q "KVM internal error" "$build/probe.log" 2>/dev/null &&
		why="KVM internal error, emulation failure"
	say "KVM does not work here ($why); using TCG"
fi
if [[ $accel == kvm ]]; then
	limit=${VM_TIMEOUT:-300}
else
	limit=${VM_TIMEOUT:-900}
fi

# --- the suite, per kernel -------------------------------------------------
rows=() pass=0 fail=0 skip=0 all_ok=1
for k in "${kernels[@]}"; do
	# Debian's kernels sit in a directory named for their package.
	name=$(basename "$k")
	case $name in
	vmlinuz | bzImage) name=$(basename "$(dirname "$k")") ;;
	esac
	say "booting $k ($accel, timeout ${limit}s)"
	boot "$name" "$k" "$accel" "$limit" "TEST_TIMEOUT=$limit ${VM_APPEND:-}"
	rc=$?
	v=$(verdict "$name" "$rc" "$limit")
	counts=$(tr -d '\r' < "$build/$name.log" |
		 grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' | tail -n 1)
	if [[ -n $counts ]]; then
		read -r p _ f _ s _ <<< "${counts//,/}"
	else
		p=0 f=1 s=0
	fi
	[[ $v == PASS ]] || { all_ok=0; ((f == 0)) && f=1; }
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	rows+=("$(printf '%-40s %-5s %7s %8s %6s %6s %7s  %s' "$name" "$accel" \
		"$(cat "$build/$name.boot" 2>/dev/null || echo -)" \
		"$(cat "$build/$name.total")" "$p" "$f" "$s" "$v")")
	say "$name: $v (console log: $build/$name.log)"
done

# --- a broken guest must fail clearly and in bounded time ------------------
if [[ ${VM_SELFTEST:-1} == 1 ]]; then
	for case in "panic:rdinit=/nonexistent root=/dev/nonexistent:kernel panic" \
		    "hang:FDS_HANG=1:guest hung"; do
		IFS=: read -r what append want <<< "$case"
		QUIET_VM=1 boot "selftest-$what" "${kernels[0]}" "$accel" 30 "$append"
		v=$(verdict "selftest-$what" $? 30)
		if [[ $v == *"$want"* && $v == FAIL* ]]; then
			res="PASS (reported: ${v#FAIL: })"
			pass=$((pass + 1))
		else
			res="FAIL: expected '$want', got: $v"
			fail=$((fail + 1)) all_ok=0
		fi
		rows+=("$(printf '%-40s %-5s %7s %8s %6s %6s %7s  %s' "selftest: $what guest" \
			"$accel" - "$(cat "$build/selftest-$what.total")" - - - "$res")")
	done
fi

echo
printf '%-40s %-5s %7s %8s %6s %6s %7s  %s\n' kernel accel "boot s" "total s" \
	passed failed skipped verdict
printf '%s\n' "${rows[@]}"
echo "$pass passed, $fail failed, $skip skipped"
((all_ok))
