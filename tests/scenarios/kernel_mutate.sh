#!/usr/bin/env bash
# scripts/kernel_mutate.py, make kernel-mutate's driver, on a made-up
# kernel tree with a builder and a judge that stand in for vm/kernel-src.sh
# and check-vm (a real mutant takes a kernel build and a boot: make
# kernel-mutate runs those): each mutant applied alone to the scratch copy
# and taken back after, the pristine tree never written (the copy is made
# of hard links), the verdicts (killed, survived, equivalent, not built),
# the score per area, the closing line, the exit status, and the list's
# refusals (stale text, unknown keys, two mutants of one name).
# kernel-independent: text in, text out; the same on every kernel
# It checks a tool of the source tree, not installed by make kselftest-install:
# kselftest: source tree only
. "$(dirname "$0")/../lib.sh"
scenario_begin

# made_up: the pristine tree ($T/src), the builder and judge ($T/bin),
# their record of what each build saw ($T/seen), and a list ($T/list).
made_up()
{
	rm -rf "${T:?}"/{src,orig,work,bin,seen,seen.boots}
	mkdir -p "$T/src/kernel/bpf" "$T/bin"
	printf '%s\n' 'int pin(void)' '{' '	return check(1);' '}' \
		'int get(void) { return 0; }' > "$T/src/kernel/bpf/inode.c"
	printf '%s\n' 'int flags = 3;' > "$T/src/kernel/bpf/syscall.c"
	# the builder: 125 for a tree with BROKEN in it, else an image that
	# is the two files as built
	cat > "$T/bin/build" << 'END'
#!/usr/bin/env bash
src=$1 out=$2
mkdir -p "$out"
cat "$src"/kernel/bpf/*.c > "$out/image"
cat "$out/image" >> "$SEEN"
echo -- >> "$SEEN"
grep -q BROKEN "$out/image" && exit 125
echo "src-1.0 $out/image"
END
	# the judge: fails a kernel whose pin no longer checks
	cat > "$T/bin/boot" << 'END'
#!/usr/bin/env bash
echo "check-vm: booting $KERNEL"
echo "${VM_APPEND:-whole suite} ${VM_SHARDS:-}" >> "$SEEN.boots"
if ! grep -q 'return check(1);' "$KERNEL"; then
	echo "check-vm: src-1.0: FAIL: the suite failed in the guest (exit 1)"
	echo "Failing tests and steps:"
	echo "  src-1.0: prog_pins: pin checks"
	echo "0 passed, 1 failed, 0 skipped"
	exit 1
fi
echo "1 passed, 0 failed, 0 skipped"
END
	chmod +x "$T/bin/build" "$T/bin/boot"
	cat > "$T/list" << 'END'
# a made-up list

# ---- kernel/bpf/inode.c: pin -------------------------------------------

id: ino-check
file: kernel/bpf/inode.c
from: return check(1);
to: return 0;
why: the check dropped

id: ino-get
file: kernel/bpf/inode.c
from: return 0; }
to: return 1; }
why: get returns 1

id: ino-broken
file: kernel/bpf/inode.c
from: int pin(void)
to: int pin(void) BROKEN
why: does not compile

# ---- kernel/bpf/syscall.c: flags ---------------------------------------

id: sys-flags
file: kernel/bpf/syscall.c
from: flags = 3;
to: flags = 4;
why: another flag
equivalent: nothing reads flags
END
	cp -a "$T/src" "$T/orig"
}

# mutate [ARG...]: the driver on the made-up tree, its output in $T/out,
# its status in $status.
# shellcheck disable=SC2034 # status: read by expect_status
mutate()
{
	status=0
	KERNEL_MUTANTS=$T/list KERNEL_MUTATE_SRC=$T/src KERNEL_MUTATE_DIR=$T/work \
		KERNEL_MUTATE_BUILD=$T/bin/build KERNEL_MUTATE_BOOT=$T/bin/boot \
		SEEN=$T/seen "$TOP/scripts/kernel_mutate.py" "$@" > "$T/out" 2> "$T/err" ||
		status=$?
}

# results: the verdict lines of $T/out without their seconds.
results()
{
	sed -n -e 's/ ([0-9]* s)$//p' "$T/out" | sed 's/  */ /g'
}

