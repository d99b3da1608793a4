#!/usr/bin/env bash
# RLIMIT_MEMLOCK and maps: kernels before 5.11 charge every map's memory to
# the creating user's `ulimit -l`, later ones charge the memory cgroup. The
# scenario probes which this kernel does (never its version string), records
# it, and checks the consequences: with a charge, creation fails with EPERM
# once the limit is used up and works again with the limit raised; without,
# a tiny limit does not matter.
. "$(dirname "$0")/../lib.sh"
scenario_begin
MAPS=${MAPS:-16}	# 16 x ~12 KiB (a 1024-entry array where charged) > 64 KiB

step "probe: up to $MAPS pinned maps under ulimit -l 64 (KiB)" '
	ulimit -l 64
	made=0
	for ((i = 0; i < MAPS; i++)); do
		fds -F "$FS/m$i" -P -m -k 1 -v $i 2> /dev/null
		((status == 0)) || break
		made=$((made + 1))
	done
	echo "$made" > "$T/made"
	cp "$T/out" "$T/last.out"
	echo "$status" > "$T/last.status"
	if ((made < MAPS)); then charged=yes; else charged=no; fi
	echo "$charged" > "$T/charged"
'
charged=$(cat "$T/charged" 2> /dev/null || echo unknown)
# shellcheck disable=SC2034 # read in step bodies, which step() evals
made=$(cat "$T/made" 2> /dev/null || echo 0)
[[ $charged == unknown ]] || matrix_record map-create-memlock-charged "$charged"

if [[ $charged == yes ]]; then
	step "the map past the limit fails with EPERM and pins nothing" '
		[[ $(<"$T/last.status") == 1 ]] || fail "exit $(<"$T/last.status"), expected 1"
		[[ $(<"$T/last.out") == "bpf: map fd:-1 (Operation not permitted)" ]] ||
			fail "stdout: $(<"$T/last.out")"
		[[ ! -e $FS/m$made ]] || fail "m$made was pinned"
	'

	step "the maps made before the limit was reached are intact" '
		for ((i = 0; i < made; i++)); do
			expect_value "$FS/m$i" 1 $i
		done
	'

	step "with the limit raised the same map is created" '
		ulimit -l unlimited
		fds -F "$FS/m$made" -P -m -k 1 -v 77
		expect_status 0
		expect_value "$FS/m$made" 1 77
	'

	step "with the limit at zero not even one map is created, and root is told why" '
		ulimit -l 0
		fds -F "$FS/zero" -P -m
		expect_status 1
		expect_out "bpf: map fd:-1 (Operation not permitted)"
		expect_err "^fds_example: hint: kernels before 5\.11 charge each map to ulimit -l; try .ulimit -l unlimited.$"
		[[ ! -e $FS/zero ]] || fail "zero was pinned"
	'
elif [[ $charged == no ]]; then
	step "all $MAPS maps were made and hold their values" '
		for ((i = 0; i < MAPS; i++)); do
			expect_value "$FS/m$i" 1 $i
		done
	'

	step "even under ulimit -l 0 a map is created" '
		ulimit -l 0
		fds -F "$FS/zero" -P -m -k 1 -v 5
		expect_status 0
		expect_value "$FS/zero" 1 5
	'
fi
scenario_end
