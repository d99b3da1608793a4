#!/usr/bin/env bash
# Code written against the 2015 samples/bpf interface (bpf_create_map,
# bpf_prog_load, bpf_obj_pin/get, load_bpf_file, prog_fd[], map_fd[],
# bpf_log_buf) builds against these files unchanged, and runs.
. "$(dirname "$0")/../lib.sh"
scenario_begin

step "a 2015-style program built against libbpf.h and bpf_load.h runs" '
	out=$(tests/bin/compat_2015 "$FS" "$SOCKEX1") || fail "$out"
	[[ $out == "compat: ok" ]] || fail "$out"
'

step "its pins are usable by fds_example afterwards" '
	[[ -e $FS/compat_map && -e $FS/compat_prog ]] || fail "pins missing"
	fds -F "$FS/compat_prog" -G -p
	expect_status 0
	expect_out "bpf: get fd:3 (Success)" "bpf: sock:4 <- fd:3 attached ret:(0,Success)"
'

# Building is kernel-independent: QEMU guests (no compiler) leave it out.
step "it still builds from source with the header and loader as they are" \
	--host-only --needs "${CC:-cc}" '
	${CC:-cc} -Wall -Wextra -Werror -I. -o "$T/compat" tests/compat/sample_2015.c libbpf.c bpf_load.c -lelf
	"$T/compat" "$FS/sub" "$SOCKEX1" > "$T/o" 2>&1 && fail "ran against a missing directory"
	grep -q "bpf_obj_pin map failed" "$T/o" || fail "$(cat "$T/o")"
'
scenario_end
