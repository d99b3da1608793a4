# shellcheck shell=bash
# Sourced by every shell scenario: a private bpffs per scenario, named steps
# printed as KTAP v1, and the checks the steps are made of. The KTAP is
# kept until the scenario ends, so that its plan comes first, as
# Documentation/dev-tools/ktap.rst wants: "1..N" right after the version
# line (also when the scenario stops early: the steps run so far).
# A scenario calls scenario_begin, then step NAME 'commands'..., then
# scenario_end. A step's commands run with `set -e` in a subshell; any command
# that fails fails the step, and the step's output is shown under it.
# Like git's t/ library, a step names what it needs on its own line
# (step NAME --needs bpftool 'commands'); without it the step is a skip
# under the same name. when_finished in a step is its cleanup.

set -u
# (builtins: BASH_SOURCE names this file by a path with a slash in it, the
# scenarios source it as DIR/../lib.sh)
TOP=$(cd "${BASH_SOURCE[0]%/*}/.." && pwd)
FDS_EXAMPLE=${FDS_EXAMPLE:-$TOP/fds_example}
BPFFS_DUMP=$TOP/tests/bin/bpffs_dump
# shellcheck disable=SC2034 # for the scenarios that source this file
SOCKEX1=$TOP/sockex1_kern.o
# The scenarios start with fds 0-2 only, as the transcripts they replay
# were taken ("bpf: map fd:3"): kselftest's runner.sh leaves its own pipes
# open (fds 3 and 4) in the tests it starts. (255, bash's own, the
# scenario file, bash keeps open whatever it is told.)
for fd in /proc/self/fd/*; do
	fd=${fd##*/}
	((fd > 2 && fd != ${BASH_XTRACEFD:-255})) && exec {fd}>&-
done 2> /dev/null
unset fd
# Sourced without arguments, "$@" here is the scenario's own: kept for the
# re-exec below (inside scenario_begin "$@" would be the function's).
SCENARIO_ARGS=("$@")
STEP_NUM=0
STEP_FAILED=0
STEP_PASSED=0
# An installed kselftest tree (make kselftest-install) holds the tests and
# what they run, not the source tree: no Makefile, no sources.
FDS_SOURCE_TREE=
[[ -f $TOP/Makefile ]] && FDS_SOURCE_TREE=1
# The running step's body and when_finished commands; set only in the
# step's subshell.
STEP_BODY=
STEP_CLEANUPS=()

# Every scenario runs in its own mount namespace, so its bpffs mount goes away
# with it even if it is killed; the runner usually arranges this already.
scenario_begin()
{
	if [[ -z ${FDS_PRIVATE_NS:-} ]]; then
		FDS_PRIVATE_NS=1 exec unshare --mount --propagation private \
			bash "$0" "${SCENARIO_ARGS[@]}"
	fi
	T=$(mktemp -d "${TMPDIR:-/tmp}/fds-test.XXXXXX") || exit 1
	FS=$T/fs
	: > "$T/ktap"
	trap scenario_cleanup EXIT
	# --mkdir (util-linux 2.38): one exec fewer than mkdir first
	if ! mount --mkdir -t bpf bpf "$FS"; then
		ktap_line "Bail out! cannot mount a bpffs on $FS"
		exit 1
	fi
	cd "$TOP" || exit 1
}

# ktap_line LINE...: result and diagnostic lines of the scenario's KTAP,
# printed after the plan when it ends.
ktap_line()
{
	printf '%s\n' "$@" >> "$T/ktap"
}

# The scenario's KTAP, once: version, plan, then the lines kept so far.
KTAP_PRINTED=0
ktap_print()
{
	((KTAP_PRINTED)) && return
	KTAP_PRINTED=1
	printf 'KTAP version 1\n1..%d\n' "$STEP_NUM"
	show_file "" "$T/ktap"
}