step "each mutant alone: killed, survived, not built, equivalent" '
	made_up
	mutate
	expect_status 1
	results > "$T/got"
	expect_file "$T/got" "baseline src-1.0 PASS" \
		"killed ino-check src-1.0: prog_pins: pin checks" \
		"SURVIVED ino-get return 0; } -> return 1; }" \
		"not-built ino-broken does not compile; not counted" \
		"equivalent sys-flags nothing reads flags"
'

step "the pristine tree is never written; each build saw its own mutant alone" '
	made_up
	mutate
	diff -r "$T/orig" "$T/src" || fail "the pristine tree changed"
	diff -r "$T/orig" "$T/work/src" || fail "the scratch copy is not back"
	{
		cat "$T/orig/kernel/bpf/inode.c" "$T/orig/kernel/bpf/syscall.c"
		echo --
		sed "s/return check(1);/return 0;/" "$T/orig/kernel/bpf/inode.c"
		cat "$T/orig/kernel/bpf/syscall.c"
		echo --
		sed "s/return 0; }/return 1; }/" "$T/orig/kernel/bpf/inode.c"
		cat "$T/orig/kernel/bpf/syscall.c"
		echo --
		sed "s/int pin(void)/int pin(void) BROKEN/" "$T/orig/kernel/bpf/inode.c"
		cat "$T/orig/kernel/bpf/syscall.c"
		echo --
		cat "$T/orig/kernel/bpf/inode.c"
		sed "s/flags = 3;/flags = 4;/" "$T/orig/kernel/bpf/syscall.c"
		echo --
	} > "$T/want"
	diff -u "$T/want" "$T/seen" || fail "the builds did not see one mutant each"
'

step "a mutant a stopped run left in the scratch copy is gone before the baseline" '
	made_up
	mutate sys-flags
	rm "$T/seen"
	echo "int flags = 9;" > "$T/work/src/kernel/bpf/syscall.c"
	mutate sys-flags
	head -n 6 "$T/seen" > "$T/got"
	expect_file "$T/got" "$(<"$T/orig/kernel/bpf/inode.c")" \
		"$(<"$T/orig/kernel/bpf/syscall.c")"
'

step "the score per area and in all; the target decides the status" '
	made_up
	mutate
	grep -A2 "^killed / counted per area:" "$T/out" | sed "s/  */ /g" > "$T/got"
	expect_file "$T/got" "killed / counted per area:" \
		" 1 / 2 kernel/bpf/inode.c: pin" " 0 / 0 kernel/bpf/syscall.c: flags"
	tail -n 1 "$T/out" > "$T/got"
	expect_file "$T/got" \
		"kernel-mutate: 1 of 2 killed (50.0 %, target 100 %); 1 equivalent, 1 not built"
	KERNEL_MUTATE_TARGET=50 mutate
	expect_status 0
'

step "named mutants alone; an unknown name is refused" '
	made_up
	mutate sys-flags ino-check
	results > "$T/got"
	expect_file "$T/got" "baseline src-1.0 PASS" \
		"killed ino-check src-1.0: prog_pins: pin checks" \
		"equivalent sys-flags nothing reads flags"
	mutate nosuch
	expect_status 1
	expect_file "$T/err" "kernel-mutate: no mutant nosuch in $T/list"
'

step "--rotate K N: the N-th K mutants, round the list; a bad count refused" '
	made_up
	mutate --rotate 3 1
	results | cut -d" " -f2 > "$T/got"
	expect_file "$T/got" src-1.0 ino-check ino-get sys-flags
	mutate --rotate 9 0
	results | cut -d" " -f2 > "$T/got"
	expect_file "$T/got" src-1.0 ino-check ino-get ino-broken sys-flags
	for bad in "0 1" "2 x" "2"; do
		# shellcheck disable=SC2086 # the arguments, split on purpose
		mutate --rotate $bad
		expect_status 1
		expect_file "$T/err" "kernel-mutate: usage: kernel_mutate.py --rotate K N (K > 0, N >= 0 counts)"
	done
'

