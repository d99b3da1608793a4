// SPDX-License-Identifier: GPL-2.0
/*
 * Upgrading a pinned program in place (issue 21): BPF_LINK_UPDATE (5.7)
 * swaps the program behind a pinned XDP link for a new one without
 * detaching, with BPF_F_REPLACE naming the program it expects to replace;
 * and what stays attached when the attaching process exits, for a program
 * attached through netlink (no link), a pinned link and an unpinned one.
 * Each program counts the packets lo receives into a map of its own, in a
 * network namespace of our own where only this test sends.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* pipe2 */
#endif
#include <fcntl.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "bpffs_fixture.h"
#include "key0_progs.h"

#define PORT 4243
#define PACKETS 1000

/* The counter program and its map: one per program, so each counts alone. */
struct counter {
	int map, prog;
};

static int counter_load(struct counter *c)
{
	c->prog = -1;
	c->map = bpf_create_map(BPF_MAP_TYPE_ARRAY, 4, 8, 1);
	if (c->map < 0)
		return -1;
	c->prog = load_xdp_counter(c->map);
	return c->prog < 0 ? -1 : 0;
}

static void counter_close(struct counter *c)
{
	if (c->prog >= 0)
		close(c->prog);
	if (c->map >= 0)
		close(c->map);
}

/* Packets counted so far, or -1. */
static long long counted(const struct counter *c)
{
	__u32 key = 0;
	__u64 n = 0;

	return bpf_lookup_elem(c->map, &key, &n) ? -1 : (long long)n;
}

/* The link's id and its program's id, from the link's fd; -1 on failure. */
static int link_ids(int link_fd, unsigned int *id, unsigned int *prog)
{
	struct bpf_link_info info;

	if (bpf_link_get_info(link_fd, &info))
		return -1;
	*id = info.id;
	*prog = info.prog_id;
	return 0;
}

/* The RTM_SETLINK request of netlink_xdp. */
struct xdp_request {
	struct nlmsghdr nh;
	struct ifinfomsg ifi;
	char attrs[64];
};

/* Appends attribute type holding len bytes of data to the nest at rta. */
static void nest_put(struct rtattr *nest, int type, const void *data, int len)
{
	struct rtattr *rta;

	rta = (struct rtattr *)((char *)nest + RTA_ALIGN(nest->rta_len));
	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(len);
	memcpy(RTA_DATA(rta), data, len);
	nest->rta_len += RTA_ALIGN(rta->rta_len);
}

static void xdp_request(struct xdp_request *req, int ifindex, int prog_fd)
{
	__u32 flags = XDP_FLAGS_SKB_MODE;
	struct rtattr *xdp;

	memset(req, 0, sizeof(*req));
	req->nh.nlmsg_len = NLMSG_LENGTH(sizeof(req->ifi));
	req->nh.nlmsg_type = RTM_SETLINK;
	req->nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req->ifi.ifi_family = AF_UNSPEC;
	req->ifi.ifi_index = ifindex;
	xdp = (struct rtattr *)((char *)req + NLMSG_ALIGN(req->nh.nlmsg_len));
	xdp->rta_type = IFLA_XDP | NLA_F_NESTED;
	xdp->rta_len = RTA_LENGTH(0);
	nest_put(xdp, IFLA_XDP_FD, &prog_fd, sizeof(prog_fd));
	nest_put(xdp, IFLA_XDP_FLAGS, &flags, sizeof(flags));
	req->nh.nlmsg_len = NLMSG_ALIGN(req->nh.nlmsg_len) + xdp->rta_len;
}

/*
 * XDP through rtnetlink, the way before links (RTM_SETLINK with IFLA_XDP),
 * in generic (skb) mode: prog_fd -1 detaches. 0, or -1 and the errno the
 * kernel acknowledged with.
 */
static int netlink_xdp(int ifindex, int prog_fd)
{
	struct xdp_request req;
	struct {
		struct nlmsghdr nh;
		struct nlmsgerr err;
		char rest[256];
	} ack;
	int sock, err;
	ssize_t n;

	xdp_request(&req, ifindex, prog_fd);
	sock = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (sock < 0)
		return -1;
	n = send(sock, &req, req.nh.nlmsg_len, 0);
	if (n >= 0)
		n = recv(sock, &ack, sizeof(ack), 0);
	err = errno;
	close(sock);
	if (n < 0) {
		errno = err;
		return -1;
	}
	if (n < (ssize_t)NLMSG_LENGTH(sizeof(ack.err)) ||
	    ack.nh.nlmsg_type != NLMSG_ERROR) {
		errno = EPROTO;
		return -1;
	}
	if (ack.err.error) {
		errno = -ack.err.error;
		return -1;
	}
	return 0;
}

