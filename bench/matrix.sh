# shellcheck shell=bash
# What bench/vm.sh and bench/guests.sh share, sourced from the top of the
# tree: one run of make check-vm's default matrix, read once, and where
# each guest's time went.

# matrix_run LOG [VAR=VALUE...]: vm/check-vm.sh with those settings
# (quiet; BENCH_KERNELS, if set, as KERNELS), its output in LOG; returns
# its exit status. Then, from build/vm/summary.tsv: M_LABELS, the guests
# in order; M_BOOT[LABEL], seconds to the suite's start; M_TOTAL[LABEL],
# seconds to the verdict; M_VERDICT[LABEL]; and M_TOTAL[whole], the run's
# wall time, M_VERDICT[whole] how many guests ran at once. No summary
# (check-vm stopped before one): M_LABELS empty, status 2 if it was 0.
declare -a M_LABELS=()
declare -A M_BOOT=() M_TOTAL=() M_VERDICT=()
matrix_run()
{
	local log=$1 rc=0 label boot total verdict
	shift
	M_LABELS=() M_BOOT=() M_TOTAL=() M_VERDICT=()
	rm -f build/vm/summary.tsv
	env QUIET_VM=1 ${BENCH_KERNELS:+KERNELS=$BENCH_KERNELS} "$@" vm/check-vm.sh > "$log" 2>&1 || rc=$?
	[[ -f build/vm/summary.tsv ]] || return $((rc ? rc : 2))
	while IFS=$'\t' read -r label _ boot total verdict; do
		[[ $label == whole ]] || M_LABELS+=("$label")
		# shellcheck disable=SC2034 # read by the scripts that source this file
		M_BOOT[$label]=$boot M_TOTAL[$label]=$total M_VERDICT[$label]=$verdict
	done < build/vm/summary.tsv
	return "$rc"
}

# time_split LABEL: where guest LABEL's seconds went, a line per guest
# (LABEL, or each of its shards LABEL-shardK): to the first test and from
# the last one to the verdict (the runner reading its results, the archive
# over a serial port, off) from build/vm/NAME.times (check-vm's host-side
# times of the console's "selftests: fds_example:" lines and "FDS-VM:
# exit"); the tests' own seconds, added up, and the three longest, from
# its KTAP (tests/run.sh's "# TEST: N.Ns" lines).
time_split()
{
	local name res total
	if [[ ! -s build/vm/$1-shard1.times ]]; then
		split_one "$1" "build/results/$1" "${M_TOTAL[$1]:-}"
		return 0
	fi
	for res in build/results/"$1"/shard-*; do
		name=$1-shard${res##*-}
		total=$(cat "build/vm/$name.total" 2> /dev/null)
		split_one "$name" "$res" "$total"
	done
}

# split_one NAME RESULTS TOTAL: time_split's line for one guest.
split_one()
{
	local times=build/vm/$1.times
	[[ -s $times ]] || { echo "$1: no $times"; return 0; }
	awk -F'\t' -v label="$1" -v total="$3" '
	FILENAME != ARGV[1] && /^  # [^ ]+: [0-9]+\.[0-9]s$/ {
		n = $0; sub(/^  # /, "", n); sub(/: .*/, "", n)
		d = $0; sub(/.*: /, "", d); sub(/s$/, "", d)
		tests += d; dur[n] = d; next }
	FILENAME != ARGV[1] { next }
	$2 ~ /^# selftests: fds_example: / { if (first == "") first = $1 }
	$2 ~ /^(not )?ok [0-9]+ selftests: fds_example: / { last = $1 }
	END {
		if (first == "") { printf "%s: no test started\n", label; exit }
		top = ""
		for (k = 0; k < 3; k++) {
			best = ""
			for (n in dur) if (best == "" || dur[n] + 0 > dur[best] + 0) best = n
			if (best == "") break
			top = top sprintf("%s%s %.1f", k ? ", " : "", best, dur[best]); delete dur[best]
		}
		printf "%s: %.1f s to the first test, %.1f s in tests (longest: %s), %s s after the last\n",
			label, first, tests, top, total == "" ? "?" : sprintf("%.1f", total - last)
	}' "$times" "$2/ktap"
}
