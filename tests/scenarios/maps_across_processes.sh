#!/usr/bin/env bash
# Maps across processes: every fds_example below is a new process, and what
# one stores the next reads; values stay after all of them exit, unset array
# slots read 0, the last slot works, and one map reached through two pins
# shows one set of values.
. "$(dirname "$0")/../lib.sh"
scenario_begin

step "pin a map storing 1:42, as the commit message does" '
	fds -F "$FS/m" -P -m -k 1 -v 42
	expect_status 0
	expect_out "bpf: map fd:3 (Success)" "bpf: pin ret:(0,Success)" \
		   "bpf: fd:3 u->(1:42) ret:(0,Success)"
'

step "a later process reads 42" '
	expect_value "$FS/m" 1 42
'

step "another overwrites it with 24, the next reads 24" '
	fds -F "$FS/m" -G -m -k 1 -v 24
	expect_status 0
	expect_value "$FS/m" 1 24
'

step "slots never written read 0" '
	expect_value "$FS/m" 0 0
	expect_value "$FS/m" 2 0
	expect_value "$FS/m" 512 0
'

step "the last slot, 1023, is written and read back" '
	fds -F "$FS/m" -G -m -k 1023 -v 4294967295
	expect_status 0
	expect_value "$FS/m" 1023 4294967295
'

step "several pins side by side keep their own values" '
	for i in 1 2 3 4 5; do
		fds -F "$FS/side$i" -P -m -k 7 -v $((i * 100))
		expect_status 0
	done
	for i in 1 2 3 4 5; do
		expect_value "$FS/side$i" 7 $((i * 100))
	done
	expect_value "$FS/m" 7 0
'

step "a hard link to a pin reaches the same map" '
	ln "$FS/m" "$FS/m_link"
	fds -F "$FS/m_link" -G -m -k 5 -v 55
	expect_status 0
	expect_value "$FS/m" 5 55
	expect_value "$FS/m_link" 1 24
'

step "a got fd pinned again (bpftool) is one map under two names" --needs bpftool '
	bpftool map pin pinned "$FS/m" "$FS/m_again"
	fds -F "$FS/m_again" -G -m -k 6 -v 66
	expect_status 0
	expect_value "$FS/m" 6 66
	id1=$(bpftool map show pinned "$FS/m" | cut -d: -f1)
	id2=$(bpftool map show pinned "$FS/m_again" | cut -d: -f1)
	[[ -n $id1 && $id1 == "$id2" ]] || fail "ids differ: $id1 $id2"
'
# without bpftool, the next steps still want the map under m_again
have bpftool || mv "$FS/m" "$FS/m_again"

step "removing one name leaves the map and its values under the other" '
	rm -f "$FS/m" "$FS/m_link"
	expect_value "$FS/m_again" 1 24
	expect_value "$FS/m_again" 1023 4294967295
'

step "a new map pinned at the old name starts empty" '
	fds -F "$FS/m" -P -m
	expect_status 0
	expect_value "$FS/m" 1 0
	expect_value "$FS/m_again" 1 24
'
scenario_end
