#!/usr/bin/env bash
# Loaders racing on one pin path: of many `fds_example -P` started together
# exactly one pins, the others report EEXIST and exit 1, and no loser's map
# outlives it (the kernel's map ids before and after); a `-G` racing the
# removal and re-pinning of the path gets the object pinned there or
# ENOENT, never another, and none at all while re-pinning goes through
# rename(2). Each race runs many rounds; what is asserted holds in every one.
. "$(dirname "$0")/../lib.sh"
scenario_begin
MAP_IDS=$TOP/tests/bin/helpers/map_ids
REPIN_LOOP=$TOP/tests/bin/helpers/repin_loop
# In a guest under TCG each exec costs ~0.1 s: fewer processes, same races.
if [[ -n ${FDS_IN_VM:-} ]]; then
	RACERS=${RACERS:-5} ROUNDS=${ROUNDS:-3}
else
	RACERS=${RACERS:-6} ROUNDS=${ROUNDS:-6}
fi

# wait_for_file FILE: until FILE exists and is not empty, 10 s at most.
wait_for_file()
{
	local i
	for ((i = 0; i < 1000; i++)); do
		[[ -s $1 ]] && return 0
		sleep 0.01
	done
	fail "no $1 after 10 s"
}

# race_ready N NAME FUNC: starts FUNC 0 .. FUNC N-1 in N processes, each
# blocked reading a pipe whose only write end the step holds; returns once
# all are waiting. race_go releases them at once by closing that end, and
# waits for them. Process i's stdout and stderr go to $T/NAME.i.out and
# .err, its exit status to ${race_status[i]}. (Builtins but for mkfifo:
# under TCG an exec costs ~0.1 s, longer than the race.)
race_ready()
{
	local n=$1 name=$2 func=$3 i tries
	rm -f "$T/$name".*.ready
	[[ -p $T/gate ]] || mkfifo "$T/gate"
	# a FIFO opened read-write first, so neither end's open blocks
	# shellcheck disable=SC2094 # one FIFO, three opens on purpose
	exec 9<> "$T/gate" 8> "$T/gate" 7< "$T/gate" 9<&-
	race_pids=()
	for ((i = 0; i < n; i++)); do
		(
			exec 8>&-
			echo > "$T/$name.$i.ready"
			read -r -u 7 _ || true
			exec 7<&-
			"$func" "$i" > "$T/$name.$i.out" 2> "$T/$name.$i.err"
		) &
		race_pids[i]=$!
	done
	for ((i = 0, tries = 0; i < n; tries++)); do
		((tries < 2000)) || fail "contender $i not ready after 10 s"
		# nothing is ever written: a read with a timeout is a sleep
		[[ -s $T/$name.$i.ready ]] && i=$((i + 1)) ||
			read -r -t 0.005 -u 7 _ || true
	done
}

race_go()
{
	local i
	exec 8>&- 7<&-
	race_status=()
	for i in "${!race_pids[@]}"; do
		race_status[i]=0
		wait "${race_pids[i]}" || race_status[i]=$?
	done
}

# pinner I: the I-th contender pins a new map at $path storing I + 1.
pinner()
{
	exec "$FDS_EXAMPLE" -F "$path" -P -m -k 1 -v $(($1 + 1))
}

# getter I: reads key 1 of whatever is pinned at $path.
getter()
{
	exec "$FDS_EXAMPLE" -F "$path" -G -m -k 1
}

# check_pin_race N: of the N pinners just run, one won and pinned its map,
# the others made theirs, were refused with EEXIST and said so.
check_pin_race()
{
	local i out winner=-1
	for ((i = 0; i < $1; i++)); do
		slurp out "$T/pin.$i.out"
		if ((race_status[i] == 0)); then
			((winner < 0)) || fail "contenders $winner and $i both pinned"
			winner=$i
			[[ $out == "bpf: map fd:3 (Success)"$'\n'"bpf: pin ret:(0,Success)"$'\n'"bpf: fd:3 u->(1:$((i + 1))) ret:(0,Success)"$'\n' ]] ||
				fail "the winner, $i, printed: $out"
		elif [[ ${race_status[i]} != 1 || $out != "bpf: map fd:3 (Success)"$'\n'"bpf: pin ret:(-1,File exists)"$'\n' ]]; then
			fail "contender $i exited ${race_status[i]}: $out$(<"$T/pin.$i.err")"
		fi
	done
	((winner >= 0)) || fail "no contender pinned"
	expect_value "$path" 1 $((winner + 1))
}

# live_maps_between A B WANT: the ids of the maps alive above A and below B,
# once they are WANT or after 5 s: the kernel frees a map when its last
# reference goes, which for an exiting process may come a moment later.
live_maps_between()
{
	local i live
	for ((i = 0; i < 100; i++)); do
		live=$("$MAP_IDS" between "$1" "$2")
		[[ $live == "$3" ]] && break
		sleep 0.05
	done
	echo "$live"
}

