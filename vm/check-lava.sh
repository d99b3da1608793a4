#!/usr/bin/env bash
# make check-lava: a real LAVA job, offline, on this machine. lava-run
# (Debian's lava-dispatcher) boots one kernel of the matrix under QEMU with
# the project's initramfs, on a device the project describes
# (vm/lava/device.yaml.in), and runs the job's inline test definition
# (vm/lava/job.yaml.in): the installed kselftest tree in /kselftest,
# through the kernel's run_kselftest.sh, each KTAP case reported as a LAVA
# test case. Then every case of make check-vm's run of the same kernel
# must be a LAVA test case with the same verdict, and no other.
#   LAVA_KERNEL=6.1   the matrix kernel (a label of data/kernels)
# LAVA's overlay (its test scripts) reaches the guest over a serial port
# (vm/lava/overlay-server.py): the guest has no network, 5.10 and 6.1 no
# virtio. Ends with "N passed, N failed, N skipped" over LAVA's cases.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${CACHE:-$top/.cache}
build=$top/build/lava
label=${LAVA_KERNEL:-6.1}
job_id=fds-$$
mkdir -p "$build"

say() { printf 'check-lava: %s\n' "$*"; }
die() { say "$*"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }

[[ $(id -u) == 0 ]] || die "lava-run runs as root only"
kernel=$("$top/vm/fetch-kernels.sh" "$cache" | awk -v l="$label" '$1 == l { print $2 }')
[[ -n $kernel && -r $kernel ]] || die "no kernel $label (data/kernels)"

# check-vm's verdicts for this kernel, to compare LAVA's with: from the
# last check-vm run, or a run of this kernel now.
want=$top/build/results/$label/cases
if [[ ! -f $want ]]; then
	say "no check-vm results for $label: running make check-vm KERNELS=$label first"
	KERNELS=$label VM_SELFTEST=0 QUIET_VM=1 "$top/vm/check-vm.sh" > "$build/check-vm.log" 2>&1 ||
		die "check-vm failed on $label (see ${build#"$top"/}/check-vm.log)"
fi

# lava_initramfs OUT: check-vm's initramfs, and appended to it (the kernel
# unpacks one cpio archive after the other) the guest's side of the job:
# the overlay's fetch, the cases' report, and busybox's date for LAVA's
# test runner; and, as check-vm does, the kernel's modules for tc that
# vm/fetch-kernels.sh left beside it, in /lib/fds-modules (vm/init loads them).
lava_initramfs()
{
	local extra mods
	"$top/vm/mkinitramfs.sh" "$1" || return 1
	extra=$(mktemp -d) || return 1
	# the archive's "." becomes the guest's /: mktemp's 0700 would shut
	# every user but root out (hints.sh's "another user" went red)
	chmod 0755 "$extra"
	mkdir -p "$extra/usr/local/bin"
	install -m 0755 "$top/vm/lava/fds-lava-fetch" "$top/vm/lava/fds-lava-cases" \
		"$extra/usr/local/bin/"
	ln -s /bin/busybox "$extra/usr/local/bin/date"
	mods=$(dirname "$kernel")/modules
	if [[ -f $mods/order ]]; then
		mkdir -p "$extra/lib/fds-modules"
		cp "$mods"/* "$extra/lib/fds-modules/"
	fi
	(cd "$extra" && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) >> "$1"
	rm -rf "$extra"
}

# render IN OUT NAME=VALUE...: IN with each @NAME@ replaced.
render()
{
	local in=$1 out=$2 text kv
	shift 2
	text=$(<"$in")
	for kv in "$@"; do
		text=${text//@${kv%%=*}@/${kv#*=}}
	done
	printf '%s\n' "$text" > "$out"
}

initrd=$build/initramfs.cpio
lava_initramfs "$initrd" || die "cannot build the initramfs"
sock=$build/overlay.sock
render "$top/vm/lava/device.yaml.in" "$build/device.yaml" "OVERLAY_SOCK=$sock"
render "$top/vm/lava/job.yaml.in" "$build/job.yaml" "KERNEL=$kernel" "INITRD=$initrd" \
	"APPEND=console=ttyS0 panic=-1 oops=panic loglevel=3 quiet FDS_LAVA=1" "CI=${CI:-}"
# The overlay's URL names this address; nothing connects to it.
echo "dispatcher_ip: 127.0.0.1" > "$build/dispatcher.yaml"

"$top/vm/lava/overlay-server.py" "$sock" > "$build/overlay-server.log" 2>&1 &
server=$!
for _ in $(seq 50); do
	grep -q listening "$build/overlay-server.log" && break
	sleep 0.1
done
say "lava-run: job $job_id, kernel $label ($kernel)"
start=$EPOCHREALTIME
rm -rf "$build/out"
lava-run --job-id "$job_id" --output-dir "$build/out" --device "$build/device.yaml" \
	--dispatcher "$build/dispatcher.yaml" "$build/job.yaml" > "$build/lava.log" 2>&1
rc=$?
kill "$server" 2> /dev/null
wait "$server" 2> /dev/null
say "lava-run exited $rc after $(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')s (log: ${build#"$top"/}/lava.log)"
"$top/vm/lava/compare.py" "$build/lava.log" "$top/build/results/$label/cases" "$label"
status=$?
((rc == 0 && status == 0))
