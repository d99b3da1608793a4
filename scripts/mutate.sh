#!/usr/bin/env bash
# make mutate: the suite's strength, measured. Each mutant in
# tests/mutants.txt is one small change a developer might make by mistake;
# it is applied alone to a scratch copy of the tree (never to the tree
# itself), the copy is rebuilt and the suite is rerun, stopping at the first
# failing test. A mutant the suite fails on is killed; one it passes
# survived, and needs a test or an argument (an "equivalent:" line) that no
# test can tell it apart. A mutant whose text is not in its file exactly
# once is stale: the code changed and the list must follow.
#
# A mutant may name, in a "first:" line, the test that killed it last time:
# that test alone runs first, and only when it passes does the whole suite
# run. The verdict is the same (the unchanged tree passes every test), it
# only comes sooner; a wrong or stale "first:" costs time, never a verdict.
#
# Mechanical mutants (make mutate-all, scripts/mutagen.py) carry two keys
# more: "line:", the line they change (from: is that line without its
# leading blanks, to: what it becomes), and "tests:", the tests whose
# coverage reaches the line (make coverage): only those run, by name; an
# empty tests: runs the whole suite. Every verdict comes from
# scripts/judge.sh --ktap of the unchanged tree, not from the exit status
# of the copy's runner alone: a mutant of the runner cannot judge itself.
# MUTATE_REPORT=FILE writes each result as "RESULT ID FILE LINE" there.
#
# Usage: mutate.sh [ID...]     (default: every mutant in the list)
#        mutate.sh --check      only whether every mutant's text is in its
#                               file exactly once (no build, no suite)
# MUTATE_JOBS (default 2) copies run side by side, one mutant each.
# Exit status: 0 when nothing is stale and at least MUTATE_TARGET percent
# (default 100) of the mutants that built were killed.
set -u

TOP=$(cd "$(dirname "$0")/.." && pwd)
LIST=${MUTANTS:-$TOP/tests/mutants.txt}
TARGET=${MUTATE_TARGET:-100}

die() {
	echo "mutate: $*" >&2
	exit 1
}

[[ -r $LIST ]] || die "cannot read $LIST"

# The list: blocks of "key: value" lines, a blank line between blocks.
ids=() files=() froms=() tos=() equivs=() firsts=() lines=() selects=()
add_mutant() {
	[[ -z ${m_id:-}${m_file:-}${m_from:-} ]] && return
	[[ -n ${m_id:-} && -n ${m_file:-} && -n ${m_from:-} && -n ${m_why:-} ]] ||
		die "$LIST:$block_line: a mutant needs id, file, from and why"
	[[ -n ${m_to+set} ]] || die "$LIST:$block_line: mutant $m_id has no to: line"
	[[ -z ${m_line:-} || $m_line =~ ^[1-9][0-9]*$ ]] ||
		die "$LIST:$block_line: mutant $m_id: line: $m_line is not a line number"
	ids+=("$m_id") files+=("$m_file") froms+=("$m_from") tos+=("$m_to")
	equivs+=("${m_equiv:-}") firsts+=("${m_first:-}") lines+=("${m_line:-}")
	# "-": no tests: key, as in the hand-written list
	selects+=("${m_tests--}")
	unset m_id m_file m_from m_to m_why m_equiv m_first m_line m_tests
}
lineno=0 block_line=1
while IFS= read -r line || [[ -n $line ]]; do
	lineno=$((lineno + 1))
	[[ $line == '#'* ]] && continue
	if [[ -z $line ]]; then
		add_mutant
		block_line=$((lineno + 1))
		continue
	fi
	key=${line%%:*}
	value=${line#*:}
	value=${value#"${value%%[! 	]*}"}
	case $key in
	id) m_id=$value ;;
	file) m_file=$value ;;
	from) m_from=$value ;;
	to) m_to=$value ;;
	why) m_why=$value ;;
	equivalent) m_equiv=$value ;;
	first) m_first=$value ;;
	line) m_line=$value ;;
	tests) m_tests=$value ;;
	*) die "$LIST:$lineno: unknown key '$key'" ;;
	esac
