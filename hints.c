// SPDX-License-Identifier: GPL-2.0
/*
 * One stderr hint line for the common causes of a failed pin, get, map
 * creation or key access. Only what the kernel's errno cannot say: whether
 * the path is on a BPF filesystem, whether its directory exists, a dot in
 * the name, privilege, the map's number of slots.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <linux/bpf.h>
#include <linux/magic.h>

#include "bpf_syscall.h"
#include "hints.h"

static void hint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void hint(const char *fmt, ...)
{
	va_list ap;

	fputs("fds_example: hint: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* The directory part of path: "." for a bare name, "/" for "/name". */
static void dir_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');
	size_t n;

	if (!slash) {
		snprintf(dir, len, ".");
		return;
	}
	n = slash == path ? 1 : (size_t)(slash - path);
	snprintf(dir, len, "%.*s", (int)(n < len ? n : len - 1), path);
}

/* 1: on a BPF filesystem, 0: on another one, -1: cannot tell (errno). */
static int on_bpffs(const char *path)
{
	struct statfs st;

	if (statfs(path, &st) < 0)
		return -1;
	return st.f_type == BPF_FS_MAGIC;
}

/* The nearest existing ancestor of dir, in place. */
static void existing_ancestor(char *dir)
{
	struct stat st;
	char *slash;

	while (stat(dir, &st) < 0) {
		slash = strrchr(dir, '/');
		if (!slash) {
			strcpy(dir, ".");
			return;
		}
		if (slash == dir) {
			dir[1] = '\0';
			return;
		}
		*slash = '\0';
	}
}

/* Not root: what bpf(2) needs, and the sysctl that decides it. */
static void hint_privilege(void)
{
	char value[16] = "unknown";
	FILE *f = fopen("/proc/sys/kernel/unprivileged_bpf_disabled", "re");

	if (f) {
		if (fgets(value, sizeof(value), f))
			value[strcspn(value, "\n")] = '\0';
		fclose(f);
	}
	hint("this needs root or CAP_BPF: kernel.unprivileged_bpf_disabled is %s, "
	     "and only 0 lets other users create maps and programs", value);
}

/* ENOENT: a missing directory, inside a bpffs or with none mounted. */
static void hint_missing_dir(const char *dir)
{
	char near[PATH_MAX];

	snprintf(near, sizeof(near), "%s", dir);
	existing_ancestor(near);
	if (on_bpffs(near) == 1)
		hint("%s does not exist: make it first (mkdir -p %s); "
		     "a BPF filesystem holds directories", dir, dir);
	else
		hint("%s does not exist and %s is no BPF filesystem: "
		     "mount one first (mkdir -p %s; mount -t bpf bpf %s)",
		     dir, near, dir, dir);
}

/* The last component of path. */
static const char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static void hint_dotted(const char *name)
{
	hint("'%s' has a dot: bpffs keeps dotted names for the kernel's own "
	     "files (maps.debug, progs.debug); pick a name without one", name);
}

void hint_pin(int err, const char *file)
{
	const char *name = base_of(file);
	char dir[PATH_MAX];
	struct stat st;

	dir_of(file, dir, sizeof(dir));
	if (err == EEXIST) {
		hint("something is pinned at %s already: -G gets it; rm %s removes it",
		     file, file);
	} else if (err == ENOENT && stat(dir, &st) < 0) {
		hint_missing_dir(dir);
	} else if (err == EPERM && on_bpffs(dir) == 0) {
		hint("%s is not on a BPF filesystem (stat -f -c %%T %s): "
		     "pin under a bpffs mount (mount -t bpf bpf DIR)", file, dir);
	} else if (err == EPERM && strchr(name, '.')) {
		hint_dotted(name);
	} else if ((err == EPERM || err == EACCES) && geteuid() != 0) {
		hint_privilege();
	}
}

void hint_get(int err, const char *file)
{
	char dir[PATH_MAX];
	struct stat st;

	dir_of(file, dir, sizeof(dir));
	if (stat(file, &st) == 0 && S_ISDIR(st.st_mode)) {
		hint("%s is a directory: -G wants a pinned map or program in it", file);
	} else if (err == ENOENT && stat(dir, &st) < 0) {
		hint_missing_dir(dir);
	} else if (err == ENOENT && on_bpffs(dir) == 0) {
		hint("%s is not on a BPF filesystem (stat -f -c %%T %s): "
		     "nothing can be pinned there", file, dir);
	} else if (err == ENOENT && stat(file, &st) == 0) {
		/* maps.debug, progs.debug: bpf_preload's, listed but no pin */
		hint("%s is one of the kernel's own files, not a pinned map or "
		     "program (a name with a dot is never yours)", file);
	} else if (err == ENOENT) {
		hint("nothing is pinned at %s (ls %s shows what is)", file, dir);
	} else if (err == EPERM && strchr(base_of(file), '.')) {
		hint_dotted(base_of(file));
	} else if (err == EACCES && stat(file, &st) == 0) {
		hint("%s is mode %04o: -G asks to read and write the object, so "
		     "the pin must grant both to you", file, st.st_mode & 07777);
	} else if (err == EPERM && geteuid() != 0) {
		hint_privilege();
	}
}

/*
 * A map or program not created. Root's EPERM is, on kernels before 5.11, most
 * often RLIMIT_MEMLOCK: those charge every map (and program) to the creator's
 * ulimit -l (64 KiB by default); 5.11 moved the charge to the memory cgroup.
 */
void hint_create(int err)
{
	if (err == EPERM && geteuid() == 0)
		hint("kernels before 5.11 charge each map to ulimit -l; "
		     "try 'ulimit -l unlimited'");
	else if (err == EPERM)
		hint_privilege();
}

/* A key past an array's last slot: lookup says ENOENT, update E2BIG. */
void hint_key(int err, int map_fd, uint32_t key)
{
	struct bpf_map_info info;

	if (err != ENOENT && err != E2BIG)
		return;
	if (bpf_map_get_info(map_fd, &info) < 0 ||
	    info.type != BPF_MAP_TYPE_ARRAY || key < info.max_entries)
		return;
	hint("the map has %u slots: keys 0..%u exist, %u is past the end",
	     info.max_entries, info.max_entries - 1, key);
}
