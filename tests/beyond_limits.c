// SPDX-License-Identifier: GPL-2.0
/*
 * The limits a pinned object meets: how long a pin's name and path may be,
 * a map frozen (BPF_MAP_FREEZE, 5.2) and then reached through its pin, and
 * a BPF_F_MMAPABLE array (5.5) mapped through a read-only get. Each value
 * is a kernel-matrix row; a refusal is asserted, never skipped. And what
 * bpffs keeps for a symlink (its target, a copy in kernel memory) given back
 * when the symlink goes.
 */
#include "kselftest_harness.h"
#include "bpffs_fixture.h"

#include <limits.h>
#include <sys/mman.h>

BPFFS_FS_FIXTURE("m");

static int small_array(const char *name)
{
	return bpf_map_create(BPF_MAP_TYPE_ARRAY, name, 4, 4, 4, NULL);
}

/* ---- the name and the path ---- */

/* path = fs/ followed by len bytes of 'n'. */
static void long_name(char *path, size_t size, const char *fs, int len)
{
	int n = snprintf(path, size, "%s/", fs);

	memset(path + n, 'n', len);
	path[n + len] = '\0';
}

TEST_F(fs, the_longest_pin_name_is_name_max_bytes)
{
	char path[64 + NAME_MAX + 16];
	int fd, len, longest = 0, err = 0, ret;

	fd = small_array("long_name");
	ASSERT_GE(fd, 0) TH_LOG("map: %s", strerror(errno));
	/* down from past NAME_MAX: the first name that pins is the longest */
	for (len = NAME_MAX + 8; len > 0 && !longest; len--) {
		long_name(path, sizeof(path), self->fs, len);
		if (bpf_obj_pin(fd, path) == 0)
			longest = len;
		else
			err = errno;
	}
	matrix_record("pin-name-longest", "%d", longest);
	matrix_record("pin-name-longest-plus-one", "%s",
		      err ? strerrorname_np(err) : "none");
	EXPECT_EQ(NAME_MAX, longest);
	EXPECT_EQ(ENAMETOOLONG, err) TH_LOG("%s", strerror(err));

	long_name(path, sizeof(path), self->fs, longest);
	EXPECT_EQ(map_id_of(fd), pinned_map_id(path));
	long_name(path, sizeof(path), self->fs, longest + 1);
	ret = bpf_obj_get(path);
	record_result("get-name-longest-plus-one", ret);
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(ENAMETOOLONG, errno);
	close(fd);
}

/*
 * Directories under fs, each name 199 bytes, deep enough that a path in
 * the last one is len bytes long with a name of 2 to 201 bytes: that
 * directory's path goes into dir (at least len + 1 bytes), the name's
 * length is returned, or -1 with errno set.
 */
static int deep_dir(const char *fs, size_t len, char *dir)
{
	size_t cur = strlen(fs);

	memcpy(dir, fs, cur + 1);
	while (len - cur > 202) {
		dir[cur] = '/';
		memset(dir + cur + 1, 'd', 199);
		cur += 200;
		dir[cur] = '\0';
		if (mkdir(dir, 0700))
			return -1;
	}
	return len - cur - 1;
}

/* path = dir/ followed by len bytes of 'p'. */
static void path_in(char *path, const char *dir, int len)
{
	int n = sprintf(path, "%s/", dir);

	memset(path + n, 'p', len);
	path[n + len] = '\0';
}

/* A path fills PATH_MAX with its NUL: PATH_MAX - 1 bytes before it. */
TEST_F(fs, a_path_of_path_max_bytes_with_its_nul_pins_one_byte_more_does_not)
{
	char dir[PATH_MAX + 8], path[PATH_MAX + 8];
	int fd, name_len, ret;

	name_len = deep_dir(self->fs, PATH_MAX - 1, dir);
	ASSERT_GT(name_len, 0) TH_LOG("mkdir: %s", strerror(errno));
	fd = small_array("long_path");
	ASSERT_GE(fd, 0);

	path_in(path, dir, name_len);
	ASSERT_EQ(PATH_MAX - 1, strlen(path));
	ret = bpf_obj_pin(fd, path);
	record_result("pin-path-max-minus-one-bytes", ret);
	EXPECT_EQ(0, ret) TH_LOG("%s", strerror(errno));
	ret = bpf_obj_get(path);
	record_result("get-path-max-minus-one-bytes", ret);
	EXPECT_GE(ret, 0);
	if (ret >= 0) {
		EXPECT_EQ(map_id_of(fd), map_id_of(ret));
		close(ret);
	}

	path_in(path, dir, name_len + 1);
	ASSERT_EQ(PATH_MAX, strlen(path));
	ret = bpf_obj_pin(fd, path);
	record_result("pin-path-max-bytes", ret);
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(ENAMETOOLONG, errno);
	ret = bpf_obj_get(path);
	record_result("get-path-max-bytes", ret);
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(ENAMETOOLONG, errno);
	close(fd);
}