done < "$LIST"
add_mutant

# line_text FILE N: sets text to line N of FILE without its leading
# blanks, indent to those blanks.
line_text() {
	local -a all
	mapfile -t -s $(($2 - 1)) -n 1 all < "$1"
	text=${all[0]-}
	indent=${text%%[! 	]*}
	text=${text#"$indent"}
}

# stale_reason I [TREE]: sets why to the reason mutant I cannot apply to
# TREE (default the work tree), or to nothing.
stale_reason() {
	local path=${2:-$TOP}/${files[$1]} n
	why=
	if [[ ! -f $path ]]; then
		why="${files[$1]}: no such file"
		return
	fi
	if [[ -n ${lines[$1]} ]]; then
		line_text "$path" "${lines[$1]}"
		[[ $text == "${froms[$1]}" ]] ||
			why="${files[$1]}:${lines[$1]}: the line is not: ${froms[$1]}"
		return
	fi
	n=$(grep -F -o -e "${froms[$1]}" "$path" | wc -l)
	if ((n != 1)); then
		why="${files[$1]}: the text is not there exactly once: ${froms[$1]}"
	elif [[ ${froms[$1]} == "${tos[$1]}" ]]; then
		why="${files[$1]}: from and to are the same"
	fi
}

if [[ ${1:-} == --check ]]; then
	nstale=0
	for i in "${!ids[@]}"; do
		stale_reason "$i"
		[[ -z $why ]] && continue
		echo "mutate: stale ${ids[$i]}: $why"
		nstale=$((nstale + 1))
	done
	echo "mutate: ${#ids[@]} mutants, $nstale stale"
	((nstale == 0))
	exit
fi

declare -A seen
for id in "${ids[@]}"; do
	[[ -z ${seen[$id]:-} ]] || die "two mutants are called $id"
	seen[$id]=1
done
want=("$@")
for id in "${want[@]}"; do
	[[ -n ${seen[$id]:-} ]] || die "no mutant $id in $LIST"
done

declare -A firsts_by_id
for i in "${!ids[@]}"; do
	firsts_by_id[${ids[$i]}]=${firsts[$i]}
done

# Which mutants run: all, or those named.
todo=()
for i in "${!ids[@]}"; do
	if ((${#want[@]} == 0)) || [[ " ${want[*]} " == *" ${ids[$i]} "* ]]; then
		todo+=("$i")
	fi
done

# JOBS scratch copies, one per worker: every file git knows (modified ones
# as they are now), and the download cache shared by link.
JOBS=${MUTATE_JOBS:-2}
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || die "MUTATE_JOBS=$JOBS is not a count"
base=$(mktemp -d "${TMPDIR:-/tmp}/fds-mutate.XXXXXX") || exit 1
trap 'rm -rf "$base"' EXIT
for ((k = 0; k < JOBS; k++)); do
	mkdir "$base/$k" || exit 1
	(cd "$TOP" && git ls-files -z -c -o --exclude-standard |
		tar --null -T - -cf -) | tar -xf - -C "$base/$k" ||
		die "cannot copy the tree to $base/$k"
	[[ -d $TOP/.cache ]] && ln -s "$TOP/.cache" "$base/$k/.cache"
done

# build DIR, suite DIR: the build and the suite in one copy.
build() {
	make -C "$1" -s test-build > "$1/build.log" 2>&1
}
# write_plan DIR RESULTS: the runner's plan (tests/runner/plan.sh) for a
# run in copy DIR, into DIR/build/mutate.plan: a skip fails, as in CI, the
# first failure ends the run, and its results go to
# DIR/build/results/RESULTS (empty: the runner's own default).
write_plan() {
	mkdir -p "$1/build" &&
	printf '%s\n' ci=true fail_fast=1 "timeout=${TEST_TIMEOUT:-300}" \
		${2:+"results=$1/build/results/$2"} > "$1/build/mutate.plan"
}
# suite DIR RESULTS [TEST...]: the suite (or TEST...) in copy DIR, its
# results as write_plan says. A runner that hangs is stopped after
# MUTATE_SUITE_TIMEOUT seconds (a verdict too: the mutant made the suite
# hang).
suite() {
	local dir=$1
	write_plan "$dir" "$2" || return 1
	shift 2
	(cd "$dir" && timeout --kill-after=10 "${MUTATE_SUITE_TIMEOUT:-1800}" \
		"$TOP/scripts/judge.sh" --ktap tests/run.sh --plan build/mutate.plan "$@" \
		> "$dir/suite.log" 2>&1)
}
# first_test DIR TEST: that test alone (its name is the runner's pattern).
first_test() {
	write_plan "$1" first || return 1
	(cd "$1" && timeout --kill-after=10 "${MUTATE_SUITE_TIMEOUT:-1800}" \
		"$TOP/scripts/judge.sh" --ktap tests/run.sh --plan build/mutate.plan "$2" \
		> "$1/first.log" 2>&1)
}
# first_failure DIR RESULTS: the test whose failure stopped the run, from
# the runner's results (tests/run.sh) in DIR/build/results/RESULTS.
first_failure() {
	local l=
	# (a runner that died early left no failures file: no message)
	{ read -r l < "$1/build/results/$2/failures"; } 2> /dev/null
	# no test named: the runner itself failed (a mutant of it, say)
	[[ -n $l ]] || l=@judge
	echo "${l%%: *}"
}

# run_one I DIR: applies mutant I in DIR, builds, runs, restores; prints
# its line and appends "RESULT ID" to DIR/tally.
run_one() {
	local i=$1 dir=$2 id=${ids[$1]} from=${froms[$1]}
	local to=${tos[$1]} path=$2/${files[$1]} orig='' why result by=host
	local text indent select=${selects[$1]} all where=${files[$1]}
	stale_reason "$i" "$dir"
	# the last mutant's results must not name this one's killer
	rm -rf "$dir/build/results"
	if [[ -n $why ]]; then
		printf '%-10s %-12s %s\n' stale "$id" "$why"
		echo "stale $id" >> "$dir/tally"
		return
	fi
	IFS= read -r -d '' orig < "$path"
	if [[ -n ${lines[$i]} ]]; then
		where=${files[$i]}:${lines[$i]}
		line_text "$path" "${lines[$i]}"
		mapfile -t all < "$path"
		all[${lines[$i]} - 1]=$indent$to
		printf '%s\n' "${all[@]}" > "$path"
	else
		printf '%s' "${orig/"$from"/"$to"}" > "$path"
	fi
	if ! build "$dir"; then
		result=unbuilt
	elif [[ -n ${firsts[$i]} ]] && ! first_test "$dir" "${firsts[$i]}"; then
		result=killed by=first
	elif [[ $select != - && -n $select ]]; then
		# the tests that reach the line, their results apart
		# shellcheck disable=SC2086 # test names, split on purpose
		if suite "$dir" selected $select; then
			result=survived
			[[ -n ${equivs[$i]} ]] && result=equivalent
		else
			result=killed by=selected
		fi
	elif suite "$dir" ""; then
		result=survived
		[[ -n ${equivs[$i]} ]] && result=equivalent
	else
		result=killed
	fi
	printf '%s' "$orig" > "$path"
	[[ $result == killed ]] && by=$(first_failure "$dir" "$by")
	echo "$result $id $by" >> "$dir/tally"
	echo "$result $id ${files[$i]} ${lines[$i]:--}" >> "$dir/report"
	case $result in
	killed) printf '%-10s %-12s %s (by %s)\n' killed "$id" "$where" "$by" ;;
	unbuilt)
		if [[ -n ${lines[$i]} ]]; then
			why="; not counted"
		else
			why=": make the mutant build"
		fi
		printf '%-10s %-12s %s (does not compile%s)\n' not-built "$id" "$where" "$why" ;;
	survived) printf '%-10s %-12s %s: %s -> %s\n' SURVIVED "$id" "$where" "$from" "$to" ;;
	*) printf '%-10s %-12s %s: %s -> %s\n' "$result" "$id" "$where" "$from" "$to" ;;
	esac
}

