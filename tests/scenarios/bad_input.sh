#!/usr/bin/env bash
# The man page's failure rules, one by one: bad usage exits 2 before any
# syscall, a failed operation prints its bpf: line with the real errno, says
# why on stderr and exits 1, and nothing already pinned is changed or lost.
. "$(dirname "$0")/../lib.sh"
scenario_begin

step "setup: a map holding 1:42 and a program, pinned" '
	fds -F "$FS/m" -P -m -k 1 -v 42
	expect_status 0
	fds -F "$FS/p" -P -p
	expect_status 0
	mkdir "$FS/dir"
	snapshot base
	grep -qxF "$(dump_line 1 42)" "$T/snap.base" || fail "no 1:42 in the snapshot"
'

# usage_error NAME ARGS...: exit 2, usage on stderr, nothing on stdout, no
# change. A usage error comes before any syscall: the same on every kernel.
usage_error()
{
	local name=$1
	shift
	step "usage: $name" --kernel-independent '
		fds "$@"
		expect_status 2
		[[ ! -s $T/out ]] || fail "stdout is not empty"
		expect_err "^Usage: fds_example"
		(($(line_count "$T/err") > 3)) || fail "no usage on stderr"
		same_as base
	' "$@"
}

usage_error "no arguments"
usage_error "missing -F" -P -m
usage_error "no mode" -F "$FS/m" -G
usage_error "neither -P nor -G" -F "$FS/m" -m -k 1
usage_error "both -P and -G" -F "$FS/m" -P -G -m
usage_error "both -P and -G, program mode" -F "$FS/p" -P -G -p
usage_error "both -m and -p" -F "$FS/m" -G -m -p
usage_error "-v without -k" -F "$FS/m" -G -m -v 7
usage_error "unknown option" -F "$FS/m" -G -m -x
usage_error "stray argument" -F "$FS/m" -G -m extra
usage_error "non-numeric key" -F "$FS/m" -G -m -k zz

step "usage: a stray argument is named, not the option before it" --kernel-independent '
	fds -F "$FS/m" -G -m first second
	expect_status 2
	expect_err "^fds_example: unexpected argument '"'"'first'"'"'$"
'
usage_error "key with trailing junk" -F "$FS/m" -G -m -k 1x
usage_error "negative key" -F "$FS/m" -G -m -k -1
usage_error "key over 32 bits" -F "$FS/m" -G -m -k 4294967296
usage_error "empty key" -F "$FS/m" -G -m -k ""
usage_error "key with leading space" -F "$FS/m" -G -m -k " 1"
usage_error "non-numeric value" -F "$FS/m" -G -m -k 1 -v zz
usage_error "value with trailing junk" -F "$FS/m" -G -m -k 1 -v 24abc
usage_error "negative value" -F "$FS/m" -G -m -k 1 -v -24
usage_error "value over 32 bits" -F "$FS/m" -G -m -k 1 -v 99999999999
usage_error "-k in program mode" -F "$FS/p" -G -p -k 1
usage_error "-o in map mode" -F "$FS/m" -G -m -o "$SOCKEX1"
usage_error "-o with -G" -F "$FS/p" -G -p -o "$SOCKEX1"

step "usage: -h prints usage on stdout and exits 0" --kernel-independent '
	fds -h
	expect_status 0
	head -n 1 "$T/out" | grep -q "^Usage: fds_example"
	expect_no_err
'

step "usage: the whole 32-bit range is accepted, hex too" '
	fds -F "$FS/m" -G -m -k 2 -v 4294967295
	expect_status 0
	expect_value "$FS/m" 2 4294967295
	fds -F "$FS/m" -G -m -k 0x2 -v 0
	expect_status 0
	expect_value "$FS/m" 2 0
	same_as base
'

# op_error NAME STDOUT-LINES -- ARGS...: exit 1, those lines, a reason, no change.
op_error()
{
	local name=$1
	shift
	step "$name" '
		lines=()
		while [[ $1 != -- ]]; do lines+=("$1"); shift; done
		shift
		fds "$@"
		expect_status 1
		expect_out "${lines[@]}"
		expect_err "^fds_example: "
		same_as base
	' "$@"
}

op_error "pin over an existing map: File exists, map kept" \
	"bpf: map fd:3 (Success)" "bpf: pin ret:(-1,File exists)" \
	-- -F "$FS/m" -P -m -k 1 -v 7
op_error "pin a map over an existing program: File exists" \
	"bpf: map fd:3 (Success)" "bpf: pin ret:(-1,File exists)" \
	-- -F "$FS/p" -P -m
op_error "pin a program over an existing program: File exists" \
	"bpf: prog fd:3 (Success)" "bpf: pin ret:(-1,File exists)" \
	-- -F "$FS/p" -P -p
