#!/usr/bin/env bash
# Pinned iterators (5.8): bpftool pins a BPF iterator over all maps, and
# reading the pin runs it, like a /proc file written in BPF. Each read is a
# new walk: a map pinned after the iterator shows up, and one freed is gone.
. "$(dirname "$0")/../lib.sh"
scenario_begin

# shellcheck disable=SC2034 # read in step bodies, which step() evals
ITER_OBJ=$TOP/tests/bin/after2015_iter_kern.o

# An iterator's program is typed by the kernel's own BTF: a kernel built
# without it (Debian's s390x) has no /sys/kernel/btf/vmlinux, and bpftool
# refuses; that refusal is its matrix cell, and nothing may be pinned.
# shellcheck disable=SC2034 # read in step bodies
KERNEL_BTF=$([[ -r /sys/kernel/btf/vmlinux ]] && echo yes || echo no)

step "bpftool iter pin pins the map iterator (refuses it without kernel BTF)" --needs bpftool '
	rc=0
	bpftool iter pin "$ITER_OBJ" "$FS/maps" 2> "$T/err" || rc=$?
	matrix_record "iter-pin-bpftool" \
		"$( ((rc == 0)) && echo ok || echo "exit $rc")"
	if [[ $KERNEL_BTF == no ]]; then
		((rc != 0)) || fail "bpftool iter pin worked with no kernel BTF"
		grep -q "kernel BTF" "$T/err" || fail "not the BTF refusal: $(<"$T/err")"
		[[ ! -e $FS/maps ]] || fail "a refused iterator left $FS/maps"
		exit 0
	fi
	((rc == 0)) || fail "bpftool iter pin exited $rc: $(<"$T/err")"
	[[ -f $FS/maps ]] || fail "no pin at $FS/maps"
'

# NO_ITERATOR: without kernel BTF the steps below check that nothing was
# pinned, and end there.
# shellcheck disable=SC2016,SC2034 # expanded in step bodies
NO_ITERATOR='if [[ $KERNEL_BTF == no ]]; then [[ ! -e $FS/maps ]] || fail "$FS/maps exists"; exit 0; fi'

step "reading the pin lists a map pinned after it" --needs bpftool '
	eval "$NO_ITERATOR"
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
	eval "$NO_ITERATOR"
	read -r id < "$T/id"
	rm "$FS/m"
	wait_gone map "$id"
	mapfile -t lines < "$FS/maps"
	! printf "%s\n" "${lines[@]}" | grep -qx "map $id" || fail "map $id still listed"
'

scenario_end
