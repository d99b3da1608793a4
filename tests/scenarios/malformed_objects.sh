#!/usr/bin/env bash
# fds_example -P -p -o on malformed objects: each generated corruption of
# sockex1_kern.o and two_progs_kern.o, the too-many-maps and too-many-programs
# objects and every file of the fuzzers' regression corpus must exit 1 with a
# message saying what is wrong, and pin nothing. For all but the corpus the
# message is the exact one for that defect (mkcorrupt prints each file's), so
# deleting one check in the loader turns its file's step red even when a
# later check would still refuse the file. (SANITIZE=1 and VALGRIND=1 runs of
# this scenario add: no leak, no bad read.)
. "$(dirname "$0")/../lib.sh"
scenario_begin

MKCORRUPT=$TOP/tests/bin/mkcorrupt
mkdir -p "$T/bad/sockex1" "$T/bad/two_progs"
"$MKCORRUPT" "$SOCKEX1" "$T/bad/sockex1" > "$T/sockex1.want" ||
	fail "mkcorrupt failed"
"$MKCORRUPT" tests/bin/two_progs_kern.o "$T/bad/two_progs" > "$T/two_progs.want" ||
	fail "mkcorrupt failed"
cp tests/bin/many_maps_kern.o tests/bin/many_progs_kern.o "$T/bad/"
# A sparse file past the loader's 64 MiB limit: refused before it is read.
truncate -s 65M "$T/bad/huge.o" || fail "truncate failed"

# The refusal each file must get, after "fds_example: cannot load the
# program from PATH: ".
declare -A want=(
	["$T/bad/many_maps_kern.o"]="33 maps, at most 32"
	["$T/bad/many_progs_kern.o"]="more than 32 programs"
	["$T/bad/huge.o"]="larger than 64 MiB, not a BPF object"
)
for set in sockex1 two_progs; do
	while IFS=$'\t' read -r name msg; do
		want["$T/bad/$set/$name"]=$msg
	done < "$T/$set.want"
done

# Every item the hardening issue lists is among them.
step "the generated set covers every listed defect" '
	for want in trunc-0000 trunc-0064 sec3-offset-past-end sec3-size-past-end \
		    shnum-huge shentsize-small shstrndx-out-of-range \
		    rel-offset-past-section rel-not-on-ld-imm64 rel-symbol-out-of-range \
		    map-symbol-outside-maps map-symbol-between-definitions \
		    maps-size-fits-no-definition license-unterminated class-32 \
		    big-endian machine-x86-64 second-symbol-table rel-symbol-zero \
		    rel-second-section-for-one-program rel-one-past-the-last-map; do
		[[ -f $T/bad/sockex1/$want ]] || fail "no $want"
	done
	for want in map-symbols-at-one-offset version-size-wrong; do
		[[ -f $T/bad/two_progs/$want ]] || fail "no $want"
	done
	[[ -f $T/bad/many_maps_kern.o && -f $T/bad/many_progs_kern.o && -f $T/bad/huge.o ]]
'

step "every generated file has its expected refusal" '
	for f in "$T"/bad/*/*; do
		[[ -n ${want[$f]:-} ]] || fail "no expected refusal for $f"
	done
	(($(wc -l < "$T/sockex1.want") > 150))
'

files=()
for f in "$T"/bad/*/* "$T"/bad/*.o "$TOP"/fuzz/regression/*; do
	[[ -f $f && ${f##*/} != README* ]] && files+=("$f")
done

# Each file gets its own pin path, so parallel runs cannot meet; a few run
# at a time (under QEMU's TCG one exec costs ~100 ms).
jobs=$(($(nproc) * 2))
mkdir "$T/r"
# Each job writes its own exit status: 'wait -n -p pid' left pid unset now
# and then when a child was killed by a signal, and the report of which
# file crashed was lost with it.
running=0
for i in "${!files[@]}"; do
	{
		"${FDS_RUN[@]}" -F "$FS/p$i" -P -p -o "${files[i]}"
		echo "$?" > "$T/r/$i.rc"
	} > "$T/r/$i.out" 2> "$T/r/$i.err" &
	running=$((running + 1))
	if ((running >= jobs)); then
		wait -n || true
		running=$((running - 1))
	fi
done
wait

# Checked with builtins only: each file, one step.
for i in "${!files[@]}"; do
	problems=()
	read -r rc < "$T/r/$i.rc" || rc="none (no status written)"
	mapfile -t out < "$T/r/$i.out"
	mapfile -t err < "$T/r/$i.err"
	[[ $rc == 1 ]] || problems+=("exit status $rc, expected 1")
	errno_text="Exec format error"
	[[ ${files[i]} == "$T/bad/huge.o" ]] && errno_text="File too large"
	[[ ${#out[@]} == 1 && ${out[0]} == "bpf: prog fd:-1 ($errno_text)" ]] ||
		problems+=("stdout: ${out[*]}")
	# one line: the object and the reason
	prefix="fds_example: cannot load the program from ${files[i]}: "
	if ((${#err[@]} != 1)); then
		problems+=("${#err[@]} lines on stderr, expected 1")
	elif [[ -n ${want[${files[i]}]:-} ]]; then
		[[ ${err[0]} == "$prefix${want[${files[i]}]}" ]] ||
			problems+=("expected: $prefix${want[${files[i]}]}")
	else
		[[ ${err[0]} == "$prefix"?* ]] || problems+=("no reason given")
	fi
	[[ ! -e $FS/p$i ]] || problems+=("something was pinned")
	((${#problems[@]})) && problems+=("${err[@]}")
	report_step "rejected: ${files[i]#"$T/bad/"}" "${problems[@]}"
done

step "the bpffs holds no pin after all of them" '
	left=$(cd "$FS" && ls -A | grep -vx -e maps.debug -e progs.debug || true)
	[[ -z $left ]] || fail "left behind: $left"
'
scenario_end
