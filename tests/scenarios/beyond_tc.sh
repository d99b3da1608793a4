#!/usr/bin/env bash
# tc and the project's loader sharing maps by name, across the two eras of
# object files. The real tc (iproute2 through libbpf, which reads only
# BTF-defined maps) attaches a counting classifier on lo (clsact) and pins
# its map at $TC_BPF_MNT/tc/globals/tc_count; after tc has exited,
# fds_example -G -m reads the count. The project's loader, given the
# legacy bpf_elf_map objects (28 and 36 bytes, PIN_GLOBAL_NS), reuses that
# map; one whose definition differs in one field is refused with a message
# naming it, and nothing pinned changes; PIN_OBJECT_NS pins under the
# object's SHA-1 (sha1sum's, at every length of the file modulo 64); a load
# the verifier refuses pins nothing; and tc loading its object after the
# project pinned the map reuses the project's map.
# All on this scenario's own bpffs (TC_BPF_MNT, never /sys/fs/bpf) and in
# its own network namespace: the host's lo never sees a filter.
if [[ -z ${FDS_TC_NETNS:-} ]]; then
	FDS_TC_NETNS=1 exec unshare --net bash "$0" "$@"
fi
. "$(dirname "$0")/../lib.sh"
scenario_begin
# shellcheck disable=SC2034 # read in step bodies, which step() evals
{
	MAP_IDS=$TOP/tests/bin/helpers/map_ids
	TC_OBJ=$TOP/tests/bin/tc_count_kern.o
	PIN=$FS/tc/globals/tc_count
}
export TC_BPF_MNT=$FS

prereq clsact "no clsact qdisc (sch_ingress) or cls_bpf here" '
	ip link set lo up && tc qdisc replace dev lo clsact'

# send_udp N: N datagrams on lo (each and its ICMP port unreachable pass
# the ingress classifier); bash's /dev/udp, no exec.
send_udp()
{
	local i
	for ((i = 0; i < $1; i++)); do
		echo x > /dev/udp/127.0.0.1/9
	done
}

# legacy NAME: the legacy test object NAME's path.
legacy()
{
	echo "$TOP/tests/bin/tc_${1}_kern.o"
}

# prog_map_ids PIN: the map ids of the program pinned at PIN.
prog_map_ids()
{
	bpftool prog show pinned "$1" | sed -n 's/.*map_ids \([0-9,]*\).*/\1/p'
}

step "tc attaches the classifier on lo and pins its map at tc/globals" --needs tc,ip,clsact '
	tc filter add dev lo ingress bpf da obj "$TC_OBJ" sec classifier
	[[ -e $PIN ]] || { find "$FS" >&2; fail "tc pinned nothing at $PIN"; }
	"$MAP_IDS" pinned "$PIN" > "$T/tc_id"
'

step "after tc has exited, fds_example -G -m reads the count, growing with packets" --needs tc,clsact '
	send_udp 3
	n1=$(lookup "$PIN" 0)
	((n1 > 0)) || fail "count $n1 after 3 datagrams"
	send_udp 3
	n2=$(lookup "$PIN" 0)
	((n2 > n1)) || fail "count $n2 after 3 more datagrams, was $n1"
'

# reuse_step NAME: the legacy object NAME loads and its program uses the
# map tc pinned, which stays pinned as it was.
reuse_step()
{
	step "the project's loader reuses the map tc pinned ($2)" --needs tc,bpftool,clsact '
		id=$(<"$T/tc_id")
		fds -F "$FS/prog_$1" -P -p -o "$(legacy "$1")"
		when_finished rm -f "$FS/prog_$1"
		expect_status 0
		ids=$(prog_map_ids "$FS/prog_$1")
		[[ $ids == "$id" ]] || fail "the program uses map ids $ids, tc pinned $id"
		[[ $("$MAP_IDS" pinned "$PIN") == "$id" ]] || fail "another map pinned at $PIN"
	' "$1"
}
reuse_step legacy "28-byte bpf_elf_map"
reuse_step legacy36 "36-byte bpf_elf_map"

# refuse_step NAME FIELD PINNED OBJECT: the legacy object NAME, whose
# definition differs in FIELD, is refused naming it; nothing changes.
refuse_step()
{
	step "a definition with another $2 is refused, naming it, and nothing changes" --needs tc,clsact '
		obj=$(legacy "$1")
		snapshot before
		fds -F "$FS/prog_$1" -P -p -o "$obj"
		expect_status 1
		want="fds_example: cannot load the program from $obj: map '\''tc_count'\'' pinned at $PIN has $2 $3, the object $4"
		[[ $(<"$T/err") == "$want" ]] || fail "stderr is not: $want"
		same_as before
	' "$@"
}
refuse_step diff_type type 2 1
refuse_step diff_key "key size" 4 8
refuse_step diff_value "value size" 4 8
refuse_step diff_max "max entries" 2 4
refuse_step diff_flags flags 0 128

