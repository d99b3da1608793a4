#!/usr/bin/env bash
# The commit message's session, replayed on an empty bpffs with only fds 0-2
# open and stdout into a pipe, prints tests/data/transcript.txt (its 11
# commands and their output, kept in the tree as test data) byte for byte,
# and the man page's example session agrees with it.
. "$(dirname "$0")/../lib.sh"
scenario_begin

# The man page's EXAMPLES session as the transcript writes it: "# " prompts
# become "$ ", /sys/fs/bpf becomes $FS, roff's \- a plain -.
man_session()
{
	local line inside=0
	while IFS= read -r line; do
		case $line in
		.EX) inside=1; continue ;;
		.EE) inside=0; continue ;;
		esac
		((inside)) || continue
		line=${line//\\-/-}
		line=${line//\/sys\/fs\/bpf/\$FS}
		[[ $line == "# "* ]] && line="\$ ${line#\# }"
		printf '%s\n' "$line"
	done < fds_example.8
}

step "the commit message's 11 commands are the recorded transcript" '
	mapfile -t cmds < <(grep "^\$ fds_example " tests/data/transcript.txt)
	((${#cmds[@]} == 11)) || fail "${#cmds[@]} commands"
	[[ ${cmds[0]} == "\$ fds_example -F \$FS/m -P -m -k 1 -v 42" &&
	   ${cmds[10]} == "\$ fds_example -F \$FS/p2 -G -p" ]] || fail "first or last differs"
'

# in_transcript BLOCK: BLOCK (a command and all its output) is one whole
# command of tests/data/transcript.txt, followed there by the next or the end.
in_transcript()
{
	local all
	slurp all tests/data/transcript.txt
	[[ $all == *"$1" || $all == *"$1\$ fds_example "* ]] ||
		fail "not in the transcript: $1"
}

# The man page is the full contract: each command of its EXAMPLES prints
# there what it prints in the transcript (the session is the same one).
step "the man page shows the commands and output of the transcript" '
	man_session > "$T/man"
	block="" n=0
	while IFS= read -r line; do
		if [[ $line == "\$ fds_example "* && -n $block ]]; then
			in_transcript "$block"
			n=$((n + 1)) block=""
		fi
		printf -v block "%s%s\n" "$block" "$line"
	done < "$T/man"
	in_transcript "$block"
	((n + 1 >= 4)) || fail "only $((n + 1)) commands in fds_example.8"
'

step "all 11 steps replay byte for byte" '
	grep -c "^\\$ fds_example" tests/data/transcript.txt | grep -qx 11
	scripts/transcript.sh "$FS" > "$T/replay"
	diff -u tests/data/transcript.txt "$T/replay"
'

step "the session leaves its four pins, m holding 24" '
	# bpf_preload puts maps.debug and progs.debug in every new bpffs
	pins=$(cd "$FS" && ls -d -- * | grep -v "\.debug$" | xargs)
	[[ $pins == "m m2 p p2" ]] || fail "pins are: $pins"

	expect_value "$FS/m" 1 24
	expect_value "$FS/m2" 1 0
'

step "a failed step is still reported through a pipe" '
	fds -F "$FS/m" -P -m
	expect_status 1
	expect_out "bpf: map fd:3 (Success)" "bpf: pin ret:(-1,File exists)"
'
scenario_end
