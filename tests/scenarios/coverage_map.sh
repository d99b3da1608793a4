#!/usr/bin/env bash
# scripts/coverage_map.py, make coverage's bookkeeping, on a tiny made-up
# run instead of the whole suite under coverage (minutes): a repository of
# a few files, the bash traces of three tests and of the runner's own
# process (@suite), one of them of a copy in a scratch tree and one of a
# made-up file that only has a repository file's name, and a gcov JSON
# document. lines.tsv, which make mutate's tools read, must keep its
# format and name each reached line's tests; executable.tsv must hold what
# the bash rule counts, a step's body included.
# kernel-independent: text in, text out; the same on every kernel
# It checks a tool of the source tree, not installed by make kselftest-install:
# kselftest: source tree only
. "$(dirname "$0")/../lib.sh"
scenario_begin

prereq GCOV "gcc and gcov (make deps)" 'command -v cc && command -v gcov'
prereq COVERAGE_PY "python3-coverage (make deps)" \
	'/usr/bin/python3 -c "import coverage"'

# rec TEST SOURCE LINE FUNCTION COMMAND: one record of TEST's trace, as
# bash writes it under make coverage's PS4.
rec()
{
	printf '+\t%s\t%s\t%s\t%s\n' "$2" "$3" "$4" "$5" >> "$T/out/trace/$1~1~1"
}

# made_up: the repository ($T/tree, its files in $T/files) and a run's
# data ($T/out).
made_up()
{
	local tree=$T/tree
	mkdir -p "$tree/tools" "$tree/tests/scenarios" "$tree/src" "$T/out/trace" "$T/out/gcov-json"
	printf '%s\n' tools/a.sh tests/lib.sh tests/scenarios/demo.sh src/x.c > "$T/files"
	printf '%s\n' alpha beta > "$T/tests"
	# executable, by the bash rule: 6 7 8 12 15 17 18
	cat > "$tree/tools/a.sh" << 'END'
#!/usr/bin/env bash
# a comment

greet()
{
	local who=$1
	if [[ -n $who ]]; then
		echo "hello,
$who"
	fi
}
cat << 'EOF'
not code
EOF
case $1 in
a)
	greet a ;;
*) greet "$1" |
	tr a-z A-Z ;;
esac
END
	# step_run evals a body at line 9
	cat > "$tree/tests/lib.sh" << 'END'
# shellcheck shell=bash
step()
{
	(step_run "$2")
}
step_run()
{
	STEP_BODY=$1
	eval "$STEP_BODY"
}
END
	# executable: 2 3, the first body's 4 5 7, 9
	cat > "$tree/tests/scenarios/demo.sh" << 'END'
#!/usr/bin/env bash
. "$(dirname "$0")/../lib.sh"
step one '
	first
	second |
		third
	fourth