FIXTURE(upgrade) {
	char fs[64];
	char link_pin[128];
	struct counter a, b, c;
	int lo, sink;
};

FIXTURE_SETUP(upgrade)
{
	struct timeval tv = { .tv_sec = 1 };

	self->sink = -1;
	self->a.map = self->b.map = self->c.map = -1;
	self->a.prog = self->b.prog = self->c.prog = -1;
	bpffs_fixture_mount(_metadata, self->fs, sizeof(self->fs));
	ASSERT_EQ(0, netns_private_lo()) TH_LOG("netns: %s", strerror(errno));
	snprintf(self->link_pin, sizeof(self->link_pin), "%s/link", self->fs);
	self->lo = if_nametoindex("lo");
	ASSERT_NE(0, self->lo);
	self->sink = lo_udp_sink(PORT);
	ASSERT_GE(self->sink, 0) TH_LOG("sink: %s", strerror(errno));
	ASSERT_EQ(0, setsockopt(self->sink, SOL_SOCKET, SO_RCVTIMEO, &tv,
				sizeof(tv)));
	ASSERT_EQ(0, counter_load(&self->a)) TH_LOG("a: %s", strerror(errno));
	ASSERT_EQ(0, counter_load(&self->b)) TH_LOG("b: %s", strerror(errno));
	ASSERT_EQ(0, counter_load(&self->c)) TH_LOG("c: %s", strerror(errno));
}

FIXTURE_TEARDOWN(upgrade)
{
	if (self->sink >= 0)
		close(self->sink);
	counter_close(&self->a);
	counter_close(&self->b);
	counter_close(&self->c);
	bpffs_unmount(self->fs);
}

/*
 * In a child that then exits: attach prog_fd to lo through a link, pinned
 * at pin unless pin is NULL. 0, or the errno of the step that failed.
 */