/* ---- BPF_MAP_FREEZE (5.2) ---- */

/* Whether /proc/self/fdinfo of fd says the map is frozen: "yes", "no", or
 * "absent" where the kernel does not show it.
 */
static const char *fdinfo_frozen(int fd)
{
	char path[64], line[128];
	const char *said = "absent";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (!f)
		return "unreadable";
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "frozen:", 7) == 0)
			said = strtol(line + 7, NULL, 10) ? "yes" : "no";
	fclose(f);
	return said;
}

/* A map pinned at path holding 42 at key 1; its fd, read-write. */
static int pinned_array(struct __test_metadata *_metadata, const char *path,
			const struct bpf_map_create_opts *opts)
{
	__u32 key = 1, value = 42;
	int fd;

	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "limits", 4, 4, 1024, opts);
	if (fd < 0)
		return -1;
	EXPECT_EQ(0, bpf_map_update_elem(fd, &key, &value, BPF_ANY));
	EXPECT_EQ(0, bpf_obj_pin(fd, path)) TH_LOG("%s", strerror(errno));
	return fd;
}

/*
 * BPF_MAP_FREEZE through a BPF_F_RDONLY get of a map pinned at path: 0 if
 * it froze the map, else the errno. Either way the map must be as the
 * answer says: frozen (an update through a read-write fd is EPERM) or not.
 */
static int freeze_through_rdonly_get(struct __test_metadata *_metadata,
				     const char *path)
{
	LIBBPF_OPTS(bpf_obj_get_opts, ro, .file_flags = BPF_F_RDONLY);
	__u32 key = 1, value = 43;
	int fd, rofd, ret, err;

	fd = pinned_array(_metadata, path, NULL);
	if (fd < 0)
		return -1;
	rofd = bpf_obj_get_opts(path, &ro);
	if (rofd < 0) {
		close(fd);
		return -1;
	}
	ret = bpf_map_freeze(rofd);
	err = ret ? errno : 0;
	record_result("map-freeze-rdonly-fd", ret);
	ret = bpf_map_update_elem(fd, &key, &value, BPF_ANY);
	if (err) {
		EXPECT_EQ(EPERM, err);
		EXPECT_EQ(0, ret) TH_LOG("refused, yet frozen");
	} else {
		EXPECT_EQ(-1, ret) TH_LOG("said frozen, yet writable");
	}
	close(rofd);
	close(fd);
	return err;
}

/* Kernels differ: some let any fd freeze a map, some want a writable one. */
TEST_F(fs, freezing_through_a_read_only_get_is_refused_or_really_freezes)
{
	EXPECT_LE(0, freeze_through_rdonly_get(_metadata, self->pin))
		TH_LOG("no map to freeze: %s", strerror(errno));
}

TEST_F(fs, a_frozen_map_refuses_updates_through_a_fd_from_its_pin)
{
	char probe[128];
	__u32 key = 1, value;
	int fd, ret, checks_mode;

	snprintf(probe, sizeof(probe), "%s/probe", self->fs);
	checks_mode = freeze_through_rdonly_get(_metadata, probe) == EPERM;
	fd = pinned_array(_metadata, self->pin, NULL);
	ASSERT_GE(fd, 0) TH_LOG("map: %s", strerror(errno));
	matrix_record("map-fdinfo-frozen-before", "%s", fdinfo_frozen(fd));
	ret = bpf_map_freeze(fd);
	record_result("map-freeze", ret);
	ASSERT_EQ(0, ret) TH_LOG("%s", strerror(errno));
	close(fd);

	fd = bpf_obj_get(self->pin);
	ASSERT_GE(fd, 0);
	matrix_record("map-fdinfo-frozen-after", "%s", fdinfo_frozen(fd));
	EXPECT_STREQ("yes", fdinfo_frozen(fd));
	value = 43;
	ret = bpf_map_update_elem(fd, &key, &value, BPF_ANY);
	record_result("frozen-map-update-via-pin", ret);
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(EPERM, errno);
	EXPECT_EQ(0, bpf_map_lookup_elem(fd, &key, &value));
	EXPECT_EQ(42, value);
	/*
	 * Where freezing checks the fd's mode, a frozen map's fds count as
	 * read-only and a second freeze is EPERM; elsewhere it is EBUSY.
	 */
	ret = bpf_map_freeze(fd);
	record_result("map-freeze-twice", ret);
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(checks_mode ? EPERM : EBUSY, errno);
	close(fd);
}