'
step two --needs X 'solo'
END

	# alpha ran a copy of tools/a.sh in a scratch tree
	rec alpha /tmp/scratch/tools/a.sh 15 "" 'case x in'
	rec alpha /tmp/scratch/tools/a.sh 19 "" 'tr a-z A-Z'
	rec alpha /tmp/scratch/tools/a.sh 6 greet 'local who=x'
	rec alpha /tmp/scratch/tools/a.sh 9 greet "echo 'hello,"
	echo "x'" >> "$T/out/trace/alpha~1~1"
	# eval'd text, outside greet: no line of its own
	rec alpha /tmp/scratch/tools/a.sh 12 greet 'cat'
	# a.sh is no file of the repository
	rec alpha /tmp/scratch/a.sh 7 "" 'if'
	# a made-up tools/a.sh, no copy: its commands are not on those lines
	rec alpha /tmp/made-up/tools/a.sh 7 "" 'printf x'
	rec alpha /tmp/made-up/tools/a.sh 17 "" 'exit 0'
	# the runner's own process, by relative paths
	rec @suite tools/a.sh 12 "" 'cat'
	rec @suite ./tools/a.sh 15 "" 'case y in'
	# beta: a scenario's steps, their bodies as step_run's eval traces them
	rec beta /x/tests/scenarios/demo.sh 2 "" '. /x/tests/scenarios/../lib.sh'
	rec beta /x/tests/scenarios/demo.sh 8 "" "step one '"
	printf '%s\n' '	first' "'" >> "$T/out/trace/beta~1~1"
	rec beta /x/tests/scenarios/../lib.sh 4 step "step_run '"
	rec beta /x/tests/scenarios/../lib.sh 8 step_run "STEP_BODY='"
	rec beta /x/tests/scenarios/../lib.sh 9 step_run "eval '"
	rec beta /x/tests/scenarios/../lib.sh 10 step_run first
	rec beta /x/tests/scenarios/../lib.sh 12 step_run third
	rec beta /x/tests/scenarios/demo.sh 9 "" 'step two --needs X solo'
	rec beta /x/tests/lib.sh 9 step_run 'eval solo'
	rec beta /x/tests/lib.sh 9 step_run solo
	# no test of this run
	rec stranger /tmp/scratch/tools/a.sh 17 "" 'greet a'

	# gcov: src/x.c has lines 3 4 5, alpha ran 3
	printf '{"current_working_directory": "%s", "files": [%s, %s]}\n' "$tree" \
		'{"file": "src/x.c", "lines": [{"line_number": 3, "count": 2}, {"line_number": 4, "count": 0}]}' \
		'{"file": "/usr/include/stdio.h", "lines": [{"line_number": 9, "count": 1}]}' \
		> "$T/out/gcov-json/alpha.json"
	printf '{"current_working_directory": "%s", "files": [{"file": "src/x.c", "lines": [%s]}]}\n' \
		"$tree" '{"line_number": 3, "count": 0}, {"line_number": 4, "count": 0}, {"line_number": 5, "count": 0}' \
		> "$T/out/gcov-executable.json"
}

step "setup: coverage_map.py maps a made-up run" '
	made_up
	"$TOP/scripts/coverage_map.py" map --tree "$T/tree" --out "$T/out" --files "$T/files" \
		--tests "$T/tests" 2> "$T/map.err" || fail "exit $?: $(<"$T/map.err")"
'