op_error "pin a program over an existing map: File exists" \
	"bpf: prog fd:3 (Success)" "bpf: pin ret:(-1,File exists)" \
	-- -F "$FS/m" -P -p
op_error "pin outside bpffs: Operation not permitted" \
	"bpf: map fd:3 (Success)" "bpf: pin ret:(-1,Operation not permitted)" \
	-- -F "$T/outside" -P -m
op_error "pin into a missing directory: No such file or directory" \
	"bpf: map fd:3 (Success)" "bpf: pin ret:(-1,No such file or directory)" \
	-- -F "$FS/nodir/m" -P -m
long=$FS/$(printf 'd%.0s' $(seq 4200))
op_error "pin at a path longer than PATH_MAX: File name too long" \
	"bpf: map fd:3 (Success)" "bpf: pin ret:(-1,File name too long)" \
	-- -F "$long" -P -m
op_error "get at a path longer than PATH_MAX: File name too long" \
	"bpf: get fd:-1 (File name too long)" \
	-- -F "$long" -G -m
op_error "get of a missing path: No such file or directory" \
	"bpf: get fd:-1 (No such file or directory)" \
	-- -F "$FS/missing" -G -m -k 1
op_error "get of a directory: Permission denied" \
	"bpf: get fd:-1 (Permission denied)" \
	-- -F "$FS/dir" -G -m
op_error "map mode on a program pin" \
	"bpf: get fd:3 (Success)" \
	-- -F "$FS/p" -G -m -k 1
op_error "map mode on a program pin, without a key" \
	"bpf: get fd:3 (Success)" \
	-- -F "$FS/p" -G -m
op_error "program mode on a map pin" \
	"bpf: get fd:3 (Success)" \
	-- -F "$FS/m" -G -p
op_error "look up key 1024 of the 1024-entry array" \
	"bpf: get fd:3 (Success)" \
	"bpf: fd:3 l->(1024):0 ret:(-1,No such file or directory)" \
	-- -F "$FS/m" -G -m -k 1024
op_error "update key 1024 of the 1024-entry array" \
	"bpf: get fd:3 (Success)" \
	"bpf: fd:3 u->(1024:5) ret:(-1,Argument list too long)" \
	-- -F "$FS/m" -G -m -k 1024 -v 5
op_error "pin then fail to update key 1024: the new pin is removed" \
	"bpf: map fd:3 (Success)" "bpf: pin ret:(0,Success)" \
	"bpf: fd:3 u->(1024:5) ret:(-1,Argument list too long)" \
	-- -F "$FS/new" -P -m -k 1024 -v 5

# -P -p whose attach fails after the pin was made: in a network namespace
# whose loopback is renamed, there is no lo for the raw socket.
step "pin then fail to open the socket on lo: the new pin is removed, the old stay" '
	: > "$T/netns"
	unshare --net="$T/netns" true
	when_finished umount "$T/netns"
	nsenter --net="$T/netns" ip link set lo name notlo
	FDS_RUN=(nsenter --net="$T/netns" "${FDS_RUN[@]}")
	fds -F "$FS/newp" -P -p
	expect_status 1
	expect_out "bpf: prog fd:3 (Success)" "bpf: pin ret:(0,Success)"
	expect_err "cannot open a raw socket on lo: No such device"
	expect_err "removed the new pin"
	[[ ! -e $FS/newp ]] || fail "the new pin is still there"
	fds -F "$FS/p" -G -p
	expect_status 1
	expect_out "bpf: get fd:3 (Success)"
	same_as base
'

step "the messages say what went wrong" '
	fds -F "$FS/p" -G -m -k 1
	expect_err "holds a program, not a map"
	fds -F "$FS/m" -G -p
	expect_err "holds a map, not a program"
	fds -F "$FS/new" -P -m -k 1024 -v 5
	expect_err "removed the new pin"
	fds -F "$FS/m" -P -m
	expect_err "cannot pin the map at .*: File exists"
	same_as base
'

# expect_refused PIN WHY: fds_example neither reads nor writes the map
# bpftool pinned at $FS/PIN, and says WHY; the pin then goes, leaving the
# bpffs as it was. Each step removes its pin even when it fails, so that
# the steps after it still start from base.
expect_refused()
{
	snapshot "$1"
	fds -F "$FS/$1" -G -m -k 1
	expect_status 1
	expect_out "bpf: get fd:3 (Success)"
	expect_err "$2"
	fds -F "$FS/$1" -G -m -k 1 -v 9
	expect_status 1
	expect_out "bpf: get fd:3 (Success)"
	expect_err "$2"
	same_as "$1"
	rm "$FS/$1"
	same_as base
}

