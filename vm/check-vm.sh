#!/usr/bin/env bash
# make check-vm: the suite of make check inside QEMU, once per kernel, two
# guests at a time, then the kernel matrix compared with docs/kernel-matrix.md.
#   KERNELS=5.10,6.12             a subset of the matrix (data/kernels:
#                                 Debian's cloud kernels, fetched and cached
#                                 by vm/fetch-kernels.sh)
#   KERNEL="a/vmlinuz b/bzImage"  boot these instead; the column is named
#                                 after the file (or its directory)
#   ACCEL=kvm|tcg                 accelerator (default: KVM if a probe boot
#                                 works, else TCG)
#   VM_JOBS=N                     guests at once (default 2)
#   VM_TIMEOUT=seconds            per kernel (default 900 under TCG, 300 KVM)
#   VM_APPEND="..."               extra kernel command line (FDS_TESTS=NAME
#                                 runs only the tests matching NAME)
#   VM_SELFTEST=0                 skip the broken-guest checks
#   MATRIX_UPDATE=1               rewrite docs/kernel-matrix.md's columns
# Streams each guest's console, keeps it in build/vm/, and ends with a
# summary naming each failing test and step per kernel, and "N passed,
# N failed, N skipped" over all kernels. Under CI=true a skip in a guest fails.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build/vm
matrix=$top/build/matrix
cache=${CACHE:-$top/.cache}
mkdir -p "$build" "$matrix"
run_start=$EPOCHREALTIME

say() { printf 'check-vm: %s\n' "$*"; }
secs() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f\n", b - a }'; }
give_up() { say "$*"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }

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
else
	list=$("$top/vm/fetch-kernels.sh" "$cache") ||
		give_up "fetching the kernels failed (see above); nothing booted"
	while read -r l k; do
		labels+=("$l") kernels+=("$k")
	done <<< "$list"