/* ---- BPF_F_MMAPABLE arrays (5.5) ---- */

/* mmap of one page of fd; NULL (errno set) where the kernel refused. */
static __u32 *map_page(int fd, int prot, int flags)
{
	void *p = mmap(NULL, getpagesize(), prot, flags, fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* An array's values lie value_size rounded up to 8 bytes apart. */
static __u32 slot(const __u32 *page, int key)
{
	return page[key * 2];
}

/* One matrix row for an mmap: "ok" or the errno. */
static void record_map_page(const char *row, const __u32 *p)
{
	record_result(row, p ? 0 : -1);
}

/* An mmapable array of one page pinned at path, 42 at key 1; its fd. */
static int pinned_mmapable(struct __test_metadata *_metadata,
			   const char *path)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = BPF_F_MMAPABLE);
	int fd;

	fd = pinned_array(_metadata, path, &opts);
	record_result("map-create-mmapable", fd);
	return fd;
}

/*
 * mmap() of a file opened read-only makes a MAP_SHARED mapping without
 * VM_SHARED, and a map's mmap handler wants VM_SHARED: through a read-only
 * get nothing maps, not even for reading. The lookup still works.
 */
TEST_F(fs, a_read_only_get_of_an_mmapable_array_maps_neither_way)
{
	LIBBPF_OPTS(bpf_obj_get_opts, ro, .file_flags = BPF_F_RDONLY);
	__u32 key = 1, value = 0, *p;
	int fd, rofd;

	fd = pinned_mmapable(_metadata, self->pin);
	ASSERT_GE(fd, 0) TH_LOG("mmapable map: %s", strerror(errno));
	close(fd);
	rofd = bpf_obj_get_opts(self->pin, &ro);
	ASSERT_GE(rofd, 0) TH_LOG("get RDONLY: %s", strerror(errno));

	p = map_page(rofd, PROT_READ, MAP_SHARED);
	record_map_page("mmap-rdonly-get-prot-read", p);
	EXPECT_EQ(NULL, p);
	EXPECT_EQ(EINVAL, errno);
	p = map_page(rofd, PROT_READ | PROT_WRITE, MAP_SHARED);
	record_map_page("mmap-rdonly-get-prot-write", p);
	EXPECT_EQ(NULL, p);
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(0, bpf_map_lookup_elem(rofd, &key, &value));
	EXPECT_EQ(42, value);
	close(rofd);
}

/* A read-only mapping takes a read-write fd, and stays read-only. */
TEST_F(fs, a_read_only_mapping_shows_updates_and_cannot_become_writable)
{
	__u32 key = 1, value = 43, *p;
	int fd, ret;

	fd = pinned_mmapable(_metadata, self->pin);
	ASSERT_GE(fd, 0) TH_LOG("mmapable map: %s", strerror(errno));
	close(fd);
	fd = bpf_obj_get(self->pin);
	ASSERT_GE(fd, 0);

	p = map_page(fd, PROT_READ, MAP_SHARED);
	record_map_page("mmap-rw-get-prot-read", p);
	ASSERT_NE(NULL, p) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(42, slot(p, 1));
	/* the mapping is the map's memory: an update shows at once */
	EXPECT_EQ(0, bpf_map_update_elem(fd, &key, &value, BPF_ANY));
	EXPECT_EQ(43, slot(p, 1));
	ret = mprotect(p, getpagesize(), PROT_READ | PROT_WRITE);
	record_result("mprotect-read-only-mapping-to-write", ret);
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(EACCES, errno);
	munmap(p, getpagesize());
	close(fd);
}

