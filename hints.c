// SPDX-License-Identifier: GPL-2.0
/*
 * One stderr hint line for the common causes of a failed pin, get, map
 * creation, object file, kind of object or key access. Only what the
 * kernel's errno cannot say: whether the path is on a BPF filesystem,
 * whether its directory exists, a dot in the name, privilege, what an
 * object file is, the map's type and number of entries; and the command
 * that fixes it.
 */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
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

/*
 * 1: dir is a directory with no entries but . and .., which a mount may
 * cover without hiding anything (sysfs's /sys/fs/bpf before bpffs is
 * mounted there); 0: anything else.
 */
static int empty_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int empty = 1;

	if (!d)
		return 0;
	while (empty && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = 0;
	closedir(d);
	return empty;
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

/*
 * Not root: bpf(2) wants CAP_BPF (5.8; CAP_SYS_ADMIN before), and without it
 * the sysctl decides; what is the operation it would have to allow.
 */
static void hint_privilege(const char *what)
{
	char value[16] = "unknown";
	FILE *f = fopen("/proc/sys/kernel/unprivileged_bpf_disabled", "re");

	if (f) {
		if (fgets(value, sizeof(value), f))
			value[strcspn(value, "\n")] = '\0';
		fclose(f);
	}
	hint("this needs CAP_BPF (CAP_SYS_ADMIN before Linux 5.8), which root has; "
	     "for other users kernel.unprivileged_bpf_disabled decides: it is %s, "
	     "and only 0 lets them %s", value, what);
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
	else if (empty_dir(near))
		hint("%s does not exist and %s is no BPF filesystem but an empty "
		     "directory on another: mount one on it first "
		     "(mount -t bpf bpf %s; mkdir -p %s)", dir, near, near, dir);
	else
		hint("%s does not exist and %s is no BPF filesystem: "
		     "mount one first (mkdir -p %s; mount -t bpf bpf %s)",
		     dir, near, dir, dir);
}

/*
 * dir exists on another filesystem: ENOENT where its filesystem cannot
 * create the name (sysfs's empty /sys/fs/bpf), EPERM where it can.
 */
static void hint_not_bpffs(const char *file, const char *dir)
{
	if (empty_dir(dir))
		hint("%s is no BPF filesystem but an empty directory on another "
		     "(stat -f -c %%T %s): mount one on it first "
		     "(mount -t bpf bpf %s)", dir, dir, dir);
	else
		hint("%s is not on a BPF filesystem (stat -f -c %%T %s): pins "
		     "live only under a bpffs mount (mount -t bpf bpf DIR, DIR "
		     "an empty directory)", file, dir);
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

/* EACCES from a get: the class of the pin's mode that applies to us. */
static void hint_mode(const char *file, const struct stat *st)
{
	char class = 'o';

	if (geteuid() == st->st_uid)
		class = 'u';
	else if (getegid() == st->st_gid)
		class = 'g';
	hint("%s is mode %04o: -G asks to read and write the object and the pin "
	     "does not grant both to you; its owner can (chmod %c+rw %s)",
	     file, st->st_mode & 07777, class, file);
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
	} else if ((err == EPERM || err == ENOENT) && on_bpffs(dir) == 0) {
		hint_not_bpffs(file, dir);
	} else if (err == EPERM && strchr(name, '.')) {
		hint_dotted(name);
	} else if (err == EACCES && stat(dir, &st) == 0) {
		/* the map or program exists: only the directory refused */
		hint("%s is mode %04o, owned by uid %u: a pin adds a name to it, "
		     "which needs write permission there; pin in a directory "
		     "you may write to", dir, (unsigned int)(st.st_mode & 07777),
		     (unsigned int)st.st_uid);
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
	} else if ((err == ENOENT || err == EACCES) && on_bpffs(dir) == 0) {
		/* EACCES: a file there, which is no pin */
		hint_not_bpffs(file, dir);
	} else if (err == ENOENT && stat(file, &st) == 0) {
		/* maps.debug, progs.debug: bpf_preload's, listed but no pin */
		hint("%s is one of the kernel's own files, not a pinned map or "
		     "program (a name with a dot is never yours)", file);
	} else if (err == ENOENT) {
		hint("nothing is pinned at %s (ls %s shows what is)", file, dir);
	} else if (err == EPERM && strchr(base_of(file), '.')) {
		hint_dotted(base_of(file));
	} else if (err == EACCES && stat(file, &st) == 0) {
		hint_mode(file, &st);
	} else if (err == EPERM && geteuid() != 0) {
		hint_privilege("get pins");
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
		hint_privilege("create maps and programs");
}

/* A map in program mode or a program in map mode: the other mode gets it. */
void hint_kind(const char *file, int kind)
{
	const char *mode;

	if (kind == BPF_OBJ_KIND_MAP)
		mode = "-m";
	else if (kind == BPF_OBJ_KIND_PROG)
		mode = "-p";
	else
		return;
	hint("%s holds %s: use %s for it (fds_example -F %s -G %s)", file,
	     bpf_obj_kind_name(kind), mode, file, mode);
}

/*
 * The e_machine of the ELF header at fd, in the byte order the header says;
 * -1: no ELF file. EM_BPF if it reads so in either order: an object of
 * the other byte order, or one whose header lies about it, is BPF still.
 */
static int elf_machine(int fd)
{
	unsigned char h[EI_NIDENT + 4];
	struct stat st;
	int lsb, msb;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h) ||
	    memcmp(h, ELFMAG, SELFMAG))
		return -1;
	/* e_type, then e_machine: the same offsets in ELF32 and ELF64 */
	lsb = h[EI_NIDENT + 2] | h[EI_NIDENT + 3] << 8;
	msb = h[EI_NIDENT + 2] << 8 | h[EI_NIDENT + 3];
	if (lsb == EM_BPF || msb == EM_BPF)
		return EM_BPF;
	return h[EI_DATA] == ELFDATA2MSB ? msb : lsb;
}