# Prints the KTAP, and unmounts whatever the scenario mounted under $T,
# the last mounted first (builtins, then one umount for them all).
scenario_cleanup()
{
	local mnts=() mnt _
	ktap_print
	while read -r _ mnt _; do
		[[ $mnt == "$T"/* ]] && mnts=("$mnt" "${mnts[@]}")
	done < /proc/self/mounts
	((${#mnts[@]})) && umount -l "${mnts[@]}"
	rm -rf "$T"
}

# Exit 1 when a step failed; 4, kselftest's "skip", when every step was
# skipped (run_kselftest.sh then reports the test "ok ... # SKIP"); else 0.
scenario_end()
{
	ktap_print
	((STEP_FAILED)) && exit 1
	((STEP_PASSED == 0 && STEP_NUM > 0)) && exit 4
	exit 0
}

# step NAME [--needs PREREQ[,PREREQ...]] [--host-only] [--kernel-independent] BODY [ARG...]
# step NAME [--needs ...] [--host-only] [--kernel-independent] --findings FILE
# Runs BODY with `set -e` in a subshell, with ARG... as its "$@" (values go
# in as arguments, never quoted into the body). The step is "ok NAME" when
# BODY and its cleanups succeed, "not ok NAME" with its output otherwise.
#   --findings  no body: an earlier step checked many things at once (a
#             subshell per check costs ~45 ms under QEMU's TCG) and wrote
#             FILE with one line per problem; the step is "ok" when FILE
#             exists and is empty, "not ok" with its lines otherwise.
#   --needs   each PREREQ must hold (see prereq, have); the first that does
#             not makes the step "ok NAME # SKIP" with the reason, under
#             the step's own name. run.sh counts a skip as a failure in CI.
#   --host-only  left out in QEMU guests (FDS_IN_VM) and in an installed
#             kselftest tree: for kernel-independent checks that need what
#             a guest lacks (make, mandoc, cc, dot) or the source tree; the
#             native run of make check covers them.
#   --kernel-independent  left out when tests/run.sh says so
#             (FDS_LEAVE_OUT_KERNEL_INDEPENDENT=1: in QEMU guests but an
#             architecture's first): for checks whose verdict never depends
#             on the kernel (a usage error, refused before any syscall);
#             make check runs them natively, as tests/run.sh does whole
#             scenarios marked "# kernel-independent:".
# Inside BODY, when_finished 'commands' registers a cleanup.
step()
{
	local name=$1 needs='' host_only=0 left_out=0 findings='' body rc
	shift
	while (($#)); do
		case $1 in
		--needs) needs=$2; shift 2 ;;
		--host-only) host_only=1; shift ;;
		--kernel-independent)
			[[ ${FDS_LEAVE_OUT_KERNEL_INDEPENDENT:-} == 1 ]] && left_out=1
			shift ;;
		--findings) findings=$2; shift 2 ;;
		*) break ;;
		esac
	done
	if [[ -z $findings ]] && (($# == 0)); then
		echo "lib.sh: step '$name' has no body" >&2
		exit 2
	fi
	body=${1:-}
	(($#)) && shift
	((host_only)) && [[ -n ${FDS_IN_VM:-} || -z $FDS_SOURCE_TREE ]] && return 0
	((left_out)) && return 0
	step_name "$name"
	name=$STEP_NAME
	if ! have_all "$needs"; then
		ktap_line "ok $STEP_NUM $name # SKIP $PREREQ_MISSING"
		return 0
	fi
	if [[ -n $findings ]]; then
		rc=0
		[[ -f $findings ]] || echo "FAILED: no $findings: its check never ran" > "$T/step.log"
		[[ -f $findings && ! -s $findings ]] || rc=1
		[[ ! -f $findings ]] || cp_findings "$findings"
	else
		(step_run "$body" "$@") > "$T/step.log" 2>&1 < /dev/null
		rc=$?
	fi
	if ((rc == 0)); then
		STEP_PASSED=$((STEP_PASSED + 1))
		ktap_line "ok $STEP_NUM $name"
	else
		STEP_FAILED=1
		ktap_line "not ok $STEP_NUM $name"
		show_file "# " "$T/step.log" >> "$T/ktap"
	fi
}

# step_name NAME: numbers the next step; STEP_NAME is NAME, made unique in
# the scenario (KTAP wants that within a level) by " (2)", " (3)"... on
# its repeats, as when the walkthrough runs one command twice.
declare -A STEP_NAMES=()
step_name()
{
	local seen=${STEP_NAMES[$1]:-0}
	STEP_NUM=$((STEP_NUM + 1))
	STEP_NAMES[$1]=$((seen + 1))
	STEP_NAME=$1
	if ((seen)); then
		STEP_NAME+=" ($((seen + 1)))"
	fi
}

# step_run BODY [ARG...]: BODY with ARG... as its "$@", in the subshell
# step() makes. inherit_errexit: a failing command inside $(...) stops the
# step too, instead of the step going on and failing later for another
# reason.
step_run()
{
	STEP_BODY=$1
	shift
	trap step_finish EXIT
	set -e
	shopt -s inherit_errexit
	eval "$STEP_BODY"
}

# when_finished 'commands' | when_finished COMMAND ARG...: inside a step
# body, like git's test_when_finished: runs when the step ends, passed or
# failed, the last registered first. One argument is shell text (eval'd
# then); more are a command and its arguments, their values taken now. A
# cleanup that fails fails the step. (A body that sets its own EXIT trap
# replaces the one that runs them.)
when_finished()
{
	local cmd=$1
	if [[ -z ${STEP_BODY:-} ]]; then
		fail "when_finished outside a step: $*"
		return
	fi
	(($# > 1)) && printf -v cmd '%q ' "$@"
	STEP_CLEANUPS+=("$cmd")
}

# The step subshell's EXIT trap: runs the cleanups, keeps the body's status.
step_finish()
{
	local rc=$? i
	set +e
	for ((i = ${#STEP_CLEANUPS[@]} - 1; i >= 0; i--)); do
		if ! (set -e; eval "${STEP_CLEANUPS[i]}"); then
			echo "FAILED: cleanup: ${STEP_CLEANUPS[i]}" >&2
			((rc)) || rc=1
		fi
	done
	exit "$rc"
}

# prereq NAME REASON 'commands': a prerequisite steps can name in --needs,
# which holds when the commands succeed (run once, when first needed, in a
# subshell); REASON is the skip's reason when it does not. A PREREQ never
# declared is a command that must be installed.
declare -A PREREQ_TEST=() PREREQ_REASON=() PREREQ_HAVE=()
prereq()
{
	PREREQ_REASON[$1]=$2
	PREREQ_TEST[$1]=$3
}

# have PREREQ: whether it holds (like git's test_have_prereq).
have()
{
	local p=$1
	if [[ -z ${PREREQ_HAVE[$p]:-} ]]; then
		PREREQ_HAVE[$p]=no
		if [[ -n ${PREREQ_TEST[$p]:-} ]]; then
			(eval "${PREREQ_TEST[$p]}") > /dev/null 2>&1 &&
				PREREQ_HAVE[$p]=yes
		elif command -v "$p" > /dev/null 2>&1; then
			PREREQ_HAVE[$p]=yes
		fi
	fi
	[[ ${PREREQ_HAVE[$p]} == yes ]]
}

# have_all P,Q,...: whether all hold; if not, PREREQ_MISSING says which
# and why. (Not called in $(...): have caches its answers.)
have_all()
{
	local list p
	IFS=, read -ra list <<< "$1"
	for p in "${list[@]}"; do
		have "$p" && continue
		PREREQ_MISSING="missing $p: ${PREREQ_REASON[$p]:-$p is not installed}"
		return 1
	done
}

# cp_findings FILE: FILE's lines as the step's output (builtins only).
cp_findings()
{
	local line
	while IFS= read -r line || [[ -n $line ]]; do
		printf '%s\n' "$line"
	done < "$1" > "$T/step.log"
}

# fail MESSAGE: the one way a check reports and stops: the message, and
# status 1 (which stops a step's body).
fail()
{
	echo "FAILED: $*" >&2
	return 1
}

# The helpers below avoid an exec where a bash builtin will do: under QEMU's
# TCG every exec of a dynamically linked tool costs tens of milliseconds.
# (fds, snapshot, same_as, wait_while and wait_gone run a program by their
# nature.)

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
# MEMCHECK: that valgrind command line, for other programs.
MEMCHECK=(valgrind -q --error-exitcode=99 --leak-check=full
	  --show-leak-kinds=all --errors-for-leak-kinds=all)
FDS_RUN=("$FDS_EXAMPLE")
if [[ ${VALGRIND:-} == 1 ]]; then
	FDS_RUN=("${MEMCHECK[@]}" "$FDS_EXAMPLE")
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

# expect_lines_of FILE LABEL LINE...: FILE is exactly these lines; if not,
# a unified diff from them to FILE, named LABEL (like git's test_cmp).
expect_lines_of()
{
	local file=$1 label=$2 want='' got
	shift 2
	(($#)) && printf -v want '%s\n' "$@"
	slurp got "$file"
	[[ $got == "$want" ]] && return 0
	printf '%s' "$want" > "$file.expected"
	diff -u --label expected --label "$label" "$file.expected" "$file" >&2 || true
	fail "$label differs from the expected lines (diff above)"
}

# expect_file FILE LINE...: FILE exists and is exactly these lines (a diff
# if not, FILE named by its path under $T).
expect_file()
{
	local file=$1
	shift
	[[ -f $file ]] || fail "no ${file#"$T"/}"
	expect_lines_of "$file" "${file#"$T"/}" "$@"
}

# expect_out LINE...: stdout is exactly these lines.
expect_out()
{
	expect_lines_of "$T/out" stdout "$@"
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
	diff -u "$T/snap.$1" "$T/snap.now" >&2 || true
	fail "the bpffs changed since snapshot $1"
}

# wait_while TRIES PERIOD COMMAND...: runs COMMAND (its output thrown
# away) until it fails, at most TRIES times, PERIOD seconds apart. Status 0
# once COMMAND has failed, 1 when it still succeeded at the last try; the
# caller says what that means.
wait_while()
{
	local tries=$1 period=$2 i
	shift 2
	for ((i = 0; i < tries; i++)); do
		"$@" > /dev/null 2>&1 || return 0
		sleep "$period"
	done
	return 1
}

# wait_gone KIND ID: the kernel frees an unreferenced object after an RCU
# grace period; waits up to 5 s (WAIT_GONE_TRIES of 50 ms, default 100) for
# bpftool to stop finding it. (Not a builtin helper like those above: it
# runs bpftool.)
wait_gone()
{
	wait_while "${WAIT_GONE_TRIES:-100}" 0.05 bpftool "$1" show id "$2" ||
		fail "$1 id $2 still exists"
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

# BIG_ENDIAN: 1 when this machine stores the high byte first. Read once,
# from byte 5 of the ELF header of the shell itself (EI_DATA: 1 little, 2
# big), with builtins only: a probe through od costs ~50 ms per call in a
# guest under TCG.
BIG_ENDIAN=0
if LC_ALL=C read -r -N 6 ELF_IDENT < /proc/self/exe 2> /dev/null &&
   [[ ${ELF_IDENT:0:4} == $'\x7fELF' && ${ELF_IDENT:5:1} == $'\x02' ]]; then
	BIG_ENDIAN=1
fi
unset ELF_IDENT

# u32_order N: sets U32 to the four bytes of the 32-bit N in this
# machine's order, in decimal (no subshell: callers in loops).
u32_order()
{
	U32=($(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)))
	((BIG_ENDIAN)) && U32=("${U32[3]}" "${U32[2]}" "${U32[1]}" "${U32[0]}")
	return 0
}

# u32_bytes N: the same bytes, printed, as bpftool's key and value
# arguments take a u32 (and as a map holds it: fds_example stores
# native-order keys and values).
u32_bytes()
{
	u32_order "$1"
	echo "${U32[*]}"
}

# u32_json N: the same bytes as bpftool -j prints a value: "0x2a","0x00",...
u32_json()
{
	local b out=()
	u32_order "$1"
	for b in "${U32[@]}"; do
		out+=("\"$(printf '0x%02x' "$b")\"")
	done
	(IFS=,; echo "${out[*]}")
}

# dump_line KEY VALUE: the line tests/bin/bpffs_dump prints for a u32
# KEY holding a u32 VALUE: their bytes, in this machine's order.
dump_line()
{
	local k
	u32_order "$1"
	k=("${U32[@]}")
	u32_order "$2"
	printf '  %02x%02x%02x%02x = %02x %02x %02x %02x\n' "${k[@]}" "${U32[@]}"
}