step "a map with 8-byte values is refused before any read or write" --needs bpftool '
	when_finished rm -f "$FS/m8"
	bpftool map create "$FS/m8" type array key 4 value 8 entries 4 name m8
	bpftool map update pinned "$FS/m8" key $(u32_bytes 1) value 1 2 3 4 5 6 7 8
	expect_refused m8 "4-byte keys and 8-byte values"
'
step "a per-CPU map with 4-byte values is refused: a lookup fills one per CPU" --needs bpftool '
	when_finished rm -f "$FS/pcpu"
	bpftool map create "$FS/pcpu" type percpu_array key 4 value 4 entries 4 name pcpu
	expect_refused pcpu "per-CPU map"
'
step "a map with 8-byte keys is refused before any read or write" --needs bpftool '
	when_finished rm -f "$FS/k8"
	bpftool map create "$FS/k8" type hash key 8 value 4 entries 4 name k8
	bpftool map update pinned "$FS/k8" key 1 0 0 0 0 0 0 0 value 7 0 0 0
	expect_refused k8 "8-byte keys and 4-byte values"
'
for kind in percpu_hash lru_percpu_hash; do
	step "a $kind map with 4-byte keys and values is refused" --needs bpftool '
		kind=$1
		when_finished rm -f "$FS/$kind"
		bpftool map create "$FS/$kind" type "$kind" key 4 value 4 entries 4 name "$kind"
		expect_refused "$kind" "per-CPU map"
	' "$kind"
done

# A bad object file pins nothing, whatever is wrong with it, and says so in
# one stderr line naming the object and the reason, with the errno of what
# failed (ENOEXEC for a file that is no loadable object); a HINT, if given,
# is hints.c's line after it.
# object_error [--kernel-independent] NAME ERRNO-TEXT OBJECT REASON [HINT]
# (the flag: refused before any syscall)
object_error()
{
	local ki=()
	[[ $1 == --kernel-independent ]] && { ki=("$1"); shift; }
	step "-o: $1" "${ki[@]}" '
		fds -F "$FS/p2" -P -p -o "$3"
		expect_status 1
		expect_out "bpf: prog fd:-1 ($2)"
		mapfile -t err < "$T/err"
		((${#err[@]} == 1 + ($# > 4))) || fail "${#err[@]} lines on stderr"
		[[ ${err[0]} == "fds_example: cannot load the program from $3: $4" ]] ||
			fail "stderr: ${err[0]}"
		(($# == 4)) || [[ ${err[1]} == "fds_example: hint: $5" ]] ||
			fail "hint: ${err[1]}"
		same_as base
	' "$@"
}

printf '' > "$T/empty.o"
printf 'this is not an ELF file, just text long enough\n' > "$T/text.o"
mkdir "$T/dir.o"
object_error --kernel-independent "a missing file" "No such file or directory" "$T/missing.o" \
	"No such file or directory" \
	"the object file $T/missing.o could not be opened (No such file or directory), so the kernel was never asked: check the path given to -o"
object_error --kernel-independent "an empty file" "Exec format error" "$T/empty.o" "empty file"
object_error --kernel-independent "a directory" "Is a directory" "$T/dir.o" "not a regular file"
object_error --kernel-independent "a character device" "Exec format error" /dev/null \
	"not a regular file"
object_error --kernel-independent "a text file" "Exec format error" "$T/text.o" "not an ELF file"
object_error "a map type no kernel knows: the kernel's EINVAL" \
	"Invalid argument" tests/bin/bad_map_kern.o \
	"cannot create map 0 'unknown': Invalid argument"

# The verifier's last line names what it refused; its wording varies a little
# between kernels, so only its start is fixed.
step "-o: a program the verifier refuses: EACCES and the verifier's verdict" '
	fds -F "$FS/p2" -P -p -o tests/bin/rejected_kern.o
	expect_status 1
	expect_out "bpf: prog fd:-1 (Permission denied)"
	mapfile -t err < "$T/err"
	((${#err[@]} == 1)) || fail "${#err[@]} lines on stderr"
	[[ ${err[0]} == "fds_example: cannot load the program from tests/bin/rejected_kern.o: program '"'"'socket_bad'"'"' was not loaded: Permission denied; the verifier: invalid bpf_context access off=1000 "* ]] ||
		fail "stderr: ${err[0]}"
	same_as base
'

step "lo_watch -h prints its usage and exits 0; a bad argument is a usage error" '
	examples/lo_watch -h > "$T/o" 2> "$T/e" || fail "-h exited $?"
	grep -q "^usage: lo_watch PIN" "$T/o" || fail "no usage on stdout"
	[[ ! -s $T/e ]] || fail "stderr: $(<"$T/e")"
	rc=0
	examples/lo_watch -x > "$T/o" 2> "$T/e" || rc=$?
	((rc == 2)) || fail "-x exited $rc"
	grep -q "^usage: lo_watch PIN" "$T/e" || fail "no usage on stderr"
'
scenario_end
