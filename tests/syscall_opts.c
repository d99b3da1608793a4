// SPDX-License-Identifier: GPL-2.0
/*
 * The calls of bpf_syscall.h take option structs the libbpf way: sz says how
 * big the caller's struct is, a field past sz reads as 0, and bytes the
 * library does not know must be zero. And what the kernel writes back (the
 * length of an info struct) reaches the caller.
 */
#include "kselftest_harness.h"
#include <sys/syscall.h>
#include "bpffs_fixture.h"

/* A caller built against a larger struct: ours, then fields we lack. */
struct newer_obj_get_opts {
	struct bpf_obj_get_opts known;
	__u64 unknown;
};

FIXTURE(fs) {
	char fs[64];
	char pin[96];
};

FIXTURE_SETUP(fs)
{
	int fd;

	bpffs_fixture_mount(_metadata, self->fs, sizeof(self->fs));
	snprintf(self->pin, sizeof(self->pin), "%s/m", self->fs);
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "opts", 4, 4, 1, NULL);
	ASSERT_GE(fd, 0) TH_LOG("map: %s", strerror(errno));
	ASSERT_EQ(0, bpf_obj_pin(fd, self->pin));
	close(fd);
}

FIXTURE_TEARDOWN(fs)
{
	bpffs_unmount(self->fs);
}

/* sz must at least cover itself: 0 is a struct never set up. */
TEST_F(fs, opts_smaller_than_their_sz_field_are_refused)
{
	struct bpf_obj_get_opts opts = { .file_flags = BPF_F_RDONLY };

	EXPECT_EQ(-1, bpf_obj_get_opts(self->pin, &opts));
	EXPECT_EQ(EINVAL, errno);
	opts.sz = sizeof(opts.sz) - 1;
	EXPECT_EQ(-1, bpf_obj_get_opts(self->pin, &opts));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(fs, a_field_past_sz_is_not_read)
{
	LIBBPF_OPTS(bpf_obj_get_opts, opts, .file_flags = BPF_F_RDONLY);
	__u32 key = 0, value = 1;
	int fd;

	/* sz ends before file_flags: the fd is read-write */
	opts.sz = offsetof(struct bpf_obj_get_opts, file_flags);
	fd = bpf_obj_get_opts(self->pin, &opts);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(0, bpf_update_elem(fd, &key, &value, BPF_ANY));
	close(fd);

	opts.sz = sizeof(opts);
	fd = bpf_obj_get_opts(self->pin, &opts);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(-1, bpf_update_elem(fd, &key, &value, BPF_ANY));
	EXPECT_EQ(EPERM, errno);
	close(fd);
}

TEST_F(fs, a_larger_struct_is_taken_only_if_its_tail_is_zero)
{
	struct newer_obj_get_opts newer = {
		.known = { .sz = sizeof(newer) },
	};
	int fd;

	fd = bpf_obj_get_opts(self->pin, &newer.known);
	EXPECT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	if (fd >= 0)
		close(fd);
	newer.unknown = 1;
	EXPECT_EQ(-1, bpf_obj_get_opts(self->pin, &newer.known));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(fs, map_create_reads_its_opts)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = BPF_F_RDONLY_PROG);
	struct bpf_map_info info;
	int fd;

	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, 4, 4, 1, &opts);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, bpf_map_get_info(fd, &info));
	EXPECT_EQ(BPF_F_RDONLY_PROG, info.map_flags);
	close(fd);
	opts.sz = 0;
	EXPECT_EQ(-1, bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, 4, 4, 1, &opts));
	EXPECT_EQ(EINVAL, errno);
}

/*
 * bpf_link_create() checks its opts before the kernel sees anything: sz 0
 * is EINVAL from the library, while a good sz lets the kernel answer for
 * the fds (EBADF for -1).
 */
TEST(link_create_refuses_opts_before_the_kernel)
{
	LIBBPF_OPTS(bpf_link_create_opts, opts);

	EXPECT_EQ(-1, bpf_link_create(-1, -1, BPF_CGROUP_INET_INGRESS, &opts));
	EXPECT_EQ(EBADF, errno) TH_LOG("%s", strerror(errno));
	opts.sz = 0;
	EXPECT_EQ(-1, bpf_link_create(-1, -1, BPF_CGROUP_INET_INGRESS, &opts));
	EXPECT_EQ(EINVAL, errno) TH_LOG("%s", strerror(errno));
}

/*
 * Every call that takes opts refuses a struct whose sz was never set, with
 * EINVAL from the library itself: errno is cleared first, and the fds and
 * data given would make the kernel answer otherwise (EBADF) or not at all.
 */
