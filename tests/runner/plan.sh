# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154 # state shared by the parts run.sh sources
# Sourced by tests/run.sh: the run's plan, read in this one place, and the
# tests it picks. A plan is a file of "key=value" lines (blank lines and
# "#" lines ignored), written once by the command a person typed
# (vm/check-vm.sh for each guest, into the guest's initramfs as /plan; the
# Makefile's check-kselftest; scripts/mutate.sh; a LAVA job) and given to
# the runner as run.sh --plan FILE. Every key may be left out:
#   tests=PATTERN...    the tests picked (run.sh's own PATTERN arguments
#                       are added to these); none: all
#   results=DIR         where the results go (default build/results/host,
#                       build/results/partial when a pattern picks some
#                       tests, build/kselftest-results/host through the
#                       kernel's runner)
#   kselftest=DIR       the kernel's runner runs the tests, from the
#                       installed kselftest tree DIR
#   lanes=N             N runners at once (with kselftest=)
#   shard=K/N           guest K of the N that share a kernel's suite
#   label=NAME          the kernel's column of guest-seconds to plan by
#   guest_seconds=FILE  instead of tests/data/guest-seconds
#   guest=1             in a QEMU guest: the kernel-independent tests are
#                       left out, and the tests see FDS_IN_VM=1
#   arch_once=1         ... unless this guest runs them for its architecture
#   fail_fast=1         stop at the first failing test
#   ci=true             a skip is a failure
#   timeout=SECONDS     each test's limit
#   matrix_update=1     rewrite docs/kernel-matrix.md's host column
# ci, timeout and matrix_update default to the user's own knobs, CI,
# TEST_TIMEOUT (else 120 s, 900 s under VALGRIND=1; through the kernel's
# runner its settings file's) and MATRIX_UPDATE, so that "CI=true
# tests/run.sh NAME" does what it says. Nothing else steers a run.
# What a QEMU guest still finds on its kernel command line is about the
# guest, not the run, and vm/init reads it before any run, or instead of
# one: the serial ports its results and events leave by
# (FDS_RESULTS_PORT, FDS_EVENTS_PORT: the architecture's, needed even by
# a guest that never runs the suite), and check-vm's and make bench's
# knobs for the guest itself, which act before the plan is read or
# replace the run (FDS_ASLR, address-space randomization kept; FDS_HIDE,
# a bpffs the guest cannot mount; FDS_LAVA, a shell for a LAVA job, which
# writes its own plan; FDS_HANG, FDS_BOOT_ONLY and FDS_HALT, a guest that
# hangs, runs nothing, or halts instead of powering off).

# die MESSAGE: the runner cannot run; exit 1.
die() { echo "run.sh: $*" >&2; exit 1; }

