#!/usr/bin/env bash
# For git bisect run, in a kernel tree (x86-64): which commit broke a
# pinning behaviour the suite checks.
#   cd linux && git bisect start BAD GOOD
#   git bisect run /path/to/fds_example/vm/bisect-run.sh [TEST...]
# At each commit: builds the tree (vm/kernel-src.sh, out of tree in the
# project's build/kernel/bisect-*, incrementally from one commit to the
# next), boots it with make check-vm and runs the whole guest suite, or
# each TEST named (a test's name, as make check-vm's VM_APPEND=FDS_TESTS=NAME takes it).
# BISECT_ROWS="ROW=VALUE ...": the kernel matrix's rows (tests/data and
# docs/kernel-matrix.md name them) must also have these values.
# Exit status, as git bisect run reads it: 0 good; 1 bad (a test failed,
# the guest panicked or hung, a row differs); 125 this commit cannot be
# tested (it does not configure or build); 128 something else is broken
# (no QEMU, a bad argument), which stops the bisection.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
say() { printf 'bisect-run: %s\n' "$*" >&2; }
abort() { say "$*"; exit 128; }

src=$(git rev-parse --show-toplevel 2> /dev/null) || abort "run me in a kernel tree (git bisect run)"
for r in ${BISECT_ROWS:-}; do
	[[ $r == ?*=?* ]] || abort "BISECT_ROWS: $r is not ROW=VALUE"
done
out=$top/build/kernel/bisect-$(printf '%s' "$src" | cksum | cut -d' ' -f1)
commit=$(git rev-parse --short HEAD)

line=$("$top/vm/kernel-src.sh" "$src" "$out")
case $? in
0) ;;
125) say "$commit: cannot be tested (it does not build)"; exit 125 ;;
*) abort "$commit: vm/kernel-src.sh failed; stopping" ;;
esac
read -r label image <<< "$line"

# guest RUN_NAME [TEST]: check-vm on the image, the whole suite or TEST.
# 0: passed; 1: failed in a way the kernel decides; 128: nothing booted.
guest()
{
	local log=$out/check-vm.$1.log rc
	local args=(KERNELS=none KERNEL="$image" VM_SELFTEST=0)
	[[ -n ${2:-} ]] && args+=(VM_SHARDS=1 VM_APPEND="FDS_TESTS=$2")
	rm -f "$top/build/vm/$label.verdict" "$top/build/vm/$label"-shard*.verdict
	QUIET_VM=1 make -s -C "$top" check-vm "${args[@]}" > "$log" 2>&1
	rc=$?
	((rc == 0)) && return 0
	if [[ ! -f $top/build/vm/$label.verdict && ! -f $top/build/vm/$label-shard1.verdict ]]; then
		tail -n 5 "$log" >&2
		return 128
	fi
	grep -E "^  $label|^matrix: .*row |FAIL" "$log" | head -n 5 >&2
	return 1
}

verdict=0
if (($# == 0)); then
	guest suite
	verdict=$?
fi
for t in "$@"; do
	guest "$t" "$t"
	rc=$?
	((rc > verdict)) && verdict=$rc
done
((verdict == 128)) && abort "$commit: no guest booted (see $out/check-vm.*.log); stopping"

# the rows named, from the results of the last run
for r in ${BISECT_ROWS:-}; do
	got=$(awk -F '\t' -v row="${r%%=*}" '$1 == row { print $2 }' \
		"$top/build/results/$label/matrix.tsv" 2> /dev/null)
	if [[ $got != "${r#*=}" ]]; then
		say "$commit: row ${r%%=*} is ${got:-not observed}, not ${r#*=}"
		verdict=1
	fi
done
say "$commit: $( ((verdict == 0)) && echo good || echo bad)"
exit "$verdict"
