# shellcheck shell=bash
# Sourced by vm/check-vm.sh: how a guest's end is judged, apart from the
# booting so that make check tests it natively (tests/scenarios/vm_verdict.sh,
# on made-up results). Its functions:
#   events_file NAME      where the guest's events land
#   unpack_results NAME DIR   the guest's results archive, unpacked
#   verdict NAME QEMU_RC LIMIT DIR   the one line saying how it ended
#   merge_shards LABEL    a kernel's results put together from its guests'
# They read the caller's variables:
#   build         build/vm: each guest's NAME.results (the archive, or on
#                 a shared port events and archive), NAME.events, NAME.qemu,
#                 NAME.log, NAME.killed, NAME.verdict, NAME.span, NAME.boot,
#                 NAME.ktap-check
#   results       build/results: each kernel's LABEL/ and its shard-K/
#   shards        guests per kernel (merge_shards)
#   results_port, events_port   the guest's ports (data/arches): one port
#                 for both carries the events, then "results" and the archive
# and define nothing else; no command runs when the file is sourced.
# shellcheck disable=SC2154 # build, results, shards and the ports: the caller's

# events_file NAME: where the guest's events land; the results archive's
# file when the architecture has one port for both.
events_file()
{
	if [[ $events_port == "$results_port" ]]; then
		echo "$build/$1.results"
	else
		echo "$build/$1.events"
	fi
}

# unpack_results NAME DIR: the guest's results archive into DIR (replaced);
# fails when there is none or it is cut short.
unpack_results()
{
	local tmp=$2.new archive=$build/$1.results at
	rm -rf "$2" "$tmp"
	[[ -s $archive ]] || return 1
	# On a port shared with the events, the archive follows "results".
	if [[ $events_port == "$results_port" ]]; then
		at=$(grep -a -b -m 1 -x results "$archive") || return 1
		tail -c +$((${at%%:*} + 9)) "$archive" > "$build/$1.tar"
		archive=$build/$1.tar
	fi
	if ! mkdir -p "$tmp" || ! tar -x -f "$archive" -C "$tmp" 2> /dev/null ||
	   [[ ! -f $tmp/results/exit ]]; then
		rm -rf "$tmp"
		return 1
	fi
	mv "$tmp/results" "$2" && rmdir "$tmp"
}

# verdict NAME QEMU_RC LIMIT DIR: one line saying how the guest ended,
# decided by its results in DIR (unpacked) and its events. Where it left
# none, the console's last panic line, if any, is quoted for people.
verdict()
{
	local name=$1 rc=$2 limit=$3 dir=$4 started=0 panic
	grep -aqx "suite start" "$(events_file "$name")" && started=1
	if [[ -f $dir/missing ]]; then
		echo "FAIL: the kernel lacks $(<"$dir/missing")"
		return
	elif [[ -f $dir/exit ]]; then
		(($(<"$dir/exit") == 0)) && echo "PASS" ||
			echo "FAIL: the suite failed in the guest (exit $(<"$dir/exit"))"
		return
	elif grep -q "KVM internal error" "$build/$name.qemu"; then
		echo "FAIL: KVM internal error (try ACCEL=tcg)"
		return
	elif [[ -f $build/$name.killed ]]; then
		echo "FAIL: guest hung in the suite; killed $(<"$build/$name.killed")s after it started"
		return
	elif ((rc == 124 || rc == 137)); then
		((started)) && echo "FAIL: guest hung in the suite; killed after ${limit}s" ||
			echo "FAIL: boot never reached the suite; killed after ${limit}s"
		return
	fi
	panic=$(grep -m1 -o 'Kernel panic.*' "$build/$name.log")
	if ((started)); then
		echo "FAIL: the guest stopped in the middle of the suite (qemu exit $rc)${panic:+; console: $panic}"
	else
		echo "FAIL: boot never reached the suite (qemu exit $rc)${panic:+; console: $panic}"
	fi
}

# merge_shards LABEL: the kernel's results from its guests' (run_kernel
# LABEL ... K/N): build/results/LABEL gets counts added up, failures,
# cases and matrix.tsv one shard after the other, kernel, and exit (a
# failing shard's, when every shard left one); build/vm/LABEL gets
# the verdict (PASS when every shard passed), seconds from the first
# shard's start to the last one's end, shard 1's boot and the KTAP
# complaints.
merge_shards()
{
	local label=$1 dir=$results/$1 s name sd p f k a b v pass=0 fail=0 skip=0 exits=0
	local verdict=PASS first=0 last=0
	rm -f "$dir"/{counts,failures,cases,matrix.tsv,kernel,exit,missing} \
		"$build/$label".{verdict,total,boot,ktap-check}
	mkdir -p "$dir"
	: > "$dir/failures" && : > "$dir/cases" && : > "$dir/matrix.tsv"
	for ((s = 1; s <= shards; s++)); do
		name=$label-shard$s sd=$dir/shard-$s
		v=$(cat "$build/$name.verdict" 2> /dev/null || echo "FAIL: no verdict")
		[[ $v == PASS || $verdict != PASS ]] || verdict="FAIL: shard $s of $shards: ${v#FAIL: }"
		if [[ -f $sd/counts ]]; then
			read -r p f k < "$sd/counts"
			pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + k))
		fi
		for f in failures cases matrix.tsv; do
			[[ -f $sd/$f ]] && cat "$sd/$f" >> "$dir/$f"
		done
		[[ -f $sd/kernel && ! -f $dir/kernel ]] && cp "$sd/kernel" "$dir/kernel"
		[[ -f $sd/missing && ! -f $dir/missing ]] && cp "$sd/missing" "$dir/missing"
		if [[ -f $sd/exit ]]; then
			exits=$((exits + 1))
			[[ $(<"$sd/exit") == 0 && -f $dir/exit ]] || cp "$sd/exit" "$dir/exit"
		fi
		[[ -f $build/$name.ktap-check ]] && cat "$build/$name.ktap-check" >> "$build/$label.ktap-check"
		((s == 1)) && [[ -f $build/$name.boot ]] && cp "$build/$name.boot" "$build/$label.boot"
		if [[ -f $build/$name.span ]]; then
			read -r a b < "$build/$name.span"
			((first == 0 || a < first)) && first=$a
			((b > last)) && last=$b
		fi
	done
	((exits == shards)) || rm -f "$dir/exit"
	echo "$pass $fail $skip" > "$dir/counts"
	echo "$verdict" > "$build/$label.verdict"
	if ((first)); then
		printf '%d.%d\n' $(((last - first) / 1000000)) $(((last - first) / 100000 % 10)) \
			> "$build/$label.total"
	else
		echo - > "$build/$label.total"
	fi
}
