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
# Usage: mutate.sh [ID...]     (default: every mutant in the list)
# Exit status: 0 when nothing is stale and at least MUTATE_TARGET percent
# (default 95) of the mutants that built were killed.
set -u

TOP=$(cd "$(dirname "$0")/.." && pwd)
LIST=${MUTANTS:-$TOP/tests/mutants.txt}
TARGET=${MUTATE_TARGET:-95}

die() {
	echo "mutate: $*" >&2
	exit 1
}

[[ -r $LIST ]] || die "cannot read $LIST"

# The list: blocks of "key: value" lines, a blank line between blocks.
ids=() files=() froms=() tos=() equivs=()
add_mutant() {
	[[ -z ${m_id:-}${m_file:-}${m_from:-} ]] && return
	[[ -n ${m_id:-} && -n ${m_file:-} && -n ${m_from:-} && -n ${m_why:-} ]] ||
		die "$LIST:$block_line: a mutant needs id, file, from and why"
	[[ -n ${m_to+set} ]] || die "$LIST:$block_line: mutant $m_id has no to: line"
	ids+=("$m_id") files+=("$m_file") froms+=("$m_from") tos+=("$m_to")
	equivs+=("${m_equiv:-}")
	unset m_id m_file m_from m_to m_why m_equiv
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
	*) die "$LIST:$lineno: unknown key '$key'" ;;
	esac
done < "$LIST"
add_mutant

declare -A seen
for id in "${ids[@]}"; do
	[[ -z ${seen[$id]:-} ]] || die "two mutants are called $id"
	seen[$id]=1
done
want=("$@")
for id in "${want[@]}"; do
	[[ -n ${seen[$id]:-} ]] || die "no mutant $id in $LIST"
done

# The scratch copy: every file git knows (modified ones as they are now),
# and the download cache shared by link.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/fds-mutate.XXXXXX") || exit 1
trap 'rm -rf "$scratch"' EXIT
(cd "$TOP" && git ls-files -z -c -o --exclude-standard |
	tar --null -T - -cf -) | tar -xf - -C "$scratch" ||
	die "cannot copy the tree to $scratch"
[[ -d $TOP/.cache ]] && ln -s "$TOP/.cache" "$scratch/.cache"

build() {
	make -C "$scratch" -s test-build > "$scratch/build.log" 2>&1
}
suite() {
	(cd "$scratch" && CI=true FDS_FAIL_FAST=1 TEST_TIMEOUT=${TEST_TIMEOUT:-60} \
		tests/run.sh > "$scratch/suite.log" 2>&1)
}
first_failure() {
	local l
	l=$(grep -m1 '^not ok' "$scratch/suite.log")
	echo "${l#not ok * }"
}

start=$SECONDS
echo "mutate: building and testing the unchanged tree in $scratch"
build || { cat "$scratch/build.log" >&2; die "the unchanged tree does not build"; }
if ! suite; then
	grep -E '^not ok|^ *not ok' "$scratch/suite.log" >&2
	die "the suite fails on the unchanged tree; fix that first"
fi

killed=0 survived=0 stale=0 unbuilt=0 equivalent=0 total=0
survivors=()
for i in "${!ids[@]}"; do
	id=${ids[$i]} file=${files[$i]} from=${froms[$i]} to=${tos[$i]}
	if ((${#want[@]})) && [[ " ${want[*]} " != *" $id "* ]]; then
		continue
	fi
	total=$((total + 1))
	path=$scratch/$file
	orig=
	if [[ ! -f $path ]]; then
		printf '%-10s %-12s %s: no such file\n' stale "$id" "$file"
		stale=$((stale + 1))
		continue
	fi
	IFS= read -r -d '' orig < "$path"
	rest=${orig#*"$from"}
	if [[ $rest == "$orig" || $rest == *"$from"* || $from == "$to" ]]; then
		printf '%-10s %-12s %s: the text is not there exactly once: %s\n' \
			stale "$id" "$file" "$from"
		stale=$((stale + 1))
		continue
	fi
	printf '%s' "${orig/"$from"/"$to"}" > "$path"
	if ! build; then
		result="not built"
		unbuilt=$((unbuilt + 1))
	elif suite; then
		if [[ -n ${equivs[$i]} ]]; then
			result="equivalent"
			equivalent=$((equivalent + 1))
		else
			result="SURVIVED"
			survived=$((survived + 1))
			survivors+=("$id")
		fi
	else
		result="killed"
		killed=$((killed + 1))
	fi
	printf '%s' "$orig" > "$path"
	case $result in
	killed) printf '%-10s %-12s %s (by %s)\n' killed "$id" "$file" "$(first_failure)" ;;
	"not built") printf '%-10s %-12s %s (does not compile: make the mutant build)\n' \
		"not-built" "$id" "$file" ;;
	*) printf '%-10s %-12s %s: %s -> %s\n' "$result" "$id" "$file" "$from" "$to" ;;
	esac
done
elapsed=$((SECONDS - start))

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
if ((${#survivors[@]})); then
	echo "mutate: survivors (give each a test, or argue it equivalent in $LIST): ${survivors[*]}"
fi
((stale == 0 && unbuilt == 0 && counted > 0 && pct >= TARGET * 10))