step "first: that test alone kills at once; when it passes, the whole suite judges; a first: naming no test is stale" '
	made_up
	sed -i -e "/^id: ino-check$/a first: prog_pins" -e "/^id: ino-get$/a first: bad_input" "$T/list"
	mutate ino-check ino-get
	expect_status 1
	results > "$T/got"
	expect_file "$T/got" "baseline src-1.0 PASS" \
		"killed ino-check src-1.0: prog_pins: pin checks (first)" \
		"SURVIVED ino-get return 0; } -> return 1; }"
	# the baseline, ino-check by its test alone, ino-get by its test then all
	expect_file "$T/seen.boots" "whole suite " "FDS_TESTS=prog_pins 1" \
		"FDS_TESTS=bad_input 1" "whole suite "
	sed -i "s/^first: bad_input$/first: nosuch/" "$T/list"
	mutate ino-get
	expect_status 1
	expect_out "kernel-mutate: stale ino-get: first: nosuch is not a test of this tree" \
		"kernel-mutate: 1 mutants, 1 stale"
'

step "--show ID: the mutant's file, from and to, a line each (make check-bisect reads them)" '
	made_up
	mutate --show sys-flags
	expect_status 0
	printf "file\tkernel/bpf/syscall.c\nfrom\tflags = 3;\nto\tflags = 4;\n" > "$T/want"
	cmp "$T/want" "$T/out" || fail "$(<"$T/out")"
	[[ ! -e $T/seen ]] || fail "a build ran"
	mutate --show
	expect_status 1
	expect_file "$T/err" "kernel-mutate: usage: kernel_mutate.py --show ID"
'

step "a stale mutant stops the run before any build; --check says so" '
	made_up
	mutate --check
	expect_status 0
	expect_file "$T/out" "kernel-mutate: 4 mutants, 0 stale"
	sed -i "s/^from: flags = 3;/from: flags = 5;/" "$T/list"
	mutate
	expect_status 1
	expect_file "$T/out" \
		"kernel-mutate: stale sys-flags: kernel/bpf/syscall.c: the text is there 0 times, not once: flags = 5;" \
		"kernel-mutate: 4 mutants, 1 stale"
	[[ ! -e $T/seen ]] || fail "a build ran"
	# --check ID: that mutant alone
	mutate --check ino-get
	expect_status 0
	expect_file "$T/out" "kernel-mutate: 1 mutants, 0 stale"
	mutate --check sys-flags
	expect_status 1
	expect_file "$T/out" \
		"kernel-mutate: stale sys-flags: kernel/bpf/syscall.c: the text is there 0 times, not once: flags = 5;" \
		"kernel-mutate: 1 mutants, 1 stale"
'

step "a kernel that fails unmutated judges nothing" '
	made_up
	sed -i "s/return check(1);/return check(2);/" "$T/src/kernel/bpf/inode.c"
	sed -i "s/^from: return check(1);/from: return check(2);/" "$T/list"
	mutate
	expect_status 1
	expect_file "$T/err" "kernel-mutate: the unmutated kernel fails the suite: src-1.0: prog_pins: pin checks; see $T/work/logs/baseline.log"
	[[ ! -s $T/out ]] || fail "mutants ran: $(<"$T/out")"
'

step "the list refuses an unknown key, a block without why:, two of one name, a key twice" '
	made_up
	n=$(line_count "$T/list")
	printf "%s\n" "" "id: x" "file: f" "from: a" "to: b" "wy: c" >> "$T/list"
	mutate --check
	expect_status 1
	expect_file "$T/err" "kernel-mutate: $T/list:$((n + 6)): not a \"key: value\" line of a mutant: wy: c"
	made_up
	printf "%s\n" "" "id: x" "file: f" "from: a" "to: b" >> "$T/list"
	mutate --check
	expect_status 1
	expect_file "$T/err" "kernel-mutate: $T/list:$((n + 6)): mutant x lacks why"
	made_up
	printf "%s\n" "" "id: ino-get" "file: f" "from: a" "to: b" "why: c" >> "$T/list"
	mutate --check
	expect_status 1
	expect_file "$T/err" "kernel-mutate: $T/list: two mutants are called ino-get"
	made_up
	printf "%s\n" "" "id: x" "file: f" "from: a" "to: b" "from: c" "why: d" >> "$T/list"
	mutate --check
	expect_status 1
	expect_file "$T/err" "kernel-mutate: $T/list:$((n + 6)): a second from: line"
'
scenario_end
