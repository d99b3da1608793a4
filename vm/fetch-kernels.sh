#!/usr/bin/env bash
# Fetches Debian's current 6.1 and 6.12 cloud kernels (apt-get download, no
# root needed) into CACHE/kernels and prints one bzImage path per line.
# Downloads are reused: a kernel already unpacked is not fetched again.
# Usage: fetch-kernels.sh CACHE
set -euo pipefail

cache=${1:?usage: fetch-kernels.sh CACHE}
mkdir -p "$cache/kernels"
cache=$(cd "$cache" && pwd)

# The meta-packages name the newest image of each series.
metas=(linux-image-cloud-amd64 linux-image-6.12-cloud-amd64)

for meta in "${metas[@]}"; do
	# (awk reads to the end: an early exit would SIGPIPE apt-cache and,
	# with pipefail, end this script without a word)
	pkg=$(apt-cache depends "$meta" 2>/dev/null |
	      awk '/Depends: linux-image-[0-9]/ && !found { print $2; found = 1 }') || true
	if [[ -z $pkg ]]; then
		echo "fetch-kernels: cannot resolve $meta (run apt-get update as root)" >&2
		exit 1
	fi
	dir=$cache/kernels/$pkg
	if [[ ! -f $dir/vmlinuz ]]; then
		tmp=$(mktemp -d "$cache/kernels/.fetch.XXXXXX")
		chmod 0777 "$tmp"	# apt-get download as root fetches as _apt
		echo "fetch-kernels: downloading $pkg" >&2
		(cd "$tmp" && apt-get download "$pkg" > /dev/null)
		dpkg-deb -x "$tmp"/*.deb "$tmp/x"
		mkdir -p "$dir"
		cp "$tmp"/x/boot/vmlinuz-* "$dir/vmlinuz"
		cp "$tmp"/x/boot/config-* "$dir/config" 2>/dev/null || true
		rm -rf "$tmp"
	fi
	echo "$dir/vmlinuz"
done
