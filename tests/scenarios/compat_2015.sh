#!/usr/bin/env bash
# Code written against the 2015 samples/bpf interface (bpf_create_map,
# bpf_prog_load, bpf_obj_pin/get, load_bpf_file, prog_fd[], map_fd[],
# bpf_log_buf), with the helper names the 2015 samples defined for
# themselves, builds against libbpf.h and bpf_load.h unchanged, and runs.
. "$(dirname "$0")/../lib.sh"
scenario_begin

step "a 2015-style program built against libbpf.h and bpf_load.h runs" '
	out=$(tests/bin/compat_2015 "$FS" "$SOCKEX1") || fail "$out"
	[[ $out == "compat: ok" ]] || fail "$out"
'

step "its pins are usable by fds_example afterwards" '
	expect_value "$FS/compat_map" 1 42
	for p in compat_prog compat_object; do
		fds -F "$FS/$p" -G -p
		expect_status 0
		expect_out "bpf: get fd:3 (Success)" "bpf: sock:4 <- fd:3 attached ret:(0,Success)"
	done
'

# Building is kernel-independent: QEMU guests (no compiler) leave it out.
step "it builds from source with -Wall -Wextra -Werror, and fails clearly" \
	--host-only --needs "${CC:-cc}" '
	${CC:-cc} -Wall -Wextra -Werror -I. -o "$T/compat" tests/compat/sample_2015.c libbpf.c \
		bpf_object.c sha1.c tc_pinning.c bpf_load.c -lelf
	"$T/compat" "$FS/sub" "$SOCKEX1" > "$T/o" 2>&1 && fail "ran against a missing directory"
	grep -qx "compat: bpf_obj_pin map failed: No such file or directory" "$T/o" ||
		fail "$(cat "$T/o")"
'
scenario_end
