#!/usr/bin/env bash
# tests/mutants.txt follows the code: every mutant's text is in its file
# exactly once, so `make mutate` can apply it. A change that rewrites a
# mutated line fails here, in seconds, instead of at the end of a mutation
# run. About the source tree, the same on every kernel: not installed by
# make kselftest-install, so left out of the QEMU guests.
# kselftest: source tree only
. "$(dirname "$0")/../lib.sh"
scenario_begin

# check LIST: scripts/mutate.sh --check on LIST; $status and $T/out.
check()
{
	status=0
	MUTANTS=$1 scripts/mutate.sh --check > "$T/out" 2>&1 || status=$?
	show_file "  " "$T/out" >&2
	printf '  exit %s\n' "$status" >&2
}

step "every mutant of tests/mutants.txt applies: its text is in its file exactly once" '
	check tests/mutants.txt
	expect_status 0
	grep -q "^mutate: [1-9][0-9]* mutants, 0 stale$" "$T/out" ||
		fail "no count of the mutants checked"
'

# mutant ID FROM TO: one block of a scratch list, on fds_example.c.
mutant()
{
	printf 'id: %s\nfile: fds_example.c\nfrom: %s\nto: %s\nwhy: a test\n\n' "$@"
}

step "a mutant whose text is gone, is there twice, or changes nothing is named stale" '
	{
		mutant gone "this text is in no file" x
		mutant twice "#include" "#exclude"
		mutant same "int main(" "int main("
		mutant fine "static int parse_u32(const char *s" "static int parse_u32(const char *t"
	} > "$T/list"
	check "$T/list"
	expect_status 1
	grep -q "^mutate: stale gone: fds_example.c: the text is not there exactly once: this text is in no file$" "$T/out" ||
		fail "the vanished text is not named"
	grep -q "^mutate: stale twice: " "$T/out" || fail "the repeated text is not named"
	grep -q "^mutate: stale same: fds_example.c: from and to are the same$" "$T/out" ||
		fail "the mutant that changes nothing is not named"
	! grep -q "stale fine" "$T/out" || fail "a good mutant was called stale"
	grep -q "^mutate: 4 mutants, 3 stale$" "$T/out" || fail "wrong count"
'

scenario_end
