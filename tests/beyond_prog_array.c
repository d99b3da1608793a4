// SPDX-License-Identifier: GPL-2.0
/*
 * The prog-array user-reference trap (issue 21). A program that tail-calls
 * through a BPF_MAP_TYPE_PROG_ARRAY holds the array, so the array lives as
 * long as the program; but the kernel empties the array's slots as soon as
 * the last *user* reference goes: the last fd a process holds on it and
 * the last pin. A loader that fills the array and exits without pinning it
 * leaves its dispatcher attached and calling nothing. Pinned, the slots
 * stay; unpinned again, they go once no fd is left either.
 *
 * The dispatcher here is a socket filter on a UDP socket of the test's, in a
 * network namespace of its own: it tail-calls slot 0 (a program counting
 * into `hit`) and, when the slot is empty, falls through and counts into
 * `fall`. Both return the whole datagram, so every one is received.
 */
#include "kselftest_harness.h"
#include "bpffs_fixture.h"
#include "key0_progs.h"

#define PORT 4244

/*
 * The kernel empties the slots from a work queue, a moment after the last
 * user reference went: "cleared" is seen within CLEAR_WAIT_MS, and "kept"
 * means nothing was cleared for KEPT_WINDOW_MS (the clearing takes
 * milliseconds, on every kernel of the matrix, in the guests too: in 16
 * clearings on the four kernels under TCG the first poll saw the slots
 * empty; 500 ms before, which left a guest's vCPU idle for a second).
 */
#define CLEAR_WAIT_MS 5000
#define KEPT_WINDOW_MS 200
#define POLL_MS 10

/* The sink and its two counters, and the ids the last loader reported. */
struct rig {
	int sink, hit, fall;
	unsigned int jmp_id, target_id;
};

FIXTURE(jmp) {
	char fs[64];
	char pin[128];
	struct rig rig;
};

FIXTURE_SETUP(jmp)
{
	struct timeval tv = { .tv_sec = 1 };

	self->rig.sink = self->rig.hit = self->rig.fall = -1;
	bpffs_fixture_mount(_metadata, self->fs, sizeof(self->fs));
	snprintf(self->pin, sizeof(self->pin), "%s/jmp", self->fs);
	ASSERT_EQ(0, netns_private_lo()) TH_LOG("netns: %s", strerror(errno));
	self->rig.sink = lo_udp_sink(PORT);
	ASSERT_GE(self->rig.sink, 0) TH_LOG("sink: %s", strerror(errno));
	ASSERT_EQ(0, setsockopt(self->rig.sink, SOL_SOCKET, SO_RCVTIMEO, &tv,
				sizeof(tv)));
	self->rig.hit = bpf_create_map(BPF_MAP_TYPE_ARRAY, 4, 8, 1);
	ASSERT_GE(self->rig.hit, 0) TH_LOG("hit: %s", strerror(errno));
	self->rig.fall = bpf_create_map(BPF_MAP_TYPE_ARRAY, 4, 8, 1);
	ASSERT_GE(self->rig.fall, 0) TH_LOG("fall: %s", strerror(errno));
}

FIXTURE_TEARDOWN(jmp)
{
	if (self->rig.sink >= 0)
		close(self->rig.sink);
	if (self->rig.hit >= 0)
		close(self->rig.hit);
	if (self->rig.fall >= 0)
		close(self->rig.fall);
	bpffs_unmount(self->fs);
}

/* load_and_exit's answer, in words. */
static const char *loader_error(int err)
{
	return err == EPROTO ? "the tail call was not taken while the loader lived"
			     : strerror(err);
}

static long long count(int map)
{
	__u64 n = 0;

	return read_count(map, &n) ? -1 : (long long)n;
}

/*
 * One datagram through the dispatcher: 1 if the tail call reached the
 * counting program, 0 if it fell through, -1 if the datagram was lost or a
 * count could not be read.
 */
