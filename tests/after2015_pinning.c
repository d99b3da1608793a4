// SPDX-License-Identifier: GPL-2.0
/*
 * After 2015: what pinning gained since Linux 4.4, one behaviour per test,
 * each recorded as a kernel-matrix row. A kernel that lacks a feature must
 * refuse it with the errno asserted here; none of these tests skips for it.
 */
#include "kselftest_harness.h"
#include "bpffs_fixture.h"
#include "key0_progs.h"

#include <stdio.h>

BPFFS_FS_FIXTURE("m");

static int small_array(void)
{
	return bpf_create_map(BPF_MAP_TYPE_ARRAY, sizeof(__u32), sizeof(__u32),
			      4);
}

/* ---- BPF_OBJ_GET file_flags (4.15) ---- */

TEST_F(fs, a_read_only_fd_looks_up_but_cannot_update)
{
	LIBBPF_OPTS(bpf_obj_get_opts, ro, .file_flags = BPF_F_RDONLY);
	__u32 key = 1, value = 42;
	int fd, rofd, ret;

	fd = small_array();
	ASSERT_GE(fd, 0) TH_LOG("map: %s", strerror(errno));
	ASSERT_EQ(0, bpf_update_elem(fd, &key, &value, BPF_ANY));
	ASSERT_EQ(0, bpf_obj_pin(fd, self->pin));
	close(fd);

	rofd = bpf_obj_get_opts(self->pin, &ro);
	ASSERT_GE(rofd, 0) TH_LOG("get RDONLY: %s", strerror(errno));
	value = 0;
	EXPECT_EQ(0, bpf_lookup_elem(rofd, &key, &value));
	EXPECT_EQ(42, value);
	value = 7;
	ret = bpf_update_elem(rofd, &key, &value, BPF_ANY);
	record_result("get-rdonly-fd-update", ret);
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(EPERM, errno);
	close(rofd);

	/* nothing changed behind the refusal */
	fd = bpf_obj_get(self->pin);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(0, bpf_lookup_elem(fd, &key, &value));
	EXPECT_EQ(42, value);
	close(fd);
}

TEST_F(fs, a_write_only_fd_updates_but_cannot_look_up)
{
	LIBBPF_OPTS(bpf_obj_get_opts, wo, .file_flags = BPF_F_WRONLY);
	__u32 key = 1, value = 42;
	int fd, wofd, ret;

	fd = small_array();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, bpf_obj_pin(fd, self->pin));

	wofd = bpf_obj_get_opts(self->pin, &wo);
	ASSERT_GE(wofd, 0) TH_LOG("get WRONLY: %s", strerror(errno));
	EXPECT_EQ(0, bpf_update_elem(wofd, &key, &value, BPF_ANY));
	value = 0;
	ret = bpf_lookup_elem(wofd, &key, &value);
	record_result("get-wronly-fd-lookup", ret);
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(EPERM, errno);
	/* the write went through: the read-write fd sees it */
	EXPECT_EQ(0, bpf_lookup_elem(fd, &key, &value));
	EXPECT_EQ(42, value);
	close(wofd);
	close(fd);
}

TEST_F(fs, read_only_and_write_only_together_are_refused)
{
	LIBBPF_OPTS(bpf_obj_get_opts, both, .file_flags = BPF_F_RDONLY | BPF_F_WRONLY);
	int fd, ret;

	fd = small_array();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, bpf_obj_pin(fd, self->pin));
	close(fd);
	ret = bpf_obj_get_opts(self->pin, &both);
	record_result("get-rdonly-wronly-both", ret);
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(EINVAL, errno);
}

/*
 * BPF_OBJ_GET as nobody, in a child: 0 when it got an fd, else the errno.
 * The fd is only opened; what a process may do with it is the fd's mode.
 */
