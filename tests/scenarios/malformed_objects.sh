#!/usr/bin/env bash
# fds_example -P -p -o on malformed objects: each generated corruption of
# sockex1_kern.o and two_progs_kern.o, the too-many-maps and too-many-programs
# objects and every file of the fuzzers' regression corpus must exit 1 with a
# message saying what is wrong, and pin nothing. (SANITIZE=1 and VALGRIND=1
# runs of this scenario add: no leak, no bad read.)
. "$(dirname "$0")/../lib.sh"
scenario_begin

MKCORRUPT=$TOP/tests/bin/mkcorrupt
mkdir -p "$T/bad/sockex1" "$T/bad/two_progs"
"$MKCORRUPT" "$SOCKEX1" "$T/bad/sockex1" > /dev/null || fail "mkcorrupt failed"
"$MKCORRUPT" tests/bin/two_progs_kern.o "$T/bad/two_progs" > /dev/null || fail "mkcorrupt failed"
cp tests/bin/many_maps_kern.o tests/bin/many_progs_kern.o "$T/bad/"

# Every item the hardening issue lists is among them.
step "the generated set covers every listed defect" '
	for want in trunc-0000 trunc-0064 sec3-offset-past-end sec3-size-past-end \
		    shnum-huge shentsize-small shstrndx-out-of-range \
		    rel-offset-past-section rel-not-on-ld-imm64 rel-symbol-out-of-range \
		    map-symbol-outside-maps map-symbol-between-definitions \
		    maps-size-fits-no-definition license-unterminated class-32 \
		    big-endian machine-x86-64; do
		[[ -f $T/bad/sockex1/$want ]] || fail "no $want"
	done
	[[ -f $T/bad/many_maps_kern.o && -f $T/bad/many_progs_kern.o ]]
'

reject()
{
	local f=$1 name=${1#"$T/bad/"}
	step "rejected: $name" '
		fds -F "$FS/p" -P -p -o '"$(printf %q "$f")"'
		expect_status 1
		expect_out "bpf: prog fd:-1 (Exec format error)"
		expect_err "^bpf_load: .+: .+"
		expect_err "^fds_example: cannot load the program"
		[[ ! -e $FS/p ]] || fail "something was pinned"
	'
}

for f in "$T"/bad/*/* "$T"/bad/*.o "$TOP"/fuzz/regression/*; do
	[[ -f $f && $(basename "$f") != README* ]] || continue
	reject "$f"
done

step "the bpffs holds no pin after all of them" '
	left=$(cd "$FS" && ls -A | grep -vx -e maps.debug -e progs.debug || true)
	[[ -z $left ]] || fail "left behind: $left"
'
scenario_end
