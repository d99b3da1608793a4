#!/usr/bin/env bash
# bench/guests.sh: which QEMU settings bring amd64's guests from boot to
# verdict fastest under TCG. Each variant runs make check-vm's default
# matrix once, as make check-vm runs it (two guests of one vCPU at a time,
# a kernel's suite shared by two of them; no
# self-tests), and prints one row per kernel: seconds to the suite's start,
# seconds to the verdict, the verdict; then the whole matrix's wall time.
# The table in docs/guest-speed.md ("QEMU's settings") is one run of this script.
# Nothing passes or fails here: the numbers go to stdout, the variants'
# logs to build/bench-guests/.
#   BENCH_VARIANTS="a b"   the variants by name (default: all below)
#   BENCH_KERNELS=6.1,sid  the kernels (default: the whole default matrix)
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
out=build/bench-guests
mkdir -p "$out"
. bench/matrix.sh

# NAME|VM_MACHINE|VM_CPU|VM_ACCEL_OPTS|VM_APPEND|TIMEOUT|VAR=VALUE: an
# empty field keeps check-vm's own (pc, data/arches' -cpu: qemu64 on x86,
# -accel tcg with QEMU's defaults: thread=multi, a 1 GiB translation
# cache; nothing appended; 900 s; the kernel started at its PVH entry).
# microvm has one UART where the guest needs three, and none of the
# Debian cloud kernels here has virtio-mmio's console for the other two:
# its short timeout shows that it never reaches the suite.
variants=(
	"pc, -cpu qemu64 (check-vm's)|||||"
	"bzImage (VM_PVH=0)||||||VM_PVH=0"
	"q35|q35||||"
	"microvm|microvm||||60"
	"-cpu max||max|||"
	"tb-size=256|||tb-size=256||"
	"thread=single|||thread=single||"
	"mitigations=off||||mitigations=off|"
	"no probes||||raid=noautodetect tsc=reliable no_timer_check noreplace-smp mitigations=off|"
	"ASLR on (FDS_ASLR=1)||||FDS_ASLR=1|"
)

wanted=${BENCH_VARIANTS:-}
printf '%-22s %-8s %7s %10s  %s\n' variant kernel "boot s" "verdict s" verdict
n=0
for v in "${variants[@]}"; do
	IFS='|' read -r name machine cpu opts append limit var <<< "$v"
	n=$((n + 1))
	[[ -z $wanted || " $wanted " == *" $name "* || " $wanted " == *" $n "* ]] || continue
	log=$out/$n.log
	matrix_run "$log" VM_SELFTEST=0 VM_MACHINE="$machine" VM_CPU="$cpu" \
		VM_ACCEL_OPTS="$opts" VM_APPEND="$append" ${limit:+VM_TIMEOUT=$limit} ${var:+"$var"}
	rc=$?
	if ((${#M_LABELS[@]} == 0)); then
		printf '%-22s %-8s %7s %10s  %s\n' "$name" - - - "no summary (exit $rc; see $log)"
		continue
	fi
	for label in "${M_LABELS[@]}"; do
		printf '%-22s %-8s %7s %10s  %s\n' "$name" "$label" "${M_BOOT[$label]}" \
			"${M_TOTAL[$label]}" "${M_VERDICT[$label]}"
	done
	printf '%-22s %-8s %7s %10s  %s\n' "$name" matrix - "${M_TOTAL[whole]}" \
		"wall, ${M_VERDICT[whole]}"
	cp build/vm/summary.tsv "$out/$n.tsv"
done