static int get_as_nobody(const char *path, __u32 file_flags)
{
	LIBBPF_OPTS(bpf_obj_get_opts, opts, .file_flags = file_flags);
	int status, fd;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(255);
		fd = bpf_obj_get_opts(path, &opts);
		_exit(fd >= 0 ? 0 : errno);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static const char *errno_token(int err)
{
	if (err == 0)
		return "ok";
	if (err < 0 || err == 255)
		return "error";
	return strerrorname_np(err) ? strerrorname_np(err) : "E?";
}

TEST_F(fs, the_pin_file_mode_decides_what_nobody_may_open)
{
	static const struct {
		mode_t mode;
		__u32 flags;
		const char *flags_name;
		int allowed;
	} cases[] = {
		{ 0600, 0, "plain", 0 },
		{ 0644, BPF_F_RDONLY, "RDONLY", 1 },
		{ 0644, BPF_F_WRONLY, "WRONLY", 0 },
		{ 0644, 0, "plain", 0 },
		{ 0622, BPF_F_WRONLY, "WRONLY", 1 },
		{ 0622, BPF_F_RDONLY, "RDONLY", 0 },
		{ 0666, 0, "plain", 1 },
	};
	int fd, gate, got, i;
	char row[64], sysctl[16];

	fd = small_array();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, bpf_obj_pin(fd, self->pin));
	close(fd);

	read_sysctl("/proc/sys/kernel/unprivileged_bpf_disabled", sysctl, sizeof(sysctl));
	matrix_record("kernel.unprivileged_bpf_disabled", "%s", sysctl);

	/*
	 * Older kernels (Debian's 5.10) let the sysctl gate every bpf(2)
	 * command of a process without CAP_BPF; newer ones (6.1 on) only map
	 * and program creation. Probe with the most open pin: EPERM there
	 * means the gate, and then every case must be EPERM.
	 */
	ASSERT_EQ(0, chmod(self->pin, 0666));
	gate = get_as_nobody(self->pin, 0);
	ASSERT_TRUE(gate == 0 || gate == EPERM)
		TH_LOG("nobody's get of a 0666 pin: %s", errno_token(gate));
	matrix_record("get-nobody-pin-0666-gate", "%s", errno_token(gate));

	for (i = 0; i < (int)(sizeof(cases) / sizeof(cases[0])); i++) {
		ASSERT_EQ(0, chmod(self->pin, cases[i].mode));
		got = get_as_nobody(self->pin, cases[i].flags);
		snprintf(row, sizeof(row), "get-%s-nobody-pin-%04o",
			 cases[i].flags_name, cases[i].mode);
		matrix_record(row, "%s", errno_token(got));
		if (gate == EPERM) {
			EXPECT_EQ(EPERM, got) TH_LOG("%s", row);
		} else {
			EXPECT_EQ(cases[i].allowed ? 0 : EACCES, got)
				TH_LOG("%s: %s", row, errno_token(got));
		}
	}
}

/* ---- map flags BPF_F_RDONLY_PROG / BPF_F_WRONLY_PROG (5.2) ---- */

/* A socket filter that looks up key 0 and stores to or loads from it. */
static int load_value_toucher(int map_fd, int write)
{
	const struct bpf_insn touch = write ?
		BPF_ST_MEM(BPF_W, BPF_REG_0, 0, 1) :
		BPF_LDX_MEM(BPF_W, BPF_REG_1, BPF_REG_0, 0);

	return load_key0_prog(BPF_PROG_TYPE_SOCKET_FILTER, map_fd, &touch, 1,
			      0);
}

static void check_prog_view(struct __test_metadata *_metadata, __u32 flag,
			    const char *name, int forbidden_write)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = flag);
	__u32 key = 0, value = 5;
	char row[64];
	int fd, prog, ret;

	/* the same programs load against a map without the flag */
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, 4, 4, 1, NULL);
	ASSERT_GE(fd, 0);
	prog = load_value_toucher(fd, forbidden_write);
	ASSERT_GE(prog, 0) TH_LOG("control program: %s\n%s", strerror(errno),
				  bpf_log_buf);
	close(prog);
	close(fd);

	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, 4, 4, 1, &opts);
	ASSERT_GE(fd, 0) TH_LOG("map with %s: %s", name, strerror(errno));
	prog = load_value_toucher(fd, forbidden_write);
	snprintf(row, sizeof(row), "map-%s-prog-%s", name,
		 forbidden_write ? "writes" : "reads");
	record_result(row, prog);
	EXPECT_EQ(-1, prog);
	EXPECT_EQ(EACCES, errno) TH_LOG("%s", bpf_log_buf);
	if (prog >= 0)
		close(prog);
	prog = load_value_toucher(fd, !forbidden_write);
	EXPECT_GE(prog, 0) TH_LOG("the allowed direction: %s", bpf_log_buf);
	if (prog >= 0)
		close(prog);

	/* user space keeps both directions */
	ret = bpf_update_elem(fd, &key, &value, BPF_ANY);
	snprintf(row, sizeof(row), "map-%s-user-update", name);
	record_result(row, ret);
	EXPECT_EQ(0, ret);
	value = 0;
	EXPECT_EQ(0, bpf_lookup_elem(fd, &key, &value));
	EXPECT_EQ(5, value);
	close(fd);
}

TEST(a_rdonly_prog_map_is_read_only_to_programs_only)
{
	check_prog_view(_metadata, BPF_F_RDONLY_PROG, "RDONLY_PROG", 1);
}

TEST(a_wronly_prog_map_is_write_only_to_programs_only)
{
	check_prog_view(_metadata, BPF_F_WRONLY_PROG, "WRONLY_PROG", 0);
}

/* ---- re-pinning ---- */

