// SPDX-License-Identifier: GPL-2.0
/*
 * Programs across processes: a program pinned by one fds_example is got by
 * later processes, attached to a raw socket on lo, and seen acting on real
 * packets there: the default program cuts them to 1 byte, sockex1 passes
 * nothing and counts their bytes per IP protocol in its map.
 * Each test has its own network namespace, so only its packets are on lo.
 */
#include "kselftest_harness.h"
#include <sys/mman.h>
#include "bpffs_fixture.h"
#include "bpf_load.h"

#include <poll.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>

#define UDP_PORT 4242
#define PAYLOAD 100
/* What a socket filter on lo sees of one datagram: Ethernet, IPv4, UDP. */
#define FRAME (14 + 20 + 8 + PAYLOAD)

FIXTURE(lo) {
	char fs[64];
	char pin[128];
	int listener;
};

FIXTURE_SETUP(lo)
{
	self->fs[0] = '\0';
	ASSERT_EQ(0, netns_private_lo()) TH_LOG("netns: %s", strerror(errno));
	bpffs_fixture_mount(_metadata, self->fs, sizeof(self->fs));
	/* Someone listens, so no ICMP port-unreachable joins the count. */
	self->listener = lo_udp_sink(UDP_PORT);
	ASSERT_GE(self->listener, 0) TH_LOG("listener: %s", strerror(errno));
}

FIXTURE_TEARDOWN(lo)
{
	bpffs_unmount(self->fs);
}

/* Attaches the program pinned at path to a fresh raw socket on lo. */
static int attached_sock(const char *path)
{
	int fd = bpf_obj_get(path), sock;

	if (fd < 0)
		return -1;
	sock = lo_attach_filter(fd);
	close(fd);
	return sock;
}

/*
 * Lengths of the packets that reach sock, as the kernel saw them, up to
 * max: each of the first want may take ms to come, any after them
 * QUIET_MS. On lo a datagram's copies are queued before its send returns,
 * so the tests that expect some need not wait long for one more (in a
 * guest under TCG the full wait cost a second a run), and the tests that
 * expect none wait as long for the first (want = 0; 300 ms each before,
 * which left a guest's vCPU idle for 0.6 s a run).
 */
#define QUIET_MS 100
static int received(int sock, int *lens, int max, int want, int ms)
{
	struct pollfd pfd = { .fd = sock, .events = POLLIN };
	char buf[2048];
	int n = 0;

	while (n < max && poll(&pfd, 1, n < want ? ms : QUIET_MS) == 1) {
		ssize_t len = recv(sock, buf, sizeof(buf), MSG_TRUNC);

		if (len < 0)
			break;
		lens[n++] = len;
	}
	return n;
}

TEST_F(lo, default_program_pinned_by_one_process_cuts_packets_to_one_byte)
{
	int lens[64], n, i, sock;
	char out[512];

	snprintf(self->pin, sizeof(self->pin), "%s/p", self->fs);
	ASSERT_EQ(0, run_fds(out, sizeof(out), "-F", self->pin, "-P", "-p", NULL));
	EXPECT_STREQ("bpf: prog fd:3 (Success)\n"
		     "bpf: pin ret:(0,Success)\n"
		     "bpf: sock:4 <- fd:3 attached ret:(0,Success)\n", out);
	/* a later process gets it and attaches it too */
	ASSERT_EQ(0, run_fds(out, sizeof(out), "-F", self->pin, "-G", "-p", NULL));
	EXPECT_STREQ("bpf: get fd:3 (Success)\n"
		     "bpf: sock:4 <- fd:3 attached ret:(0,Success)\n", out);

	/* and so does this one, with a socket that outlives the call */
	sock = attached_sock(self->pin);
	ASSERT_GE(sock, 0) TH_LOG("attach: %s", strerror(errno));
	ASSERT_EQ(0, lo_send_udp(UDP_PORT, PAYLOAD, 3));
	n = received(sock, lens, 64, 6, 500);
	/* on lo each datagram passes twice: out and back in */
	EXPECT_EQ(6, n);
	for (i = 0; i < n; i++)
		EXPECT_EQ(1, lens[i]) TH_LOG("packet %d kept %d bytes", i, lens[i]);
	close(sock);
}