TEST(every_call_with_opts_refuses_an_unset_sz_itself)
{
	struct bpf_map_create_opts map = {};
	struct bpf_obj_get_opts get = {};
	struct bpf_obj_pin_opts pin = {};
	struct bpf_btf_load_opts btf = {};
	struct bpf_link_create_opts link = {};
	struct bpf_link_update_opts update = {};
	struct bpf_token_create_opts token = {};
	char btf_data[1] = { 0 };

	errno = 0;
	EXPECT_EQ(-1, bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, 4, 4, 1, &map));
	EXPECT_EQ(EINVAL, errno) TH_LOG("map_create: %s", strerror(errno));
	errno = 0;
	EXPECT_EQ(-1, bpf_obj_get_opts("/nonexistent", &get));
	EXPECT_EQ(EINVAL, errno) TH_LOG("obj_get: %s", strerror(errno));
	errno = 0;
	EXPECT_EQ(-1, bpf_obj_pin_opts(-1, "/nonexistent", &pin));
	EXPECT_EQ(EINVAL, errno) TH_LOG("obj_pin: %s", strerror(errno));
	errno = 0;
	EXPECT_EQ(-1, bpf_btf_load(btf_data, sizeof(btf_data), &btf));
	EXPECT_EQ(EINVAL, errno) TH_LOG("btf_load: %s", strerror(errno));
	errno = 0;
	EXPECT_EQ(-1, bpf_link_create(-1, -1, BPF_CGROUP_INET_INGRESS, &link));
	EXPECT_EQ(EINVAL, errno) TH_LOG("link_create: %s", strerror(errno));
	errno = 0;
	EXPECT_EQ(-1, bpf_link_update(-1, -1, &update));
	EXPECT_EQ(EINVAL, errno) TH_LOG("link_update: %s", strerror(errno));
	errno = 0;
	EXPECT_EQ(-1, bpf_token_create(-1, &token));
	EXPECT_EQ(EINVAL, errno) TH_LOG("token_create: %s", strerror(errno));
}

/*
 * A BTF blob the kernel refuses, with a log buffer and a log level: the
 * kernel says why in the buffer (a buffer without a level would be EINVAL
 * before the blob is read, and stay empty).
 */
TEST(a_refused_btf_blob_is_explained_in_the_log)
{
	LIBBPF_OPTS(bpf_btf_load_opts, opts);
	char btf_data[1] = { 0 };
	char log[256];

	memset(log, 0, sizeof(log));
	opts.log_buf = log;
	opts.log_size = sizeof(log);
	opts.log_level = 1;
	EXPECT_EQ(-1, bpf_btf_load(btf_data, sizeof(btf_data), &opts));
	EXPECT_EQ(EINVAL, errno) TH_LOG("%s", strerror(errno));
	EXPECT_NE(0, log[0]) TH_LOG("the kernel left the log empty");
	EXPECT_EQ(0, log[sizeof(log) - 1]);
}

/*
 * Asked for more than it has, the kernel fills its own struct bpf_map_info
 * and says how much that is; a caller must not read past it.
 */
TEST_F(fs, the_info_length_is_what_the_kernel_wrote)
{
	unsigned char buf[sizeof(struct bpf_map_info) + 256];
	__u32 len = sizeof(buf);
	int fd;

	fd = bpf_obj_get(self->pin);
	ASSERT_GE(fd, 0);
	memset(buf, 0, sizeof(buf));
	ASSERT_EQ(0, bpf_obj_get_info_by_fd(fd, buf, &len))
		TH_LOG("%s", strerror(errno));
	EXPECT_LT(len, sizeof(buf));
	EXPECT_GE(len, offsetof(struct bpf_map_info, name) + BPF_OBJ_NAME_LEN);
	EXPECT_STREQ("opts", ((struct bpf_map_info *)buf)->name);
	close(fd);
}

/*
 * A link's info has fields the caller fills in: a raw tracepoint link reads
 * tp_name and tp_name_len from the caller's struct, and writes the name
 * there when both are set. bpf_link_get_info() asks for nothing, so they
 * must reach the kernel as 0: it then says only how long the name is.
 */