static int tail_call_taken(struct rig *rig)
{
	long long hit = count(rig->hit), fall = count(rig->fall);
	char buf[64];

	if (hit < 0 || fall < 0 || lo_send_udp(PORT, 16, 1) ||
	    recv(rig->sink, buf, sizeof(buf), 0) != 16)
		return -1;
	if (count(rig->hit) == hit + 1 && count(rig->fall) == fall)
		return 1;
	if (count(rig->fall) == fall + 1 && count(rig->hit) == hit)
		return 0;
	return -1;
}

/* What the loader child reports through its pipe. */
struct loaded {
	int err;		/* 0, or the errno of the step that failed */
	unsigned int jmp_id, target_id;
};

/*
 * The loader, in a child: a prog array with the counting program in slot
 * 0, pinned at pin unless pin is NULL, and the dispatcher attached to the
 * sink. It reports on out, then waits until in is closed and exits: every
 * fd it had goes with it.
 */
static void loader_child(int out, int in, int sink, int hit, int fall,
			 const char *pin)
{
	struct loaded r = { 0 };
	int len, jmp, target, dispatcher;
	const struct bpf_insn *add_one = xdp_counter_body(&len);
	__u32 slot = 0;
	char c;

	jmp = bpf_create_map(BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 1);
	target = load_key0_prog(BPF_PROG_TYPE_SOCKET_FILTER, hit, add_one, len,
				-1);
	dispatcher = jmp < 0 ? -1 :
		load_tail_call_prog(BPF_PROG_TYPE_SOCKET_FILTER, jmp, fall, -1);
	if (jmp < 0 || target < 0 || dispatcher < 0 ||
	    bpf_update_elem(jmp, &slot, &target, BPF_ANY) ||
	    (pin && bpf_obj_pin(jmp, pin)) ||
	    setsockopt(sink, SOL_SOCKET, SO_ATTACH_BPF, &dispatcher,
		       sizeof(dispatcher)))
		r.err = errno ? errno : EINVAL;
	r.jmp_id = jmp < 0 ? 0 : map_id_of(jmp);
	r.target_id = target < 0 ? 0 : prog_id_of(target);
	if (write(out, &r, sizeof(r)) != sizeof(r))
		_exit(1);
	_exit(read(in, &c, 1) == 0 ? 0 : 1);
}

/*
 * Runs loader_child; while it lives, a datagram must take the tail call;
 * then it exits. 0, or an errno (EPROTO: the tail call was not taken).
 */
static int load_and_exit(struct rig *rig, const char *pin)
{
	struct loaded r = { .err = EPIPE };
	int out[2], in[2], status, taken = -1;
	pid_t pid;

	if (pipe(out))
		return errno;
	if (pipe(in)) {
		close(out[0]);
		close(out[1]);
		return errno;
	}
	pid = fork();
	if (pid < 0)
		return errno;
	if (pid == 0) {
		close(out[0]);
		close(in[1]);
		loader_child(out[1], in[0], rig->sink, rig->hit, rig->fall,
			     pin);
	}
	close(out[1]);
	close(in[0]);
	if (read(out[0], &r, sizeof(r)) != sizeof(r))
		r.err = EPIPE;
	close(out[0]);
	if (!r.err)
		taken = tail_call_taken(rig);
	close(in[1]);
	if (waitpid(pid, &status, 0) < 0 || !exited_zero(status))
		return r.err ? r.err : ECHILD;
	rig->jmp_id = r.jmp_id;
	rig->target_id = r.target_id;
	return r.err ? r.err : taken == 1 ? 0 : EPROTO;
}

/*
 * Sends until a datagram falls through (the slots were emptied), for at
 * most ms milliseconds: "cleared", "kept", or NULL if a datagram went
 * wrong.
 */
static const char *slots_after(struct rig *rig, int ms)
{
	int waited, taken;

	for (waited = 0; waited <= ms; waited += POLL_MS) {
		taken = tail_call_taken(rig);
		if (taken < 0)
			return NULL;
		if (!taken)
			return "cleared";
		usleep(POLL_MS * 1000);
	}
	return "kept";
}

