#!/usr/bin/env bash
# fds_example -P -p -o on malformed objects: each generated corruption of
# sockex1_kern.o, two_progs_kern.o and tc_legacy(36)_kern.o, the too-many-maps and too-many-programs
# objects and every file of the fuzzers' regression corpus must exit 1 with a
# message saying what is wrong, and pin nothing. For all but the corpus the
# message is the exact one for that defect (mkcorrupt prints each file's;
# the objects clang built for the other byte order are refused as such), so
# deleting one check in the loader turns its file's step red even when a
# later check would still refuse the file. (SANITIZE=1 and VALGRIND=1 runs of
# this scenario add: no leak, no bad read. Under VALGRIND=1 one file in 16
# goes through fds_example under memcheck, and every file through the loader
# under memcheck in one process, tests/bin/helpers/load_refusals: a valgrind
# per file took minutes.)
# kernel-independent: the loader refuses each file before any bpf() call
# (strace -e trace=bpf over all 949 files, 2026-12-05: none)
. "$(dirname "$0")/../lib.sh"
scenario_begin

MKCORRUPT=$TOP/tests/bin/mkcorrupt
# A pinned map of a file let through by mistake lands in this bpffs.
export TC_BPF_MNT=$FS

# make_bad: the malformed files in $T/bad, and $T/files, one line each:
# "PATH<TAB>REFUSAL", the refusal the file must get (empty for the fuzzers'
# corpus, whose files are refused for any reason).
make_bad()
{
	local set name msg f
	mkdir -p "$T/bad/sockex1" "$T/bad/two_progs" "$T/bad/tc_legacy" "$T/bad/tc_legacy36"
	"$MKCORRUPT" "$SOCKEX1" "$T/bad/sockex1" > "$T/sockex1.want"
	"$MKCORRUPT" tests/bin/two_progs_kern.o "$T/bad/two_progs" > "$T/two_progs.want"
	# iproute2's bpf_elf_map, 28 and 36 bytes: pinning's own refusals too
	"$MKCORRUPT" tests/bin/tc_legacy_kern.o "$T/bad/tc_legacy" > "$T/tc_legacy.want"
	"$MKCORRUPT" tests/bin/tc_legacy36_kern.o "$T/bad/tc_legacy36" > "$T/tc_legacy36.want"
	cp tests/bin/many_maps_kern.o tests/bin/many_progs_kern.o "$T/bad/"
	# A sparse file past the loader's 64 MiB limit: refused before it is read.
	truncate -s 65M "$T/bad/huge.o"
	# sockex1 and every test object as clang builds them for the other byte
	# order (-target bpfeb here, bpfel on a big-endian machine).
	mkdir -p "$T/bad/other-order"
	cp tests/bin/other-order/*.o "$T/bad/other-order/"
	order=little
	((BIG_ENDIAN)) && order=big
	{
		printf '%s\t%s\n' "$T/bad/many_maps_kern.o" "33 maps, at most 32" \
			"$T/bad/many_progs_kern.o" "more than 32 programs" \
			"$T/bad/huge.o" "larger than 64 MiB, not a BPF object"
		for set in sockex1 two_progs tc_legacy tc_legacy36; do
			while IFS=$'\t' read -r name msg; do
				printf '%s\t%s\n' "$T/bad/$set/$name" "$msg"
			done < "$T/$set.want"
		done
		for f in "$T"/bad/other-order/*.o; do
			printf '%s\t%s\n' "$f" "not $order-endian like this machine"
		done
		for f in "$TOP"/fuzz/regression/*; do
			if [[ -f $f && ${f##*/} != README* ]]; then
				printf '%s\t\n' "$f"
			fi
		done
	} > "$T/files"
}

# refuse_all: fds_example -P -p -o on each file, a few at a time (under
# QEMU's TCG one exec costs ~100 ms), each with its own pin path so that
# runs cannot meet; exit status, stdout and stderr in $T/r/I.*. Under
# VALGRIND=1, one file in 16 under memcheck.
refuse_all()
{
	local jobs=$(($(nproc) * 2)) running=0 i=0 path msg rc run
	mkdir "$T/r"
	while IFS=$'\t' read -r path msg; do
		run=("$FDS_EXAMPLE")
		((i % 16)) || run=("${FDS_RUN[@]}")
		# Each job writes its own exit status: 'wait -n -p pid' left pid
		# unset now and then when a child was killed by a signal, and the
		# report of which file crashed was lost with it.
		{
			rc=0
			"${run[@]}" -F "$FS/p$i" -P -p -o "$path" || rc=$?
			echo "$rc" > "$T/r/$i.rc"
		} > "$T/r/$i.out" 2> "$T/r/$i.err" &
		i=$((i + 1)) running=$((running + 1))
		if ((running >= jobs)); then
			wait -n || true
			running=$((running - 1))
		fi
	done < "$T/files"
	wait
}