TEST_F(fs, a_writable_mapping_needs_a_read_write_get_and_map_shared)
{
	LIBBPF_OPTS(bpf_obj_get_opts, wo, .file_flags = BPF_F_WRONLY);
	__u32 key = 1, value = 0, *p;
	int fd, rwfd, wofd;

	fd = pinned_mmapable(_metadata, self->pin);
	ASSERT_GE(fd, 0) TH_LOG("mmapable map: %s", strerror(errno));
	close(fd);
	rwfd = bpf_obj_get(self->pin);
	wofd = bpf_obj_get_opts(self->pin, &wo);
	ASSERT_GE(rwfd, 0);
	ASSERT_GE(wofd, 0);

	p = map_page(rwfd, PROT_READ | PROT_WRITE, MAP_SHARED);
	record_map_page("mmap-rw-get-prot-write", p);
	ASSERT_NE(NULL, p) TH_LOG("%s", strerror(errno));
	p[1 * 2] = 44;	/* key 1: see slot() */
	EXPECT_EQ(0, bpf_map_lookup_elem(rwfd, &key, &value));
	EXPECT_EQ(44, value);
	munmap(p, getpagesize());

	p = map_page(rwfd, PROT_READ, MAP_PRIVATE);
	record_map_page("mmap-rw-get-map-private", p);
	EXPECT_EQ(NULL, p);
	EXPECT_EQ(EINVAL, errno);
	p = map_page(wofd, PROT_WRITE, MAP_SHARED);
	record_map_page("mmap-wronly-get-prot-write", p);
	EXPECT_EQ(NULL, p);
	EXPECT_EQ(EACCES, errno);
	close(wofd);
	close(rwfd);
}

TEST_F(fs, freeze_and_a_writable_mapping_exclude_each_other)
{
	__u32 *p;
	int fd, ret;

	fd = pinned_mmapable(_metadata, self->pin);
	ASSERT_GE(fd, 0) TH_LOG("mmapable map: %s", strerror(errno));
	p = map_page(fd, PROT_READ | PROT_WRITE, MAP_SHARED);
	ASSERT_NE(NULL, p) TH_LOG("%s", strerror(errno));
	ret = bpf_map_freeze(fd);
	record_result("map-freeze-with-writable-mmap", ret);
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(EBUSY, errno);
	munmap(p, getpagesize());

	ret = bpf_map_freeze(fd);
	EXPECT_EQ(0, ret) TH_LOG("freeze after munmap: %s", strerror(errno));
	p = map_page(fd, PROT_READ | PROT_WRITE, MAP_SHARED);
	record_map_page("mmap-frozen-prot-write", p);
	EXPECT_EQ(NULL, p);
	EXPECT_EQ(EPERM, errno);
	p = map_page(fd, PROT_READ, MAP_SHARED);
	record_map_page("mmap-frozen-prot-read", p);
	EXPECT_NE(NULL, p);
	if (p) {
		EXPECT_EQ(42, slot(p, 1));
		munmap(p, getpagesize());
	}
	close(fd);
}

/* ---- a symlink's target ---- */

/* SUnreclaim of /proc/meminfo, in KiB: the slab memory nothing can reclaim. */
static long unreclaimable_kib(void)
{
	char line[128];
	long kib = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "SUnreclaim: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

#define LINKS 16384
#define TARGET_LEN 4000		/* a copy of 4 KiB each: 64 MiB in all */
#define SLACK_KIB (32 * 1024)	/* what the rest of the machine may do */

/*
 * bpffs copies a symlink's target into kernel memory and frees the copy
 * with the inode, after an RCU grace period. 16,384 symlinks made and
 * removed must give their 64 MiB back within 5 s, but for 32 MiB the rest
 * of the machine may hold meanwhile: a kernel that frees the wrong pointer
 * keeps them all.
 */
TEST_F(fs, removed_symlinks_give_their_targets_memory_back)
{
	char path[128], *target = malloc(TARGET_LEN + 1);
	long before, after = -1;
	int i, tries;

	ASSERT_NE(NULL, target);
	memset(target, 'x', TARGET_LEN);
	target[TARGET_LEN] = '\0';
	before = unreclaimable_kib();
	ASSERT_GE(before, 0) TH_LOG("no SUnreclaim in /proc/meminfo");
	for (i = 0; i < LINKS; i++) {
		snprintf(path, sizeof(path), "%s/l%d", self->fs, i);
		ASSERT_EQ(0, symlink(target, path)) TH_LOG("%s: %s", path, strerror(errno));
	}
	for (i = 0; i < LINKS; i++) {
		snprintf(path, sizeof(path), "%s/l%d", self->fs, i);
		ASSERT_EQ(0, unlink(path)) TH_LOG("%s: %s", path, strerror(errno));
	}
	free(target);
	for (tries = 0; tries < 50; tries++) {
		after = unreclaimable_kib();
		if (after - before <= SLACK_KIB)
			break;
		usleep(100 * 1000);
	}
	EXPECT_LE(after - before, SLACK_KIB)
		TH_LOG("%ld KiB more unreclaimable slab than before", after - before);
}

TEST_HARNESS_MAIN
