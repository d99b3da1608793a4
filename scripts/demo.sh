#!/usr/bin/env bash
# make demo: the 2015 commit message's session, replayed. Without an argument
# it mounts a private bpffs in a mount namespace of its own, which vanishes
# with it; with BPFFS=DIR it uses that bpffs and removes only its own pins.
# It prints the session as the documents do: root's "# " prompt, $FS set
# first.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
pins=(m m2 p p2)

if ((EUID != 0)); then
	echo "make demo: pinning BPF objects needs root (CAP_BPF, CAP_SYS_ADMIN)" >&2
	exit 1
fi

if [[ $# -eq 0 ]]; then
	if [[ -z ${FDS_DEMO_NS:-} ]]; then
		FDS_DEMO_NS=1 exec unshare --mount --propagation private "$0"
	fi
	fs=$(mktemp -d /tmp/fds-demo.XXXXXX) || exit 1
	trap 'umount "$fs"; rmdir "$fs"' EXIT
	mount -t bpf bpf "$fs" || exit 1
	echo "A private bpffs, mounted for this demo only:"
else
	fs=${1%/}
	if [[ $(stat -f -c %T "$fs" 2>/dev/null) != bpf_fs ]]; then
		echo "make demo: $fs is not a mounted bpffs" >&2
		exit 1
	fi
	for p in "${pins[@]}"; do
		if [[ -e $fs/$p ]]; then
			echo "make demo: $fs/$p exists; the demo leaves existing pins alone" >&2
			exit 1
		fi
	done
	trap 'for p in "${pins[@]}"; do rm -f "$fs/$p"; done' EXIT
	echo "The bpffs at $fs; the demo's pins are removed at the end:"
fi

echo "# FS=$fs"
"$top/scripts/transcript.sh" "$fs" | sed "s|$fs|\$FS|g; s|^\\\$ fds_example|# ./fds_example|"
exit "${PIPESTATUS[0]}"
