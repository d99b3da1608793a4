#!/usr/bin/env bash
# tests/lib.sh itself, the way git's t0000-basic checks its test library: an
# inner scenario made of steps that pass, fail, skip and clean up runs twice
# (natively and as in a QEMU guest), and its KTAP lines must be exactly the
# ones lib.sh promises.
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
inner()
{
	local rc=0
	: > "$T/count.$1"
	TOP=$TOP COUNT=$T/count.$1 FDS_IN_VM=$1 bash "$T/inner.sh" > "$T/$1.log" 2>&1 ||
		rc=$?
	grep -E '^(not )?ok ' "$T/$1.log" > "$T/$1.ktap" || true
	echo "$rc" > "$T/$1.rc"
}

# expect_ktap FILE N LINE...: lines N... of FILE are these.
expect_ktap()
{
	local file=$1 n=$2 lines
	shift 2
	mapfile -t lines < "$file"
	while (($#)); do
		[[ ${lines[n - 1]:-} == "$1" ]] ||
			fail "line $n is [${lines[n - 1]:-}], expected [$1]"
		n=$((n + 1))
		shift
	done
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
	expect_ktap "$T/.ktap" 13 "ok 13 host only"
	[[ $(line_count "$T/.ktap") == 13 ]] || fail "native run: not 13 steps"
	[[ $(line_count "$T/1.ktap") == 12 ]] || fail "guest run: not 12 steps"
	grep -q "host only" "$T/1.ktap" && fail "host-only step ran in a guest"
	grep -qx "1\.\.12" "$T/1.log" || fail "guest plan is not 1..12"
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
scenario_end