# plan_load [FILE]: the plan into plan[KEY]; a key the plan does not know,
# or a line that is not KEY=VALUE, stops the run.
plan_load()
{
	local line key n=0
	declare -gA plan=()
	plan[ci]=${CI:-} plan[matrix_update]=${MATRIX_UPDATE:-}
	[[ -n ${TEST_TIMEOUT:-} ]] && plan[timeout]=$TEST_TIMEOUT
	[[ -n ${1:-} ]] || return 0
	[[ -r $1 ]] || die "no plan $1"
	while IFS= read -r line || [[ -n $line ]]; do
		n=$((n + 1))
		[[ -z $line || $line == \#* ]] && continue
		key=${line%%=*}
		[[ $line == *=* ]] || die "$1:$n: not KEY=VALUE: $line"
		case $key in
		tests|results|kselftest|lanes|shard|label|guest_seconds|\
		guest|arch_once|fail_fast|ci|timeout|matrix_update)
			plan[$key]=${line#*=} ;;
		*) die "$1:$n: no such key in a plan: $key" ;;
		esac
	done < "$1"
}

# pick CANDIDATE...: tests+=(each CANDIDATE, a path or a name, that the
# patterns pick). A pattern that is a candidate's name (without .sh) picks
# that one only, so that any test can be run alone; any other, every
# candidate whose name holds it. A pattern that picks none stops the run.
pick()
{
	local t p name
	local -A exact=() used=()
	for t in "$@"; do
		name=${t##*/}
		exact[${name%.sh}]=1
	done
	for t in "$@"; do
		name=${t##*/}
		((${#patterns[@]})) || { tests+=("$t"); continue; }
		for p in "${patterns[@]}"; do
			if [[ -n ${exact[$p]:-} ]]; then
				[[ ${name%.sh} == "$p" ]] || continue
			elif [[ $name != *"$p"* ]]; then
				continue
			fi
			tests+=("$t")
			used[$p]=1
			break
		done
	done
	# a name that picks nothing is a mistake (a test renamed, a typo)
	for p in "${patterns[@]}"; do
		[[ -n ${used[$p]:-} ]] || die "no test is called $p or has it in its name"
	done
}

# plan_tests: tests=(the tests the patterns pick). The kselftest binaries
# are those the Makefile lists in tests/bin/tests.list; the helpers built
# next to them are not tests. Through the kernel's runner, the tests are
# its list's; TIMEOUT is then the runner's own limit, which a TIMEOUT
# verdict names.
plan_tests()
{
	local list t line
	local -a kselftests=() candidates=()
	tests=()
	if [[ -n $kselftest ]]; then
		kselftest=$(cd "$kselftest" && pwd) || die "no ${plan[kselftest]}"
		if [[ -z ${plan[timeout]:-} ]]; then
			TIMEOUT=
			while IFS= read -r line; do
				[[ $line == timeout=* ]] && TIMEOUT=${line#timeout=}
			done < "$kselftest/fds_example/settings"
		fi
		list=$kselftest/kselftest-list.txt
		[[ -f $list ]] || die "no $list (make kselftest-install INSTALL_PATH=DIR)"
		mapfile -t kselftests < "$list"
		for t in "${kselftests[@]}"; do
			[[ $t == fds_example:* ]] && candidates+=("${t#*:}")
		done
		pick "${candidates[@]}"
	else
		list=$TOP/tests/bin/tests.list
		[[ -f $list ]] || die "no $list (run make check)"
		mapfile -t kselftests < "$list"
		pick "$TOP"/tests/scenarios/*.sh "${kselftests[@]/#/$TOP/tests/bin/}"
		for t in "${tests[@]}"; do
			[[ $t == *.sh || -x $t ]] || die "$t is listed but not built (run make check)"
		done
	fi
	((${#tests[@]})) || die "no tests found (run make check)"
}

# A guest leaves out the kernel-independent scenarios, those whose header
# has a "# kernel-independent: WHY" line: their every verdict depends on
# the architecture and its user space only (make check runs them natively).
# arch_once=1 (make check-vm: an architecture's first guest, when its
# user space is not the host's) runs them all. Builtins only.
kernel_independent()
{
	local line file=$1 head
	[[ $file == *.sh ]] || return 1
	[[ -n $kselftest ]] && file=$kselftest/fds_example/tests/scenarios/$file
	mapfile -t -n 30 head < "$file"
	for line in "${head[@]}"; do
		[[ $line == "# kernel-independent:"* ]] && return 0
	done
	return 1
}

# leave_out: in a guest, the kernel-independent tests out of tests, their
# names in left_out. Decided here once: lib.sh's step reads the answer
# (FDS_LEAVE_OUT_KERNEL_INDEPENDENT) for the steps marked
# --kernel-independent of the scenarios kept.
leave_out()
{
	local t
	local -a kept=()
	left_out=()
	FDS_LEAVE_OUT_KERNEL_INDEPENDENT=
	[[ -n $guest && $arch_once != 1 ]] && FDS_LEAVE_OUT_KERNEL_INDEPENDENT=1
	export FDS_LEAVE_OUT_KERNEL_INDEPENDENT
	[[ -n $FDS_LEAVE_OUT_KERNEL_INDEPENDENT ]] || return 0
	for t in "${tests[@]}"; do
		if kernel_independent "$t"; then
			left_out+=("${t##*/}")
		else
			kept+=("$t")
		fi
	done
	tests=("${kept[@]}")
}

# read_weights: weight[TEST], tenths of a second, from guest_seconds
# (default tests/data/guest-seconds): a header "test LABEL..." naming a
# column per kernel, then each test's seconds in each ("-": not measured).
# A guest plans by its own kernel's column (label, which make check-vm
# sets to the matrix column it boots), anything else (or a "-" there) by a
# test's mean over the columns; a test with no figure counts 1 s.
read_weights()
{
	local file=${guest_seconds:-$TOP/tests/data/guest-seconds} name s col=-1 sum n i own
	local -a cols=() figs=() row=()
	while read -ra row; do
		name=${row[0]:-}
		[[ -z $name || $name == \#* ]] && continue
		if [[ $name == test ]]; then
			cols=("${row[@]:1}")
			for ((i = 0; i < ${#cols[@]}; i++)); do
				[[ ${cols[i]} == "$label" ]] && col=$i
			done
			continue
		fi
		((${#cols[@]})) || die "$file: $name comes before the header line \"test LABEL...\""
		figs=("${row[@]:1}")
		((${#figs[@]} == ${#cols[@]})) ||
			die "$file: $name: ${#figs[@]} figures for ${#cols[@]} kernels"
		sum=0 n=0 own=''
		for ((i = 0; i < ${#figs[@]}; i++)); do
			s=${figs[i]}
			[[ $s == - ]] && continue
			[[ $s == +([0-9]).[0-9] ]] || die "$file: $name: not N.N seconds: $s"
			s=$((10#${s/./}))
			((i == col)) && own=$s
			sum=$((sum + s)) n=$((n + 1))
		done
		if [[ -n $own ]]; then
			weight[$name]=$own
		elif ((n)); then
			weight[$name]=$((sum / n))
		fi
	done < "$file"
}

# plan_lanes N: the tests into N lanes, longest first (read_weights) onto
# the lane with the fewest seconds so far; each lane keeps the tests' own
# order. Leaves lane_tests[K] (K from 1), the tests of lane K separated by
# spaces.
plan_lanes()
{
	local n=$1 t k best i w count=${#tests[@]}
	local -A weight=() lane_of=()
	local -a load=() order=() ow=()
	read_weights
	for ((k = 1; k <= n; k++)); do
		load[k]=0 lane_tests[k]=''
	done
	# tenths of a second; heaviest first (a selection: few tests), each
	# test's weight looked up once (ow[i] is order[i]'s)
	order=("${tests[@]}")
	for ((i = 0; i < count; i++)); do
		t=${order[i]##*/}
		ow[i]=${weight[$t]:-10}
	done
	for ((i = 0; i < count; i++)); do
		best=$i
		for ((k = i + 1; k < count; k++)); do
			((ow[k] > ow[best])) && best=$k
		done
		t=${order[best]} order[best]=${order[i]} order[i]=$t
		w=${ow[best]} ow[best]=${ow[i]} ow[i]=$w
		best=1
		for ((k = 2; k <= n; k++)); do
			((load[k] < load[best])) && best=$k
		done
		lane_of[$t]=$best
		load[best]=$((load[best] + w))
	done
	for t in "${tests[@]}"; do
		k=${lane_of[$t]}
		lane_tests[k]+=" $t"
	done
}

# plan_shard: with shard=K/N (make check-vm: guest K of the N that share a
# kernel's suite), the tests planned into N lanes as above, lane K's only,
# and the note that says so in shard_note.
plan_shard()
{
	local k n
	local -a lane_tests=()
	shard_note=()
	[[ -n $shard ]] || return 0
	if [[ ! $shard =~ ^([1-9][0-9]*)/([1-9][0-9]*)$ ]] ||
	   ((BASH_REMATCH[1] > BASH_REMATCH[2])); then
		die "shard=$shard: not K/N with 1 <= K <= N"
	fi
	k=${BASH_REMATCH[1]} n=${BASH_REMATCH[2]}
	plan_lanes "$n"
	read -ra tests <<< "${lane_tests[k]}"
	((${#tests[@]})) || die "shard=$shard: no test falls to this shard"
	shard_note=("# shard $k of $n: the other tests run in other guests")
}

# plan_use [PATTERN...]: the plan's values into the runner's variables:
# patterns (the plan's tests, then PATTERN...), pattern (all of them, one
# string), TIMEOUT and one variable per key.
plan_use()
{
	local -a words=()
	read -ra words <<< "${plan[tests]:-}"
	patterns=("${words[@]}" "$@")
	pattern=${patterns[*]}
	results=${plan[results]:-} kselftest=${plan[kselftest]:-}
	lanes=${plan[lanes]:-1} shard=${plan[shard]:-} label=${plan[label]:-}
	guest_seconds=${plan[guest_seconds]:-} guest=${plan[guest]:-}
	arch_once=${plan[arch_once]:-} fail_fast=${plan[fail_fast]:-}
	ci=${plan[ci]:-} matrix_update=${plan[matrix_update]:-}
	# valgrind runs each fds_example some 20 times slower
	if [[ -n ${plan[timeout]:-} ]]; then
		TIMEOUT=${plan[timeout]}
	elif [[ ${VALGRIND:-} == 1 ]]; then
		TIMEOUT=900
	else
		TIMEOUT=120
	fi
}
