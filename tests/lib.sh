# shellcheck shell=bash
# Sourced by every shell scenario: a private bpffs per scenario, named steps
# printed as KTAP, and the checks the steps are made of.
# A scenario calls scenario_begin, then step NAME 'commands'..., then
# scenario_end. A step's commands run with `set -e` in a subshell; any command
# that fails fails the step, and the step's output is shown under it.

set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FDS_EXAMPLE=${FDS_EXAMPLE:-$TOP/fds_example}
BPFFS_DUMP=$TOP/tests/bin/bpffs_dump
# shellcheck disable=SC2034 # for the scenarios that source this file
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

# Unmounts whatever the scenario mounted under $T, deepest first.
scenario_cleanup()
{
	local mnt
	awk -v t="$T/" 'index($2, t) == 1 { print $2 }' /proc/self/mounts |
		sort -r | while read -r mnt; do umount -l "$mnt"; done
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
	# inherit_errexit: a failing command inside $(...) stops the step too,
	# instead of the step going on and failing later for another reason.
	(
		set -e
		shopt -s inherit_errexit
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

# report_step NAME [PROBLEM...]: a step checked without a subshell; it
# passes when no problem is given.
report_step()
{
	local name=$1
	shift
	STEP_NUM=$((STEP_NUM + 1))
	if (($# == 0)); then
		echo "ok $STEP_NUM $name"
	else
		STEP_FAILED=1
		echo "not ok $STEP_NUM $name"
		printf '# %s\n' "$@"
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

# The helpers below use bash builtins only: under QEMU's TCG every exec of
# a dynamically linked tool costs tens of milliseconds.

# slurp VAR FILE: FILE's bytes, trailing newlines and all, into VAR.
slurp()
{
	IFS= read -r -d '' "$1" < "$2" || true
}

# show_file PREFIX FILE: prints FILE's lines, each behind PREFIX.
show_file()
{
	local line
	while IFS= read -r line || [[ -n $line ]]; do
		printf '%s%s\n' "$1" "$line"
	done < "$2"
}

# How fds_example is run: under memcheck with VALGRIND=1, where exit 99
# means valgrind found an error or a leak.
FDS_RUN=("$FDS_EXAMPLE")
if [[ ${VALGRIND:-} == 1 ]]; then
	FDS_RUN=(valgrind -q --error-exitcode=99 --leak-check=full
		 --show-leak-kinds=all --errors-for-leak-kinds=all "$FDS_EXAMPLE")
fi

# fds ARGS...: runs fds_example; leaves $status, and its stdout and stderr in
# $T/out and $T/err. Never fails by itself: the step checks what it wants.
fds()
{
	status=0
	"${FDS_RUN[@]}" "$@" > "$T/out" 2> "$T/err" || status=$?
	if ((status == 99)) && [[ ${VALGRIND:-} == 1 ]]; then
		show_file "" "$T/err" >&2
		fail "valgrind found errors in: fds_example $*"
	fi
	{
		echo "\$ fds_example $* -> exit $status"
		show_file "  out: " "$T/out"
		show_file "  err: " "$T/err"
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
	local want='' got
	(($#)) && printf -v want '%s\n' "$@"
	slurp got "$T/out"
	[[ $got == "$want" ]] || fail "stdout differs from: $(printf '[%s] ' "$@")"
}

# line_count FILE: how many lines FILE has.
line_count()
{
	local lines
	mapfile -t lines < "$1"
	echo "${#lines[@]}"
}

# expect_err REGEX: some line of stderr matches (extended regex).
expect_err()
{
	local lines line
	mapfile -t lines < "$T/err"
	for line in "${lines[@]}"; do
		[[ $line =~ $1 ]] && return 0
	done
	fail "stderr does not match /$1/"
}

expect_no_err()
{
	[[ ! -s $T/err ]] || fail "unexpected stderr: $(<"$T/err")"
}

# lookup FILE KEY: prints the value fds_example reads under KEY.
lookup()
{
	local lines re='^bpf: fd:[0-9]+ l->\([0-9]+\):([0-9]+) ret:\(0,Success\)$'
	fds -F "$1" -G -m -k "$2"
	expect_status 0 || return 1
	mapfile -t lines < "$T/out"
	[[ ${lines[1]:-} =~ $re ]] || fail "no lookup line"
	echo "${BASH_REMATCH[1]}"
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
	local before now
	"$BPFFS_DUMP" "$FS" > "$T/snap.now" || fail "bpffs_dump failed"
	slurp before "$T/snap.$1"
	slurp now "$T/snap.now"
	[[ $now == "$before" ]] && return 0
	diff -u "$T/snap.$1" "$T/snap.now" >&2
	fail "the bpffs changed since snapshot $1"
}

# wait_gone KIND ID: the kernel frees an unreferenced object after an RCU
# grace period; waits up to 5 s for bpftool to stop finding it. (Not a
# builtin helper like those above: it runs bpftool.)
wait_gone()
{
	local kind=$1 id=$2 i
	for ((i = 0; i < 100; i++)); do
		bpftool "$kind" show id "$id" > /dev/null 2>&1 || return 0
		sleep 0.05
	done
	fail "$kind id $id still exists"
}

# matrix_record ROW VALUE: how this kernel behaves for ROW of the kernel
# matrix (docs/kernel-matrix.md). Appended as "ROW<TAB>VALUE" to the file
# $FDS_MATRIX_OUT names, when the runner sets it; VALUE is a short token
# (an errno name such as EPERM, "yes"/"no", a count) that is the same on
# every run on one kernel.
matrix_record()
{
	[[ -n ${FDS_MATRIX_OUT:-} ]] || return 0
	printf '%s\t%s\n' "$1" "$2" >> "$FDS_MATRIX_OUT"
}

need()
{
	command -v "$1" > /dev/null 2>&1
}