TEST_F(lo, without_a_filter_the_same_packets_arrive_whole)
{
	int lens[64], n, i, sock = open_raw_sock("lo");

	ASSERT_GE(sock, 0);
	ASSERT_EQ(0, lo_send_udp(UDP_PORT, PAYLOAD, 3));
	n = received(sock, lens, 64, 6, 500);
	EXPECT_EQ(6, n);
	for (i = 0; i < n; i++)
		EXPECT_EQ(FRAME, lens[i]);
	close(sock);
}

static long udp_bytes(int map)
{
	__u32 key = IPPROTO_UDP;
	long value = -1;

	return bpf_lookup_elem(map, &key, &value) ? -1 : value;
}

TEST_F(lo, sockex1_pinned_by_fds_example_counts_udp_bytes_and_passes_nothing)
{
	unsigned int ids[2];
	int lens[8], sock, prog, map;
	char out[512];

	snprintf(self->pin, sizeof(self->pin), "%s/p2", self->fs);
	ASSERT_EQ(0, run_fds(out, sizeof(out), "-F", self->pin, "-P", "-p",
			     "-o", "./sockex1_kern.o", NULL));
	EXPECT_STREQ("bpf: prog fd:5 (Success)\n"
		     "bpf: pin ret:(0,Success)\n"
		     "bpf: sock:3 <- fd:5 attached ret:(0,Success)\n", out);

	/* its map has no pin: reach it through the program's map id */
	prog = bpf_obj_get(self->pin);
	ASSERT_GE(prog, 0);
	ASSERT_EQ(1, prog_map_ids(prog, ids, 2));
	map = bpf_map_get_fd_by_id(ids[0]);
	ASSERT_GE(map, 0) TH_LOG("map id %u: %s", ids[0], strerror(errno));
	ASSERT_EQ(0, udp_bytes(map)) TH_LOG("the count must start at zero");

	sock = attached_sock(self->pin);
	ASSERT_GE(sock, 0);
	ASSERT_EQ(0, lo_send_udp(UDP_PORT, PAYLOAD, 5));
	EXPECT_EQ(0, received(sock, lens, 8, 0, 0)) TH_LOG("sockex1 returns 0: drop");
	/* counted once per datagram, on its way out */
	EXPECT_EQ(5 * FRAME, udp_bytes(map));
	ASSERT_EQ(0, lo_send_udp(UDP_PORT, 10, 2));
	EXPECT_EQ(5 * FRAME + 2 * (FRAME - PAYLOAD + 10), udp_bytes(map));
	close(sock);
	close(map);
	close(prog);
}

