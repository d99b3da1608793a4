#!/usr/bin/env bash
# make kselftest-install: the suite as an installed kselftest tree, the
# layout `make -C tools/testing/selftests install` leaves, so that the
# engines that run kselftest (KernelCI and LKFT through LAVA, 0-day/LKP,
# distribution CIs) run it as they run the kernel's own:
#   run_kselftest.sh, kselftest/   the kernel's runner, unmodified, from
#                                  Debian's linux-source package (cached by
#                                  scripts/fetch-kselftest.sh)
#   kselftest-list.txt             one "fds_example:TEST" line per test
#   fds_example/                   the collection: each TEST at its top,
#                                  beside what the tests run (the CLI, the
#                                  test objects, the helpers, lib.sh, the
#                                  data, the documents the replay tests
#                                  read), its settings (timeout=) and its
#                                  config fragment
# The tests are every kselftest binary tests/bin/tests.list names and
# every tests/scenarios/*.sh, but those that check the source tree itself
# (a "# kselftest: source tree only" line says so). Each runs from the
# collection's directory, where runner.sh starts it. The tree must be
# built first (make kselftest-install does both).
# Usage: kselftest-install.sh INSTALL_PATH [CACHE_DIR]
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
final=${1:?usage: kselftest-install.sh INSTALL_PATH [CACHE_DIR]}
runner=${2:-$top/.cache}/kselftest-runner
# Built beside INSTALL_PATH, which it replaces whole at the end.
dest=$final.new
col=$dest/fds_example

die() { echo "kselftest-install: $*" >&2; exit 1; }

[[ -f $runner/run_kselftest.sh && -f $runner/kselftest/runner.sh ]] ||
	die "no kernel runner in $runner (scripts/fetch-kselftest.sh fetches it)"
[[ -f $top/tests/bin/tests.list ]] || die "nothing built (make test-build)"

# scenarios: the installed scenarios' names, in the runner's order.
scenarios()
{
	local s
	for s in "$top"/tests/scenarios/*.sh; do
		grep -q '^# kselftest: source tree only' "$s" || echo "${s##*/}"
	done
}

# copy_suite: what the tests run, laid out as in the source tree (the
# scenarios and the C tests find it relative to the directory they run
# in), without the sources, the build's .d files and the tests that check
# the source tree.
copy_suite()
{
	local s
	mkdir -p "$col/tests" "$col/scripts" "$col/examples" "$col/fuzz"
	cp "$top/fds_example" "$top/sockex1_kern.o" "$top/fds_example.8" "$col/"
	cp "$top/scripts/transcript.sh" "$top/scripts/tutorial.sh" "$top/scripts/sandbox" "$col/scripts/"
	cp "$top/examples/lo_watch" "$col/examples/"
	# run.sh reads run_kselftest.sh's output (its plan's kselftest=): the
	# guests of make check-vm and make check-lava run the tree with it.
	mkdir -p "$col/tests/runner"
	cp "$top/tests/lib.sh" "$top/tests/run.sh" "$col/tests/"
	cp "$top"/tests/runner/*.sh "$col/tests/runner/"
	cp -r "$top/tests/data" "$top/tests/bin" "$col/tests/"
	find "$col/tests/bin" \( -name '*.d' -o -name '*.t.o' -o -name bpffs_fixture.o \) -delete
	mkdir -p "$col/tests/scenarios"
	while read -r s; do
		cp "$top/tests/scenarios/$s" "$col/tests/scenarios/"
	done < <(scenarios)
	cp -r "$top/docs" "$col/"
	cp -r "$top/fuzz/regression" "$col/fuzz/"
}

# entry_points: each test at the collection's top, where runner.sh starts
# it, in tests/run.sh's order: a scenario, which finds lib.sh next to its
# own directory, is started where it lies; a C test is its binary (a link).
entry_points()
{
	local t
	while read -r t; do
		printf '%s\n' '#!/bin/sh' \
			'# make kselftest-install: the scenario where it lies, from here.' \
			"cd \"\$(dirname \"\$0\")\" && exec bash tests/scenarios/$t \"\$@\"" \
			> "$col/$t"
		chmod 0755 "$col/$t"
		echo "fds_example:$t"
	done < <(scenarios)
	while read -r t; do
		ln -s "tests/bin/$t" "$col/$t"
		echo "fds_example:$t"
	done < "$top/tests/bin/tests.list"
}

rm -rf "$dest"
mkdir -p "$col"
cp "$runner/run_kselftest.sh" "$dest/"
cp -a "$runner/kselftest" "$dest/"
copy_suite
entry_points > "$dest/kselftest-list.txt"
cp "$top/tests/kselftest/settings" "$top/tests/kselftest/config" "$col/"
rm -rf "$final"
mv "$dest" "$final"
echo "kselftest-install: $(grep -c . "$final/kselftest-list.txt") tests in $final (run_kselftest.sh from $(<"$runner/SOURCE"))"
