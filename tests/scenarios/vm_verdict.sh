#!/usr/bin/env bash
# vm/verdict.sh, the code of make check-vm that judges its guests: a
# guest's results archive unpacked (on its own port, or behind "results"
# on a port shared with the events), the one line saying how the guest
# ended, and a kernel's shards put together. On made-up guests under $T,
# no QEMU booted: make check reaches here what otherwise runs only inside
# make check-vm. Each branch, its exact lines. About the source tree's
# scripts, the same on every kernel: not installed by make
# kselftest-install, so left out of the QEMU guests too.
# kernel-independent: the harness's own tests; no kernel call
# kselftest: source tree only
. "$(dirname "$0")/../lib.sh"
scenario_begin

# check-vm.sh's variables, which verdict.sh reads: amd64's ports, one for
# the results and one for the events (a step that wants s390x's one port
# for both sets them alike), two guests per kernel.
# shellcheck disable=SC2034 # read by vm/verdict.sh
build=$T/build results=$T/results results_port=ttyS1 events_port=ttyS2 shards=2
mkdir -p "$build" "$results"
# shellcheck source=vm/verdict.sh
. "$TOP/vm/verdict.sh"

# expect_absent PATH...: none of them exists.
expect_absent()
{
	local p
	for p in "$@"; do
		[[ ! -e $p ]] || fail "${p#"$T"/} exists"
	done
}

# archive FILE [PATH=TEXT...]: FILE, a tar archive as vm/init sends one
# ("tar -c results" in /tmp): the directory results, holding each PATH
# (results/...) with TEXT in it (printf's %b: \n and \t in TEXT).
archive()
{
	local out=$1 src=$T/archive.src spec
	shift
	rm -rf "$src"
	mkdir -p "$src/results"
	for spec in "$@"; do
		printf '%b\n' "${spec#*=}" > "$src/${spec%%=*}"
	done
	tar -c -f "$out" -C "$src" results
	rm -rf "$src"
}

# unpack NAME: unpack_results NAME $T/unpacked/NAME, as check-vm.sh calls
# it (set -u, no errexit); its exit status in $status. It prints nothing.
unpack()
{
	status=0
	(set +e; unpack_results "$1" "$T/unpacked/$1") > "$T/out" 2> "$T/err" || status=$?
	echo "unpack_results $1 -> exit $status" >&2
	expect_out
	expect_no_err
}