static int link_and_exit(int prog_fd, int ifindex, const char *pin)
{
	int status, link;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return errno;
	if (pid == 0) {
		link = bpf_link_create(prog_fd, ifindex, BPF_XDP, NULL);
		if (link < 0)
			_exit(errno);
		if (pin && bpf_obj_pin(link, pin))
			_exit(errno);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* N packets to the sink, each received: 0, or -1 if one was not. */
static int send_and_receive(int sink, int n)
{
	char buf[64];
	int i;

	for (i = 0; i < n; i++) {
		if (lo_send_udp(PORT, 16, 1))
			return -1;
		if (recv(sink, buf, sizeof(buf), 0) != 16)
			return -1;
	}
	return 0;
}

TEST_F(upgrade, an_update_through_the_pin_swaps_the_program_in_place)
{
	unsigned int id, prog, id2, prog2;
	int link;

	ASSERT_EQ(0, link_and_exit(self->a.prog, self->lo, self->link_pin));
	ASSERT_EQ(0, send_and_receive(self->sink, 5));
	EXPECT_EQ(5, counted(&self->a));

	/* another process: the creator is gone, the pin holds the link */
	link = bpf_obj_get(self->link_pin);
	ASSERT_GE(link, 0) TH_LOG("get: %s", strerror(errno));
	ASSERT_EQ(0, link_ids(link, &id, &prog));
	EXPECT_EQ(prog_id_of(self->a.prog), prog);
	record_result("link-update-pinned-xdp",
		      bpf_link_update(link, self->b.prog, NULL));
	ASSERT_EQ(0, link_ids(link, &id2, &prog2));
	close(link);
	EXPECT_EQ(id, id2);
	EXPECT_EQ(prog_id_of(self->b.prog), prog2);

	ASSERT_EQ(0, send_and_receive(self->sink, 7));
	EXPECT_EQ(5, counted(&self->a));
	EXPECT_EQ(7, counted(&self->b));
}

TEST_F(upgrade, replace_names_the_program_it_expects_to_find)
{
	LIBBPF_OPTS(bpf_link_update_opts, opts, .flags = BPF_F_REPLACE);
	unsigned int id, prog;
	int link, ret;

	ASSERT_EQ(0, link_and_exit(self->a.prog, self->lo, self->link_pin));
	link = bpf_obj_get(self->link_pin);
	ASSERT_GE(link, 0) TH_LOG("get: %s", strerror(errno));

	/* c is not attached: refused, a stays */
	opts.old_prog_fd = self->c.prog;
	ret = bpf_link_update(link, self->b.prog, &opts);
	record_result("link-update-replace-wrong-old", ret);
	EXPECT_EQ(-1, ret);
	ASSERT_EQ(0, link_ids(link, &id, &prog));
	EXPECT_EQ(prog_id_of(self->a.prog), prog);

	/* a is: b takes its place */
	opts.old_prog_fd = self->a.prog;
	ret = bpf_link_update(link, self->b.prog, &opts);
	record_result("link-update-replace-right-old", ret);
	EXPECT_EQ(0, ret);
	ASSERT_EQ(0, link_ids(link, &id, &prog));
	EXPECT_EQ(prog_id_of(self->b.prog), prog);
	close(link);

	ASSERT_EQ(0, send_and_receive(self->sink, 3));
	EXPECT_EQ(0, counted(&self->a));
	EXPECT_EQ(3, counted(&self->b));
}

/*
 * A child swaps a and b behind the pinned link, over and over, while this
 * process sends PACKETS, each received, then tells it to stop (its pipe
 * closes) and the child leaves a attached. Every packet was counted by
 * exactly one of the two programs, so none met a moment without a program,
 * and both counted some, so the swaps happened under traffic.
 */
TEST_F(upgrade, no_packet_is_lost_in_the_swap)
{
	unsigned int id, prog;
	int status, sent, link, stop[2];
	pid_t pid;

	ASSERT_EQ(0, link_and_exit(self->a.prog, self->lo, self->link_pin));
	ASSERT_EQ(0, pipe2(stop, O_NONBLOCK));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		int i, fd = bpf_obj_get(self->link_pin);
		char c;

		close(stop[1]);
		if (fd < 0)
			_exit(1);
		for (i = 0; read(stop[0], &c, 1) < 0 && errno == EAGAIN; i++)
			if (bpf_link_update(fd, i % 2 ? self->a.prog :
					    self->b.prog, NULL))
				_exit(2);
		_exit(bpf_link_update(fd, self->a.prog, NULL) ? 3 : 0);
	}
	close(stop[0]);
	sent = send_and_receive(self->sink, PACKETS);
	close(stop[1]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("the swapper failed");
	ASSERT_EQ(0, sent) TH_LOG("a packet was not received");
	EXPECT_EQ(PACKETS, counted(&self->a) + counted(&self->b))
		TH_LOG("a counted %lld, b %lld", counted(&self->a),
		       counted(&self->b));
	EXPECT_LT(0, counted(&self->a));
	EXPECT_LT(0, counted(&self->b));
	link = bpf_obj_get(self->link_pin);
	ASSERT_GE(link, 0);
	ASSERT_EQ(0, link_ids(link, &id, &prog));
	close(link);
	EXPECT_EQ(prog_id_of(self->a.prog), prog);
}

/*
 * What stays attached once the attaching process is gone: a program
 * attached through netlink stays with the device; a link nobody pinned
 * goes with its last fd. And netlink and links do not share a device.
 */
TEST_F(upgrade, without_a_link_the_device_holds_the_program)
{
	int status, ret, link;
	pid_t pid;

	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(netlink_xdp(self->lo, self->a.prog) ? errno : 0);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status)) TH_LOG("netlink attach: %s",
						 strerror(WEXITSTATUS(status)));
	ASSERT_EQ(0, send_and_receive(self->sink, 4));
	ret = counted(&self->a);
	matrix_record("xdp-netlink-after-creator-exits", "%s",
		      ret == 4 ? "attached" : "detached");
	EXPECT_EQ(4, ret);

	/* a link on a device that has a netlink program */
	link = bpf_link_create(self->b.prog, self->lo, BPF_XDP, NULL);
	record_result("link-create-over-netlink-xdp", link);
	EXPECT_LT(link, 0);
	if (link >= 0)
		close(link);
	ASSERT_EQ(0, netlink_xdp(self->lo, -1)) TH_LOG("detach: %s",
						       strerror(errno));

	/* a link nobody pinned, its creator gone: detached */
	ASSERT_EQ(0, link_and_exit(self->b.prog, self->lo, NULL));
	ASSERT_EQ(0, send_and_receive(self->sink, 4));
	ret = counted(&self->b);
	matrix_record("link-xdp-unpinned-after-creator-exits", "%s",
		      ret == 0 ? "detached" : "attached");
	EXPECT_EQ(0, ret);

	/* netlink on a device that has a pinned link */
	ASSERT_EQ(0, link_and_exit(self->b.prog, self->lo, self->link_pin));
	ret = netlink_xdp(self->lo, self->c.prog);
	record_result("netlink-xdp-over-link", ret);
	EXPECT_EQ(-1, ret);
	ASSERT_EQ(0, send_and_receive(self->sink, 2));
	EXPECT_EQ(2, counted(&self->b));
	EXPECT_EQ(0, counted(&self->c));
}

TEST_HARNESS_MAIN
