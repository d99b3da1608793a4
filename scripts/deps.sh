#!/usr/bin/env bash
# The Debian packages a make target needs, by group (data/packages).
#   deps.sh GROUP...            exit 1 naming the missing ones, if any
#   deps.sh --install GROUP...  install the missing ones (root; make deps)
# Groups: build, check, docs, vm, fuzz, bench, valgrind, lava, coverage, and one per architecture. Builds and tests
# only verify: installing is `make deps`, which people and CI call.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
install=0
if [[ ${1:-} == --install ]]; then
	install=1
	shift
fi

declare -A group=()
while IFS=: read -r name pkgs; do
	[[ -z $name || $name == \#* ]] && continue
	group[$name]=$pkgs
done < "$top/data/packages"

want=()
for g in "$@"; do
	if [[ -z ${group[$g]+x} ]]; then
		echo "deps.sh: unknown group '$g' (known: ${!group[*]})" >&2
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
if ((${#missing[@]} == 0)); then
	# make deps says so; a target's check stays quiet
	((install)) && echo "deps.sh: all ${#want[@]} packages of $* are installed"
	exit 0
fi

if ((!install)); then
	echo "Missing Debian packages: ${missing[*]}" >&2
	echo "Install them with:  make deps DEPS=\"$*\"   (as root)" >&2
	exit 1
fi
if ((EUID != 0)); then
	echo "deps.sh: installing needs root:  apt-get install ${missing[*]}" >&2
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
