#!/usr/bin/env bash
# make bench: the project's costs measured side by side in one run, printed
# as a table. Only the guests' and the source kernel's times can fail it
# (bench/vm.sh, bench/kernel.sh: each figure's ratio to a reference
# measured in the same run, more than 20 % over its baseline's ratio); the
# other numbers go to stdout.
#   BENCH_VM=0       skip the QEMU figures (they take most of the time)
#   BENCH_KERNEL=0   skip the kernel built from source (a cold build: about
#                    10 minutes)
#   BENCH_RUNS=N     hyperfine runs per command (default 100)
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
if [[ -z ${FDS_BENCH_NS:-} ]]; then
	FDS_BENCH_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi
if ((EUID != 0)); then
	echo "make bench: needs root (CAP_BPF, CAP_SYS_ADMIN)" >&2
	exit 1
fi

T=$(mktemp -d /tmp/fds-bench.XXXXXX) || exit 1
FS=$T/fs
mkdir "$FS"
trap 'umount -l "$FS" 2>/dev/null; rm -rf "$T"' EXIT
mount -t bpf bpf "$FS" || exit 1
runs=${BENCH_RUNS:-100}
fds=$top/fds_example

echo "# make bench, $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -r), $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo

# --- whole processes -------------------------------------------------------
# hyperfine's CSV: command,mean,stddev,median,user,system,min,max (seconds)
csv_row() { awk -F, 'NR == 2 { printf "%.3f %.3f %.3f", $4 * 1000, $5 * 1000, $6 * 1000 }' "$1"; }

compare()
{
	local label=$1 ours=$2 theirs=$3 prepare=${4:-true}
	hyperfine -N --style none --warmup 5 --runs "$runs" \
		--prepare "$prepare" --export-csv "$T/a.csv" "$ours" > /dev/null 2>&1 ||
		{ echo "bench: hyperfine failed on: $ours" >&2; return 1; }
	read -r am au as <<< "$(csv_row "$T/a.csv")"
	if [[ -n $theirs ]]; then
		hyperfine -N --style none --warmup 5 --runs "$runs" \
			--prepare "$prepare" --export-csv "$T/b.csv" "$theirs" > /dev/null 2>&1 ||
			{ echo "bench: hyperfine failed on: $theirs" >&2; return 1; }
		read -r bm bu bs <<< "$(csv_row "$T/b.csv")"
		printf '%-34s %9.2f %8.2f %8.2f   %-18s %9.2f %8.2f %8.2f  %6.2fx\n' \
			"$label" "$am" "$au" "$as" "bpftool" "$bm" "$bu" "$bs" \
			"$(awk -v a="$am" -v b="$bm" 'BEGIN { print a / b }')"
	else
		printf '%-34s %9.2f %8.2f %8.2f\n' "$label" "$am" "$au" "$as"
	fi
}

"$fds" -F "$FS/m" -P -m -k 1 -v 1 > /dev/null || exit 1
echo "## Whole process (hyperfine, $runs runs; ms: median wall, mean user, mean sys)"
printf '%-34s %9s %8s %8s   %-18s %9s %8s %8s  %7s\n' command wall user sys \
	"against" wall user sys ratio
compare "fds_example -G -m -k 1" "$fds -F $FS/m -G -m -k 1" \
	"bpftool map lookup pinned $FS/m key 1 0 0 0"
compare "fds_example -G -m -k 1 -v 2" "$fds -F $FS/m -G -m -k 1 -v 2" \
	"bpftool map update pinned $FS/m key 1 0 0 0 value 2 0 0 0"
compare "fds_example -P -p (load+pin+attach)" "$fds -F $FS/p -P -p" "" "rm -f $FS/p"
compare "fds_example -P -p -o sockex1_kern.o" "$fds -F $FS/p2 -P -p -o $top/sockex1_kern.o" \
	"" "rm -f $FS/p2"
echo

# --- in process ------------------------------------------------------------
echo "## In process (bench_ops: median of 9 alternating runs of 200,000 calls)"
"$top/bench/bench_ops" "$FS" > "$T/ops" || exit 1
val() { awk -v k="$1" '$1 == k { print $2 }' "$T/ops"; }
printf '%-34s %9s %9s %7s\n' "map call" "libbpf.c" "raw bpf()" ratio
for op in update lookup; do
	printf '%-34s %6.1f ns %6.1f ns %6.2fx\n' "$op" "$(val ${op}_libbpf)" "$(val ${op}_raw)" \
		"$(awk -v a="$(val ${op}_libbpf)" -v b="$(val ${op}_raw)" 'BEGIN { print a / b }')"
done
echo
echo "## A bpffs tree of N maps in directories of 100 (ns per operation)"
printf '%-34s %9s %9s %9s\n' "maps" pin get unpin
for n in 1000 10000; do
	printf '%-34s %9s %9s %9s\n' "$n" "$(val pin_$n)" "$(val get_$n)" "$(val unpin_$n)"
done
echo

# --- the suites --------------------------------------------------------------
echo "## Suites (wall time)"
t0=$EPOCHREALTIME
tests/run.sh > "$T/check.log" 2>&1
rc=$?
printf '%-34s %8.1f s  (%s)\n' "make check (native)" \
	"$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')" \
	"$(tail -n 1 "$T/check.log")$( ((rc)) && echo ', FAILED')"

if [[ ${BENCH_VM:-1} == 1 ]]; then
	bench/vm.sh || bench_failed=1
else
	echo "make check-vm                      skipped (BENCH_VM=0)"
fi
echo
if [[ ${BENCH_KERNEL:-1} == 1 ]]; then
	bench/kernel.sh || bench_failed=1
else
	echo "a kernel from source               skipped (BENCH_KERNEL=0)"
fi
exit "${bench_failed:-0}"
