#!/usr/bin/env bash
# scripts/mutagen.py, the generator of make mutate-all's mechanical
# mutants, and scripts/mutate.sh's reading of them: each operator makes the
# mutant it promises on a small file of each language, arid lines make
# none, a sample is the seed's, the coverage map becomes each mutant's
# tests and an equivalent argument is attached (a stale one refused); a
# line mutant whose line changed is stale.
# kernel-independent: the harness's own tests; no kernel call
# kselftest: source tree only
. "$(dirname "$0")/../lib.sh"
scenario_begin

prereq PYTHON3 python3 'command -v python3'

# A scratch top with one file of each language, at paths mutagen mutates.
top=$T/top
mkdir -p "$top/tests" "$top/scripts"
cat > "$top/fds_example.c" << 'EOF'
#include <stdio.h>
/* a comment with a < b and 42 */
static int f(int a, int b)
{
	int unused;

	if (a < b && b != 3)
		return 0;
	puts("hello");
	return a;
}
EOF
cat > "$top/tests/run.sh" << 'EOF'
#!/usr/bin/env bash
# a comment with -eq and 7
f()
{
	if [[ $1 -lt 2 ]]; then
		echo "small"
	fi
	cat << EOT
	if [[ inside -eq 5 ]]
EOT
	exit 3
}
EOF
cat > "$top/scripts/matrix.py" << 'EOF'
#!/usr/bin/env python3
"""A docstring: if a < b: return 1"""
import sys


def f(a):
    if a == 2 and a > 1:
        return True
    sys.exit("bad")
EOF

# gen ARGS...: mutagen on the scratch top; its list in $T/list, its ids
# and lines ("ID<TAB>TO") in $T/ids.
# shellcheck disable=SC2034 # status: expect_status reads it
gen()
{
	status=0
	python3 "$TOP/scripts/mutagen.py" --top "$top" "$@" > "$T/list" 2> "$T/err" ||
		status=$?
	awk '/^id: / { id = $2 } /^to: / { sub(/^to: /, ""); print id "\t" $0 }' \
		"$T/list" > "$T/ids"
}

# has ID TO: the list holds mutant ID, making its line TO.
has()
{
	grep -qxF "$1	$2" "$T/ids" || { show_file "  " "$T/ids" >&2; fail "no mutant $1: $2"; }
}

step "C: each operator makes its mutant" '
	gen --only fds_example.c
	expect_status 0
	has fds_example.c:7:rel1 "if (a <= b && b != 3)"
	has fds_example.c:7:eq1 "if (a < b && b == 3)"
	has fds_example.c:7:logic1 "if (a < b || b != 3)"
	has fds_example.c:7:neg1 "if (!(a < b && b != 3))"
	has fds_example.c:7:const1 "if (a < b && b != 4)"
	has fds_example.c:7:const2 "if (a < b && b != 2)"
	has fds_example.c:8:ret1 "return 1;"
	has fds_example.c:9:del1 "(void)0;"
	has fds_example.c:9:str1 "puts(\"Xhello\");"
	has fds_example.c:10:ret1 "return 0;"
'

step "C: comments, the preprocessor, declarations and braces make no mutant" '
	gen --only fds_example.c
	! grep -qE "^fds_example.c:(1|2|3|4|5|6|11):" "$T/ids" ||
		fail "an arid line was mutated: $(grep -E "^fds_example.c:(1|2|3|4|5|6|11):" "$T/ids")"
'

step "C: -1 becomes 0 only, a binary minus keeps both neighbours, a line that waits keeps its numbers" '
	printf "%s\n" "int g(int a)" "{" "	if (poll(&p, 1, 200) < 0)" "		return -1;" \
		"	return a - 1;" "}" > "$top/hints.c"
	gen --only hints.c
	has hints.c:3:rel1 "if (poll(&p, 1, 200) <= 0)"
	! grep -q "^hints.c:3:const" "$T/ids" || fail "a wait was mutated: $(grep "^hints.c:3:const" "$T/ids")"
	has hints.c:4:ret1 "return 0;"
	! grep -q "^hints.c:4:const" "$T/ids" || fail "-1 made more than 0: $(grep "^hints.c:4:const" "$T/ids")"
	has hints.c:5:const1 "return a - 2;"
	has hints.c:5:const2 "return a - 0;"
'

step "bash: test operators, negation, strings and exit; no here-document, no comment" '
	gen --only tests/run.sh
	expect_status 0
	has tests/run.sh:5:rel1 "if [[ \$1 -le 2 ]]; then"
	has tests/run.sh:5:neg1 "if ! [[ \$1 -lt 2 ]]; then"
	has tests/run.sh:5:const1 "if [[ \$1 -lt 3 ]]; then"
	has tests/run.sh:6:del1 ":"
	has tests/run.sh:6:str1 "echo \"Xsmall\""
	has tests/run.sh:11:ret1 "exit 0"
	! grep -qE "^tests/run.sh:(1|2|3|4|7|9|10|12):" "$T/ids" ||
		fail "an arid line was mutated: $(grep -E "^tests/run.sh:(1|2|3|4|7|9|10|12):" "$T/ids")"
'