TEST_F(fs, pinning_over_an_existing_name_fails_and_keeps_the_old_object)
{
	unsigned int old_id;
	int a, b, ret;

	a = small_array();
	b = small_array();
	ASSERT_GE(a, 0);
	ASSERT_GE(b, 0);
	ASSERT_EQ(0, bpf_obj_pin(a, self->pin));
	old_id = map_id_of(a);
	ret = bpf_obj_pin(b, self->pin);
	record_result("pin-over-existing-name", ret);
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(EEXIST, errno);
	EXPECT_EQ(old_id, pinned_map_id(self->pin));
	close(a);
	close(b);
}

/* Two fresh maps, *a pinned at path_a and *b at path_b. */
static void pin_two_maps(struct __test_metadata *_metadata,
			 const char *path_a, int *a, const char *path_b, int *b)
{
	*a = small_array();
	*b = small_array();
	ASSERT_GE(*a, 0);
	ASSERT_GE(*b, 0);
	ASSERT_EQ(0, bpf_obj_pin(*a, path_a));
	ASSERT_EQ(0, bpf_obj_pin(*b, path_b));
}

TEST_F(fs, rename_moves_a_pin_and_noreplace_refuses_to_clobber)
{
	char other[160], moved[160];
	unsigned int id_a, id_b;
	int a, b, ret;

	snprintf(other, sizeof(other), "%s/other", self->fs);
	snprintf(moved, sizeof(moved), "%s/moved", self->fs);
	pin_two_maps(_metadata, self->pin, &a, other, &b);
	id_a = map_id_of(a);
	id_b = map_id_of(b);
	close(a);
	close(b);

	ret = rename(self->pin, moved);
	record_result("rename-pin", ret);
	ASSERT_EQ(0, ret) TH_LOG("rename: %s", strerror(errno));
	EXPECT_EQ(id_a, pinned_map_id(moved));
	EXPECT_EQ(-1, access(self->pin, F_OK));

	ret = renameat2(AT_FDCWD, moved, AT_FDCWD, other, RENAME_NOREPLACE);
	record_result("renameat2-noreplace-onto-pin", ret);
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(EEXIST, errno);
	EXPECT_EQ(id_a, pinned_map_id(moved));
	EXPECT_EQ(id_b, pinned_map_id(other));

	/* the common atomic replace: rename(2) over the old name */
	ret = rename(moved, other);
	record_result("rename-over-pin", ret);
	EXPECT_EQ(0, ret);
	EXPECT_EQ(id_a, pinned_map_id(other));
	/* the replaced pin's reference went with it */
	EXPECT_EQ(0, wait_id_gone(bpf_map_get_fd_by_id, id_b));
}

TEST_F(fs, rename_exchange_swaps_two_pins_where_supported)
{
	char other[160];
	unsigned int id_a, id_b;
	int a, b, ret;

	snprintf(other, sizeof(other), "%s/other", self->fs);
	pin_two_maps(_metadata, self->pin, &a, other, &b);
	id_a = map_id_of(a);
	id_b = map_id_of(b);

	ret = renameat2(AT_FDCWD, self->pin, AT_FDCWD, other, RENAME_EXCHANGE);
	record_result("renameat2-exchange-pins", ret);
	if (ret == 0) {
		EXPECT_EQ(id_b, pinned_map_id(self->pin));
		EXPECT_EQ(id_a, pinned_map_id(other));
	} else {
		/* simple_rename() without exchange support: nothing moved */
		EXPECT_EQ(EINVAL, errno);
		EXPECT_EQ(id_a, pinned_map_id(self->pin));
		EXPECT_EQ(id_b, pinned_map_id(other));
	}
	close(a);
	close(b);
}

/* ---- bpf_preload (5.10, CONFIG_BPF_PRELOAD) ---- */

TEST_F(fs, a_fresh_bpffs_has_preload_iterators_or_is_empty)
{
	char maps[160], progs[160], buf[256];
	struct stat st;
	int has_maps, has_progs, fd;
	ssize_t n = -1;

	snprintf(maps, sizeof(maps), "%s/maps.debug", self->fs);
	snprintf(progs, sizeof(progs), "%s/progs.debug", self->fs);
	has_maps = lstat(maps, &st) == 0;
	has_progs = lstat(progs, &st) == 0;
	matrix_record("preload-debug-files", "%s",
		      has_maps && has_progs ? "yes" : "no");
	/* both come from one preload module, or neither does */
	ASSERT_EQ(has_maps, has_progs);
	if (!has_progs)
		return;
	/* pinned iterator links, read-only to their owner */
	EXPECT_TRUE(S_ISREG(st.st_mode));
	EXPECT_EQ(0400, st.st_mode & 07777);
	fd = open(progs, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	record_result("preload-progs-debug-read", n);
	if (n >= 0) {
		buf[n] = '\0';
		/* the iterator's own header line */
		EXPECT_NE(NULL, strstr(buf, "id name"));
	}
}

TEST_HARNESS_MAIN
