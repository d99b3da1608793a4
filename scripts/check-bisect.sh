#!/usr/bin/env bash
# make check-bisect: vm/bisect-run.sh under a real git bisect run. A
# scratch history of Debian's linux-source-6.12 (build/bisect/linux, hard
# links to the unpacked tree but for the files the commits change): the
# tree as Debian ships it, a harmless change, the change of one mutant of
# tests/kernel-mutants.txt (BISECT_MUTANT), another harmless change. git
# bisect run, from the last commit (bad) back to the first (good), must
# name the mutant's commit. Each step builds a kernel (the first one cold)
# and boots it: minutes, so it is not part of make check.
#   BISECT_MUTANT=ID   the breaking change (default sys-map-fd-rdwr: a map
#                      got read-only opened read-write)
#   BISECT_TEST=NAME   the test bisect-run.sh runs (default
#                      after2015_pinning; "" for the whole suite)
#   BISECT_ROWS=...    the rows it checks (default the one that mutant
#                      changes: get-rdonly-fd-update=EPERM)
#   BISECT_TREE=DIR    where the scratch history is made (default
#                      build/bisect/linux)
# Ends with "N passed, N failed, N skipped" (one case).
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
work=$top/build/bisect
tree=${BISECT_TREE:-$work/linux}
id=${BISECT_MUTANT:-sys-map-fd-rdwr}
test=${BISECT_TEST-after2015_pinning}
export BISECT_ROWS=${BISECT_ROWS-get-rdonly-fd-update=EPERM}
say() { printf 'check-bisect: %s\n' "$*"; }
fail() { say "$*"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }

pristine=$("$top/vm/kernel-src.sh" --unpack) || fail "cannot unpack linux-source-6.12"
declare -A m=()
# the mutant's file, from and to, as make kernel-mutate reads them
while IFS=$'\t' read -r k v; do
	m[$k]=$v
done < <("$top/scripts/kernel_mutate.py" --show "$id")
[[ -n ${m[file]:-} && -n ${m[from]:-} ]] || fail "no mutant $id in tests/kernel-mutants.txt"

# change FILE FROM TO: FROM, once in FILE, becomes TO (FILE made a copy of
# its own first, so the pristine tree is never written).
change()
{
	local file=$1 from=$2 to=$3
	[[ -L $tree/$file || $(stat -c %h "$tree/$file") == 1 ]] ||
		{ cp "$tree/$file" "$tree/$file.new" && mv "$tree/$file.new" "$tree/$file"; }
	FROM=$from TO=$to python3 -c '
import os, sys
p = sys.argv[1]
s = open(p, encoding="utf-8").read()
f, t = os.environ["FROM"], os.environ["TO"]
if s.count(f) != 1:
    sys.exit(f"{p}: the text is not there once: {f}")
open(p, "w", encoding="utf-8").write(s.replace(f, t, 1))' "$tree/$file"
}

# commit MESSAGE: every change in the scratch tree, committed.
commit() { git -C "$tree" -c user.name=fds -c user.email=fds@localhost commit -q -a -m "$1"; }

if [[ ! -d $tree/.git ]]; then
	say "a scratch history of $(basename "$pristine") in ${tree#"$top"/} (once)"
	if [[ ! -d $tree ]]; then
		mkdir -p "$(dirname "$tree")"
		cp -al "$pristine" "$tree" || fail "cannot link the tree"
	fi
	git -C "$tree" init -q || fail "git init failed"
	# -f: Debian's top-level .gitignore ignores every top-level entry
	git -C "$tree" add -f -A || fail "git add failed"
	commit "linux-source-6.12 as Debian ships it" || fail "cannot commit the tree"
	git -C "$tree" tag good
fi
git -C "$tree" bisect reset > /dev/null 2>&1
git -C "$tree" checkout -q -f good || fail "cannot check out the first commit"
git -C "$tree" clean -q -fdx
git -C "$tree" checkout -q -B bisect-scratch
if ! { change kernel/bpf/inode.c " * used by bpf(2) object pinning." \
		" * used by bpf(2) object pinning (BPF_OBJ_PIN, BPF_OBJ_GET)." &&
	commit "bpf: inode: a comment" &&
	change "${m[file]}" "${m[from]}" "${m[to]}" && commit "the mutant $id" &&
	change kernel/bpf/syscall.c "static int bpf_obj_pin(const union bpf_attr *attr)" \
		"static int bpf_obj_pin(const union bpf_attr *attr) /* pin */" &&
	commit "bpf: syscall: a comment"; }; then
	fail "cannot make the scratch history"
fi
want=$(git -C "$tree" rev-parse HEAD~1)

cd "$tree" || fail "no $tree"
git bisect start HEAD good > /dev/null || fail "git bisect start failed"
mkdir -p "$work"
git bisect run "$top/vm/bisect-run.sh" ${test:+"$test"} > "$work/bisect.log" 2>&1
got=$(git rev-parse --verify -q refs/bisect/bad)
git bisect reset > /dev/null 2>&1
cat "$work/bisect.log"
echo
if [[ $got == "$want" ]]; then
	say "git bisect run named the mutant's commit ($id): ${got:0:12}"
	echo "1 passed, 0 failed, 0 skipped"
else
	fail "git bisect run named ${got:-nothing}, not the mutant's commit ${want:0:12}"
fi
