#!/usr/bin/env bash
# The kernel matrix: what each kernel's test run recorded (matrix_record in
# tests/lib.sh and tests/bpffs_fixture.h, one "ROW<TAB>VALUE" per line),
# printed as a table rows x kernels and compared with, or written to,
# docs/kernel-matrix.md.
#   matrix.sh check  COLUMN=FILE...   print; fail on any difference from the doc
#   matrix.sh update COLUMN=FILE...   print; rewrite the doc's columns
# COLUMN is "host" (this machine, natively) or a kernel label such as 5.10.
# A FILE.release beside FILE, if any, names the kernel release for the doc.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
doc=${MATRIX_DOC:-$top/docs/kernel-matrix.md}
mode=${1:-}
shift || true
if [[ $mode != check && $mode != update ]] || (($# == 0)); then
	echo "usage: matrix.sh check|update COLUMN=FILE..." >&2
	exit 2
fi

declare -A cell=() explain=() release=() known_row=() doc_col=()
cols=() rows=() problems=()
host_series=$(uname -r | sed -E 's/^([0-9]+\.[0-9]+).*/\1/')
doc_host_series=

# --- the committed doc -----------------------------------------------------
# Reads the row explanations, the table and the kernel releases back.
read_doc()
{
	local line section='' i label c hdr=() cells=() row
	[[ -f $doc ]] || return 0
	while IFS= read -r line; do
		case $line in
		"## "*) section=${line#\#\# }; continue ;;
		esac
		case $section in
		Rows)
			if [[ $line =~ ^-\ \`([^\`]+)\`:\ (.*)$ ]]; then
				explain[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
			fi ;;
		Matrix)
			[[ $line == "|"* ]] || continue
			IFS='|' read -ra cells <<< "${line#|}"
			for i in "${!cells[@]}"; do
				c=${cells[i]}
				c=${c#"${c%%[! ]*}"}
				cells[i]=${c%"${c##*[! ]}"}
			done
			if ((${#hdr[@]} == 0)); then
				hdr=("${cells[@]}")
				for ((i = 1; i < ${#hdr[@]}; i++)); do
					label=${hdr[i]}
					if [[ $label == "host "* ]]; then
						doc_host_series=${label#host }
						label=host
						hdr[i]=host
					fi
					cols+=("$label")
					doc_col[$label]=1
				done
			elif [[ ${cells[0]} != -* ]]; then
				row=${cells[0]}
				row=${row//\`/}
				rows+=("$row")
				known_row[$row]=1
				for ((i = 1; i < ${#hdr[@]}; i++)); do
					cell[$row,${hdr[i]}]=${cells[i]:--}
				done
			fi ;;
		Kernels)
			if [[ $line =~ ^-\ \`([^\`]+)\`:\ (.*)$ ]]; then
				release[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
			fi ;;
		esac
	done < "$doc"
}
read_doc

# --- what this run observed -------------------------------------------------
declare -A seen=() obs_row=() run_col=()
run_cols=()
for arg in "$@"; do
	col=${arg%%=*} file=${arg#*=}
	if [[ $arg != *=* || -z $col || ! -r $file ]]; then
		echo "matrix.sh: '$arg' is not COLUMN=READABLE-FILE" >&2
		exit 2
	fi
	run_cols+=("$col")
	run_col[$col]=1
	while IFS=$'\t' read -r row value; do
		[[ -n $row ]] || continue
		if [[ ! $row =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ || -z $value || $value == *[\|\`]* ]]; then
			problems+=("kernel $col: unusable row '$row' = '$value' (a row is [A-Za-z0-9._-], a value has no | or \`)")
			continue
		fi
		if [[ -n ${seen[$row,$col]+x} && ${seen[$row,$col]} != "$value" ]]; then
			problems+=("row $row, kernel $col: recorded both ${seen[$row,$col]} and $value in one run")
			continue
		fi
		seen[$row,$col]=$value
		obs_row[$row]=1
	done < "$file"
	# (the host's full release is left out: it would churn the doc)
	if [[ -f ${file%.tsv}.release ]]; then
		release[$col]=$(<"${file%.tsv}.release")
	fi
done

# --- compare ---------------------------------------------------------------
compared=0
for col in "${run_cols[@]}"; do
	if [[ -z ${doc_col[$col]+x} ]]; then
		echo "matrix: kernel $col has no column in ${doc#"$top"/}; not compared"
		continue
	fi
	if [[ $col == host && $doc_host_series != "$host_series" ]]; then
		echo "matrix: the host runs $host_series, the doc's host column is $doc_host_series; not compared"
		continue
	fi
	compared=$((compared + 1))
	for row in "${!obs_row[@]}"; do
		[[ -n ${seen[$row,$col]+x} ]] || continue
		if [[ -z ${known_row[$row]+x} ]]; then
			problems+=("new row $row (kernel $col: ${seen[$row,$col]}), not in ${doc#"$top"/}")
		elif [[ ${cell[$row,$col]:--} != "${seen[$row,$col]}" ]]; then
			problems+=("row $row, kernel $col: observed ${seen[$row,$col]}, committed ${cell[$row,$col]:--}")
		fi
	done
	for row in "${rows[@]}"; do
		if [[ ${cell[$row,$col]:--} != - && -z ${seen[$row,$col]+x} ]]; then
			problems+=("row $row, kernel $col: committed ${cell[$row,$col]}, not observed")
		fi
	done
done

# --- the merged table --------------------------------------------------------
# This run's columns replace the doc's; rows observed nowhere are dropped.
for col in "${run_cols[@]}"; do
	[[ -n ${doc_col[$col]+x} ]] || { cols+=("$col"); doc_col[$col]=1; }
	for row in "${rows[@]}" "${!obs_row[@]}"; do
		cell[$row,$col]=${seen[$row,$col]:--}
	done
done
for row in "${!obs_row[@]}"; do
	[[ -n ${known_row[$row]+x} ]] || { rows+=("$row"); known_row[$row]=1; }
done
mapfile -t rows < <(printf '%s\n' "${rows[@]}" | LC_ALL=C sort -u)
# host first, then the default matrix in order, then any other kernel
mapfile -t cols < <(printf '%s\n' "${cols[@]}" | awk '
	BEGIN { split("host 5.10 6.1 6.12 sid", o, " "); for (i in o) rank[o[i]] = i }
	{ print ($1 in rank ? rank[$1] : 99) "\t" $1 }' | sort -t $'\t' -k1,1n -k2,2V | cut -f2)
kept=()
for row in "${rows[@]}"; do
	for col in "${cols[@]}"; do
		if [[ ${cell[$row,$col]:--} != - ]]; then
			kept+=("$row")
			break
		fi
	done
done
rows=("${kept[@]}")

header()
{
	if [[ $1 == host ]]; then
		if [[ -n ${run_col[host]+x} ]]; then
			echo "host $host_series"
		else
			echo "host $doc_host_series"
		fi
	else
		echo "$1"
	fi
}

# table: the markdown table, columns padded so it reads as plain text too
table()
{
	local w0=3 w=() i col row line sep v
	for row in "${rows[@]}"; do
		((${#row} + 2 > w0)) && w0=$((${#row} + 2))
	done
	for i in "${!cols[@]}"; do
		v=$(header "${cols[i]}")
		w[i]=${#v}
		for row in "${rows[@]}"; do
			v=${cell[$row,${cols[i]}]:--}
			((${#v} > w[i])) && w[i]=${#v}
		done
	done
	printf -v line '| %-*s |' "$w0" row
	printf -v sep '|-%s-|' "$(printf '%*s' "$w0" '' | tr ' ' -)"
	for i in "${!cols[@]}"; do
		printf -v line '%s %-*s |' "$line" "${w[i]}" "$(header "${cols[i]}")"
		printf -v sep '%s-%s-|' "$sep" "$(printf '%*s' "${w[i]}" '' | tr ' ' -)"
	done
	echo "$line"
	echo "$sep"
	for row in "${rows[@]}"; do
		printf -v line '| %-*s |' "$w0" "\`$row\`"
		for i in "${!cols[@]}"; do
			printf -v line '%s %-*s |' "$line" "${w[i]}" "${cell[$row,${cols[i]}]:--}"
		done
		echo "$line"
	done
}

write_doc()
{
	local row col
	cat <<'INTRO'
# Kernel matrix

How each kernel behaves wherever kernels may differ: one row per behaviour,
one column per kernel. `host` is the machine that last ran `make check` (its
kernel series in the header); the other columns are the Debian kernels that
`make check-vm` boots. A cell is the value the tests recorded on that kernel
with `matrix_record` (an errno name, yes/no, a count); `-` means the row is
not recorded there.

This file is generated by `scripts/matrix.sh` and is also the expectation:
`make check` (host column, when the host's series matches) and `make
check-vm` fail, naming row and kernel, when an observation differs from its
cell, when a row is new, or when a committed row is no longer observed. After
a deliberate change run `make matrix-update` (or `MATRIX_UPDATE=1 make
check-vm`) and commit the result. The explanations below survive updates;
write one for each new row.

## Rows

INTRO
	for row in "${rows[@]}"; do
		echo "- \`$row\`: ${explain[$row]:-(no explanation yet)}"
	done
	echo
	echo "## Matrix"
	echo
	table
	echo
	echo "## Kernels"
	echo
	for col in "${cols[@]}"; do
		if [[ -n ${release[$col]:-} ]]; then
			echo "- \`$col\`: ${release[$col]}"
		fi
	done
}

table
if ((${#problems[@]})); then
	echo
	[[ $mode == check ]] && what=FAIL || what=changed
	printf "matrix: $what: %s\n" "${problems[@]}"
fi
if [[ $mode == update ]]; then
	write_doc > "$doc.tmp" && mv "$doc.tmp" "$doc" || exit 1
	echo "matrix: wrote ${doc#"$top"/}"
	# a row recorded twice with different values is a test bug, not a cell
	for p in "${problems[@]}"; do
		[[ $p == *"recorded both"* || $p == *unusable* ]] && exit 1
	done
	exit 0
fi
((${#problems[@]} == 0)) || {
	echo "matrix: ${#problems[@]} difference(s) from ${doc#"$top"/}; if intended: make matrix-update"
	exit 1
}
if ((compared)); then
	echo "matrix: as committed in ${doc#"$top"/}"
else
	echo "matrix: no column of this run is in ${doc#"$top"/}; nothing compared"
fi