/* What slot 0 holds, read through a fd got by the array's id: the
 * program's id, 0 if the slot is empty, -1 if the array cannot be got.
 */
static long long slot0_of(unsigned int jmp_id)
{
	__u32 slot = 0, prog = 0;
	int fd, ret;

	fd = bpf_map_get_fd_by_id(jmp_id);
	if (fd < 0)
		return -1;
	ret = bpf_lookup_elem(fd, &slot, &prog);
	close(fd);
	if (ret)
		return errno == ENOENT ? 0 : -1;
	return prog;
}

TEST_F(jmp, an_unpinned_array_is_emptied_when_its_loader_exits)
{
	const char *seen;
	int err;

	err = load_and_exit(&self->rig, NULL);
	ASSERT_EQ(0, err) TH_LOG("loader: %s", loader_error(err));
	seen = slots_after(&self->rig, CLEAR_WAIT_MS);
	ASSERT_NE(NULL, seen);
	matrix_record("prog-array-creator-exits-unpinned", "%s", seen);
	EXPECT_STREQ("cleared", seen);
	/* the dispatcher holds the array: it lives on, its slot empty */
	EXPECT_EQ(0, slot0_of(self->rig.jmp_id));
	EXPECT_EQ(0, tail_call_taken(&self->rig));
}

TEST_F(jmp, a_pin_keeps_the_slots_and_the_last_fd_after_it_empties_them)
{
	const char *seen;
	int fd, err;

	err = load_and_exit(&self->rig, self->pin);
	ASSERT_EQ(0, err) TH_LOG("loader: %s", loader_error(err));
	seen = slots_after(&self->rig, KEPT_WINDOW_MS);
	ASSERT_NE(NULL, seen);
	matrix_record("prog-array-creator-exits-pinned", "%s", seen);
	EXPECT_STREQ("kept", seen);
	EXPECT_EQ(self->rig.target_id, slot0_of(self->rig.jmp_id));

	/* an fd got from the pin is a user reference too */
	fd = bpf_obj_get(self->pin);
	ASSERT_GE(fd, 0) TH_LOG("get: %s", strerror(errno));
	ASSERT_EQ(0, unlink(self->pin));
	seen = slots_after(&self->rig, KEPT_WINDOW_MS);
	ASSERT_NE(NULL, seen);
	matrix_record("prog-array-unpinned-fd-still-held", "%s", seen);
	EXPECT_STREQ("kept", seen);

	close(fd);
	seen = slots_after(&self->rig, CLEAR_WAIT_MS);
	ASSERT_NE(NULL, seen);
	matrix_record("prog-array-last-fd-closed", "%s", seen);
	EXPECT_STREQ("cleared", seen);
	EXPECT_EQ(0, slot0_of(self->rig.jmp_id));
}

TEST_F(jmp, a_slot_filled_again_calls_until_the_last_reference_goes)
{
	__u32 slot = 0;
	int fd, len, target, err;
	const struct bpf_insn *add_one = xdp_counter_body(&len);

	err = load_and_exit(&self->rig, NULL);
	ASSERT_EQ(0, err) TH_LOG("loader: %s", loader_error(err));
	ASSERT_STREQ("cleared", slots_after(&self->rig, CLEAR_WAIT_MS));
	/* by id, the array is reachable again: fill the slot through that fd */
	fd = bpf_map_get_fd_by_id(self->rig.jmp_id);
	ASSERT_GE(fd, 0) TH_LOG("by id: %s", strerror(errno));
	target = load_key0_prog(BPF_PROG_TYPE_SOCKET_FILTER, self->rig.hit,
				add_one, len, -1);
	ASSERT_GE(target, 0) TH_LOG("target: %s", strerror(errno));
	ASSERT_EQ(0, bpf_update_elem(fd, &slot, &target, BPF_ANY));
	close(target);
	EXPECT_EQ(1, tail_call_taken(&self->rig));
	close(fd);
	EXPECT_STREQ("cleared", slots_after(&self->rig, CLEAR_WAIT_MS));
}

TEST_HARNESS_MAIN