step "PIN_OBJECT_NS pins at tc/<SHA-1 of the object>, reused by the next load" --needs sha1sum '
	obj=$(legacy objns)
	read -r sum _ < <(sha1sum "$obj")
	fds -F "$FS/prog_objns" -P -p -o "$obj"
	expect_status 0
	# the loader looked for pins that were not there: no error text may
	# leak into the lines that report success
	[[ -s $T/out ]] || fail "nothing reported"
	! grep -v "(Success)\$\|(0,Success)\$" "$T/out" ||
		fail "a success reported with an error text (above)"
	rm "$FS/prog_objns"
	id=$("$MAP_IDS" pinned "$FS/tc/$sum/tc_count")
	fds -F "$FS/prog_objns" -P -p -o "$obj"
	expect_status 0
	[[ $(prog_map_ids "$FS/prog_objns") == "$id" ]] || fail "the second load made another map"
	rm "$FS/prog_objns"
'

# The directory is named by the SHA-1 of the whole file, whatever its
# length: the PIN_OBJECT_NS object with N bytes appended (ELF readers
# ignore what follows the sections; tc hashes them too), N from 0 to 63 so
# that the length takes every value modulo 64, SHA-1's block (from 56 on,
# the padding's bit count spills into a block of its own), and a block or
# two more. One process loads them all (load_refusals), on a bpffs of the
# step's own; sha1sum names the directories.
step "PIN_OBJECT_NS's directory is the file's SHA-1 at every length modulo 64" --needs sha1sum '
	obj=$(legacy objns)
	mkdir "$T/fs4" "$T/sizes" && mount -t bpf bpf "$T/fs4"
	pad=
	while ((${#pad} < 192)); do
		pad+=0123456789abcdefghijklmnopqrstuvwxyz
	done
	sizes=({0..63} 64 119 120 127 128 191)
	files=("${sizes[@]/#/$T/sizes/plus}")
	files=("${files[@]/%/.o}")
	tee "${files[@]}" < "$obj" > /dev/null
	for n in "${sizes[@]}"; do
		printf "%s" "${pad:0:n}" >> "$T/sizes/plus$n.o"
	done
	TC_BPF_MNT=$T/fs4 "$TOP/tests/bin/helpers/load_refusals" "${files[@]}" > "$T/loads"
	printf "%s\tloaded\n" "${files[@]}" > "$T/loads.want"
	cmp "$T/loads.want" "$T/loads" || fail "not every file loaded: $(<"$T/loads")"
	sha1sum "${files[@]}" > "$T/sums"
	sums=()
	while read -r sum f; do
		[[ -e $T/fs4/tc/$sum/tc_count ]] ||
			fail "${f##*/} ($(stat -c %s "$f") bytes): no map at tc/$sum"
		sums+=("$sum")
	done < "$T/sums"
	dirs=("$T/fs4/tc"/*)
	((${#dirs[@]} == ${#sums[@]})) ||
		fail "${#dirs[@]} directories in tc/ for ${#sums[@]} files: ${dirs[*]##*/}"
'

step "a load the verifier refuses pins nothing" '
	mkdir "$T/fs2" && mount -t bpf bpf "$T/fs2"
	TC_BPF_MNT=$T/fs2 fds -F "$T/fs2/prog" -P -p -o "$(legacy badprog)"
	expect_status 1
	expect_err "^fds_example: cannot load the program from .*: program .socket_count. was not loaded: "
	shopt -s nullglob	# an empty bpffs on kernels without bpf_preload
	for f in "$T/fs2"/*; do
		[[ $f == */progs.debug || $f == */maps.debug ]] ||
			fail "$f exists after the failed load"
	done
'

step "tc loading its object after the project pinned the map (its directories mode 0700) reuses it" --needs tc,clsact '
	mkdir "$T/fs3" && mount -t bpf bpf "$T/fs3"
	TC_BPF_MNT=$T/fs3 fds -F "$T/fs3/prog" -P -p -o "$(legacy legacy)"
	expect_status 0
	# its directories made as tc makes them: for their owner alone
	modes=$(stat -c %a "$T/fs3/tc" "$T/fs3/tc/globals" | tr "\n" " ")
	[[ $modes == "700 700 " ]] || fail "tc and tc/globals are mode $modes, not 700"
	rm "$T/fs3/prog"
	id=$("$MAP_IDS" pinned "$T/fs3/tc/globals/tc_count")
	TC_BPF_MNT=$T/fs3 tc filter add dev lo egress bpf da obj "$TC_OBJ" sec classifier
	[[ $("$MAP_IDS" pinned "$T/fs3/tc/globals/tc_count") == "$id" ]] ||
		fail "tc pinned another map"
	n0=$(lookup "$T/fs3/tc/globals/tc_count" 0)
	send_udp 3
	n1=$(lookup "$T/fs3/tc/globals/tc_count" 0)
	((n1 > n0)) || fail "the map the project pinned counts $n1, was $n0: tc counts elsewhere"
'

scenario_end
