#!/usr/bin/env bash
# bench/kernel.sh (make bench's kernel part): what a kernel developer waits
# for with make check-vm KERNEL_SRC and make kernel-mutate, on Debian's
# linux-source-6.12 configured by vm/kernel-src.sh, in build/bench-kernel
# (its own scratch tree of hard links and O= directory):
#   cold build         from an empty O= directory
#   incremental build  after one file of the pinning code changed
#                      (kernel/bpf/inode.c, a fresh copy: the same text,
#                      a new time)
#   judged mutant      scripts/kernel_mutate.py on one mutant of
#                      tests/kernel-mutants.txt (BENCH_KERNEL_MUTANT,
#                      default the list's first): its build, the boot and
#                      the guest suite, as make kernel-mutate judges it
# Each figure is gated as a ratio to a reference measured just before it
# (bench/reference.sh: the builds to ref_compile, the mutant to ref_guest)
# against bench/kernel-baseline: more than 1.2 times the baseline's ratio
# fails (bench/gate.sh). BENCH_UPDATE=1 writes this run's ratios there
# instead. Exits 1 on a regression or a failed step.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
baseline=${BENCH_KERNEL_BASELINE:-bench/kernel-baseline}
work=build/bench-kernel
log=$work/logs
mkdir -p "$log"
. bench/reference.sh
. bench/gate.sh

pristine=$(vm/kernel-src.sh --unpack) || { echo "bench: no kernel source"; exit 1; }
[[ -d $work/src ]] || cp -al "$pristine" "$work/src" || exit 1
declare -A secs=() refs=() ratio=() base=()

# build WHAT: vm/kernel-src.sh on the scratch tree, timed into secs[WHAT]
# over a compile reference taken just before.
build()
{
	ref_compile "$pristine" || return 1
	refs[$1]=$REF_SECONDS
	ref_time vm/kernel-src.sh "$work/src" "$work/out" > "$log/$1.out" 2> "$log/$1.log" ||
		{ echo "bench: the $1 build failed (see $log/$1.log)"; return 1; }
	secs[$1]=$REF_ONE
	ratio[$1]=$(ref_ratio "${secs[$1]}" "${refs[$1]}")
}

failed=0
rm -rf "$work/out"
build cold || failed=1
rm "$work/src/kernel/bpf/inode.c" &&
	cp "$pristine/kernel/bpf/inode.c" "$work/src/kernel/bpf/inode.c" || exit 1
build incremental || failed=1

# the judged mutant, in the same scratch tree and O= directory
mutant=${BENCH_KERNEL_MUTANT:-$(awk '$1 == "id:" { print $2; exit }' tests/kernel-mutants.txt)}
ref_guest "$log" || exit 1
refs[mutant]=$REF_SECONDS
KERNEL_MUTATE_SRC=$pristine KERNEL_MUTATE_DIR=$top/$work KERNEL_MUTATE_BASELINE=0 \
	ref_time scripts/kernel_mutate.py "$mutant" > "$log/mutant.log" 2>&1
# killed or not, it was judged: its line names it, its seconds in ( s)
if grep -Eq "^(killed|SURVIVED|equivalent) +$mutant " "$log/mutant.log"; then
	secs[mutant]=$REF_ONE
	ratio[mutant]=$(ref_ratio "$REF_ONE" "${refs[mutant]}")
else
	echo "bench: mutant $mutant was not judged (see $log/mutant.log)"
	failed=1
fi

kernel_baseline()
{
	echo "# make bench's kernel baseline (bench/kernel.sh), the 2-core CI machine"
	echo "# kind, $(date -u +%Y-%m-%d): each figure's ratio to its reference"
	echo "# (the builds: ref_compile, ${refs[cold]} s and ${refs[incremental]} s; the"
	echo "# mutant $mutant: ref_guest, ${refs[mutant]} s). BENCH_UPDATE=1 make bench"
	echo "# rewrites this file."
	for what in cold incremental mutant; do
		printf '%s\t%s\n' "$what" "${ratio[$what]}"
	done
}
gate_write_baseline "$baseline" "$failed" kernel_baseline

if [[ -f $baseline ]]; then
	while read -r what r; do
		[[ $what == \#* || -z $what ]] || base[$what]=$r
	done < "$baseline"
fi

echo "## A kernel from source, as ratios to a reference taken just before each (more than 1.2x the baseline's ratio fails)"
gate_header
gate_row "cold build" "${secs[cold]:-}" "${refs[cold]:-}" "${ratio[cold]:-}" "${base[cold]:-}" -
gate_row "incremental build (inode.c)" "${secs[incremental]:-}" "${refs[incremental]:-}" \
	"${ratio[incremental]:-}" "${base[incremental]:-}" -
gate_row "judged mutant ($mutant)" "${secs[mutant]:-}" "${refs[mutant]:-}" \
	"${ratio[mutant]:-}" "${base[mutant]:-}" 60
((failed == 0 && gate_failed == 0))