TEST_F(lo, sockex1_map_pinned_through_map_fd_is_read_by_a_later_process)
{
	char map_pin[160], prog_pin[160], end[80];
	int lens[8], status, sock, map;
	pid_t pid;

	snprintf(map_pin, sizeof(map_pin), "%s/proto_bytes", self->fs);
	snprintf(prog_pin, sizeof(prog_pin), "%s/sockex1", self->fs);

	/* one process loads the object, pins map_fd[0] and prog_fd[0], exits */
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		if (load_bpf_file("./sockex1_kern.o") ||
		    bpf_obj_pin(map_fd[0], map_pin) ||
		    bpf_obj_pin(prog_fd[0], prog_pin))
			_exit(1);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(exited_zero(status))
		TH_LOG("the loader: %s", child_end(status, end, sizeof(end)));

	sock = attached_sock(prog_pin);
	ASSERT_GE(sock, 0);
	ASSERT_EQ(0, lo_send_udp(UDP_PORT, PAYLOAD, 4));
	EXPECT_EQ(0, received(sock, lens, 8, 0, 0));
	close(sock);

	/* yet another process reads the count through the map's own pin */
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		map = bpf_obj_get(map_pin);
		_exit(map >= 0 && udp_bytes(map) == 4 * FRAME ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(exited_zero(status))
		TH_LOG("the reader: %s", child_end(status, end, sizeof(end)));
}

/*
 * The raw socket hears lo alone: bound to lo's index for every protocol.
 * A socket bound to all interfaces (index 0) would count packets of any
 * other interface too, and every test netns has lo only, so no packet test
 * would notice.
 */
TEST_F(lo, open_raw_sock_is_bound_to_lo_alone)
{
	struct sockaddr_ll sll;
	socklen_t len = sizeof(sll);
	int sock;

	sock = open_raw_sock("lo");
	ASSERT_GE(sock, 0) TH_LOG("%s", strerror(errno));
	memset(&sll, 0, sizeof(sll));
	ASSERT_EQ(0, getsockname(sock, (struct sockaddr *)&sll, &len));
	EXPECT_EQ(AF_PACKET, sll.sll_family);
	EXPECT_EQ((int)if_nametoindex("lo"), sll.sll_ifindex);
	EXPECT_EQ(htons(ETH_P_ALL), sll.sll_protocol);
	close(sock);

	/* a name that is no interface: refused, with the kernel's errno */
	EXPECT_EQ(-1, open_raw_sock("no-such-if0"));
	EXPECT_EQ(ENODEV, errno);
	EXPECT_EQ(-1, open_raw_sock("a-name-longer-than-ifnamsiz"));
	EXPECT_EQ(ENODEV, errno);
}

/*
 * The attach line is the kernel's answer: a pinned XDP program is a
 * program, so -G -p gets it, and SO_ATTACH_BPF refuses it (EINVAL: not a
 * socket filter). The pin, which this command did not make, stays.
 */
TEST_F(lo, a_pinned_program_of_another_type_is_refused_by_the_attach_and_stays)
{
	const struct bpf_insn xdp_pass[] = {
		BPF_MOV64_IMM(BPF_REG_0, XDP_PASS),
		BPF_EXIT_INSN(),
	};
	char out[512];
	int fd;

	snprintf(self->pin, sizeof(self->pin), "%s/xdp", self->fs);
	fd = bpf_prog_load(BPF_PROG_TYPE_XDP, xdp_pass, sizeof(xdp_pass),
			   "GPL", 0);
	ASSERT_GE(fd, 0) TH_LOG("XDP program: %s", strerror(errno));
	ASSERT_EQ(0, bpf_obj_pin(fd, self->pin)) TH_LOG("%s", strerror(errno));
	close(fd);

	EXPECT_EQ(1, run_fds(out, sizeof(out), "-F", self->pin, "-G", "-p", NULL));
	EXPECT_STREQ("bpf: get fd:3 (Success)\n"
		     "bpf: sock:4 <- fd:3 attached ret:(-1,Invalid argument)\n",
		     out);
	fd = bpf_obj_get(self->pin);
	EXPECT_GE(fd, 0) TH_LOG("the pin went: %s", strerror(errno));
	close(fd);
}

/*
 * lo_net's own calls, which the tests and lo_watch send with: each datagram
 * carries len bytes 'x', also when its socket is fd 0 (stdin closed), and
 * that socket is closed again; a port that has its sink takes no second
 * one: -1 with the kernel's errno, and no fd left behind.
 */
TEST_F(lo, lo_net_sends_x_bytes_from_fd_0_and_a_port_takes_one_sink)
{
	struct pollfd pfd = { .fd = self->listener, .events = POLLIN };
	char buf[64];
	int before;

	ASSERT_EQ(0, close(0));
	ASSERT_EQ(0, lo_send_udp(UDP_PORT, 5, 1)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(-1, fcntl(0, F_GETFD)) TH_LOG("the socket, fd 0, is still open");
	ASSERT_EQ(1, poll(&pfd, 1, 500));
	ASSERT_EQ(5, recv(self->listener, buf, sizeof(buf), MSG_TRUNC));
	EXPECT_EQ(0, memcmp(buf, "xxxxx", 5)) TH_LOG("sent '%.5s'", buf);

	before = open_fd_count();
	EXPECT_EQ(-1, lo_udp_sink(UDP_PORT));
	EXPECT_EQ(EADDRINUSE, errno) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(before, open_fd_count());
}

/* A length that is not whole instructions is refused, not rounded down. */
TEST(bpf_prog_load_refuses_a_length_that_is_not_whole_instructions)
{
	const struct bpf_insn insns[3] = {
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	int fd;

	errno = 0;
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, insns,
			   2 * sizeof(insns[0]) + 1, "GPL", 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
	if (fd >= 0)
		close(fd);
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, insns,
			   2 * sizeof(insns[0]), "GPL", 0);
	EXPECT_GE(fd, 0) TH_LOG("two whole instructions: %s", strerror(errno));
	if (fd >= 0)
		close(fd);
}

/*
 * A rejected program leaves in bpf_log_buf the verifier's level-1 log, the
 * 2015 samples' log: the instructions as the verifier walked them, then why
 * it refused. (Level 2 starts "func#0 @0" and adds the liveness of every
 * register at every instruction.) The verdict is the reason's line.
 */
TEST(a_rejected_program_leaves_the_level_1_log_and_its_verdict)
{
	/* exit with r0 never written */
	const struct bpf_insn insns[] = { BPF_EXIT_INSN() };
	char verdict[128];
	int fd;

	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, insns, sizeof(insns),
			   "GPL", 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EACCES, errno) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(0, strncmp(bpf_log_buf, "0: ", 3)) TH_LOG("log:\n%s", bpf_log_buf);
	EXPECT_NE(NULL, strstr(bpf_log_buf, "0: (95) exit\nR0 !read_ok\n"))
		TH_LOG("log:\n%s", bpf_log_buf);
	bpf_verifier_verdict(bpf_log_buf, verdict, sizeof(verdict));
	EXPECT_STREQ("R0 !read_ok", verdict);
	if (fd >= 0)
		close(fd);
}

/*
 * A log longer than bpf_log_buf: the kernel fills the buffer and says
 * ENOSPC, yet the load failed for the verifier's reason, which is the errno
 * the caller gets; the buffer holds LOG_BUF_SIZE - 1 bytes of log and its
 * NUL. (5000 instructions of about 18 bytes of log each.)
 */
#define LONG_PROG 5000
TEST(a_log_that_overflows_the_buffer_fills_it_and_keeps_the_verifier_errno)
{
	static struct bpf_insn insns[LONG_PROG];
	int fd, i;

	for (i = 0; i < LONG_PROG - 1; i++)
		insns[i] = (struct bpf_insn)BPF_MOV64_IMM(BPF_REG_1, 1);
	/* exit with r0 never written */
	insns[LONG_PROG - 1] = (struct bpf_insn)BPF_EXIT_INSN();
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, insns, sizeof(insns),
			   "GPL", 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EACCES, errno) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(LOG_BUF_SIZE - 1, strlen(bpf_log_buf));
	if (fd >= 0)
		close(fd);
}

