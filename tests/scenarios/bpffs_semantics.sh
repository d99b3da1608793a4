#!/usr/bin/env bash
# bpffs as today's kernels behave, recorded: directories, mv, symlinks, hard
# links, modes, names with dots, one instance per mount, and the errors of pin
# and get. Where this differs from the 2015 article the step says so.
. "$(dirname "$0")/../lib.sh"
scenario_begin

# errno_name MESSAGE: the errno whose strerror() fds_example printed.
errno_name()
{
	case $1 in
	"Operation not permitted") echo EPERM ;;
	"Permission denied") echo EACCES ;;
	"Invalid argument") echo EINVAL ;;
	"File exists") echo EEXIST ;;
	"No such file or directory") echo ENOENT ;;
	"Not a directory") echo ENOTDIR ;;
	"Operation not supported") echo EOPNOTSUPP ;;
	"Function not implemented") echo ENOSYS ;;
	*) echo "unknown($1)" ;;
	esac
}

# pin_refused ROW: fds_example made the map, the pin failed, nothing more was
# printed; the pin's errno is this kernel's value for ROW.
pin_refused()
{
	local lines re="^bpf: pin ret:\(-1,(.+)\)$"
	expect_status 1
	mapfile -t lines < "$T/out"
	((${#lines[@]} == 2)) || fail "expected 2 stdout lines, got ${#lines[@]}"
	[[ ${lines[0]} == "bpf: map fd:3 (Success)" ]] || fail "first line: ${lines[0]}"
	[[ ${lines[1]} =~ $re ]] || fail "second line: ${lines[1]}"
	matrix_record "$1" "$(errno_name "${BASH_REMATCH[1]}")"
}

step "a new bpffs holds nothing but what bpf_preload puts there" '
	# bpf_preload (5.10+ where built in) adds maps.debug and progs.debug
	mapfile -t entries < <(cd "$FS" && ls -A)
	for e in "${entries[@]}"; do
		[[ $e == *.debug ]] || fail "unexpected entry: $e"
	done
	IFS=, list="${entries[*]}"
	matrix_record fresh-bpffs-entries "${list:-empty}"
'

step "directories are made and removed with mkdir and rmdir" '
	mkdir -p "$FS/a/b/c"
	fds -F "$FS/a/b/c/m" -P -m -k 1 -v 11
	expect_status 0
	expect_value "$FS/a/b/c/m" 1 11
	if rmdir "$FS/a/b/c" 2> "$T/e"; then fail "rmdir removed a directory with a pin"; fi
	grep -q "not empty" "$T/e" || fail "$(cat "$T/e")"
	rm "$FS/a/b/c/m"
	rmdir "$FS/a/b/c" "$FS/a/b" "$FS/a"
	[[ ! -e $FS/a ]] || fail "a is still there"
'

step "mv of a pin, even across directories, keeps the object" '
	fds -F "$FS/src" -P -m -k 2 -v 22
	expect_status 0
	mkdir "$FS/dir"
	mv "$FS/src" "$FS/dir/dst"
	[[ ! -e $FS/src ]] || fail "the old name is still there"
	expect_value "$FS/dir/dst" 2 22
'

step "a symlink to a pin is a symlink, and can be got through" '
	ln -s dir/dst "$FS/sym"
	[[ -L $FS/sym ]] || fail "$FS/sym is a $(stat -c %F "$FS/sym"), not a symbolic link"
	[[ $(readlink "$FS/sym") == dir/dst ]] || fail "it points to $(readlink "$FS/sym")"
	expect_value "$FS/sym" 2 22
	fds -F "$FS/sym" -G -m -k 2 -v 23
	expect_status 0
	expect_value "$FS/dir/dst" 2 23
'

step "a hard link to a pin is a second name for the same object" '
	ln "$FS/dir/dst" "$FS/hard"
	[[ $(stat -c %h "$FS/hard") == 2 ]] || fail "link count is not 2"
	rm "$FS/dir/dst"
	expect_value "$FS/hard" 2 23
'

# Removing the last pin of a map frees it; when its id goes differs
# (matrix row): tests/helpers/map_ids unlink tells, docs/walkthrough.md
# shows it, and tests/scenarios/walkthrough.sh replays it on either.
step "rm of the only pin of a map frees it: at once, or after an RCU grace period (matrix row)" '
	when=$(tests/bin/helpers/map_ids unlink "$FS/last") || fail "map_ids unlink failed"
	[[ $when == at-unlink || $when == after-rcu-grace-period ]] || fail "map_ids unlink printed [$when]"
	[[ ! -e $FS/last ]] || fail "the pin is still there"
	matrix_record unlink-last-pin-map-id "$when"
'

step "names with a dot are reserved: today, not in 2015 (errno: matrix row)" '
	fds -F "$FS/with.dot" -P -m
	pin_refused pin-dotted-name-errno
	if mkdir "$FS/dir.d" 2>/dev/null; then fail "mkdir with a dot worked"; fi
	[[ ! -e $FS/with.dot ]] || fail "with.dot exists"
'

step "pins are mode 0600 under umask 077, 0400 under 277" '
	(umask 077; fds -F "$FS/u077" -P -m; expect_status 0)
	(umask 000; fds -F "$FS/u000" -P -m; expect_status 0)
	(umask 277; fds -F "$FS/u277" -P -m; expect_status 0)
	[[ $(stat -c %a "$FS/u077") == 600 ]] || fail "u077: $(stat -c %a "$FS/u077")"
	# under umask 000 the kernel alone decides: recorded, never executable
	mode=$(stat -c %04a "$FS/u000")
	(((8#$mode & 8#7111) == 0)) || fail "u000: mode $mode"
	matrix_record pin-mode-umask-000 "$mode"
	[[ $(stat -c %a "$FS/u277") == 400 ]] || fail "u277: $(stat -c %a "$FS/u277")"
	[[ $(stat -c %U "$FS/u077") == root ]] || fail "owner is not root"
'

step "chmod and chown work on a pin like on a file" '
	chmod 0640 "$FS/u077"
	chown 65534:65534 "$FS/u077"
	[[ $(stat -c "%a %u %g" "$FS/u077") == "640 65534 65534" ]] ||
		fail "got $(stat -c "%a %u %g" "$FS/u077")"
'

step "each bpffs mount is its own instance (2015: one per mount namespace)" '
	# The 2015 article describes a singleton per mount namespace: every
	# mount in one namespace showed the same tree. Since Linux 4.7 each
	# mount is a new, empty instance; this records that.
	mkdir "$T/second"
	mount -t bpf bpf "$T/second"
	when_finished umount "$T/second"
	fds -F "$T/second/only_here" -P -m -k 1 -v 5
	st=$status
	ls -A "$FS" > "$T/first.ls"
	ls -A "$T/second" > "$T/second.ls"
	((st == 0)) || fail "pin on the second mount failed"
	grep -qx only_here "$T/second.ls" || fail "pin not on the second mount"
	! grep -qx only_here "$T/first.ls" || fail "the first mount sees the second one'"'"'s pin"
	! grep -qx hard "$T/second.ls" || fail "the second mount sees the first one'"'"'s pins"
'

step "the same mount, bind-mounted elsewhere, shows the same tree" '
	mkdir "$T/bind"
	mount --bind "$FS" "$T/bind"
	when_finished umount "$T/bind"
	expect_value "$T/bind/hard" 2 23
'

step "pin outside a bpffs fails (errno: matrix row)" '
	fds -F "$T/not_bpffs" -P -m
	pin_refused pin-on-non-bpffs-errno
	[[ ! -e $T/not_bpffs ]] || fail "something was created"
'

# A name with a slash after it asks for a directory; a pin is none (every
# kernel: the VFS's filename_create(), not bpffs).
step "pin at a path ending in a slash fails with ENOENT, and makes nothing" '
	fds -F "$FS/slash/" -P -m
	expect_status 1
	expect_out "bpf: map fd:3 (Success)" "bpf: pin ret:(-1,No such file or directory)"
	[[ ! -e $FS/slash ]] || fail "$FS/slash was made"
'

step "pin over an existing path fails with EEXIST and leaves it intact" '
	snapshot before
	fds -F "$FS/hard" -P -m -k 2 -v 99
	expect_status 1
	expect_out "bpf: map fd:3 (Success)" "bpf: pin ret:(-1,File exists)"
	same_as before
	expect_value "$FS/hard" 2 23
'

step "get of a missing path fails with ENOENT" '
	fds -F "$FS/nothing" -G -m
	expect_status 1
	expect_out "bpf: get fd:-1 (No such file or directory)"
'

step "get through a regular file outside bpffs fails" '
	: > "$T/plain"
	fds -F "$T/plain" -G -m
	expect_status 1
	grep -q "^bpf: get fd:-1 (" "$T/out" || fail "no get line"
'
scenario_end
