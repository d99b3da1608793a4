#!/usr/bin/env bash
# Replays the commit message's session (tests/data/transcript.txt) on the bpffs
# at FS, printing it the way the transcript shows it. Each fds_example starts
# with only fds 0-2 open and its stdout into a pipe, as the sample was run.
# Usage: transcript.sh FS [FDS_EXAMPLE]
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
fs=${1:?usage: transcript.sh FS [FDS_EXAMPLE]}
bin=${2:-$top/fds_example}
cd "$top" || exit 1

run_clean()
{
	local fd
	for fd in /proc/"$BASHPID"/fd/*; do
		fd=${fd##*/}
		((fd > 2)) && eval "exec $fd>&-" 2>/dev/null
	done
	exec "$@"
}

status=0
while IFS= read -r line; do
	[[ $line == '$ fds_example '* ]] || continue
	printf '%s\n' "$line"
	read -ra args <<< "${line#'$ fds_example '}"
	args=("${args[@]//\$FS/$fs}")
	(run_clean "$bin" "${args[@]}") | cat
	((PIPESTATUS[0] == 0)) || status=1
done < "$top/tests/data/transcript.txt"
exit $status