/*
 * A rejected program whose log the kernel refuses too: a buffer over its
 * largest (UINT_MAX >> 2 bytes) is EINVAL on the second try, and that is
 * the answer the caller gets (only a log that overflowed gives the
 * verifier's errno back), with an empty log. The 1 GiB is reserved, not
 * used: the wrapper touches its first and last bytes, the kernel none.
 */
TEST(a_log_buffer_the_kernel_refuses_is_reported_as_such)
{
	const struct bpf_insn insns[] = {
		BPF_EXIT_INSN(),	/* r0 never written: EACCES */
	};
	const size_t size = 1U << 30;
	char *log;

	log = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	ASSERT_NE(MAP_FAILED, log) TH_LOG("%s", strerror(errno));
	log[0] = 'x';
	EXPECT_EQ(-1, bpf_prog_load_log(BPF_PROG_TYPE_SOCKET_FILTER, insns,
					sizeof(insns), "GPL", 0, log, size));
	EXPECT_EQ(EINVAL, errno) TH_LOG("%s", strerror(errno));
	EXPECT_EQ('\0', log[0]);
	munmap(log, size);
}

/*
 * Stdin closed, a program is loaded as fd 0, and that is a success like any
 * other: one load, one new fd, no log, whatever errno held before.
 */
/*
 * A program has no read-only or write-only fd: its pin is got whatever the
 * file_flags ask, as a program fd like any other, open read-write.
 */
