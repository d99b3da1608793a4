# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154 # state shared by the parts run.sh sources
# Sourced by tests/run.sh: the results, printed and kept as files in
# $results (see tests/run.sh): ktap, counts, failures, cases and the
# tests' matrix rows, matrix.tsv, which the tests write themselves
# (FDS_MATRIX_OUT, exported here).

# results_open: $results made and emptied, FDS_MATRIX_OUT exported for the
# tests, and pass, fail and skip at 0.
results_open()
{
	mkdir -p "$results" || exit 1
	: > "$results/ktap" && : > "$results/failures" && : > "$results/cases" || exit 1
	export FDS_MATRIX_OUT=$results/matrix.tsv
	: > "$FDS_MATRIX_OUT" || exit 1
	pass=0 fail=0 skip=0
}

# emit LINE...: KTAP lines, to stdout and to the results (builtins only:
# in a guest under TCG every exec costs tens of milliseconds). Through the
# kernel's runner, stdout has had its output already: the results only.
emit()
{
	[[ -n $kselftest ]] || printf '%s\n' "$@"
	printf '%s\n' "$@" >> "$results/ktap"
}

# report N NAME LOG: test N, NAME, whose output is LOG, as judged
# (tests/runner/judge.sh: p, s, f, cases, verdicts, broken), into the KTAP
# and the results; its cases added to pass, fail and skip. A broken test
# counts as one failing case.
report()
{
	local n=$1 name=$2 out
	mapfile -t out < "$3"
	if [[ -n $broken ]]; then
		((${#out[@]})) && out=("${out[@]/#/# }")
		emit "${out[@]}" "# $name: ${secs}"
		if [[ $broken == TIMEOUT* ]]; then
			emit "not ok $n $name # $broken"
		else
			emit "# $name: $broken" "not ok $n $name"
		fi
		echo "$name: $broken" >> "$results/failures"
		printf '%s\t%s\tfail\n' "$name" "$name" >> "$results/cases"
		p=0 s=0 f=1
	else
		((${#out[@]})) && out=("${out[@]/#/  }")
		emit "${out[@]}" "  # $name: ${secs}"
		if ((f > 0)); then
			emit "not ok $n $name"
		elif ((p == 0)); then
			emit "ok $n $name # SKIP all cases skipped"
		else
			emit "ok $n $name"
		fi
		((${#cases[@]})) && printf '%s\n' "${cases[@]/#/$name: }" >> "$results/failures"
		((${#verdicts[@]})) && printf '%s\n' "${verdicts[@]/#/$name	}" >> "$results/cases"
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
}

# results_close: the counts file, "PASSED FAILED SKIPPED" over all test
# cases (the closing line comes after the whole run's own checks).
results_close()
{
	echo "$pass $fail $skip" > "$results/counts"
}