step "$RACERS parallel -P on one path, $ROUNDS rounds: one pins, the rest get EEXIST, no map is left" '
	# Map ids are global and increase: maps made just before the release
	# and just after the last exit bound the ids of the maps made in
	# between. Where that window holds exactly $RACERS new ids, no other
	# process on the machine made maps meanwhile, and only the winner'"'"'s
	# may be alive; other rounds check the rest and are run again, up to
	# 4 x $ROUNDS rounds, at least one of them a clean one.
	clean=0
	for ((round = 0; clean < ROUNDS && round < 4 * ROUNDS; round++)); do
		path=$FS/race$round
		race_ready "$RACERS" pin pinner
		before=$("$MAP_IDS" next)
		race_go
		after=$("$MAP_IDS" next)
		check_pin_race "$RACERS"
		winner_id=$("$MAP_IDS" pinned "$path")
		((before < winner_id && winner_id < after)) ||
			fail "the pinned map $winner_id is not from this round ($before..$after)"
		((after - before - 1 == RACERS)) || continue
		live=$(live_maps_between "$before" "$after" "$winner_id")
		[[ $live == "$winner_id" ]] ||
			fail "round $round: maps alive after it: ${live//$'"'"'\n'"'"'/ }, expected only $winner_id"
		clean=$((clean + 1))
	done
	echo "$round rounds, $clean without other processes making maps"
	((clean > 0)) || fail "other processes made maps during all $round rounds"
	matrix_record race-pin-loser-errno EEXIST
'

# getters_see PIN VALUE...: $RACERS getters of PIN, released together,
# $ROUNDS times, each got a map holding one of VALUE... at key 1 or found
# nothing pinned (ENOENT); anything else fails. Prints how many found
# nothing.
getters_see()
{
	local pin=$1 round i out v missing=0 re
	shift
	re='^bpf: get fd:3 \(Success\)'$'\n''bpf: fd:3 l->\(1\):([0-9]+) ret:\(0,Success\)'$'\n''$'
	for ((round = 0; round < ROUNDS; round++)); do
		path=$pin
		race_ready "$RACERS" get getter
		race_go
		for ((i = 0; i < RACERS; i++)); do
			slurp out "$T/get.$i.out"
			if ((race_status[i] == 0)) && [[ $out =~ $re ]]; then
				v=${BASH_REMATCH[1]}
				[[ " $* " == *" $v "* ]] ||
					fail "round $round: getter $i read $v: not a map pinned at $pin"
			elif [[ ${race_status[i]} == 1 &&
				$out == "bpf: get fd:-1 (No such file or directory)"$'\n' ]]; then
				missing=$((missing + 1))
			else
				fail "round $round: getter $i exited ${race_status[i]}: $out$(<"$T/get.$i.err")"
			fi
		done
	done
	echo "$missing"
}

# repin_start MODE: repin_loop replacing $FS/MODE/flip by the maps pinned
# at $FS/MODE/a (11 at key 1) and $FS/MODE/b (22) in turn, the MODE way,
# until repin_stop; its pid in $repin.
repin_start()
{
	local dir=$FS/$1
	mkdir "$dir"
	fds -F "$dir/a" -P -m -k 1 -v 11
	expect_status 0
	fds -F "$dir/b" -P -m -k 1 -v 22
	expect_status 0
	repin_out=$T/repin_$1.out
	"$REPIN_LOOP" "$dir/flip" "$1" "$dir/a" "$dir/b" > "$repin_out" 2>&1 &
	repin=$!
	when_finished kill_quietly "$repin"
	wait_for_file "$repin_out"
	[[ $(<"$repin_out") == ready ]] || fail "repin_loop: $(<"$repin_out")"
}

kill_quietly()
{
	kill "$1" 2> /dev/null || true
}

# repin_stop: stops repin_loop, which must have been replacing all along.
repin_stop()
{
	local rc=0
	kill -TERM "$repin"
	wait "$repin" || rc=$?
	((rc == 0)) || fail "repin_loop exited $rc: $(<"$repin_out")"
	[[ $(<"$repin_out") =~ swaps\ [1-9] ]] || fail "$(<"$repin_out")"
	cat "$repin_out"
}

step "-G racing rm and a re-pin at the path gets a map pinned there or ENOENT, never another" '
	repin_start unlink
	missing=$(getters_see "$FS/unlink/flip" 11 22)
	repin_stop
	echo "$missing of $((RACERS * ROUNDS)) gets found nothing pinned"
'

step "-G racing a re-pin by rename(2) over the path always gets one of the two maps" '
	repin_start rename
	missing=$(getters_see "$FS/rename/flip" 11 22)
	repin_stop
	matrix_record race-get-vs-rename-repin-enoent "$( ((missing)) && echo yes || echo no)"
	((missing == 0)) || fail "$missing gets found nothing pinned during a rename"
'
scenario_end
