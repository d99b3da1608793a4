#!/usr/bin/env bash
# Debian's bpftool, an independent client, sees what fds_example pinned as
# fds_example says it is, and fds_example reads and writes what bpftool pinned.
. "$(dirname "$0")/../lib.sh"
scenario_begin

step "bpftool reads 1:42 from the map fds_example pinned" --needs bpftool '
	fds -F "$FS/m" -P -m -k 1 -v 42
	expect_status 0
	got=$(bpftool -j map lookup pinned "$FS/m" key $(u32_bytes 1))
	[[ $got == *"\"value\":[$(u32_json 42)]"* ]] || fail "$got"
'

step "bpftool describes it as the sample made it: array, 4B keys and values, 1024" --needs bpftool '
	got=$(bpftool map show pinned "$FS/m")
	[[ $got =~ array.*key\ 4B\ +value\ 4B\ +max_entries\ 1024 ]] || fail "$got"
'

step "a value fds_example stores is what bpftool reads next" --needs bpftool '
	fds -F "$FS/m" -G -m -k 1023 -v 305419896
	expect_status 0
	got=$(bpftool -j map lookup pinned "$FS/m" key $(u32_bytes 1023))
	[[ $got == *"\"value\":[$(u32_json 305419896)]"* ]] || fail "$got"
'

step "a map bpftool created and pinned is read and written by fds_example" --needs bpftool '
	bpftool map create "$FS/b" type array key 4 value 4 entries 16 name bmap
	bpftool map update pinned "$FS/b" key $(u32_bytes 3) value $(u32_bytes 7)
	expect_value "$FS/b" 3 7
	fds -F "$FS/b" -G -m -k 4 -v 77
	expect_status 0
	got=$(bpftool -j map lookup pinned "$FS/b" key $(u32_bytes 4))
	[[ $got == *"\"value\":[$(u32_json 77)]"* ]] || fail "$got"
'

step "a hash map bpftool made works too, and a missing key is ENOENT" --needs bpftool '
	bpftool map create "$FS/h" type hash key 4 value 4 entries 8 name hmap
	fds -F "$FS/h" -G -m -k 9 -v 90
	expect_status 0
	expect_value "$FS/h" 9 90
	fds -F "$FS/h" -G -m -k 8
	expect_status 1
	expect_out "bpf: get fd:3 (Success)" "bpf: fd:3 l->(8):0 ret:(-1,No such file or directory)"
'

step "bpftool reports the pinned programs as socket filters" --needs bpftool '
	fds -F "$FS/p" -P -p
	expect_status 0
	fds -F "$FS/p2" -P -p -o "$SOCKEX1"
	expect_status 0
	for p in p p2; do
		got=$(bpftool -j prog show pinned "$FS/$p")
		[[ $got == *"\"type\":\"socket_filter\""* ]] || fail "$p: $got"
	done
'

step "bpftool sees sockex1 using one 256-entry array of 8-byte values" --needs bpftool '
	id=$(bpftool -j prog show pinned "$FS/p2" | grep -o "\"map_ids\":\[[0-9]*\]" | grep -o "[0-9][0-9]*")
	[[ -n $id ]] || fail "no map id"
	got=$(bpftool map show id "$id")
	[[ $got =~ array.*key\ 4B\ +value\ 8B\ +max_entries\ 256 ]] || fail "$got"
'
scenario_end