/* A machine in words, for the machines Debian builds for. */
static void machine_name(int machine, char *name, size_t len)
{
	static const struct {
		int machine;
		const char *name;
	} names[] = {
		{ EM_386, "32-bit x86" },
		{ EM_X86_64, "x86-64" },
		{ EM_ARM, "32-bit Arm" },
		{ EM_AARCH64, "arm64" },
		{ EM_S390, "s390x" },
		{ EM_PPC64, "64-bit PowerPC" },
		{ EM_RISCV, "RISC-V" },
		{ EM_MIPS, "MIPS" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (names[i].machine == machine) {
			snprintf(name, len, "%s", names[i].name);
			return;
		}
	}
	snprintf(name, len, "machine %d", machine);
}

/*
 * -o's object not loaded: a file that cannot be opened (the errno is the
 * file's, not the kernel's), an ELF file of another machine (a program
 * rather than a BPF object); else as for any program not created.
 */
void hint_object(int err, const char *object)
{
	char name[32];
	int fd, machine;

	fd = open(object, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		hint("the object file %s could not be opened (%s), so the kernel "
		     "was never asked: check the path given to -o", object,
		     strerror(errno));
		return;
	}
	machine = err == ENOEXEC ? elf_machine(fd) : -1;
	close(fd);
	if (machine < 0 || machine == EM_BPF) {
		hint_create(err);
		return;
	}
	machine_name(machine, name, sizeof(name));
	hint("%s is an ELF file for %s, not a BPF object: -o wants one "
	     "compiled with clang -target bpf, like sockex1_kern.o", object,
	     name);
}

/*
 * A key past an array's last entry: lookup says ENOENT, update E2BIG. A
 * hash map's lookup says ENOENT for a key never stored.
 */
void hint_key(int err, int map_fd, uint32_t key)
{
	struct bpf_map_info info;

	if (err != ENOENT && err != E2BIG)
		return;
	if (bpf_map_get_info(map_fd, &info) < 0)
		return;
	if (info.type == BPF_MAP_TYPE_ARRAY && key >= info.max_entries)
		hint("the map has %u entries: keys 0..%u exist, %u is past the end",
		     info.max_entries, info.max_entries - 1, key);
	else if (err == ENOENT && (info.type == BPF_MAP_TYPE_HASH ||
				   info.type == BPF_MAP_TYPE_LRU_HASH))
		hint("key %u is not in this hash map, which holds only the keys "
		     "stored in it: -k %u -v VALUE stores one", key, key);
}