step "Python: operators, return and strings; no docstring, import or def" '
	gen --only scripts/matrix.py
	expect_status 0
	has scripts/matrix.py:7:eq1 "if a != 2 and a > 1:"
	has scripts/matrix.py:7:rel1 "if a == 2 and a >= 1:"
	has scripts/matrix.py:7:logic1 "if a == 2 or a > 1:"
	has scripts/matrix.py:7:neg1 "if not (a == 2 and a > 1):"
	has scripts/matrix.py:8:ret1 "return False"
	has scripts/matrix.py:9:str1 "sys.exit(\"Xbad\")"
	has scripts/matrix.py:9:del1 "pass"
	! grep -qE "^scripts/matrix.py:(1|2|3|6):" "$T/ids" ||
		fail "an arid line was mutated: $(grep -E "^scripts/matrix.py:(1|2|3|6):" "$T/ids")"
'

step "--groups keeps the files of the groups named, and refuses a group there is not" '
	mkdir -p "$top/tests/helpers"
	printf "%s\n" "int h(int a)" "{" "	return a + 1;" "}" > "$top/tests/helpers/h.c"
	gen --groups "test C"
	expect_status 0
	cut -d: -f1 "$T/ids" | sort -u > "$T/files"
	[[ $(<"$T/files") == tests/helpers/h.c ]] || fail "test C is: $(<"$T/files")"
	gen --groups "product C,harness"
	! grep -q "^tests/helpers/h.c:" "$T/ids" || fail "a test C file in product C and harness"
	grep -q "^fds_example.c:" "$T/ids" && grep -q "^tests/run.sh:" "$T/ids" &&
		grep -q "^scripts/matrix.py:" "$T/ids" || fail "product C or harness left out"
	gen --groups nope
	expect_status 1
	grep -qx "mutagen: no group nope" "$T/err" || fail "the unknown group is not named"
	rm "$top/tests/helpers/h.c"
'

step "a sample is as large as asked and the same for the same seed" '
	gen --sample 5 --seed 7
	cp "$T/ids" "$T/ids.7"
	(($(line_count "$T/ids.7") == 5)) || fail "not 5 mutants: $(line_count "$T/ids.7")"
	gen --sample 5 --seed 7
	cmp -s "$T/ids" "$T/ids.7" || fail "the same seed sampled other mutants"
	gen --sample 5 --seed 8
	! cmp -s "$T/ids" "$T/ids.7" || fail "another seed sampled the same mutants"
'

step "the coverage map gives each mutant its tests (an unreached line, none), a harness file its self-test first" '
	mkdir -p "$T/cov"
	printf "fds_example.c\t7\tloader,bad_input\ntests/run.sh\t6\t@suite\n" > "$T/cov/lines.tsv"
	gen --coverage "$T/cov"
	grep -A6 -x "id: fds_example.c:7:rel1" "$T/list" | grep -qx "tests: bad_input loader" ||
		fail "line 7 does not run bad_input and loader"
	grep -A6 -x "id: fds_example.c:9:del1" "$T/list" | grep -qx "tests: " ||
		fail "an unreached line does not run the whole suite"
	grep -A6 -x "id: tests/run.sh:6:del1" "$T/list" | grep -qx "tests: " ||
		fail "a line reached outside any test does not run the whole suite"
	grep -A7 -x "id: tests/run.sh:6:del1" "$T/list" | grep -qx "first: runner_selftest" ||
		fail "the runner mutant does not run its self-test first"
	! grep -A7 -x "id: fds_example.c:7:rel1" "$T/list" | grep -q "^first:" ||
		fail "a product mutant has a first: test"
'

step "an equivalent argument is attached; one that matches nothing is stale" '
	printf "file: fds_example.c\nfrom: return a;\nto: return 0;\nequivalent: a test\n\n" > "$T/eq"
	gen --equivalent "$T/eq"
	expect_status 0
	grep -A7 -x "id: fds_example.c:10:ret1" "$T/list" | grep -qx "equivalent: a test" ||
		fail "the argument is not attached"
	printf "file: fds_example.c\nfrom: return b;\nto: return 0;\nequivalent: gone\n\n" >> "$T/eq"
	gen --equivalent "$T/eq"
	expect_status 1
	grep -q "stale equivalent" "$T/err" || fail "the stale argument is not named"
	gen --equivalent "$T/eq" --only tests/run.sh
	expect_status 0
	[[ ! -s $T/err ]] || fail "an argument of a file not mutated was called stale: $(<"$T/err")"
'

step "mutate.sh: a line mutant applies only where its line still reads as it did" '
	printf "id: good\nfile: fds_example.c\nline: 8\nfrom: return 0;\nto: return 1;\nwhy: a test\n\n" > "$T/lm"
	printf "id: moved\nfile: fds_example.c\nline: 9\nfrom: return 0;\nto: return 1;\nwhy: a test\n\n" >> "$T/lm"
	cp "$TOP/scripts/mutate.sh" "$top/scripts/"
	status=0
	MUTANTS=$T/lm "$top/scripts/mutate.sh" --check > "$T/out" 2>&1 || status=$?
	show_file "  " "$T/out" >&2
	expect_status 1
	grep -qx "mutate: stale moved: fds_example.c:9: the line is not: return 0;" "$T/out" ||
		fail "the moved line is not named"
	! grep -q "stale good" "$T/out" || fail "a good line mutant was called stale"
'

scenario_end
