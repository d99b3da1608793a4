#!/usr/bin/env bash
# make coverage: which lines of the project each test reaches. The tree is
# copied (every file git knows, as it is in the work tree, and the
# untracked ones not ignored) into build/coverage/tree, built there with
# gcov's instrumentation, and the suite runs once in the copy, as root,
# with each test's counts kept apart:
#   C       gcov (-O0 -g --coverage): tests/run.sh gives each test
#           GCOV_PREFIX=OUT/gcov/TEST; every program also links
#           OUT/instr/gcov_exit.o (-Wl,--wrap=_exit), so that a process
#           ending in _exit() (the kselftest harness's child running each
#           test) writes its counts too; empty world-writable .gcda files,
#           made first, take the counts of what a test runs as nobody
#   bash    xtrace: every bash process the suite starts reads
#           OUT/instr/bash_env.sh (BASH_ENV), which opens its own trace file
#           OUT/trace/TEST~PID~RANDOM and turns set -x on (tests/lib.sh
#           spares that descriptor when it closes the others)
#   Python  python3-coverage: OUT/instr/sitecustomize.py (PYTHONPATH)
#           starts it in every Python process, its data in OUT/python/TEST
# TEST is run.sh's name of the test (FDS_COVERAGE_TEST), kept by whatever
# the test starts, nested runners included (FDS_COV_OWNER); what runs in
# the runner's own process, outside any test, is "@suite".
# Then scripts/coverage_map.py maps it all back to the files git knows
# (a copy of tests/run.sh in a test's scratch tree is tests/run.sh, a
# made-up one of the same name is not) and writes, in build/coverage (OUT):
#   lines.tsv       FILE<TAB>LINE<TAB>TEST[,TEST...]: each line a test
#                   reached (make mutate's tools read it: keep the format)
#   executable.tsv  FILE<TAB>LINE: each line counted as executable:
#                   C: what gcov counts; Python: coverage.py's statements;
#                   bash: the first line of each command line that runs
#                   something (not blank, a comment, only keywords or
#                   braces - then else do fi done esac ;; { } ( ) - a case
#                   pattern or a function header), a command line being
#                   the lines one command spans (\, && || | at the end, an
#                   open quote, $( ), [[ ]], a here-document...); the body
#                   of a lib.sh step is code too (coverage_map.py says more)
#   summary.txt     lines (and gcovr's branches for C) per file and group,
#                   printed too
#   html/index.html gcovr --html-details, the C of the whole run
#   stamp           sha1sum of every file of lines.tsv and executable.tsv as
#                   the suite ran it: `sha1sum -c --quiet build/coverage/stamp`
#                   from the top of the tree says whether it is current;
#                   stamp.tests the same of every file under tests/
#   partial         the patterns of a run of some tests only (none: whole)
# Usage: coverage.sh [PATTERN...]   run.sh's patterns: some tests only
# (@suite then has no whole-run checks). COVERAGE_FRESH=1 copies and builds
# from scratch; COVERAGE_JOBS (default 2) make's jobs. Exits 1 when the
# suite fails under coverage, naming the failing tests; the files are
# written all the same.
set -u

TOP=$(cd "$(dirname "$0")/.." && pwd)
OUT=$TOP/build/coverage
TREE=$OUT/tree
COV_CFLAGS="-O0 -g --coverage"
# A process that ends in _exit() (the kselftest harness's child that runs
# each test, a test's own forked child) writes its counts first: calls to
# _exit() go to instr/gcov_exit.o, which dumps them (__gcov_dump).
COV_LDFLAGS="--coverage -Wl,--wrap=_exit $OUT/instr/gcov_exit.o"
PY=/usr/bin/python3

die() { echo "coverage: $*" >&2; exit 1; }

# since START: seconds from START (an $EPOCHREALTIME) to now, "N.N".
since()
{
	local us=$((${EPOCHREALTIME/./} - ${1/./}))
	printf '%d.%d' $((us / 1000000)) $((us / 100000 % 10))
}

