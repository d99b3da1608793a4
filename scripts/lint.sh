#!/usr/bin/env bash
# make lint: the project's shell and C sources against shellcheck and the
# kernel's checkpatch.pl (from the linux-source package, cached by
# scripts/fetch-kselftest.sh; never committed), and C functions, in .c and
# .h files, against the coding style's "a screen at most" (60 lines).
# make check runs all three before the tests.
#   lint.sh [shell] [c] [length]   the parts to run (default: all three)
# Exits 1 on any finding; each finding names file and line.
set -u
cd "$(dirname "$0")/.." || exit 1
parts=("$@")
((${#parts[@]})) || parts=(shell c length)
rc=0

# Every shell file: *.sh and the files whose first line runs a shell.
shell_files()
{
	local f line
	while IFS= read -r f; do
		[[ -f $f ]] || continue
		if [[ $f == *.sh ]]; then
			echo "$f"
			continue
		fi
		IFS= read -r line < "$f" || continue
		[[ $line =~ ^#!.*(/|env\ )(ba|da|busybox\ )?sh ]] && echo "$f"
	done < <(git ls-files)
}

c_files()
{
	git ls-files '*.c' '*.h' | grep -v '^fuzz/regression/'
}

# Project-wide shellcheck exceptions, each for a reason that holds in every
# file (per-line ones sit next to their line):
#   SC1091  scenarios source lib.sh through a path computed at run time
#   SC2016  step bodies are single-quoted on purpose: step() evals them later
lint_shell()
{
	local files
	mapfile -t files < <(shell_files)
	echo "lint: shellcheck, ${#files[@]} files"
	shellcheck -f gcc -e SC1091,SC2016 "${files[@]}" || rc=1
}

# checkpatch.pl is written for kernel code; what only the kernel has is
# ignored for this user-space project:
#   PREFER_DEFINED_ATTRIBUTE_MACRO  __printf, __packed... are kernel macros
#   STRCPY, STRNCPY                 strscpy() exists in the kernel only
#   ARRAY_SIZE                      a kernel macro
#   EMBEDDED_FUNCTION_NAME          user-facing text naming a program or usage
#   SPLIT_STRING                    messages wrapped to 80 columns
#   REPEATED_WORD                   'mount -t bpf bpf' is not a typo
# and per file, where the construct is the point:
#   libbpf.h, too_many_kern.c  COMPLEX_MACRO, TRAILING_SEMICOLON: macros that
#                              expand to two instructions / to definitions
#   after2015_pinning.c        SPACING: a ternary inside a macro argument
#   bpffs_fixture.h            MULTISTATEMENT_MACRO_USE_DO_WHILE: a macro
#                              that expands to a harness fixture's definitions
lint_c()
{
	local cp=.cache/checkpatch/checkpatch.pl f
	local ignore=PREFER_DEFINED_ATTRIBUTE_MACRO,STRCPY,STRNCPY,ARRAY_SIZE
	ignore+=,EMBEDDED_FUNCTION_NAME,SPLIT_STRING,REPEATED_WORD
	if [[ ! -f $cp ]]; then
		echo "lint: no $cp (scripts/fetch-kselftest.sh .cache fetches it)"
		rc=1
		return
	fi
	echo "lint: checkpatch.pl, $(c_files | wc -l) files"
	local plain=() macros=() spacing=() fixture=()
	while IFS= read -r f; do
		case $f in
		libbpf.h | tests/objects/too_many_kern.c) macros+=("$f") ;;
		tests/after2015_pinning.c) spacing+=("$f") ;;
		tests/bpffs_fixture.h) fixture+=("$f") ;;
		*) plain+=("$f") ;;
		esac
	done < <(c_files)
	checkpatch "$ignore" "${plain[@]}"
	checkpatch "$ignore,COMPLEX_MACRO,TRAILING_SEMICOLON" "${macros[@]}"
	checkpatch "$ignore,SPACING" "${spacing[@]}"
	checkpatch "$ignore,MULTISTATEMENT_MACRO_USE_DO_WHILE" "${fixture[@]}"
}

# checkpatch IGNORE FILE...: the findings only, not the per-file totals.
checkpatch()
{
	local ignore=$1 out
	shift
	(($#)) || return 0
	out=$(perl .cache/checkpatch/checkpatch.pl --no-tree --terse --show-types \
		--ignore "$ignore" -f "$@" 2>&1) || rc=1
	out=$(grep -v '^total: 0 errors, 0 warnings' <<< "$out")
	[[ -n $out ]] && echo "$out"
	return 0
}

# A function body of more than 60 lines, in .c and .h files alike:
# pmccabe counts from a function's first line to its closing brace, which
# is its body and three more lines (signature, '{', '}').
lint_length()
{
	local files out
	echo "lint: function length, at most 60 lines (pmccabe)"
	mapfile -t files < <(c_files)
	out=$(pmccabe "${files[@]}" 2> /dev/null | awk -F '\t' '$5 - 3 > 60 {
		printf "%s: %d lines\n", $6, $5 - 3 }')
	if [[ -n $out ]]; then
		echo "$out"
		rc=1
	fi
}

for p in "${parts[@]}"; do
	case $p in
	shell) lint_shell ;;
	c) lint_c ;;
	length) lint_length ;;
	*) echo "lint.sh: unknown part '$p' (shell, c, length)" >&2; exit 2 ;;
	esac
done
((rc == 0)) && echo "lint: clean"
exit "$rc"