fi
((${#kernels[@]})) || give_up "no kernel to boot"
for k in "${kernels[@]}"; do
	[[ -r $k ]] || give_up "kernel $k: not a readable file"
done

# --- root filesystem -----------------------------------------------------
initrd=$build/initramfs.cpio
"$top/vm/mkinitramfs.sh" "$initrd" || give_up "cannot build the initramfs"

# --- one boot --------------------------------------------------------------
# boot NAME KERNEL ACCEL LIMIT APPEND [INITRD]: boots, streams the console
# without its escape sequences behind a [NAME] prefix, leaves the log in
# $build/NAME.log and the seconds to the suite's start in NAME.boot. Kills
# the guest on a KVM failure or a panic, and HANG_AFTER seconds after the
# suite started if that is set (the hang self-test).
boot()
{
	local name=$1 kernel=$2 accel=$3 limit=$4 append=$5 initramfs=${6:-$initrd}
	local log=$build/$name.log qpid rc start=$EPOCHREALTIME line
	# Under TCG one vCPU: with two, the guest kernel's live code patching
	# (text_poke_bp for static keys) now and then hits a stale int3 on the
	# other vCPU and oopses at boot (seen with 6.12 in sched_clock_cpu).
	local cpu=(-smp 2)
	[[ $accel == tcg ]] && cpu=(-cpu max -smp 1)

	rm -f "$build/$name".{boot,total,killed}
	# both exist before tail follows the one and the loop appends to the other
	: > "$log.raw"
	: > "$log"
	timeout --kill-after=5 "$limit" qemu-system-x86_64 \
		-accel "$accel" "${cpu[@]}" -m 1024 \
		-nographic -no-reboot -nodefaults -serial stdio \
		-kernel "$kernel" -initrd "$initramfs" \
		-append "console=ttyS0 panic=-1 oops=panic loglevel=3 quiet $append" \
		< /dev/null > "$log.raw" 2>&1 &
	qpid=$!
	# The firmware clears the screen and sets modes: drop escape sequences
	# and carriage returns from both the stream and the kept log, and start
	# a line where FDS- lines follow the firmware's unterminated one.
	tail -n +1 -f --pid="$qpid" "$log.raw" 2>/dev/null |
	sed -u -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' -e 's/\x1b[()][0-9A-Za-z]//g' \
		-e 's/\x1bc//g' -e 's/\r//g' -e 's/^.\+\(FDS-\(VM\|MATRIX\): \)/\1/' |
	while IFS= read -r line; do
		printf '%s\n' "$line" >> "$log"
		[[ -n ${QUIET_VM:-} ]] || printf '[%s] %s\n' "$name" "$line"
		case $line in
		*"FDS-VM: suite start"*)
			secs "$start" > "$build/$name.boot"
			if [[ -n ${HANG_AFTER:-} ]]; then
				{ sleep "$HANG_AFTER"
				  echo "$HANG_AFTER" > "$build/$name.killed"
				  kill "$qpid" 2>/dev/null; } &
			fi ;;
		*"KVM internal error"* | *"Kernel panic"*)
			sleep 1; pkill -P "$qpid" 2>/dev/null; kill "$qpid" 2>/dev/null ;;
		esac
	done
	wait "$qpid"
	rc=$?
	secs "$start" > "$build/$name.total"
	rm -f "$log.raw"
	return "$rc"
}

# verdict NAME QEMU_RC LIMIT: one line saying how the guest ended.
verdict()
{
	local log=$build/$1.log rc=$2 limit=$3 exit miss
	exit=$(sed -n 's/^FDS-VM: exit \([0-9]*\)$/\1/p' "$log" | tail -n 1)
	miss=$(sed -n 's/^FDS-VM: missing //p' "$log" | head -n 1)
	if [[ -n $miss ]]; then
		echo "FAIL: the kernel lacks $miss"
	elif [[ -n $exit ]]; then
		((exit == 0)) && echo "PASS" || echo "FAIL: the suite failed in the guest (exit $exit)"
	elif grep -q "KVM internal error" "$log"; then
		echo "FAIL: KVM internal error (try ACCEL=tcg)"
	elif grep -q "Kernel panic" "$log"; then
		echo "FAIL: kernel panic: $(grep -m1 -o 'Kernel panic.*' "$log")"
	elif [[ -f $build/$1.killed ]]; then
		echo "FAIL: guest hung in the suite; killed $(<"$build/$1.killed")s after it started"
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

# failures NAME: "test: step" for each failing test case in the guest's log
# (the runner prints a test's indented KTAP, then its own ok/not ok line).
failures()
{
	awk '
		/^    (KTAP version|# [A-Za-z0-9_.-]+: [0-9.]+s$)/ { next }
		/^    +not ok [0-9]+ / { s = $0; sub(/^ +not ok [0-9]+ /, "", s); steps[n++] = s; next }
		/^    +ok [0-9]+ .* # SKIP / {
			s = $0; sub(/^ +ok [0-9]+ /, "", s); sub(/ # SKIP /, " (skipped: ", s)
			steps[n++] = s ")"; next
		}
		/^    # [^ ]+: (timed out|exited|ran no|[0-9]+ skipped)/ { s = $0; sub(/^    # [^ ]+: /, "", s); steps[n++] = s; next }
		/^not ok [0-9]+ / {
			t = $0; sub(/^not ok [0-9]+ /, "", t)
			if (n == 0) print t
			for (i = 0; i < n; i++) print t ": " steps[i]
			n = 0; next
		}
		/^ok [0-9]+ / { n = 0 }
	' "$build/$1.log"
}

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
	mkdir -p "$root/bin"
	cp /bin/busybox "$root/bin/"
	printf '#!/bin/busybox sh\necho FDS-VM: suite start\n/bin/busybox poweroff -f\n' > "$root/init"
	chmod 0755 "$root/init" "$root"
	(cd "$root" && find . | cpio --quiet -o -H newc -R 0:0) > "$probe"
	rm -rf "$root"
	QUIET_VM=1 HANG_AFTER='' boot probe "${kernels[0]}" kvm 15 "" "$probe"
	grep -q "FDS-VM: suite start" "$build/probe.log" &&
		! grep -q "KVM internal error" "$build/probe.log" && return 0
	warn=$(grep -m1 -iE "warning: .*(CPUID|feature)" "$build/probe.log")
	if grep -q "KVM internal error" "$build/probe.log"; then
		kvm_why="the probe guest stopped: $(grep -m1 -o 'KVM internal error.*' "$build/probe.log")"
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
	limit=${VM_TIMEOUT:-900}
fi

# --- the jobs: each kernel's suite, then the self-tests ---------------------
# run_kernel LABEL KERNEL: one guest; leaves NAME.verdict, NAME.counts,
# NAME.failures and build/matrix/LABEL.{tsv,release}.
run_kernel()
{
	local label=$1 k=$2 name=$1 v counts
	say "booting $label: $k ($accel, timeout ${limit}s)"
	boot "$name" "$k" "$accel" "$limit" \
		"TEST_TIMEOUT=$limit${CI:+ CI=$CI} ${VM_APPEND:-}"
	v=$(verdict "$name" $? "$limit")
	counts=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$build/$name.log" | tail -n 1)
	echo "${counts:-0 passed, 1 failed, 0 skipped}" > "$build/$name.counts"
	echo "$v" > "$build/$name.verdict"
	failures "$name" > "$build/$name.failures"
	rm -f "$matrix/$label.tsv" "$matrix/$label.release"
	if grep -q '^FDS-VM: exit [0-9]' "$build/$name.log"; then
		sed -n 's/^FDS-MATRIX: //p' "$build/$name.log" > "$matrix/$label.tsv"
		sed -n 's/^FDS-VM: kernel //p' "$build/$name.log" | head -n 1 > "$matrix/$label.release"
	fi
	say "$label: $v ($(<"$build/$name.total")s; console log: ${build#"$top"/}/$name.log)"
}

# A broken guest must fail clearly and in bounded time.
selftests=("panic:rdinit=/nonexistent root=/dev/nonexistent:kernel panic:"
	   "hang:FDS_HANG=1:guest hung:3"
	   "no-bpffs:FDS_HIDE=bpffs:the kernel lacks bpffs:")
run_selftest()
{
	local what append want after v
	IFS=: read -r what append want after <<< "$1"
	QUIET_VM=1 HANG_AFTER=$after boot "selftest-$what" "${kernels[0]}" "$accel" 120 "$append"
	v=$(verdict "selftest-$what" $? 120)
	if [[ $v == *"$want"* && $v == FAIL* ]]; then
		echo "PASS (reported: ${v#FAIL: })"
	else
		echo "FAIL: expected '$want', got: $v"
	fi > "$build/selftest-$what.verdict"
}

jobs_max=${VM_JOBS:-2}
# Newest first: newer kernels take longer, and the short self-tests fill
# the gaps at the end.
for ((i = ${#kernels[@]} - 1; i >= 0; i--)); do
	while (($(jobs -rp | wc -l) >= jobs_max)); do wait -n; done
	HANG_AFTER='' run_kernel "${labels[i]}" "${kernels[i]}" &
done
if [[ ${VM_SELFTEST:-1} == 1 ]]; then
	for c in "${selftests[@]}"; do
		while (($(jobs -rp | wc -l) >= jobs_max)); do wait -n; done
		run_selftest "$c" &
	done
fi
wait

# --- summary ---------------------------------------------------------------
# One format for the table's every line, kept in a variable on purpose
# (SC2059 is disabled where printf uses it).
fmt='%-28s %-5s %7s %8s %6s %6s %7s  %s\n'
pass=0 fail=0 skip=0 all_ok=1 rows=() details=() cols=()
rm -f "$build/summary.tsv.new"
for label in "${labels[@]}"; do
	v=$(<"$build/$label.verdict")
	read -r p _ f _ s _ <<< "$(tr -d , < "$build/$label.counts")"
	[[ $v == PASS ]] || { all_ok=0; ((f == 0)) && f=1; }
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	boot_s=$(cat "$build/$label.boot" 2>/dev/null || echo -)
	# shellcheck disable=SC2059
	rows+=("$(printf "$fmt" "$label" "$accel" "$boot_s" \
		"$(<"$build/$label.total")" "$p" "$f" "$s" "$v")")
	printf '%s\t%s\t%s\t%s\t%s\n' "$label" "$accel" "$boot_s" \
		"$(<"$build/$label.total")" "$v" >> "$build/summary.tsv.new"
	while IFS= read -r line; do
		details+=("  $label: $line")
	done < "$build/$label.failures"
	[[ -f $matrix/$label.tsv ]] && cols+=("$label=$matrix/$label.tsv")
done
if [[ ${VM_SELFTEST:-1} == 1 ]]; then
	for c in "${selftests[@]}"; do
		what=${c%%:*}
		v=$(<"$build/selftest-$what.verdict")
		if [[ $v == PASS* ]]; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1)) all_ok=0
		fi
		# shellcheck disable=SC2059
		rows+=("$(printf "$fmt" "selftest: $what" "$accel" - \
			"$(<"$build/selftest-$what.total")" - - - "$v")")
	done
fi

echo
if [[ " ${VM_APPEND:-} " == *" FDS_TESTS="* ]]; then
	say "a part of the suite ran (FDS_TESTS); the kernel matrix is not compared"
elif ((${#cols[@]})); then
	echo "Kernel matrix (docs/kernel-matrix.md):"
	if [[ ${MATRIX_UPDATE:-} == 1 ]]; then
		"$top/scripts/matrix.sh" update "${cols[@]}" || { all_ok=0; fail=$((fail + 1)); }
	else
		"$top/scripts/matrix.sh" check "${cols[@]}" || { all_ok=0; fail=$((fail + 1)); }
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
say "whole run: ${wall}s wall, $jobs_max guests at a time"
# for make bench: per kernel, then the whole run
printf 'whole\t%s\t-\t%s\t%s guests at a time\n' "$accel" "$wall" "$jobs_max" >> "$build/summary.tsv.new"
mv "$build/summary.tsv.new" "$build/summary.tsv"
echo "$pass passed, $fail failed, $skip skipped"
((all_ok))