# copy_tree: the work tree's files into $TREE; a file the last copy had and
# this one has not is removed, the build's outputs stay (make rebuilds
# what changed: tar keeps the files' times).
copy_tree()
{
	local f
	[[ ${COVERAGE_FRESH:-} == 1 ]] && rm -rf "$TREE" "$OUT/files"
	mkdir -p "$TREE" || exit 1
	git -C "$TOP" ls-files -z -c -o --exclude-standard |
		while IFS= read -r -d '' f; do
			[[ -e $TOP/$f || -L $TOP/$f ]] && printf '%s\n' "$f"
		done | LC_ALL=C sort > "$OUT/files.new"
	[[ -s $OUT/files.new ]] || die "git ls-files found no file in $TOP"
	if [[ -f $OUT/files ]]; then
		LC_ALL=C comm -23 "$OUT/files" "$OUT/files.new" |
			while IFS= read -r f; do rm -f "$TREE/$f"; done
	fi
	(cd "$TOP" && tr '\n' '\0' < "$OUT/files.new" | tar --null -T - -cf -) |
		tar -xf - -C "$TREE" || die "cannot copy the tree into $TREE"
	mv "$OUT/files.new" "$OUT/files"
	ln -sfn "$TOP/.cache" "$TREE/.cache"
}

# The environment of the build and of the run alike: make in a test (make
# install, make -n) then finds the flags of .build-flags and rebuilds
# nothing. A make that started this one passes nothing on. (What the run
# does is its plan, never the environment: tests/runner/plan.sh.)
cov_env=(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u FDS_COVERAGE_TEST -u FDS_COV_OWNER
	 -u FDS_IN_VM
	 -u GCOV_PREFIX -u BASH_ENV
	 CFLAGS="$COV_CFLAGS" LDFLAGS="$COV_LDFLAGS")

build_tree()
{
	if ! (cd "$TREE" && "${cov_env[@]}" make -j"${COVERAGE_JOBS:-2}" test-build) > "$OUT/build.log" 2>&1; then
		tail -n 20 "$OUT/build.log"
		die "the instrumented build failed (all of it: $OUT/build.log)"
	fi
	[[ $(< "$TREE/.build-flags") == *"$COV_CFLAGS"* ]] ||
		die "$TREE/.build-flags is not the instrumented build's: $(< "$TREE/.build-flags")"
}

# write_instr: what every bash and Python process of the run reads first,
# and what every program links.
write_instr()
{
	mkdir -p "$OUT/instr" || exit 1
	cat > "$OUT/instr/gcov_exit.c" << 'EOF'
/* make coverage (scripts/coverage.sh): linked with -Wl,--wrap=_exit, so
 * that a process ending in _exit() writes its gcov counts too; and a
 * process whose descriptors are all taken (a test's prlimit --nofile=3)
 * gives up its stdin at its end, so that gcov can open its files one at a
 * time instead of printing "profiling:...:Cannot open" on its stderr. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

extern void __gcov_dump(void);
extern void __real__exit(int status) __attribute__((noreturn));
void __wrap__exit(int status) __attribute__((noreturn));

static void free_a_descriptor(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	if (fd >= 0)
		close(fd);
	else if (errno == EMFILE)
		close(0);
}

/* before gcov's own destructor, which has the last priority */
__attribute__((destructor)) static void before_gcov_exit(void)
{
	free_a_descriptor();
}

void __wrap__exit(int status)
{
	free_a_descriptor();
	__gcov_dump();
	__real__exit(status);
}
EOF
	if [[ ! -f $OUT/instr/gcov_exit.o ]] ||
	   ! cmp -s "$OUT/instr/gcov_exit.c" "$OUT/instr/gcov_exit.c.built"; then
		cc -O2 -Wall -Werror -c -o "$OUT/instr/gcov_exit.o" "$OUT/instr/gcov_exit.c" ||
			die "cannot compile $OUT/instr/gcov_exit.c"
		# every program links it: all are rebuilt
		rm -f "$TREE/.build-flags"
		cp "$OUT/instr/gcov_exit.c" "$OUT/instr/gcov_exit.c.built"
	fi
	cat > "$OUT/instr/bash_env.sh" << 'EOF'
# make coverage (scripts/coverage.sh): read by every bash the suite starts
# (BASH_ENV). The test it runs for (run.sh's FDS_COVERAGE_TEST, the first
# one set: a runner a test runs names its own tests) is FDS_COV_OWNER from
# here down; this process's trace goes to a file of its own, named by it.
if [[ -n ${FDS_COVERAGE:-} && -w $FDS_COVERAGE/trace ]]; then
	if [[ -z ${FDS_COV_OWNER:-} && -n ${FDS_COVERAGE_TEST:-} ]]; then
		export FDS_COV_OWNER=$FDS_COVERAGE_TEST
	fi
	if [[ -n ${FDS_COV_OWNER:-} ]]; then
		export GCOV_PREFIX=$FDS_COVERAGE/gcov/$FDS_COV_OWNER
	fi
	exec {BASH_XTRACEFD}>> "$FDS_COVERAGE/trace/${FDS_COV_OWNER:-@suite}~$$~$SRANDOM"
	PS4=$'+\t${BASH_SOURCE[0]-}\t${LINENO}\t${FUNCNAME[0]-}\t'
	set -x
fi
EOF
	cat > "$OUT/instr/sitecustomize.py" << 'EOF'
"""make coverage (scripts/coverage.sh): python3-coverage in every Python
process of the run, its data in FDS_COVERAGE/python/TEST."""
import os

if os.environ.get("FDS_COVERAGE") and os.environ.get("COVERAGE_PROCESS_START"):
    OWNER = os.environ.get("FDS_COV_OWNER") or os.environ.get("FDS_COVERAGE_TEST") or "@suite"
    DATA = os.path.join(os.environ["FDS_COVERAGE"], "python", OWNER)
    try:
        os.makedirs(DATA, exist_ok=True)
        os.environ["COVERAGE_FILE"] = os.path.join(DATA, "cov")
        import coverage
        coverage.process_startup()
    except (ImportError, OSError):
        pass
EOF
	cat > "$OUT/instr/coveragerc" << 'EOF'
# make coverage: python3-coverage in the suite's processes (sitecustomize.py)
[run]
parallel = True
disable_warnings = no-data-collected, module-not-measured, module-not-imported, couldnt-parse, already-imported
EOF
}

