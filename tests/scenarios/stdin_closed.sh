#!/usr/bin/env bash
# Descriptor 0 is a descriptor like any other. Started with stdin closed,
# fds_example gets fd 0 for the first thing it opens, and must then do and
# print exactly what it does with stdin open, the fd numbers aside: "bpf:
# map fd:0 (Success)", the checks of a map got as fd 0, a raw socket that
# is fd 0.
. "$(dirname "$0")/../lib.sh"
scenario_begin

step "-P -m -k -v: the new map is fd 0" '
	fds -F "$FS/m" -P -m -k 1 -v 42 0<&-
	expect_status 0
	expect_out "bpf: map fd:0 (Success)" "bpf: pin ret:(0,Success)" \
		"bpf: fd:0 u->(1:42) ret:(0,Success)"
	expect_no_err
'

step "-G -m -k: the map got is fd 0" '
	fds -F "$FS/m" -G -m -k 1 0<&-
	expect_status 0
	expect_out "bpf: get fd:0 (Success)" "bpf: fd:0 l->(1):42 ret:(0,Success)"
	expect_no_err
'

# -k reads and writes 4 bytes: a map of 8-byte values is refused before
# any lookup or update, also when it is fd 0.
step "-G -m -k of a map with 8-byte values got as fd 0: refused" --needs bpftool '
	bpftool map create "$FS/m8" type array key 4 value 8 entries 4 name m8
	for value in "" 9; do
		fds -F "$FS/m8" -G -m -k 1 ${value:+-v "$value"} 0<&-
		expect_status 1
		expect_out "bpf: get fd:0 (Success)"
		[[ $(<"$T/err") == "fds_example: $FS/m8 has 4-byte keys and 8-byte values; -k and -v need 4 and 4" ]] ||
			fail "stderr: $(<"$T/err")"
	done
'

# The loader opens the object first (fd 0) and closes it last, after the
# map (3) and the program (4): the raw socket then is fd 0.
step "-P -p -o sockex1_kern.o: the raw socket is fd 0" '
	fds -F "$FS/p" -P -p -o "$SOCKEX1" 0<&-
	expect_status 0
	expect_out "bpf: prog fd:4 (Success)" "bpf: pin ret:(0,Success)" \
		"bpf: sock:0 <- fd:4 attached ret:(0,Success)"
	expect_no_err
'

step "-G -p: the program got is fd 0, the socket fd 3" '
	fds -F "$FS/p" -G -p 0<&-
	expect_status 0
	expect_out "bpf: get fd:0 (Success)" \
		"bpf: sock:3 <- fd:0 attached ret:(0,Success)"
	expect_no_err
'
scenario_end
