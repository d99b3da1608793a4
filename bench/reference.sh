# shellcheck shell=bash
# The references make bench judges its figures by, sourced from the top of
# the tree: workloads that no change to this project can make faster or
# slower, measured in the same run on the same machine, so that each
# figure is gated as a ratio to what the machine did at that moment (a
# figure's absolute seconds are information only). Each is the median of
# BENCH_REF_RUNS (default 3) runs, in seconds:
#   ref_guest    two QEMU guests at once under TCG (check-vm's way: pc,
#                -cpu qemu64, one vCPU, 1 GiB each), Debian's 6.1 kernel
#                booted with no initramfs to its panic (no root) and off:
#                the kernel's boot, which the guest suite's figures share
#   ref_compile  cc -O2 on six C files of the cached kernel source's
#                scripts/kconfig, two at a time (make -j2 on 2 cores): the
#                compiler's work, which the kernel builds' figures share
# Both set REF_SECONDS, or print why not and return 1.

REF_RUNS=${BENCH_REF_RUNS:-3}

# ref_median VALUE...: the middle one (the lower of the two middle ones).
ref_median()
{
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# ref_time CMD...: CMD's wall seconds (one decimal) in REF_ONE; its status.
ref_time()
{
	local t0=$EPOCHREALTIME rc=0
	"$@" || rc=$?
	REF_ONE=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	return "$rc"
}

# ref_repeat WHAT CMD...: CMD REF_RUNS times; REF_SECONDS their median.
ref_repeat()
{
	local what=$1 i times=()
	shift
	for ((i = 1; i <= REF_RUNS; i++)); do
		ref_time "$@" || { echo "bench: the $what reference failed"; return 1; }
		times+=("$REF_ONE")
	done
	# shellcheck disable=SC2034 # read by the scripts that source this file
	REF_SECONDS=$(ref_median "${times[@]}")
}

# ref_guest_pair VMLINUZ LOGDIR: two guests at once, each to its panic.
ref_guest_pair()
{
	local k pids=() rc=0
	for k in 1 2; do
		qemu-system-x86_64 -M pc -accel tcg -cpu qemu64 -smp 1 -m 1024 \
			-display none -monitor none -no-reboot \
			-serial "file:$2/ref-guest-$k.log" -kernel "$1" \
			-append "console=ttyS0 panic=-1" > "$2/ref-guest-$k.qemu" 2>&1 &
		pids+=($!)
	done
	for k in "${pids[@]}"; do
		wait "$k" || rc=1
	done
	# the panic is the end the reference is for: no root to mount
	grep -q 'Kernel panic' "$2/ref-guest-1.log" "$2/ref-guest-2.log" || rc=1
	return "$rc"
}

# ref_guest LOGDIR
ref_guest()
{
	local vmlinuz
	vmlinuz=$(KERNELS=6.1 vm/fetch-kernels.sh .cache 2> "$1/ref-fetch.log" |
		awk '$1 == "6.1" { print $2 }')
	[[ -f $vmlinuz ]] || { echo "bench: no 6.1 kernel for the reference (see $1/ref-fetch.log)"; return 1; }
	ref_repeat guest ref_guest_pair "$vmlinuz" "$1"
}

# ref_compile_once SRC
ref_compile_once()
{
	printf '%s\n' confdata expr menu symbol util preprocess |
		xargs -P 2 -I{} cc -O2 -I"$1/scripts/include" -I"$1/scripts/kconfig" \
			-c -o /dev/null "$1/scripts/kconfig/{}.c"
}

# ref_compile SRC: SRC the kernel tree (vm/kernel-src.sh --unpack's).
ref_compile()
{
	[[ -f $1/scripts/kconfig/confdata.c ]] || { echo "bench: no kernel tree at $1"; return 1; }
	ref_repeat compile ref_compile_once "$1"
}

# ref_ratio SECONDS REFERENCE: SECONDS / REFERENCE, two decimals.
ref_ratio()
{
	awk -v s="$1" -v r="$2" 'BEGIN { printf "%.2f\n", s / r }'
}