# test_names: every test run.sh may run (its scenarios and tests.list).
test_names()
{
	local s
	for s in "$TREE"/tests/scenarios/*.sh; do
		s=${s##*/}
		echo "${s%.sh}"
	done
	cat "$TREE/tests/bin/tests.list"
}

# run_suite PATTERN...: the suite in the copy, its output in $OUT/suite.log.
run_suite()
{
	rm -rf "$OUT/gcov" "$OUT/trace" "$OUT/python" "$OUT/gcov-json" "$OUT/merged"
	mkdir -p "$OUT/gcov" "$OUT/python" "$OUT/trace" || exit 1
	# a program run as another user (nobody) writes its counts too
	chmod 1777 "$OUT/trace" "$OUT/python"
	install -m 0666 /dev/null "$OUT/gcov-errors"
	mapfile -t names < <(test_names)
	"$PY" "$TREE/scripts/coverage_map.py" prepare --tree "$TREE" --out "$OUT" @suite "${names[@]}" ||
		die "cannot prepare $OUT/gcov"
	(cd "$TREE" && "${cov_env[@]}" FDS_COVERAGE="$OUT" BASH_ENV="$OUT/instr/bash_env.sh" \
		GCOV_PREFIX="$OUT/gcov/@suite" GCOV_ERROR_FILE="$OUT/gcov-errors" \
		PYTHONPATH="$OUT/instr${PYTHONPATH:+:$PYTHONPATH}" \
		COVERAGE_PROCESS_START="$OUT/instr/coveragerc" \
		tests/run.sh "$@") | tee "$OUT/suite.log"
	suite_rc=${PIPESTATUS[0]}
}