# per_file TARGET: from "RESULT ID FILE LINE" lines, the score of each
# file and of each group (product C: the top level and examples/; test
# C: tests/; harness: the rest), then each survivor with its line. Fails
# when the product C or the harness is under TARGET percent killed.
per_file() {
	sort -k3,3 -k4,4n | awk -v target="$1" '
	function group(f) {
		if (f ~ /^tests\/.*\.c$/) return "test C"
		if (f ~ /\.c$/) return "product C"
		return "harness"
	}
	function pct(k, s) { return k + s ? sprintf("%5.1f %%", int(1000 * k / (k + s)) / 10) : "    n/a" }
	{
		g = group($3); files[$3] = g; n[$3 " " $1]++; n[g " " $1]++
		if ($1 == "survived") lost[++nlost] = sprintf("  %s:%s  %s", $3, $4, $2)
	}
	END {
		printf "mutate: %-32s %6s %6s %6s %6s %8s\n", "file", "killed", "surv", "equiv", "unbuilt", "score"
		for (f in files) order[++nf] = f
		for (i = 1; i <= nf; i++) for (j = i + 1; j <= nf; j++)
			if (order[j] < order[i]) { t = order[i]; order[i] = order[j]; order[j] = t }
		for (i = 1; i <= nf; i++) {
			f = order[i]
			printf "mutate: %-32s %6d %6d %6d %6d %8s\n", f, n[f " killed"], n[f " survived"],
				n[f " equivalent"], n[f " unbuilt"], pct(n[f " killed"], n[f " survived"])
		}
		bad = 0
		split("product C|test C|harness", gs, "|")
		for (i = 1; i <= 3; i++) {
			g = gs[i]; k = n[g " killed"]; s = n[g " survived"]
			if (k + s == 0) continue
			gate = g == "test C" ? "" : (100 * k < target * (k + s) ? "  under the target" : "")
			if (gate != "") bad = 1
			printf "mutate: %-32s %6d %6d %6d %6d %8s%s\n", "(" g ")", k, s,
				n[g " equivalent"], n[g " unbuilt"], pct(k, s), gate
		}
		if (nlost) print "mutate: survivors (a test, or an argument in tests/mutants-equivalent.txt):"
		for (i = 1; i <= nlost; i++) print lost[i]
		exit bad
	}'
}