# refused I PATH REFUSAL: whether file I was refused as it must be, and
# pinned nothing: one line per problem in $T/r/I.findings. REFUSAL comes
# after "fds_example: cannot load the program from PATH: ".
refused()
{
	local i=$1 path=$2 msg=$3 rc out err problems=() errno_text prefix
	read -r rc < "$T/r/$i.rc" || rc="none (no status written)"
	mapfile -t out < "$T/r/$i.out"
	mapfile -t err < "$T/r/$i.err"
	[[ $rc == 1 ]] || problems+=("exit status $rc, expected 1")
	errno_text="Exec format error"
	[[ $path == "$T/bad/huge.o" ]] && errno_text="File too large"
	[[ ${#out[@]} == 1 && ${out[0]} == "bpf: prog fd:-1 ($errno_text)" ]] ||
		problems+=("stdout: ${out[*]}")
	# one line: the object and the reason; for the file of another
	# machine, then hints.c's line
	prefix="fds_example: cannot load the program from $path: "
	[[ $path == */machine-x86-64 && ${#err[@]} == 2 &&
	   ${err[1]} == "fds_example: hint: $path is an ELF file for x86-64, not a BPF object: -o wants one compiled with clang -target bpf, like sockex1_kern.o" ]] &&
		err=("${err[0]}")
	if ((${#err[@]} != 1)); then
		problems+=("${#err[@]} lines on stderr, expected 1")
	elif [[ -n $msg ]]; then
		[[ ${err[0]} == "$prefix$msg" ]] || problems+=("expected: $prefix$msg")
	else
		[[ ${err[0]} == "$prefix"?* ]] || problems+=("no reason given")
	fi
	[[ ! -e $FS/p$i ]] || problems+=("something was pinned")
	((${#problems[@]} == 0)) || problems+=("${err[@]}")
	: > "$T/r/$i.findings"
	((${#problems[@]} == 0)) || printf '%s\n' "${problems[@]}" > "$T/r/$i.findings"
}

# refused_all: every file's findings, with builtins only.
refused_all()
{
	local i=0 path msg
	while IFS=$'\t' read -r path msg; do
		refused "$i" "$path" "$msg"
		i=$((i + 1))
	done < "$T/files"
}

# Every item the hardening issue lists is among them; each is loaded.
step "the generated set covers every listed defect" '
	make_bad
	refuse_all
	refused_all
	for want in trunc-0000 trunc-0064 sec3-offset-past-end sec3-size-past-end \
		    shnum-huge shentsize-small shstrndx-out-of-range \
		    rel-offset-past-section rel-not-on-ld-imm64 rel-symbol-out-of-range \
		    map-symbol-outside-maps map-symbol-between-definitions \
		    maps-size-fits-no-definition license-unterminated class-32 \
		    other-byte-order machine-x86-64 second-symbol-table rel-symbol-zero \
		    rel-second-section-for-one-program rel-one-past-the-last-map; do
		[[ -f $T/bad/sockex1/$want ]] || fail "no $want"
	done
	for want in map-symbols-at-one-offset version-size-wrong; do
		[[ -f $T/bad/two_progs/$want ]] || fail "no $want"
	done
	for want in pinning-3 pinning-4294967295 pinned-name-empty pinned-name-slash \
		    pinned-name-dotdot maps-size-between-20-and-28 \
		    maps-size-between-28-and-36 maps-size-past-36; do
		[[ -f $T/bad/tc_legacy/$want ]] || fail "no $want"
	done
	for want in inner-id inner-idx; do
		[[ -f $T/bad/tc_legacy36/$want ]] || fail "no $want"
	done
	[[ -f $T/bad/many_maps_kern.o && -f $T/bad/many_progs_kern.o && -f $T/bad/huge.o ]]
	[[ -f $T/bad/other-order/sockex1_kern.o && -f $T/bad/other-order/two_progs_kern.o ]] ||
		fail "no other-order build of sockex1_kern.o and two_progs_kern.o"
'

step "every generated file has its expected refusal" '
	declare -A known=()
	while IFS=$'"'"'\t'"'"' read -r path msg; do
		[[ -n $msg ]] && known[$path]=1
	done < "$T/files"
	for f in "$T"/bad/*/*; do
		[[ -n ${known[$f]:-} ]] || fail "no expected refusal for $f"
	done
	(($(line_count "$T/sockex1.want") > 150))
'

# The loader alone on every file, in one process: the same refusals (under
# memcheck with VALGRIND=1, where exit 99 is an error or a leak).
step "the loader refuses every file the same way in one process" '
	run=("$TOP/tests/bin/helpers/load_refusals")
	[[ ${VALGRIND:-} == 1 ]] && run=("${MEMCHECK[@]}" "${run[@]}")
	mapfile -t paths < <(cut -f1 "$T/files")
	"${run[@]}" "${paths[@]}" > "$T/one-process" || fail "load_refusals: exit $?"
	declare -A want=()
	while IFS=$'"'"'\t'"'"' read -r path msg; do
		want[$path]=${msg:-any}
	done < "$T/files"
	n=0
	while IFS=$'"'"'\t'"'"' read -r path msg; do
		w=${want[$path]:-}
		[[ -n $w ]] || fail "a file it was not given: $path"
		[[ $msg != loaded && -n $msg ]] || fail "$path: ${msg:-no reason}"
		[[ $w == any || $msg == "$w" ]] || fail "$path: $msg, expected: $w"
		n=$((n + 1))
	done < "$T/one-process"
	((n == ${#paths[@]})) || fail "$n answers for ${#paths[@]} files"
'

# One step per file, reporting what the first step found.
i=0
while IFS=$'\t' read -r path _; do
	step "rejected: ${path#"$T/bad/"}" --findings "$T/r/$i.findings"
	i=$((i + 1))
done < "$T/files"

step "the bpffs holds no pin after all of them" '
	left=$(cd "$FS" && ls -A | grep -vx -e maps.debug -e progs.debug || true)
	[[ -z $left ]] || fail "left behind: $left"
'
scenario_end
