#!/usr/bin/env bash
# Makes sure the Debian packages a make target needs are installed: installs
# the missing ones when run as root, otherwise says which ones to install.
# Usage: deps.sh GROUP...   (build, check, vm, fuzz, bench, docs)
set -euo pipefail

declare -A group=(
	[build]="make gcc libc6-dev clang llvm libelf-dev zlib1g-dev linux-libc-dev"
	[check]="bpftool util-linux xz-utils procps mandoc man-db iproute2 shellcheck perl graphviz strace"
	[docs]="graphviz bpftool strace iproute2"
	[vm]="qemu-system-x86 busybox-static cpio"
	[fuzz]="libclang-rt-14-dev"
	[bench]="hyperfine"
	[valgrind]="valgrind"
)

want=()
for g in "$@"; do
	if [[ -z ${group[$g]+x} ]]; then
		echo "deps.sh: unknown group '$g'" >&2
		exit 2
	fi
	read -ra pkgs <<< "${group[$g]}"
	want+=("${pkgs[@]}")
done

missing=()
for p in "${want[@]}"; do
	status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[[ $status == installed ]] || missing+=("$p")
done
((${#missing[@]} == 0)) && exit 0

if ((EUID != 0)); then
	echo "Missing Debian packages: ${missing[*]}" >&2
	echo "Install them as root:  apt-get install ${missing[*]}" >&2
	exit 1
fi

echo "deps.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# An old or empty package list finds nothing; refresh it once per hour at most.
stamp=/var/lib/apt/periodic/fds-example-update
if [[ ! -e $stamp || -n $(find "$stamp" -mmin +60 2>/dev/null) ]] ||
   ! apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then
	apt-get update -qq
	mkdir -p "$(dirname "$stamp")" && touch "$stamp"
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
