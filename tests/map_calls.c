// SPDX-License-Identifier: GPL-2.0
/*
 * The 2015 map calls of libbpf.c pass on what they are given: the update
 * flags (BPF_ANY, BPF_NOEXIST, BPF_EXIST), deletion, and the key walk. A
 * pinned map is read and changed through exactly these calls, so a wrapper
 * that dropped a flag or sent the wrong command would change what every
 * later process finds. Hash maps, where keys come and go (an array's slots
 * always exist).
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

TEST_HARNESS_MAIN