# guest NAME [EVENT...]: what boot leaves of a guest whose QEMU and console
# said nothing: empty NAME.qemu and NAME.log, and its events port's lines
# in NAME.events.
guest()
{
	local name=$1
	shift
	: > "$build/$name.qemu"
	: > "$build/$name.log"
	: > "$build/$name.events"
	(($# == 0)) || printf '%s\n' "$@" > "$build/$name.events"
}

# results_dir NAME [FILE=TEXT...]: $T/dir/NAME, the guest's results as
# unpack_results leaves them, each FILE holding TEXT. Prints its path.
results_dir()
{
	local dir=$T/dir/$1 spec
	shift
	mkdir -p "$dir"
	for spec in "$@"; do
		printf '%s\n' "${spec#*=}" > "$dir/${spec%%=*}"
	done
	echo "$dir"
}

# expect_verdict NAME RC LIMIT DIR LINE: verdict NAME RC LIMIT DIR, as
# check-vm.sh calls it, prints exactly LINE and nothing on stderr.
expect_verdict()
{
	(set +e; verdict "$1" "$2" "$3" "$4") > "$T/out" 2> "$T/err" || true
	echo "verdict $1 $2 $3 ${4#"$T"/}" >&2
	show_file "  out: " "$T/out" >&2
	expect_out "$5"
	expect_no_err
}

# shard LABEL K VERDICT [FILE=TEXT...]: guest K of LABEL's as run_kernel
# leaves it: VERDICT in build/LABEL-shardK.verdict (none for -), each FILE
# holding TEXT (%b): a file of its results directory (shard-K), or, for
# .span, .boot, .ktap-check, build's LABEL-shardK.span...
shard()
{
	local name=$1-shard$2 sd=$results/$1/shard-$2 v=$3 spec file
	shift 3
	mkdir -p "$sd"
	[[ $v == - ]] || echo "$v" > "$build/$name.verdict"
	for spec in "$@"; do
		file=${spec%%=*}
		if [[ $file == .* ]]; then
			file=$build/$name$file
		else
			file=$sd/$file
		fi
		printf '%b\n' "${spec#*=}" > "$file"
	done
}

# merge LABEL: merge_shards LABEL, as check-vm.sh calls it; it prints
# nothing.
merge()
{
	(set +e; merge_shards "$1") > "$T/out" 2> "$T/err" || true
	expect_out
	expect_no_err
}

# --- unpack_results ----------------------------------------------------------

step "unpack_results: no archive, or an empty one, fails and leaves no directory" '
	mkdir -p "$T/unpacked/none/old" "$T/unpacked/none.new"
	unpack none
	expect_status 1
	expect_absent "$T/unpacked/none" "$T/unpacked/none.new"
	: > "$build/empty.results"
	unpack empty
	expect_status 1
	expect_absent "$T/unpacked/empty" "$T/unpacked/empty.new"
'

step "unpack_results: a whole archive replaces DIR with its results directory" '
	archive "$build/good.results" results/exit=0 results/kernel=6.1.0-28-cloud-amd64 \
		"results/counts=41 0 2" "results/failures=a: b\nc: d"
	mkdir -p "$T/unpacked/good/stale" "$T/unpacked/good.new/results"
	unpack good
	expect_status 0
	expect_file "$T/unpacked/good/exit" 0
	expect_file "$T/unpacked/good/kernel" 6.1.0-28-cloud-amd64
	expect_file "$T/unpacked/good/counts" "41 0 2"
	expect_file "$T/unpacked/good/failures" "a: b" "c: d"
	expect_absent "$T/unpacked/good/stale" "$T/unpacked/good/results" "$T/unpacked/good.new"
	expect_absent "$build/good.tar"
'

step "unpack_results: an archive without results/exit, or not an archive, fails and leaves nothing" '
	archive "$build/no-exit.results" results/kernel=6.1.0-28-cloud-amd64 "results/counts=1 0 0"
	unpack no-exit
	expect_status 1
	expect_absent "$T/unpacked/no-exit" "$T/unpacked/no-exit.new"
	printf "not a tar archive\n" > "$build/junk.results"
	unpack junk
	expect_status 1
	expect_absent "$T/unpacked/junk" "$T/unpacked/junk.new"
	# cut short after the directory entry (a tar block)
	archive "$T/whole.tar" results/exit=0
	head -c 512 "$T/whole.tar" > "$build/cut.results"
	unpack cut
	expect_status 1
	expect_absent "$T/unpacked/cut" "$T/unpacked/cut.new"
'

step "unpack_results: on a port shared with the events, the archive behind the line \"results\"" '
	results_port=ttysclp0 events_port=ttysclp0
	archive "$T/shared.tar" results/exit=3 "results/missing=bpffs (not in /proc/filesystems)"
	{ printf "suite start\nno results yet\nresults\n"; cat "$T/shared.tar"; } > "$build/shared.results"
	unpack shared
	expect_status 0
	expect_file "$T/unpacked/shared/exit" 3
	expect_file "$T/unpacked/shared/missing" "bpffs (not in /proc/filesystems)"
	cmp "$T/shared.tar" "$build/shared.tar" || fail "shared.tar is not the archive behind \"results\""
	expect_absent "$T/unpacked/shared.new"
	# no line "results": the guest never sent its archive
	printf "suite start\nno results yet\n" > "$build/unsent.results"
	unpack unsent
	expect_status 1
	expect_absent "$T/unpacked/unsent" "$T/unpacked/unsent.new"
	# "results", then nothing
	printf "suite start\nresults\n" > "$build/empty-tar.results"
	unpack empty-tar
	expect_status 1
	expect_absent "$T/unpacked/empty-tar" "$T/unpacked/empty-tar.new"
'

step "unpack_results: on a port shared with the events, no archive fails quietly and leaves nothing" '
	results_port=ttysclp0 events_port=ttysclp0
	mkdir -p "$T/unpacked/unshared/old"
	unpack unshared
	expect_status 1
	expect_absent "$T/unpacked/unshared" "$T/unpacked/unshared.new" "$build/unshared.tar"
'

step "unpack_results: on a port of its own, lines before the archive spoil it" '
	archive "$T/own.tar" results/exit=0
	{ printf "results\n"; cat "$T/own.tar"; } > "$build/own.results"
	unpack own
	expect_status 1
	expect_absent "$T/unpacked/own" "$T/unpacked/own.new" "$build/own.tar"
'

# --- verdict -----------------------------------------------------------------

step "verdict: a missing kernel feature is named, before the exit it left" '
	guest lacks
	dir=$(results_dir lacks "missing=bpffs (not in /proc/filesystems)" exit=3)
	expect_verdict lacks 0 900 "$dir" "FAIL: the kernel lacks bpffs (not in /proc/filesystems)"
'

step "verdict: exit 0 is PASS, whatever else the guest left" '
	guest pass "suite start"
	dir=$(results_dir pass exit=0)
	expect_verdict pass 0 900 "$dir" PASS
	echo "KVM internal error. Suberror: 1" > "$build/pass.qemu"
	echo 3 > "$build/pass.killed"
	expect_verdict pass 124 900 "$dir" PASS
'

step "verdict: another exit fails, quoted" '
	guest failed "suite start"
	dir=$(results_dir failed exit=1)
	expect_verdict failed 0 900 "$dir" "FAIL: the suite failed in the guest (exit 1)"
	echo 3 > "$dir/exit"
	expect_verdict failed 0 900 "$dir" "FAIL: the suite failed in the guest (exit 3)"
'

step "verdict: without results, a KVM internal error in QEMU's messages, before a kill" '
	guest kvm
	printf "%s\n" "KVM internal error. Suberror: 1" "emulation failure" > "$build/kvm.qemu"
	echo 3 > "$build/kvm.killed"
	expect_verdict kvm 124 300 "$T/dir/kvm" "FAIL: KVM internal error (try ACCEL=tcg)"
'

step "verdict: a guest the hang self-test killed says after how long, before the timeout" '
	guest hung "suite start"
	echo 3 > "$build/hung.killed"
	expect_verdict hung 143 120 "$T/dir/hung" "FAIL: guest hung in the suite; killed 3s after it started"
	expect_verdict hung 124 120 "$T/dir/hung" "FAIL: guest hung in the suite; killed 3s after it started"
'

step "verdict: timeout's 124 and 137, after the suite start and before it" '
	guest late "FDS-VM: ready" "suite start"
	guest early "FDS-VM: ready" "suite starting" "not suite start"
	for rc in 124 137; do
		expect_verdict late "$rc" 900 "$T/dir/late" "FAIL: guest hung in the suite; killed after 900s"
		expect_verdict early "$rc" 120 "$T/dir/early" "FAIL: boot never reached the suite; killed after 120s"
	done
'

step "verdict: a guest that stopped in the suite, its console's first panic quoted" '
	guest mid "suite start"
	printf "%s\n" "[    5.100000] fds: something" \
		"[    6.000000] Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000100" \
		"[    6.100000] Kernel panic - not syncing: a second one" > "$build/mid.log"
	expect_verdict mid 0 900 "$T/dir/mid" \
		"FAIL: the guest stopped in the middle of the suite (qemu exit 0); console: Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000100"
	: > "$build/mid.log"
	expect_verdict mid 1 900 "$T/dir/mid" "FAIL: the guest stopped in the middle of the suite (qemu exit 1)"
	expect_verdict mid 136 900 "$T/dir/mid" "FAIL: the guest stopped in the middle of the suite (qemu exit 136)"
'

step "verdict: a guest that stopped before the suite, its console's panic quoted" '
	guest boot "FDS-VM: ready"
	echo "[    1.200000] Kernel panic - not syncing: VFS: Unable to mount root fs on unknown-block(0,0)" \
		> "$build/boot.log"
	expect_verdict boot 0 120 "$T/dir/boot" \
		"FAIL: boot never reached the suite (qemu exit 0); console: Kernel panic - not syncing: VFS: Unable to mount root fs on unknown-block(0,0)"
	: > "$build/boot.log"
	expect_verdict boot 1 120 "$T/dir/boot" "FAIL: boot never reached the suite (qemu exit 1)"
'

step "verdict: on a port shared with the results, the events are read from the archive's file" '
	guest shared-events
	printf "suite start\nresults\n" > "$build/shared-events.results"
	expect_verdict shared-events 124 900 "$T/dir/none" "FAIL: boot never reached the suite; killed after 900s"
	results_port=ttysclp0 events_port=ttysclp0
	rm "$build/shared-events.events"
	expect_verdict shared-events 124 2700 "$T/dir/none" "FAIL: guest hung in the suite; killed after 2700s"
'

# --- merge_shards ------------------------------------------------------------

step "merge_shards: every shard passed: counts summed, files in shard order, shard 1's kernel and boot, the span" '
	shard k1 1 PASS "counts=10 0 1" "failures=a: one (skipped: x)" "cases=a\tone\nb\ttwo" \
		"matrix.tsv=row-a\tyes" kernel=6.1.0-1-cloud-amd64 exit=0 \
		".span=1000400000 1012345678" .boot=4.2
	shard k1 2 PASS "counts=5 0 2" "failures=c: three (skipped: y)\nd: four (skipped: z)" \
		"cases=c\tthree" "matrix.tsv=row-b\tEPERM\nrow-c\tno" kernel=6.1.0-2-other exit=0 \
		".span=1000000000 1003000000" .boot=5.0
	echo stale > "$results/k1/missing"
	echo 9 > "$results/k1/exit"
	echo stale > "$build/k1.ktap-check"
	merge k1
	expect_file "$results/k1/counts" "15 0 3"
	expect_file "$results/k1/failures" "a: one (skipped: x)" "c: three (skipped: y)" "d: four (skipped: z)"
	expect_file "$results/k1/cases" "a	one" "b	two" "c	three"
	expect_file "$results/k1/matrix.tsv" "row-a	yes" "row-b	EPERM" "row-c	no"
	expect_file "$results/k1/kernel" 6.1.0-1-cloud-amd64
	expect_file "$results/k1/exit" 0
	expect_file "$build/k1.verdict" PASS
	expect_file "$build/k1.total" 12.3
	expect_file "$build/k1.boot" 4.2
	expect_absent "$results/k1/missing" "$build/k1.ktap-check"
'

step "merge_shards: the first failing shard's verdict and number, a failing shard's exit, the KTAP complaints, no span" '
	shards=3
	shard k2 1 PASS "counts=4 0 0" exit=0
	shard k2 2 "FAIL: the suite failed in the guest (exit 1)" "counts=3 1 0" "failures=b: step" exit=1
	shard k2 3 "FAIL: its KTAP: see build/vm/k2-shard3.ktap-check" "counts=2 0 0" exit=0 \
		".ktap-check=line 3: a nested level indented 4 spaces, not 2\nline 9: the plan is not right after the version line"
	echo 7.7 > "$build/k2.boot"
	merge k2
	expect_file "$build/k2.verdict" "FAIL: shard 2 of 3: the suite failed in the guest (exit 1)"
	expect_file "$results/k2/exit" 1
	expect_file "$results/k2/counts" "9 1 0"
	expect_file "$results/k2/failures" "b: step"
	expect_file "$results/k2/cases"
	expect_file "$results/k2/matrix.tsv"
	expect_file "$build/k2.ktap-check" "line 3: a nested level indented 4 spaces, not 2" \
		"line 9: the plan is not right after the version line"
	expect_file "$build/k2.total" -
	expect_absent "$build/k2.boot" "$results/k2/kernel" "$results/k2/missing"
	shards=2
	shard k3 1 "FAIL: the suite failed in the guest (exit 2)" "counts=0 1 0" exit=2
	shard k3 2 PASS "counts=5 0 0" exit=0
	merge k3
	expect_file "$build/k3.verdict" "FAIL: shard 1 of 2: the suite failed in the guest (exit 2)"
	expect_file "$results/k3/exit" 2
	expect_file "$results/k3/counts" "5 1 0"
'

step "merge_shards: exit only when every shard left one; kernel and missing from the first that has them" '
	shards=3
	mkdir -p "$results/k4"
	shard k4 2 "FAIL: the kernel lacks bpffs (not in /proc/filesystems)" kernel=5.10.0-B \
		"missing=bpffs (not in /proc/filesystems)" exit=3 .boot=3.3 ".span=2000000000 2005000000"
	shard k4 3 "FAIL: the kernel lacks packet sockets (no AF_PACKET)" kernel=5.10.0-C \
		"missing=packet sockets (no AF_PACKET)" exit=3 ".span=1999000000 2005750000"
	echo 0 > "$results/k4/exit"
	echo stale > "$results/k4/kernel"
	echo 9.9 > "$build/k4.boot"
	echo 1.0 > "$build/k4.total"
	merge k4
	expect_file "$build/k4.verdict" "FAIL: shard 1 of 3: no verdict"
	expect_file "$results/k4/kernel" 5.10.0-B
	expect_file "$results/k4/missing" "bpffs (not in /proc/filesystems)"
	expect_file "$results/k4/counts" "0 0 0"
	expect_file "$results/k4/failures"
	expect_file "$build/k4.total" 6.7
	expect_absent "$results/k4/exit" "$build/k4.boot" "$build/k4.ktap-check"
'

step "merge_shards: a kernel whose guests left nothing: no verdict, no counts, no span" '
	merge k5
	expect_file "$build/k5.verdict" "FAIL: shard 1 of 2: no verdict"
	expect_file "$results/k5/counts" "0 0 0"
	expect_file "$results/k5/failures"
	expect_file "$results/k5/cases"
	expect_file "$results/k5/matrix.tsv"
	expect_file "$build/k5.total" -
	expect_absent "$results/k5/exit" "$results/k5/kernel" "$build/k5.boot" "$build/k5.ktap-check"
'

# The span in seconds to the tenth, cut (not rounded) from microseconds:
# a microsecond short of 2 s is 1.9, 2 s is 2.0.
step "merge_shards: the span is cut to the tenth of a second" '
	shard k6 1 PASS "counts=1 0 0" exit=0 ".span=1000000000 1001000000"
	shard k6 2 PASS "counts=1 0 0" exit=0 ".span=1000500000 1001999999"
	merge k6
	expect_file "$build/k6.total" 1.9
	shard k7 1 PASS "counts=1 0 0" exit=0 ".span=1000000000 1002000000"
	shard k7 2 PASS "counts=1 0 0" exit=0 ".span=1000000000 1001000000"
	merge k7
	expect_file "$build/k7.total" 2.0
'

scenario_end
