# Sourced by every shell scenario: a private bpffs per scenario, named steps
# printed as KTAP, and the checks the steps are made of.
# A scenario calls scenario_begin, then step NAME 'commands'..., then
# scenario_end. A step's commands run with `set -e` in a subshell; any command
# that fails fails the step, and the step's output is shown under it.

set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FDS_EXAMPLE=${FDS_EXAMPLE:-$TOP/fds_example}
BPFFS_DUMP=$TOP/tests/bin/bpffs_dump
SOCKEX1=$TOP/sockex1_kern.o
STEP_NUM=0
STEP_FAILED=0

# Every scenario runs in its own mount namespace, so its bpffs mount goes away
# with it even if it is killed; the runner usually arranges this already.
scenario_begin()
{
	if [[ -z ${FDS_PRIVATE_NS:-} ]]; then
		FDS_PRIVATE_NS=1 exec unshare --mount --propagation private \
			bash "$0" "$@"
	fi
	echo "KTAP version 1"
	T=$(mktemp -d "${TMPDIR:-/tmp}/fds-test.XXXXXX") || exit 1
	FS=$T/fs
	mkdir "$FS"
	trap scenario_cleanup EXIT
	if ! mount -t bpf bpf "$FS"; then
		echo "Bail out! cannot mount a bpffs on $FS"
		exit 1
	fi
	cd "$TOP" || exit 1
}

scenario_cleanup()
{
	umount -l "$FS" 2>/dev/null
	rm -rf "$T"
}

scenario_end()
{
	echo "1..$STEP_NUM"
	exit $((STEP_FAILED ? 1 : 0))
}

step()
{
	local name=$1 body=$2 rc

	STEP_NUM=$((STEP_NUM + 1))
	(
		set -e
		eval "$body"
	) > "$T/step.log" 2>&1 < /dev/null
	rc=$?
	if ((rc == 0)); then
		echo "ok $STEP_NUM $name"
	else
		STEP_FAILED=1
		echo "not ok $STEP_NUM $name"
		sed 's/^/# /' "$T/step.log"
	fi
}

skip_step()
{
	STEP_NUM=$((STEP_NUM + 1))
	echo "ok $STEP_NUM $1 # SKIP $2"
}

fail()
{
	echo "FAILED: $*" >&2
	return 1
}

# fds ARGS...: runs fds_example; leaves $status, and its stdout and stderr in
# $T/out and $T/err. Never fails by itself: the step checks what it wants.
fds()
{
	status=0
	if [[ ${VALGRIND:-} == 1 ]]; then
		valgrind -q --error-exitcode=99 --leak-check=full \
			--show-leak-kinds=all --errors-for-leak-kinds=all \
			"$FDS_EXAMPLE" "$@" > "$T/out" 2> "$T/err" || status=$?
		if ((status == 99)); then
			cat "$T/err" >&2
			fail "valgrind found errors in: fds_example $*"
		fi
	else
		"$FDS_EXAMPLE" "$@" > "$T/out" 2> "$T/err" || status=$?
	fi
	{
		echo "\$ fds_example $* -> exit $status"
		sed 's/^/  out: /' "$T/out"
		sed 's/^/  err: /' "$T/err"
	} >&2
	return 0
}

expect_status()
{
	[[ $status == "$1" ]] || fail "exit status $status, expected $1"
}

# expect_out LINE...: stdout is exactly these lines.
expect_out()
{
	printf '%s\n' "$@" | cmp -s - "$T/out" ||
		fail "stdout differs from: $(printf '[%s] ' "$@")"
}

expect_err()
{
	grep -Eq -- "$1" "$T/err" || fail "stderr does not match /$1/"
}

expect_no_err()
{
	[[ ! -s $T/err ]] || fail "unexpected stderr: $(cat "$T/err")"
}

# lookup FILE KEY: prints the value fds_example reads under KEY.
lookup()
{
	fds -F "$1" -G -m -k "$2"
	expect_status 0 || return 1
	sed -n 's/^bpf: fd:[0-9]* l->([0-9]*):\([0-9]*\) ret:(0,Success)$/\1/p' "$T/out"
}

expect_value()
{
	local got
	got=$(lookup "$1" "$2") || { echo "$got"; fail "lookup of $2 in $1 failed"; }
	[[ $got == "$3" ]] || fail "$1 key $2 holds '$got', expected $3"
}

# snapshot NAME: records everything pinned under $FS; same_as NAME compares.
snapshot()
{
	"$BPFFS_DUMP" "$FS" > "$T/snap.$1" || fail "bpffs_dump failed"
}

same_as()
{
	"$BPFFS_DUMP" "$FS" > "$T/snap.now" || fail "bpffs_dump failed"
	diff -u "$T/snap.$1" "$T/snap.now" >&2 ||
		fail "the bpffs changed since snapshot $1"
}

# The kernel frees an unreferenced object after an RCU grace period.
wait_gone()
{
	local kind=$1 id=$2 i
	for i in $(seq 100); do
		bpftool "$kind" show id "$id" > /dev/null 2>&1 || return 0
		sleep 0.05
	done
	fail "$kind id $id still exists"
}

need()
{
	command -v "$1" > /dev/null 2>&1
}