# failed_tests: the tests with a failing case in the run's results.
failed_tests()
{
	local results=$TREE/build/results/host
	(($#)) && results=$TREE/build/results/partial
	[[ -f $results/cases ]] || return 0
	awk -F'\t' '$3 == "fail" && !seen[$1]++ { printf "%s%s", sep, $1; sep = " " }' "$results/cases"
}

# gcovr_report: the whole run's C counts, merged, as gcovr's HTML and
# per-file summary (branches).
gcovr_report()
{
	local d acc=''
	rm -rf "$OUT/html" "$OUT/merged" "$OUT/gcovr.json"
	mkdir -p "$OUT/html"
	for d in "$OUT"/gcov/*/"$TREE"; do
		[[ -n $(find "$d" -name '*.gcda' -print -quit) ]] || continue
		if [[ -z $acc ]]; then
			acc=$OUT/merged/0
			mkdir -p "$OUT/merged"
			cp -r "$d" "$acc"
		else
			gcov-tool merge -o "$acc.next" "$acc" "$d" > /dev/null 2>&1 ||
				{ echo "coverage: gcov-tool merge of $d failed" >&2; continue; }
			rm -rf "$acc"
			mv "$acc.next" "$acc"
		fi
	done
	[[ -n $acc ]] || return 0
	find "$acc" -name '*.gcno' -delete
	# beside their .gcno files, where gcovr looks
	(cd "$acc" && find . -name '*.gcda' -print0 | tar --null -T - -cf -) | tar -xf - -C "$TREE"
	(cd "$TREE" && gcovr -r . -j 2 -e '.*\.cache/' \
		--html-details "$OUT/html/index.html" --json-summary "$OUT/gcovr.json" \
		--html-title "fds_example: make coverage" .) > "$OUT/gcovr.log" 2>&1 ||
		echo "coverage: gcovr failed (see $OUT/gcovr.log)" >&2
	find "$TREE" -path "$TREE/.cache" -prune -o -name '*.gcda' -exec rm -f {} +
	rm -rf "$OUT/merged"
}

((EUID == 0)) || die "the suite runs as root (bpffs mounts, bpf())"
for tool in git gcov gcov-tool gcovr tar; do
	command -v "$tool" > /dev/null || die "no $tool (make deps DEPS=\"build check coverage\")"
done
"$PY" -c 'import coverage' 2> /dev/null || die "no python3-coverage (make deps DEPS=coverage)"

start=$EPOCHREALTIME
mkdir -p "$OUT" || exit 1
copy_tree
write_instr
t=$EPOCHREALTIME
build_tree
echo "coverage: copied and built in $TREE ($(since "$t") s; log: $OUT/build.log)"
t=$EPOCHREALTIME
run_suite "$@"
closing=$(tail -n 1 "$OUT/suite.log")
suite_secs=$(since "$t")
t=$EPOCHREALTIME
"$PY" "$TREE/scripts/coverage_map.py" gcov --tree "$TREE" --out "$OUT" || die "gcov failed"
failed=$(failed_tests "$@")
test_names > "$OUT/tests"
"$PY" "$TREE/scripts/coverage_map.py" map -v --tree "$TREE" --out "$OUT" \
	--files "$OUT/files" --tests "$OUT/tests" || die "coverage_map.py map failed"
gcovr_report
(cd "$TREE" && cut -f1 "$OUT/lines.tsv" "$OUT/executable.tsv" | LC_ALL=C sort -u |
	xargs -d '\n' sha1sum) > "$OUT/stamp"
# The tests as they were: a test added or changed since may reach other
# lines (make mutate-all measures again when this differs). A run of some
# tests only is marked, its map no whole one.
(cd "$TREE" && git ls-files -c -o --exclude-standard -- tests | LC_ALL=C sort |
	xargs -d '\n' sha1sum) > "$OUT/stamp.tests"
if (($#)); then
	echo "$*" > "$OUT/partial"
else
	rm -f "$OUT/partial"
fi
echo
"$PY" "$TREE/scripts/coverage_map.py" summary --out "$OUT" --gcovr "$OUT/gcovr.json"
[[ -s $OUT/gcov-errors ]] &&
	echo "coverage: some counts were lost: $(sort -u "$OUT/gcov-errors" | head -n 3)"
echo "coverage: $OUT/lines.tsv, executable.tsv, summary.txt, html/index.html, stamp"
echo "coverage: the suite under coverage: $closing ($suite_secs s; mapping $(since "$t") s; in all $(since "$start") s)"
if ((suite_rc != 0)); then
	if [[ -n $failed ]]; then
		echo "coverage: the suite failed under coverage: $failed"
	else
		echo "coverage: the suite failed under coverage (its whole-run checks: $OUT/suite.log)"
	fi
	exit 1
fi
exit 0
