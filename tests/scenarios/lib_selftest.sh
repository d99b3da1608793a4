#!/usr/bin/env bash
# tests/lib.sh itself, the way git's t0000-basic checks its test library: an
# inner scenario made of steps that pass, fail, skip and clean up runs twice
# (natively and as in a QEMU guest), and its KTAP lines must be exactly the
# ones lib.sh promises.
# kernel-independent: the harness's own tests; a guest runs lib.sh as the host does
. "$(dirname "$0")/../lib.sh"
scenario_begin

cat > "$T/inner.sh" << 'EOF'
. "$TOP/tests/lib.sh"
scenario_begin
prereq NEVER "a prerequisite that never holds" 'false'
prereq COUNTED "counts its tests" 'echo tested >> "$COUNT"'
rm_flag() { rm "$T/flag"; }
say() { echo "$1" >> "$T/order"; }

when_finished "echo outside >> \"\$T/order\"" 2> "$T/outside.err" &&
	echo "when_finished outside a step did not fail"
step "a failing step" '
	touch "$T/flag"
	when_finished rm_flag
	false
'
step "the failed step left no flag" '[[ ! -e $T/flag ]]'
step "two cleanups" '
	when_finished "say first"
	when_finished "say second"
'
step "ran last first, and only those" '
	mapfile -t order < "$T/order"
	[[ ${order[*]} == "second first" ]]
	grep -q "^FAILED: when_finished outside a step" "$T/outside.err"
'
step "a failing cleanup" 'when_finished false'
step "a command cleanup" '
	touch "$T/a" "$T/a b" "$T/c"
	when_finished rm "$T/a b" "$T/c"
'
step "it removed what it named, no more" '[[ ! -e "$T/a b" && ! -e $T/c && -e $T/a ]]'
step "a missing command" --needs no-such-command-fds 'true'
step "a prereq that does not hold" --needs bash,NEVER 'true'
step "prereqs that hold" --needs bash,COUNTED 'true'
step "the same prereq again" --needs COUNTED 'true'
step "arguments" '[[ $# == 2 && $1 == "a b" && $2 == "*" ]]' "a b" "*"
step "host only" --host-only 'true'
scenario_end
EOF

# inner VM: the inner scenario's ok/not ok lines, FDS_IN_VM=VM, in $T/VM.ktap.
# A STEP_BODY in its environment is not taken for a step's (when_finished
# outside a step must still fail).
inner()
{
	local rc=0
	: > "$T/count.$1"
	STEP_BODY="echo inherited" TOP=$TOP COUNT=$T/count.$1 FDS_IN_VM=$1 bash "$T/inner.sh" > "$T/$1.log" 2>&1 ||
		rc=$?
	grep -E '^(not )?ok ' "$T/$1.log" > "$T/$1.ktap" || true
	echo "$rc" > "$T/$1.rc"
}

