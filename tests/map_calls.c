// SPDX-License-Identifier: GPL-2.0
/*
 * The 2015 map calls of libbpf.c pass on what they are given: the update
 * flags (BPF_ANY, BPF_NOEXIST, BPF_EXIST), deletion, and the key walk. A
 * pinned map is read and changed through exactly these calls, so a wrapper
 * that dropped a flag or sent the wrong command would change what every
 * later process finds. Hash maps, where keys come and go (an array's slots
 * always exist). And BPF_MAP_GET_NEXT_ID (4.13), with which the scenarios
 * tell the maps a command left behind from the ids it freed.
 */
#include "kselftest_harness.h"
#include "bpffs_fixture.h"

FIXTURE(hash) {
	int fd;
};

FIXTURE_SETUP(hash)
{
	self->fd = bpf_create_map(BPF_MAP_TYPE_HASH, sizeof(__u32),
				  sizeof(__u32), 4);
	ASSERT_GE(self->fd, 0) TH_LOG("hash map: %s", strerror(errno));
}

FIXTURE_TEARDOWN(hash)
{
	if (self->fd >= 0)
		close(self->fd);
}

static int lookup(int fd, __u32 key, __u32 *value)
{
	*value = 0;
	return bpf_lookup_elem(fd, &key, value);
}

TEST_F(hash, noexist_adds_a_key_and_never_overwrites_one)
{
	__u32 key = 7, value = 1, got;

	ASSERT_EQ(0, bpf_update_elem(self->fd, &key, &value, BPF_NOEXIST));
	value = 2;
	EXPECT_EQ(-1, bpf_update_elem(self->fd, &key, &value, BPF_NOEXIST));
	EXPECT_EQ(EEXIST, errno);
	ASSERT_EQ(0, lookup(self->fd, key, &got));
	EXPECT_EQ(1, got);
}

TEST_F(hash, exist_overwrites_a_key_and_never_adds_one)
{
	__u32 key = 7, value = 1, got;

	EXPECT_EQ(-1, bpf_update_elem(self->fd, &key, &value, BPF_EXIST));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(-1, lookup(self->fd, key, &got));
	ASSERT_EQ(0, bpf_update_elem(self->fd, &key, &value, BPF_ANY));
	value = 3;
	ASSERT_EQ(0, bpf_update_elem(self->fd, &key, &value, BPF_EXIST));
	ASSERT_EQ(0, lookup(self->fd, key, &got));
	EXPECT_EQ(3, got);
}

TEST_F(hash, delete_removes_one_key_and_then_finds_none)
{
	__u32 key = 7, other = 8, value = 1, got;

	ASSERT_EQ(0, bpf_update_elem(self->fd, &key, &value, BPF_ANY));
	ASSERT_EQ(0, bpf_update_elem(self->fd, &other, &value, BPF_ANY));
	ASSERT_EQ(0, bpf_delete_elem(self->fd, &key));
	EXPECT_EQ(-1, lookup(self->fd, key, &got));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(0, lookup(self->fd, other, &got));
	EXPECT_EQ(-1, bpf_delete_elem(self->fd, &key));
	EXPECT_EQ(ENOENT, errno);
}

TEST_F(hash, next_key_walks_every_key_once)
{
	__u32 keys[] = { 3, 5, 9 }, value = 0, key, next, seen = 0;
	unsigned int i, n = 0;

	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, bpf_update_elem(self->fd, &keys[i], &value,
					     BPF_ANY));
	/* a key that is not in the map starts the walk at the first one */
	key = 1000;
	while (bpf_get_next_key(self->fd, &key, &next) == 0 && n < 10) {
		for (i = 0; i < 3; i++)
			if (next == keys[i])
				seen |= 1U << i;
		key = next;
		n++;
	}
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(3, n);
	EXPECT_EQ(7, seen);
}

/* The id of the map behind fd, or 0 on failure. */
static __u32 map_id(int fd)
{
	struct bpf_map_info info;

	if (fd < 0 || bpf_map_get_info(fd, &info))
		return 0;
	return info.id;
}

/*
 * BPF_MAP_GET_NEXT_ID answers the next live id, not the next number: with
 * the middle of three maps freed, a walk from the first reaches the third
 * and never names the freed one. Other processes may make maps meanwhile;
 * their ids only add stops on the way.
 */
TEST(next_id_skips_a_freed_map)
{
	__u32 ids[3], id, next;
	int fds[3], i, tries;

	for (i = 0; i < 3; i++) {
		fds[i] = bpf_create_map(BPF_MAP_TYPE_ARRAY, sizeof(__u32),
					sizeof(__u32), 1);
		ids[i] = map_id(fds[i]);
		ASSERT_NE(0, ids[i]) TH_LOG("map %d: %s", i, strerror(errno));
	}
	close(fds[1]);
	for (tries = 0; tries < 100; tries++) {
		int fd = bpf_map_get_fd_by_id(ids[1]);

		if (fd < 0)
			break;
		close(fd);
		usleep(10000);
	}
	ASSERT_LT(tries, 100) TH_LOG("map %u still alive after 1 s", ids[1]);
	for (id = ids[0]; id < ids[2]; id = next) {
		ASSERT_EQ(0, bpf_map_get_next_id(id, &next))
			TH_LOG("after %u: %s", id, strerror(errno));
		ASSERT_GT(next, id);
		ASSERT_NE(ids[1], next) TH_LOG("freed map %u named", next);
	}
	EXPECT_EQ(ids[2], id);
	close(fds[0]);
	close(fds[2]);
}

TEST_HARNESS_MAIN
