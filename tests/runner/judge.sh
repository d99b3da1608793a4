# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154 # state shared by the parts run.sh sources
# Sourced by tests/run.sh: a test's verdict, from its own KTAP and its exit
# status. Reads nothing but its arguments and the plan's TIMEOUT and ci
# (tests/runner/plan.sh).

# count_cases LOG: p, s, f and the failing or skipped cases from LOG's own
# top-level result lines; verdicts, each case's "NAME<TAB>pass|fail|skip".
# Here and below a line meets a glob before a regex: bash compiles the
# regex at every =~, some 0.8 ms a line in a guest under TCG, and a
# guest's run has hundreds of lines (split_kselftest took 0.24 to 0.41 s
# of a sid guest with a regex a line, a read a line and the log reopened
# for each; 0.17 to 0.22 s with the glob, mapfile and one descriptor).
count_cases()
{
	local line lines re='^(not )?ok [0-9]+ (.*)$'
	p=0 s=0 f=0 cases=() verdicts=()
	mapfile -t lines < "$1"
	for line in "${lines[@]}"; do
		[[ $line == ?(not )"ok "* && $line =~ $re ]] || continue
		if [[ -n ${BASH_REMATCH[1]} ]]; then
			f=$((f + 1))
			cases+=("${BASH_REMATCH[2]}")
			verdicts+=("${BASH_REMATCH[2]%% \# *}	fail")
		elif [[ $line == *" # SKIP"* ]]; then
			s=$((s + 1))
			verdicts+=("${BASH_REMATCH[2]%% \# SKIP*}	skip")
			line=${BASH_REMATCH[2]/ \# SKIP / (skipped: }
			cases+=("$line)")
		else
			p=$((p + 1))
			verdicts+=("${BASH_REMATCH[2]}	pass")
		fi
	done
}

# judge RC: broken, a test's verdict when its exit status RC contradicts
# its own KTAP (as count_cases left it), or empty: it then becomes one
# failing case of its own, and its output diagnostic lines, so that the
# KTAP's counts and the closing line stay the same numbers.
judge()
{
	local rc=$1
	broken=
	if ((rc == 124 || rc == 137)); then
		broken="TIMEOUT ${TIMEOUT}s"
	elif ((rc != 0 && rc != 4 && f == 0)); then
		broken="exited $rc without a failing case"
	elif ((p + s + f == 0)); then
		broken="ran no test case"
	elif [[ $ci == true ]] && ((s > 0)); then
		broken="$s skipped; in CI a skip is a failure"
	fi
}
