# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154 # state shared by the parts run.sh sources
# Sourced by tests/run.sh: the kernel's runner (run_kselftest.sh of the
# installed kselftest tree $kselftest) runs the tests, in $lanes runners at
# once; its output is split into each test's share, judged as a test run
# natively would be (tests/runner/test.sh).
# Lane 1's output is printed as it comes and kept as kselftest.ktap, lane
# K's printed when it ends and kept as kselftest.K.ktap; kselftest.counts
# is over all lanes, "PASSED FAILED SKIPPED" over the runner's own
# verdicts (one per test). The tests share nothing one lane could disturb
# in another: each has its own bpffs in its own mount namespace, and those
# that send packets their own network namespace.

# lane_file K: lane K's copy of the runner's output.
lane_file()
{
	if (($1 == 1)); then
		echo "$results/kselftest.ktap"
	else
		echo "$results/kselftest.$1.ktap"
	fi
}

# keep_lane FILE [print]: the runner's output, from stdin, into FILE (and
# to stdout with "print"); each test's seconds, from the runner's
# "# selftests:" line to its result line, into $logdir/TEST.secs.
keep_lane()
{
	local line start=$EPOCHREALTIME re='^(not )?ok [0-9]+ selftests: fds_example: ([^ ]+)'
	while IFS= read -r line || [[ -n $line ]]; do
		printf '%s\n' "$line" >&3
		[[ -n ${2:-} ]] && printf '%s\n' "$line"
		if [[ $line == "# selftests: fds_example: "* ]]; then
			start=$EPOCHREALTIME
		elif [[ $line == ?(not )"ok "* && $line =~ $re ]]; then
			since "$start"
			echo "$SINCE" > "$logdir/${BASH_REMATCH[2]}.secs"
		fi
	done 3> "$1"
}

# run_kselftest: the kernel's runner runs the tests; its output, printed
# as it comes, is $results/kselftest.ktap (with lanes, see above).
run_kselftest()
{
	local args=(-c fds_example) t lanes=$lanes k
	local -a pid=()
	local -a lane_tests=()
	[[ $lanes =~ ^[1-9][0-9]*$ ]] || die "lanes=$lanes: not a number of lanes"
	((lanes > ${#tests[@]})) && lanes=${#tests[@]}
	rm -f "$results"/kselftest.*.ktap
	if ((lanes > 1)); then
		plan_lanes "$lanes"
	elif [[ -n $pattern || -n $shard ]] || ((${#left_out[@]})); then
		lane_tests[1]=${tests[*]}
	fi
	for ((k = lanes; k >= 1; k--)); do
		if [[ -n ${lane_tests[k]:-} ]]; then
			args=()
			for t in ${lane_tests[k]}; do
				args+=(-t "fds_example:$t")
			done
		fi
		[[ -n ${plan[timeout]:-} ]] && args+=(-o "${plan[timeout]}")
		if ((k > 1)); then
			"$kselftest/run_kselftest.sh" "${args[@]}" < /dev/null 2>&1 |
				keep_lane "$(lane_file "$k")" &
			pid[k]=$!
		else
			"$kselftest/run_kselftest.sh" "${args[@]}" < /dev/null 2>&1 |
				keep_lane "$(lane_file 1)" print
		fi
	done
	for ((k = 2; k <= lanes; k++)); do
		wait "${pid[k]}"
		printf '%s\n' "# lane $k of $lanes:"
		cat "$(lane_file "$k")"
	done
}

# split_kselftest FILE: each test's share of the runner's output in FILE, between its
# "# selftests: fds_example: TEST" line and its result line, without the
# runner's "# " prefix, into $logdir/NAME.log (NAME: TEST without .sh, the
# log run_one would write); the exit status its verdict names into
# $logdir/TEST.rc (ok 0, SKIP 4, TIMEOUT 124, exit=N N).
# Builtins only: it reads every line of the run.
split_kselftest()
{
	local line name out=-1 rc lines re='^(not )?ok [0-9]+ selftests: fds_example: ([^ ]+)( # (.*))?$'
	mapfile -t lines < "$1"
	for line in "${lines[@]}"; do
		if [[ $line == "# selftests: fds_example: "* ]]; then
			((out < 0)) || exec {out}>&-
			name=${line##* }
			exec {out}> "$logdir/${name%.sh}.log"
		elif [[ $line == ?(not )"ok "* && $line =~ $re ]]; then
			rc=0
			case ${BASH_REMATCH[4]} in
			SKIP*) rc=4 ;;
			TIMEOUT*) rc=124 ;;
			exit=*) rc=${BASH_REMATCH[4]#exit=} ;;
			*) [[ -n ${BASH_REMATCH[1]} ]] && rc=1 ;;
			esac
			echo "$rc" > "$logdir/${BASH_REMATCH[2]}.rc"
			((out < 0)) || exec {out}>&-
			out=-1
		elif ((out >= 0)) && [[ $line == "#" ]]; then
			echo >&"$out"
		elif ((out >= 0)); then
			printf '%s\n' "${line#\# }" >&"$out"
		fi
	done
	((out < 0)) || exec {out}>&-
}

# from_kselftest TEST: TEST's share of the runner's output, in $log as
# run_one leaves a test's; kselftest.counts gets its verdict.
from_kselftest()
{
	rc=1 secs="no result line"
	[[ -f $logdir/$1.secs ]] && read -r secs < "$logdir/$1.secs" && secs+=s
	if [[ -f $logdir/$1.rc ]]; then
		read -r rc < "$logdir/$1.rc"
	else
		echo "no result line for $1 from run_kselftest.sh" > "$log"
	fi
	case $rc in
	0) ks_pass=$((ks_pass + 1)) ;;
	4) ks_skip=$((ks_skip + 1)) ;;
	*) ks_fail=$((ks_fail + 1)) ;;
	esac
}

# kselftest_run: the runner's whole run, split into $logdir; the counts of
# its verdicts at 0.
kselftest_run()
{
	local file
	rm -f "$results/kselftest.counts"
	run_kselftest
	for file in "$results"/kselftest.ktap "$results"/kselftest.*.ktap; do
		[[ -f $file ]] && split_kselftest "$file"
	done
	ks_pass=0 ks_fail=0 ks_skip=0
}

# kselftest_close: kselftest.counts.
kselftest_close()
{
	echo "$ks_pass $ks_fail $ks_skip" > "$results/kselftest.counts"
}