# expect_ktap FILE N LINE...: lines N... of FILE are these.
# (It reports without fail and without relying on set -e, the pieces of
# lib.sh it checks.)
expect_ktap()
{
	local file=$1 n=$2 lines rc=0
	shift 2
	mapfile -t lines < "$file"
	while (($#)); do
		if [[ ${lines[n - 1]:-} != "$1" ]]; then
			echo "line $n is [${lines[n - 1]:-}], expected [$1]" >&2
			rc=1
		fi
		n=$((n + 1))
		shift
	done
	return "$rc"
}

step "setup: the inner scenario runs natively and as in a guest" '
	inner ""
	inner 1
	[[ $(<"$T/.rc") == 1 ]] || fail "inner scenario exited $(<"$T/.rc"), not 1"
	[[ -s $T/.ktap && -s $T/1.ktap ]] || fail "no KTAP lines"
'

step "when_finished runs when its step fails, before the next step" '
	expect_ktap "$T/.ktap" 1 "not ok 1 a failing step" \
		"ok 2 the failed step left no flag"
'

step "cleanups run last first, a failing one fails its step, a command keeps its words" '
	expect_ktap "$T/.ktap" 3 "ok 3 two cleanups" "ok 4 ran last first, and only those" \
		"not ok 5 a failing cleanup"
	grep -q "^# FAILED: cleanup: false" "$T/.log" || fail "cleanup not named"
	expect_ktap "$T/.ktap" 6 "ok 6 a command cleanup" \
		"ok 7 it removed what it named, no more"
'

step "a missing prerequisite skips the step under its own name, with why" '
	expect_ktap "$T/.ktap" 8 \
		"ok 8 a missing command # SKIP missing no-such-command-fds: no-such-command-fds is not installed" \
		"ok 9 a prereq that does not hold # SKIP missing NEVER: a prerequisite that never holds"
'

step "steps whose prerequisites hold run, and a prereq is tested once" '
	expect_ktap "$T/.ktap" 10 "ok 10 prereqs that hold" "ok 11 the same prereq again"
	[[ $(line_count "$T/count.") == 1 ]] || fail "COUNTED tested $(line_count "$T/count.") times"
'

step "the arguments after a body are its \"\$@\", unquoted" '
	expect_ktap "$T/.ktap" 12 "ok 12 arguments"
'

step "--host-only steps run natively and are left out in a guest" '
	if [[ -n $FDS_SOURCE_TREE ]]; then
		expect_ktap "$T/.ktap" 13 "ok 13 host only"
		[[ $(line_count "$T/.ktap") == 13 ]] || fail "native run: not 13 steps"
	else
		[[ $(line_count "$T/.ktap") == 12 ]] || fail "installed tree: not 12 steps"
	fi
	[[ $(line_count "$T/1.ktap") == 12 ]] || fail "guest run: not 12 steps"
	grep -q "host only" "$T/1.ktap" && fail "host-only step ran in a guest"
	grep -qx "1\.\.12" "$T/1.log" || fail "guest plan is not 1..12"
'

step "--host-only steps are left out in an installed tree: lib.sh without a Makefile beside" '
	mkdir -p "$T/tree/tests"
	cp "$TOP/tests/lib.sh" "$T/tree/tests/"
	printf "%s\n" ". \"\$(dirname \"\$0\")/lib.sh\"" scenario_begin \
		"step \"host only\" --host-only true" "step always true" scenario_end \
		> "$T/tree/tests/s.sh"
	out=$(FDS_IN_VM= bash "$T/tree/tests/s.sh")
	[[ $out == *"1..1"* && $out != *"host only"* ]] || fail "installed: $out"
	touch "$T/tree/Makefile"
	out=$(FDS_IN_VM= bash "$T/tree/tests/s.sh")
	[[ $out == *"1..2"* && $out == *"ok 1 host only"* ]] || fail "source tree: $out"
'

step "--kernel-independent steps are left out when the runner says so, and only then" '
	mkdir -p "$T/ki/tests"
	cp "$TOP/tests/lib.sh" "$T/ki/tests/"
	printf "%s\n" ". \"\$(dirname \"\$0\")/lib.sh\"" scenario_begin \
		"step \"any kernel\" --kernel-independent true" "step always true" scenario_end \
		> "$T/ki/tests/s.sh"
	out=$(FDS_LEAVE_OUT_KERNEL_INDEPENDENT= bash "$T/ki/tests/s.sh")
	[[ $out == *"1..2"* && $out == *"ok 1 any kernel"* ]] || fail "kept: $out"
	out=$(FDS_LEAVE_OUT_KERNEL_INDEPENDENT=1 bash "$T/ki/tests/s.sh")
	[[ $out == *"1..1"* && $out != *"any kernel"* ]] || fail "left out: $out"
'

# exit_of SKIPS PASSES: the exit status of a scenario of that many
# skipped and passing steps.
cat > "$T/exits.sh" << 'EOF'
. "$TOP/tests/lib.sh"
scenario_begin
for ((i = 0; i < SKIPS; i++)); do step "skip $i" --needs no-such-command-fds 'true'; done
for ((i = 0; i < PASSES; i++)); do step "pass $i" 'true'; done
scenario_end
EOF
exit_of()
{
	local rc=0
	SKIPS=$1 PASSES=$2 TOP=$TOP bash "$T/exits.sh" > /dev/null 2>&1 || rc=$?
	echo "$rc"
}

step "a scenario whose every step skipped exits 4, kselftest's skip; one that passed a step 0" '
	[[ $(exit_of 2 0) == 4 ]] || fail "all skipped: exit $(exit_of 2 0), not 4"
	[[ $(exit_of 1 1) == 0 ]] || fail "one skipped, one passed: exit $(exit_of 1 1), not 0"
	[[ $(exit_of 0 1) == 0 ]] || fail "one passed: exit $(exit_of 0 1), not 0"
'

cat > "$T/args.sh" << 'EOF'
. "$TOP/tests/lib.sh"
scenario_begin
step "args: $#: $*" 'true'
scenario_end
EOF
step "a scenario re-run in a mount namespace of its own keeps its arguments" '
	out=$(FDS_PRIVATE_NS= TOP=$TOP bash "$T/args.sh" one "two three")
	[[ $out == *"ok 1 args: 2: one two three"* ]] || fail "$out"
'
# A scenario's end: its scratch directory goes, the mounts under it (a
# bpffs on a tmpfs here) unmounted first. (lib.sh unmounts the last
# mounted first; umount -l would detach a subtree in any order, so only
# that they are gone is checked.)
cat > "$T/mounts.sh" << 'EOF'
. "$TOP/tests/lib.sh"
scenario_begin
echo "$T" > "$OUT"
mkdir "$T/x"
mount -t tmpfs tmp "$T/x"
mkdir "$T/x/y"
mount -t bpf bpf "$T/x/y"
step "a pin in a bpffs on a tmpfs" 'fds -F "$T/x/y/m" -P -m; expect_status 0'
scenario_end
EOF
step "a scenario's scratch directory is gone when it ends, its nested mounts too" '
	FDS_PRIVATE_NS= TOP=$TOP OUT=$T/mounts.dir bash "$T/mounts.sh" > "$T/mounts.log" 2>&1 ||
		fail "$(<"$T/mounts.log")"
	dir=$(<"$T/mounts.dir")
	[[ $dir == /* && ! -e $dir ]] || fail "[$dir] is left: $(<"$T/mounts.log")"
'
# Every check helper, once with its expectation true and once false, and a
# step body's failing commands (natively only: the helpers are the same on
# every kernel).
cat > "$T/expect.sh" << 'EOF'
. "$TOP/tests/lib.sh"
scenario_begin
step "expect_status holds" 'status=2; expect_status 2'
step "expect_status differs" 'status=1; expect_status 2'
step "expect_out holds" 'printf "a\nb\n" > "$T/out"; expect_out a b'
step "expect_out differs" 'printf "a\nc\n" > "$T/out"; expect_out a b'
step "expect_err matches" 'echo "bpf: ooops" > "$T/err"; expect_err "^bpf: o+ps$"'
step "expect_err does not match" 'echo "bpf: ooops" > "$T/err"; expect_err "^nope$"'
step "expect_no_err holds" ': > "$T/err"; expect_no_err'
step "expect_no_err sees stderr" 'echo x > "$T/err"; expect_no_err'
step "expect_value holds" 'fds -F "$FS/m" -P -m -k 1 -v 42; expect_value "$FS/m" 1 42'
step "expect_value differs" 'expect_value "$FS/m" 1 43'
step "expect_value of no pin" 'expect_value "$FS/none" 1 0'
step "same_as holds" 'snapshot a; same_as a'
step "same_as sees a new pin" 'snapshot b; fds -F "$FS/m2" -P -m; same_as b'
step "wait_gone holds" 'wait_gone map "$(tests/bin/helpers/pinctl unpinned)"'
step "wait_gone times out" '
	[[ $(bpftool map show pinned "$FS/m") =~ ^([0-9]+): ]]
	WAIT_GONE_TRIES=2 wait_gone map "${BASH_REMATCH[1]}"
'
step "fail fails" 'fail "on purpose"'
step "a failing command fails the step" 'false; true'
step "a failing command inside a command substitution fails the step" 'x=$(false; echo after); true'
step "a failing command in a function fails the step" 'f() { false; true; }; f; true'
step "a failing condition does not" 'if false; then true; fi; ! false'
step "expect_file holds" 'printf "a\nb\n" > "$T/f"; expect_file "$T/f" a b'
step "expect_file differs" 'printf "a\n" > "$T/f"; expect_file "$T/f" a b'
step "expect_file of no file" 'expect_file "$T/none"'
scenario_end
EOF

step "setup: the check helpers' scenario runs" --host-only '
	TOP=$TOP bash "$T/expect.sh" > "$T/expect.log" 2>&1 || true
	grep -E "^(not )?ok " "$T/expect.log" > "$T/expect.ktap" || true
'

step "each check helper fails when its expectation is false, and only then" --host-only '
	expect_ktap "$T/expect.ktap" 1 "ok 1 expect_status holds" \
		"not ok 2 expect_status differs" "ok 3 expect_out holds" \
		"not ok 4 expect_out differs" "ok 5 expect_err matches" \
		"not ok 6 expect_err does not match" "ok 7 expect_no_err holds" \
		"not ok 8 expect_no_err sees stderr" "ok 9 expect_value holds" \
		"not ok 10 expect_value differs" "not ok 11 expect_value of no pin" \
		"ok 12 same_as holds" "not ok 13 same_as sees a new pin" \
		"ok 14 wait_gone holds" "not ok 15 wait_gone times out" \
		"not ok 16 fail fails"
'

# failures N: the "# FAILED: " lines under step N's result in the check
# helpers' scenario, without that prefix.
failures()
{
	local line under=0
	while IFS= read -r line; do
		if [[ $line == "not ok $1 "* ]]; then
			under=1
		elif [[ $line == ?(not )"ok "* ]]; then
			under=0
		elif ((under)) && [[ $line == "# FAILED: "* ]]; then
			printf '%s\n' "${line#"# FAILED: "}"
		fi
	done < "$T/expect.log"
}

step "each failing check helper says why" --host-only '
	for want in "2=exit status 1, expected 2" \
		"4=stdout differs from the expected lines (diff above)" \
		"6=stderr does not match /^nope$/" "8=unexpected stderr: x" \
		"10=/*/fs/m key 1 holds '"'"'42'"'"', expected 43" \
		"11=exit status 1, expected 0?lookup of 1 in /*/fs/none failed" \
		"13=the bpffs changed since snapshot b" \
		"15=map id +([0-9]) still exists" "16=on purpose" \
		"22=f differs from the expected lines (diff above)" "23=no none"; do
		got=$(failures "${want%%=*}")
		# shellcheck disable=SC2053 # a glob on purpose; ? the newline
		[[ $got == ${want#*=} ]] || fail "step ${want%%=*}: [$got], not [${want#*=}]"
	done
'

step "a failing command inside a step body fails the step" --host-only '
	expect_ktap "$T/expect.ktap" 17 "not ok 17 a failing command fails the step" \
		"not ok 18 a failing command inside a command substitution fails the step" \
		"not ok 19 a failing command in a function fails the step" \
		"ok 20 a failing condition does not" "ok 21 expect_file holds" \
		"not ok 22 expect_file differs" "not ok 23 expect_file of no file" &&
		[[ $(line_count "$T/expect.ktap") == 23 ]]
'

step "expect_out shows a unified diff from the expected lines to stdout" --host-only '
	mapfile -t log < "$T/expect.log"
	n=0
	for ((n = 0; n < ${#log[@]}; n++)); do
		[[ ${log[n]} == "not ok 4 expect_out differs" ]] && break
	done
	expect_ktap "$T/expect.log" $((n + 2)) "# --- expected" "# +++ stdout" \
		"# @@ -1,2 +1,2 @@" "#  a" "# -b" "# +c" \
		"# FAILED: stdout differs from the expected lines (diff above)"
'
scenario_end