TEST(a_pinned_program_is_got_whatever_the_file_flags)
{
	const struct bpf_insn insns[] = {
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	const __u32 flags[] = { 0, BPF_F_RDONLY, BPF_F_WRONLY };
	char fs[64], pin[96];
	unsigned int i;
	int prog, fd;

	bpffs_fixture_mount(_metadata, fs, sizeof(fs));
	snprintf(pin, sizeof(pin), "%s/p", fs);
	prog = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, insns, sizeof(insns),
			     "GPL", 0);
	ASSERT_GE(prog, 0) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, bpf_obj_pin(prog, pin)) TH_LOG("%s", strerror(errno));
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		LIBBPF_OPTS(bpf_obj_get_opts, opts, .file_flags = flags[i]);

		fd = bpf_obj_get_opts(pin, &opts);
		EXPECT_GE(fd, 0) TH_LOG("flags %#x: %s", flags[i], strerror(errno));
		if (fd < 0)
			continue;
		EXPECT_EQ(O_RDWR, fcntl(fd, F_GETFL) & O_ACCMODE);
		close(fd);
	}
	close(prog);
	bpffs_unmount(fs);
}

TEST(a_program_loaded_as_fd_0_is_loaded_once)
{
	const struct bpf_insn insns[] = {
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	int fd, before;

	ASSERT_EQ(0, close(0));
	before = open_fd_count();
	errno = EINVAL;
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, insns, sizeof(insns),
			   "GPL", 0);
	EXPECT_EQ(0, fd) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(before + 1, open_fd_count());
	EXPECT_STREQ("", bpf_log_buf);
	if (fd >= 0)
		close(fd);
}

/*
 * The verdict is the last line of the log but for the statistics lines
 * ("processed N insns ...", "verification time N usec"). A line that only
 * starts like one is a verdict, and so is a last line without a newline.
 */
TEST(the_verdict_is_the_last_line_that_is_no_statistics)
{
	char v[64];

	bpf_verifier_verdict("0: (95) exit\nR0 !read_ok\n"
			     "verification time 7 usec\n"
			     "processed 1 insns (limit 1000000)\n", v, sizeof(v));
	EXPECT_STREQ("R0 !read_ok", v);
	bpf_verifier_verdict("R0 !read_ok\nprocessedness\n", v, sizeof(v));
	EXPECT_STREQ("processedness", v);
	bpf_verifier_verdict("R0 !read_ok\nverification timing", v, sizeof(v));
	EXPECT_STREQ("verification timing", v);
	bpf_verifier_verdict("processed 0 insns\n", v, sizeof(v));
	EXPECT_STREQ("", v);
}

/*
 * Whether the kernel compiles a program to machine code (the JIT) or runs
 * it in its interpreter: what `bpftool prog show` prints as "jited NB" or
 * "not jited", and what the walkthrough expects. net.core.bpf_jit_enable
 * decides, where the kernel has a JIT at all.
 */
TEST(a_program_is_jited_exactly_when_the_jit_is_on)
{
	const struct bpf_insn insns[] = {
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	char sysctl[16];
	int fd;

	read_sysctl("/proc/sys/net/core/bpf_jit_enable", sysctl, sizeof(sysctl));
	matrix_record("net.core.bpf_jit_enable", "%s", sysctl);
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, insns,
			   sizeof(insns), "GPL", 0);
	ASSERT_GE(fd, 0) TH_LOG("load: %s", strerror(errno));
	memset(&info, 0, sizeof(info));
	ASSERT_EQ(0, bpf_obj_get_info_by_fd(fd, &info, &len));
	close(fd);
	matrix_record("prog-jited", "%s", info.jited_prog_len ? "yes" : "no");
	/* 1 on, 2 on with debug output; 0 off; absent: no JIT built */
	EXPECT_EQ(!strcmp(sysctl, "1") || !strcmp(sysctl, "2"),
		  info.jited_prog_len != 0)
		TH_LOG("bpf_jit_enable %s, jited %u bytes", sysctl,
		       info.jited_prog_len);
}

TEST_HARNESS_MAIN