TEST(link_info_asks_a_raw_tracepoint_link_for_nothing)
{
	static const char tp[] = "sys_enter";
	struct bpf_insn insns[] = {
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	struct bpf_link_info info;
	union bpf_attr attr;
	int prog, link;

	prog = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, insns,
			     sizeof(insns), "GPL", 0);
	ASSERT_GE(prog, 0) TH_LOG("load: %s", strerror(errno));
	memset(&attr, 0, sizeof(attr));
	attr.raw_tracepoint.name = (__u64)(unsigned long)tp;
	attr.raw_tracepoint.prog_fd = prog;
	link = syscall(__NR_bpf, BPF_RAW_TRACEPOINT_OPEN, &attr, sizeof(attr));
	ASSERT_GE(link, 0) TH_LOG("raw_tracepoint_open: %s", strerror(errno));
	EXPECT_EQ(0, bpf_link_get_info(link, &info)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(BPF_LINK_TYPE_RAW_TRACEPOINT, info.type);
	EXPECT_EQ(sizeof(tp), info.raw_tracepoint.tp_name_len);
	close(link);
	close(prog);
}

/*
 * A pin gives no access mode (BPF_F_RDONLY is a get's flag), and a get
 * takes no fd: the kernel refuses both with EINVAL, and pins nothing.
 */
TEST_F(fs, a_pin_takes_no_access_flag_and_a_get_no_fd)
{
	LIBBPF_OPTS(bpf_obj_pin_opts, opts, .file_flags = BPF_F_RDONLY);
	char other[112];
	union bpf_attr attr;
	int fd;

	fd = bpf_obj_get(self->pin);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	snprintf(other, sizeof(other), "%s/ro", self->fs);
	EXPECT_EQ(-1, bpf_obj_pin_opts(fd, other, &opts));
	EXPECT_EQ(EINVAL, errno) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(-1, access(other, F_OK));

	memset(&attr, 0, sizeof(attr));
	attr.pathname = (__u64)(unsigned long)self->pin;
	attr.bpf_fd = fd;
	errno = 0;
	EXPECT_EQ(-1, syscall(__NR_bpf, BPF_OBJ_GET, &attr, sizeof(attr)));
	EXPECT_EQ(EINVAL, errno) TH_LOG("%s", strerror(errno));
	close(fd);
}

/*
 * An fd got from a pin closes on exec, read-write or read-only, like every
 * fd bpf(2) hands out: a child exec'd later must not inherit the map.
 */
TEST_F(fs, an_fd_got_from_a_pin_closes_on_exec)
{
	LIBBPF_OPTS(bpf_obj_get_opts, opts, .file_flags = BPF_F_RDONLY);
	int fd;

	fd = bpf_obj_get(self->pin);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(FD_CLOEXEC, fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
	fd = bpf_obj_get_opts(self->pin, &opts);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(FD_CLOEXEC, fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
}

/*
 * What a read-only fd got from a pin may not do, whichever command asks:
 * take an element out (BPF_MAP_LOOKUP_AND_DELETE_ELEM needs read and
 * write), or write through a batch (BPF_MAP_UPDATE_BATCH). Both EPERM,
 * before the kernel looks at the map's type.
 */
TEST_F(fs, a_read_only_fd_neither_takes_out_nor_writes_a_batch)
{
	LIBBPF_OPTS(bpf_obj_get_opts, opts, .file_flags = BPF_F_RDONLY);
	__u32 key = 0, value = 0, count = 1;
	union bpf_attr attr;
	int fd;

	fd = bpf_obj_get_opts(self->pin, &opts);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = (__u64)(unsigned long)&key;
	attr.value = (__u64)(unsigned long)&value;
	EXPECT_EQ(-1, syscall(__NR_bpf, BPF_MAP_LOOKUP_AND_DELETE_ELEM, &attr,
			      sizeof(attr)));
	EXPECT_EQ(EPERM, errno) TH_LOG("lookup and delete: %s", strerror(errno));

	memset(&attr, 0, sizeof(attr));
	attr.batch.map_fd = fd;
	attr.batch.keys = (__u64)(unsigned long)&key;
	attr.batch.values = (__u64)(unsigned long)&value;
	attr.batch.count = count;
	EXPECT_EQ(-1, syscall(__NR_bpf, BPF_MAP_UPDATE_BATCH, &attr, sizeof(attr)));
	EXPECT_EQ(EPERM, errno) TH_LOG("update batch: %s", strerror(errno));
	close(fd);
}

/*
 * BPF_F_RDONLY and BPF_F_WRONLY at creation make the creating fd read-only
 * or write-only; they are the fd's, not the map's: the map's info never
 * shows them.
 */
TEST(an_access_flag_at_creation_is_the_fds_not_the_maps)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts);
	const __u32 flags[] = { BPF_F_RDONLY, BPF_F_WRONLY };
	struct bpf_map_info info;
	unsigned int i;
	int fd;

	for (i = 0; i < 2; i++) {
		opts.map_flags = flags[i];
		fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, 4, 4, 1, &opts);
		ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
		ASSERT_EQ(0, bpf_map_get_info(fd, &info)) TH_LOG("%s", strerror(errno));
		EXPECT_EQ(0, info.map_flags & (BPF_F_RDONLY | BPF_F_WRONLY))
			TH_LOG("map_flags %#x", info.map_flags);
		close(fd);
	}
}

TEST_HARNESS_MAIN