step "lines.tsv: FILE<TAB>LINE<TAB>TEST[,TEST...], sorted, each line once" '
	re=$'"'"'^[^\t]+\t[1-9][0-9]*\t(@suite|[a-z0-9_]+)(,(@suite|[a-z0-9_]+))*$'"'"'
	mapfile -t lines < "$T/out/lines.tsv"
	((${#lines[@]})) || fail "lines.tsv is empty"
	for line in "${lines[@]}"; do
		[[ $line =~ $re ]] || fail "not FILE<TAB>LINE<TAB>TESTS: [$line]"
	done
	sort -t "	" -k1,1 -k2,2n -u "$T/out/lines.tsv" | cmp -s - "$T/out/lines.tsv" ||
		fail "lines.tsv is not sorted by file and line, or has a line twice"
'

step "each reached line names its tests: copies by suffix (not look-alikes), @suite, step bodies" '
	printf "%s\t%s\t%s\n" src/x.c 3 alpha tests/lib.sh 4 beta tests/lib.sh 8 beta \
		tests/lib.sh 9 beta tests/scenarios/demo.sh 2 beta tests/scenarios/demo.sh 3 beta \
		tests/scenarios/demo.sh 4 beta tests/scenarios/demo.sh 5 beta \
		tests/scenarios/demo.sh 9 beta tools/a.sh 6 alpha tools/a.sh 8 alpha \
		tools/a.sh 12 @suite tools/a.sh 15 @suite,alpha tools/a.sh 18 alpha > "$T/want"
	diff -u "$T/want" "$T/out/lines.tsv" >&2 || fail "lines.tsv differs (diff above)"
'

step "executable.tsv: the lines gcov counts, and the bash rule" '
	printf "%s\t%s\n" src/x.c 3 src/x.c 4 src/x.c 5 tests/lib.sh 4 tests/lib.sh 8 \
		tests/lib.sh 9 tests/scenarios/demo.sh 2 tests/scenarios/demo.sh 3 \
		tests/scenarios/demo.sh 4 tests/scenarios/demo.sh 5 tests/scenarios/demo.sh 7 \
		tests/scenarios/demo.sh 9 tools/a.sh 6 tools/a.sh 7 tools/a.sh 8 tools/a.sh 12 \
		tools/a.sh 15 tools/a.sh 17 tools/a.sh 18 > "$T/want.exe"
	diff -u "$T/want.exe" "$T/out/executable.tsv" >&2 || fail "executable.tsv differs (diff above)"
'

step "data of no test of the run is dropped, and said so" '
	grep -q "stranger" "$T/map.err" || fail "nothing said: $(<"$T/map.err")"
'

step "Python: what coverage.py measured of a copy is its test's, by statement" --needs COVERAGE_PY '
	printf "%s\n" "\"\"\"A tool.\"\"\"" "import sys" "" "" "def main():" "    return 1" "" "" \
		"sys.exit(" "    main())" > "$T/tree/tools/t.py"
	echo tools/t.py >> "$T/files"
	echo gamma >> "$T/tests"
	mkdir -p "$T/out/python/gamma"
	/usr/bin/python3 -c "
import sys
from coverage import CoverageData
data = CoverageData(basename=sys.argv[1])
data.add_lines({\"/tmp/scratch/tools/t.py\": [2, 5, 10]})
data.write()" "$T/out/python/gamma/cov.1"
	"$TOP/scripts/coverage_map.py" map --tree "$T/tree" --out "$T/out" --files "$T/files" \
		--tests "$T/tests" 2> "$T/map.err" || fail "exit $?: $(<"$T/map.err")"
	grep "^tools/t.py" "$T/out/lines.tsv" > "$T/py" || true
	printf "tools/t.py\t%s\tgamma\n" 2 5 9 | diff -u - "$T/py" >&2 || fail "tools/t.py: (diff above)"
	grep -qx "tools/t.py	6" "$T/out/executable.tsv" || fail "line 6 (return 1) is not among the statements"
'

# gcov: src/y.c built in a tree, its counts kept under a test's prefix
# as the tree's own run writes them, as a copy's run of the same build
# does, and as another build of the same file does (a test's make clean
# and make in a copy of the tree: its notes gone with it).
step "gcov: a copy's counts are the tree's file's, another build's are dropped and said so" --needs GCOV '
	g=$T/g
	mkdir -p "$g/tree/src" "$g/own/src" "$g/out/gcov/alpha"
	printf "int main(int argc, char **argv)\n{\n\t(void)argv;\n\treturn argc > 5;\n}\n" |
		tee "$g/own/src/y.c" > "$g/tree/src/y.c"
	for d in tree own; do
		(cd "$g/$d" && cc --coverage -c -o src/y.o src/y.c && cc --coverage -o src/y src/y.o) ||
			fail "cannot build $d/src/y"
	done
	GCOV_PREFIX=$g/out/gcov/alpha "$g/tree/src/y"
	GCOV_PREFIX=$g/out/gcov/alpha/scratch/copy "$g/tree/src/y"
	GCOV_PREFIX=$g/out/gcov/alpha "$g/own/src/y"
	"$TOP/scripts/coverage_map.py" gcov --tree "$g/tree" --out "$g/out" 2> "$g/err" ||
		fail "exit $?: $(<"$g/err")"
	grep -q "alpha: $g/own/src/y.gcda is of another build than src/y.gcno, not counted" "$g/err" ||
		fail "the other build not reported: $(<"$g/err")"
	(($(wc -l < "$g/err") == 1)) || fail "more reported: $(<"$g/err")"
	python3 -c "
import json, sys
counts = [l[\"count\"] for doc in open(sys.argv[1]) for f in json.loads(doc)[\"files\"]
          if f[\"file\"] == \"src/y.c\" for l in f[\"lines\"] if l[\"line_number\"] == 4]
print(sum(counts))" "$g/out/gcov-json/alpha.json" > "$g/count" || fail "cannot read alpha.json"
	[[ $(<"$g/count") == 2 ]] || fail "line 4 counted $(<"$g/count") times, not 2 (tree and copy)"
'

step "summary.txt: totals per group, as printed" '
	"$TOP/scripts/coverage_map.py" summary --out "$T/out" > "$T/summary" ||
		fail "exit $?"
	grep -q "^totals per group" "$T/summary" || fail "no totals: $(<"$T/summary")"
	cmp -s "$T/summary" "$T/out/summary.txt" || fail "summary.txt is not what was printed"
'
scenario_end