start=$SECONDS
echo "mutate: ${#todo[@]} mutants, $JOBS at a time, in $base"
# The unchanged tree must build everywhere and pass, or nothing means much.
for ((k = 0; k < JOBS; k++)); do
	build "$base/$k" &
done
for ((k = 0; k < JOBS; k++)); do
	wait -n || { cat "$base"/*/build.log >&2; die "the unchanged tree does not build"; }
done
# When every mutant names the tests that reach it, those tests are the
# baseline: each must exist and pass on the unchanged tree (a name that
# picks no test fails the runner, so no mutant is killed by a stale name).
declare -A wanted=()
whole=0
for i in "${todo[@]}"; do
	if [[ ${selects[$i]} == - || -z ${selects[$i]} ]]; then
		whole=1
		break
	fi
	for t in ${selects[$i]}; do
		wanted[$t]=1
	done
done
baseline=()
((whole)) || mapfile -t baseline < <(printf '%s\n' "${!wanted[@]}" | LC_ALL=C sort)
if ! suite "$base/0" host "${baseline[@]}"; then
	cat "$base/0/build/results/host/failures" >&2
	tail -n 5 "$base/0/suite.log" >&2
	die "the suite fails on the unchanged tree; fix that first"
fi
# Each "first:" test must exist and pass alone on the unchanged tree, or
# its failure under a mutant would prove nothing.
declare -A checked
for i in "${todo[@]}"; do
	t=${firsts[$i]}
	[[ -z $t || -n ${checked[$t]:-} ]] && continue
	checked[$t]=1
	first_test "$base/0" "$t" ||
		die "first: $t (mutant ${ids[$i]}) does not run and pass alone on the unchanged tree: $(tail -n 3 "$base/0/first.log")"
done

for ((k = 0; k < JOBS; k++)); do
	(
		: > "$base/$k/tally"
		: > "$base/$k/report"
		for ((n = k; n < ${#todo[@]}; n += JOBS)); do
			run_one "${todo[$n]}" "$base/$k"
		done
	) &
done
wait
elapsed=$((SECONDS - start))

killed=0 survived=0 stale=0 unbuilt=0 equivalent=0
survivors=()
declare -A killers
while read -r result id by; do
	case $result in
	killed) killed=$((killed + 1)) killers[$id]=$by ;;
	survived) survived=$((survived + 1)) survivors+=("$id") ;;
	equivalent) equivalent=$((equivalent + 1)) ;;
	stale) stale=$((stale + 1)) ;;
	unbuilt) unbuilt=$((unbuilt + 1)) ;;
	esac
done < <(cat "$base"/*/tally)
total=$((killed + survived + equivalent + stale + unbuilt))
((total == ${#todo[@]})) || die "only $total of ${#todo[@]} mutants reported back"

counted=$((killed + survived))
if ((counted > 0)); then
	pct=$((killed * 1000 / counted))
	ratio="$((pct / 10)).$((pct % 10)) %"
else
	pct=0 ratio="n/a"
fi
printf 'mutate: %d mutants: %d killed, %d survived, %d argued equivalent, %d stale, %d not built; %s killed; %dm%02ds\n' \
	"$total" "$killed" "$survived" "$equivalent" "$stale" "$unbuilt" "$ratio" \
	$((elapsed / 60)) $((elapsed % 60))
# MUTATE_RECORD=1: each killed mutant's "first:" becomes the test that
# killed it in this run, so that the next run asks that test first.
if [[ ${MUTATE_RECORD:-} == 1 ]]; then
	new=$(mktemp "$LIST.XXXXXX") || exit 1
	while IFS= read -r line || [[ -n $line ]]; do
		[[ $line == first:* ]] && continue
		printf '%s\n' "$line"
		[[ $line == id:* ]] && cur=${line#id:} && cur=${cur#"${cur%%[! 	]*}"}
		if [[ $line == why:* && -n ${killers[$cur]:-} && ${killers[$cur]} != @* ]]; then
			printf 'first: %s\n' "${killers[$cur]}"
		elif [[ $line == why:* && -n ${firsts_by_id[$cur]:-} ]]; then
			printf 'first: %s\n' "${firsts_by_id[$cur]}"
		fi
	done < "$LIST" > "$new" || die "cannot write $new"
	mv "$new" "$LIST" || die "cannot rewrite $LIST"
	echo "mutate: the first: lines of $LIST follow this run's killers"
fi
[[ -n ${MUTATE_REPORT:-} ]] && cat "$base"/*/report > "$MUTATE_REPORT"
# A list of mechanical mutants (line: keys) is judged per group of files,
# its unbuilt mutants not counted (an operator applied blindly may not
# compile; the build is the first judge).
if [[ " ${lines[*]} " == *[0-9]* ]]; then
	cat "$base"/*/report | per_file "$TARGET"
	groups_ok=$?
	((stale == 0 && groups_ok == 0))
	exit
fi
if ((${#survivors[@]})); then
	echo "mutate: survivors (give each a test, or argue it equivalent in $LIST): ${survivors[*]}"
fi
((stale == 0 && unbuilt == 0 && counted > 0 && pct >= TARGET * 10))
