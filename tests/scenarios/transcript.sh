#!/usr/bin/env bash
# The commit message's session, replayed on an empty bpffs with only fds 0-2
# open and stdout into a pipe, prints CONTRACT.md's transcript byte for byte.
. "$(dirname "$0")/../lib.sh"
scenario_begin

# shellcheck disable=SC2034 # read by the CONTRACT prereq and a step body
contract=$TOP/../shared/CONTRACT.md
prereq CONTRACT "no ../shared/CONTRACT.md beside this tree" '[[ -f $contract ]]'

step "the recorded transcript is CONTRACT.md's" --needs CONTRACT '
	awk "/^\`\`\`\$/{if(inb)exit;inb=1;next} inb" "$contract" > "$T/contract"
	cmp "$T/contract" tests/data/transcript.txt
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
