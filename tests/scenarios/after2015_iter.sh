#!/usr/bin/env bash
# Pinned iterators (5.8): bpftool pins a BPF iterator over all maps, and
# reading the pin runs it, like a /proc file written in BPF. Each read is a
# new walk: a map pinned after the iterator shows up, and one freed is gone.
. "$(dirname "$0")/../lib.sh"
scenario_begin

# shellcheck disable=SC2034 # read in step bodies, which step() evals
ITER_OBJ=$TOP/tests/bin/after2015_iter_kern.o

step "bpftool iter pin pins the map iterator" --needs bpftool '
	rc=0
	bpftool iter pin "$ITER_OBJ" "$FS/maps" || rc=$?
	matrix_record "iter-pin-bpftool" \
		"$( ((rc == 0)) && echo ok || echo "exit $rc")"
	((rc == 0)) || fail "bpftool iter pin exited $rc"
	[[ -f $FS/maps ]] || fail "no pin at $FS/maps"
'

step "reading the pin lists a map pinned after it" --needs bpftool '
	fds -F "$FS/m" -P -m
	expect_status 0
	id=$(bpftool map show pinned "$FS/m")
	id=${id%%:*}
	[[ $id =~ ^[0-9]+$ ]] || fail "no map id from bpftool: $id"
	mapfile -t lines < "$FS/maps"
	printf "%s\n" "${lines[@]}" | grep -qx "map $id" || fail "map $id not listed"
	for line in "${lines[@]}"; do
		[[ $line =~ ^map\ [0-9]+$ ]] || fail "unexpected line: [$line]"
	done
	matrix_record "iter-pin-read" "ok"
	echo "$id" > "$T/id"
'

step "the next read no longer lists the map once its pin is gone" --needs bpftool '
	read -r id < "$T/id"
	rm "$FS/m"
	wait_gone map "$id"
	mapfile -t lines < "$FS/maps"
	! printf "%s\n" "${lines[@]}" | grep -qx "map $id" || fail "map $id still listed"
'

scenario_end
