// SPDX-License-Identifier: GPL-2.0
/*
 * Pinned links (5.7; XDP links 5.9): a program attached through a bpf_link
 * stays attached after the process that attached it exits, as long as the
 * link is pinned, and is detached when the pin goes. Shown with an XDP
 * program counting the packets lo receives in a network namespace of our own.
 */
#include "kselftest_harness.h"
#include "bpffs_fixture.h"
#include "key0_progs.h"

#define PORT 4242

FIXTURE(link) {
	char fs[64];
	char link_pin[128];
	char map_pin[128];
	int sink;
};

FIXTURE_SETUP(link)
{
	self->sink = -1;
	bpffs_fixture_mount(_metadata, self->fs, sizeof(self->fs));
	ASSERT_EQ(0, netns_private_lo()) TH_LOG("netns: %s", strerror(errno));
	snprintf(self->link_pin, sizeof(self->link_pin), "%s/link", self->fs);
	snprintf(self->map_pin, sizeof(self->map_pin), "%s/count", self->fs);
	/* a receiver, so no ICMP port-unreachable joins the count */
	self->sink = lo_udp_sink(PORT);
	ASSERT_GE(self->sink, 0) TH_LOG("sink: %s", strerror(errno));
}

FIXTURE_TEARDOWN(link)
{
	if (self->sink >= 0)
		close(self->sink);
	bpffs_unmount(self->fs);
}

/*
 * In a child that then exits: load the counter, attach it to lo through a
 * link, pin the link and the map. Returns 0 if all of it worked, else the
 * errno of the step that failed (link creation's is the matrix row).
 */
static int attach_and_exit(const char *link_pin, const char *map_pin)
{
	int status, map, prog, link;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		map = bpf_create_map(BPF_MAP_TYPE_ARRAY, 4, 8, 1);
		if (map < 0 || bpf_obj_pin(map, map_pin))
			_exit(200);
		prog = load_xdp_counter(map);
		if (prog < 0)
			_exit(201);
		link = bpf_link_create(prog, if_nametoindex("lo"), BPF_XDP, NULL);
		if (link < 0)
			_exit(errno);
		if (bpf_obj_pin(link, link_pin))
			_exit(202);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* The counter's packets so far, or -1. */
static long long packets(const char *map_pin)
{
	__u64 count = 0;

	return read_pinned_count(map_pin, &count) ? -1 : (long long)count;
}

/* bpf_obj_get() with file_flags; the fd, or -1 (closed if it was got). */
static int get_with_flags(const char *path, __u32 flags)
{
	LIBBPF_OPTS(bpf_obj_get_opts, opts, .file_flags = flags);
	int fd = bpf_obj_get_opts(path, &opts);

	if (fd >= 0)
		close(fd);
	return fd < 0 ? -1 : fd;
}

TEST_F(link, a_pinned_link_keeps_counting_after_its_process_exits)
{
	struct bpf_link_info info;
	unsigned int len = sizeof(info);
	unsigned int prog_id;
	long long before;
	int ret, fd;

	ret = attach_and_exit(self->link_pin, self->map_pin);
	matrix_record("link-xdp-pinned-outlives-creator", "%s",
		      ret == 0 ? "ok" : ret > 0 && ret < 200 ?
		      strerrorname_np(ret) : "error");
	ASSERT_EQ(0, ret) TH_LOG("attach step failed: %d", ret);

	/* the creator is gone: only the pins hold link, program and map */
	ASSERT_EQ(0, packets(self->map_pin));
	ASSERT_EQ(0, lo_send_udp(PORT, 32, 5));
	EXPECT_EQ(5, packets(self->map_pin));

	fd = bpf_obj_get(self->link_pin);
	ASSERT_GE(fd, 0);
	memset(&info, 0, sizeof(info));
	ASSERT_EQ(0, bpf_obj_get_info_by_fd(fd, &info, &len));
	EXPECT_EQ(BPF_LINK_TYPE_XDP, info.type);
	prog_id = info.prog_id;
	close(fd);
	/* a link is got read-write or not at all */
	EXPECT_EQ(-1, get_with_flags(self->link_pin, BPF_F_RDONLY));
	EXPECT_EQ(EINVAL, errno) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(-1, get_with_flags(self->link_pin, BPF_F_WRONLY));
	EXPECT_EQ(EINVAL, errno) TH_LOG("%s", strerror(errno));

	/* the pin was the last reference: the program is detached and freed */
	ASSERT_EQ(0, unlink(self->link_pin));
	ASSERT_EQ(0, wait_id_gone(bpf_prog_get_fd_by_id, prog_id))
		TH_LOG("program %u still exists", prog_id);
	before = packets(self->map_pin);
	ASSERT_EQ(0, lo_send_udp(PORT, 32, 5));
	EXPECT_EQ(before, packets(self->map_pin));
	matrix_record("link-xdp-detached-on-unpin", "%s",
		      packets(self->map_pin) == before ? "yes" : "no");
}

TEST_HARNESS_MAIN
