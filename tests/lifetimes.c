// SPDX-License-Identifier: GPL-2.0
/*
 * Lifetimes: a pin holds a reference of its own, so a pinned object outlives
 * every fd and process; removing the pin drops that reference, and the object
 * is freed (its id stops resolving) once no fd holds it either.
 */
#include "kselftest_harness.h"
#include "bpffs_fixture.h"

BPFFS_FS_FIXTURE("obj");

static int map_value(int fd, __u32 key)
{
	__u32 value = 0;

	return bpf_lookup_elem(fd, &key, &value) ? -1 : (int)value;
}

TEST_F(fs, a_pinned_map_outlives_the_process_and_every_fd)
{
	unsigned int id;
	int fd;

	ASSERT_EQ(0, run_fds(NULL, 0, "-F", self->pin, "-P", "-m", "-k", "1",
			     "-v", "7", NULL));
	/* its creator has exited: nothing but the pin holds the map */
	id = pinned_map_id(self->pin);
	ASSERT_NE(0, id);
	usleep(100000);
	fd = bpf_map_get_fd_by_id(id);
	ASSERT_GE(fd, 0) TH_LOG("map %u is gone: %s", id, strerror(errno));
	EXPECT_EQ(7, map_value(fd, 1));
	close(fd);
}

TEST_F(fs, removing_the_pin_frees_an_unreferenced_map)
{
	unsigned int id;

	ASSERT_EQ(0, run_fds(NULL, 0, "-F", self->pin, "-P", "-m", NULL));
	id = pinned_map_id(self->pin);
	ASSERT_NE(0, id);
	ASSERT_EQ(0, unlink(self->pin));
	EXPECT_EQ(0, wait_id_gone(bpf_map_get_fd_by_id, id))
		TH_LOG("map %u still exists after rm", id);
	EXPECT_EQ(-1, bpf_obj_get(self->pin));
	EXPECT_EQ(ENOENT, errno);
}

TEST_F(fs, removing_the_pin_frees_an_unreferenced_program)
{
	unsigned int id;
	int fd;

	ASSERT_EQ(0, run_fds(NULL, 0, "-F", self->pin, "-P", "-p", NULL));
	fd = bpf_obj_get(self->pin);
	ASSERT_GE(fd, 0);
	id = prog_id_of(fd);
	close(fd);
	ASSERT_NE(0, id);
	fd = bpf_prog_get_fd_by_id(id);
	ASSERT_GE(fd, 0) TH_LOG("the pinned program must be alive");
	close(fd);
	ASSERT_EQ(0, unlink(self->pin));
	EXPECT_EQ(0, wait_id_gone(bpf_prog_get_fd_by_id, id));
}

TEST_F(fs, an_fd_held_by_another_process_keeps_the_map_alive_after_rm)
{
	int to_child[2], to_parent[2], status, fd;
	unsigned int id;
	char c = 0, end[80];
	pid_t pid;

	ASSERT_EQ(0, run_fds(NULL, 0, "-F", self->pin, "-P", "-m", "-k", "3",
			     "-v", "99", NULL));
	id = pinned_map_id(self->pin);
	ASSERT_NE(0, id);
	ASSERT_EQ(0, pipe(to_child));
	ASSERT_EQ(0, pipe(to_parent));

	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		int held = bpf_obj_get(self->pin);
		char v;

		/* tell the parent we hold it, wait until the pin is gone */
		if (held < 0 || write(to_parent[1], "h", 1) != 1 ||
		    read(to_child[0], &v, 1) != 1)
			_exit(2);
		v = map_value(held, 3) == 99 ? 'y' : 'n';
		if (write(to_parent[1], &v, 1) != 1)
			_exit(2);
		_exit(0);
	}
	ASSERT_EQ(1, read(to_parent[0], &c, 1));
	ASSERT_EQ(0, unlink(self->pin));
	ASSERT_NE(0, access(self->pin, F_OK));

	/* the pin is gone, yet the map is not */
	usleep(100000);
	fd = bpf_map_get_fd_by_id(id);
	EXPECT_GE(fd, 0) TH_LOG("map %u freed while a process holds it", id);
	if (fd >= 0)
		close(fd);
	ASSERT_EQ(1, write(to_child[1], "g", 1));
	ASSERT_EQ(1, read(to_parent[0], &c, 1));
	EXPECT_EQ('y', c) TH_LOG("the holder no longer reads 3:99");
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(exited_zero(status))
		TH_LOG("the holder: %s", child_end(status, end, sizeof(end)));

	/* with the last fd closed, it goes */
	EXPECT_EQ(0, wait_id_gone(bpf_map_get_fd_by_id, id));
}

TEST_F(fs, objects_never_pinned_die_with_their_process)
{
	int ids[2], status;
	unsigned int id;
	pid_t pid;

	ASSERT_EQ(0, pipe(ids));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		int fd = bpf_create_map(BPF_MAP_TYPE_ARRAY, 4, 4, 8);
		unsigned int mine = fd < 0 ? 0 : map_id_of(fd);

		_exit(write(ids[1], &mine, sizeof(mine)) == sizeof(mine) ? 0 : 1);
	}
	ASSERT_EQ(sizeof(id), read(ids[0], &id, sizeof(id)));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_NE(0, id);
	EXPECT_EQ(0, wait_id_gone(bpf_map_get_fd_by_id, id));
}

TEST_F(fs, a_pin_keeps_the_object_across_many_processes)
{
	char key[16], value[16], out[256], want[256];
	int i;

	ASSERT_EQ(0, run_fds(NULL, 0, "-F", self->pin, "-P", "-m", NULL));
	for (i = 0; i < 20; i++) {
		snprintf(key, sizeof(key), "%d", i);
		snprintf(value, sizeof(value), "%d", i * i);
		ASSERT_EQ(0, run_fds(NULL, 0, "-F", self->pin, "-G", "-m",
				     "-k", key, "-v", value, NULL));
	}
	for (i = 0; i < 20; i++) {
		snprintf(key, sizeof(key), "%d", i);
		ASSERT_EQ(0, run_fds(out, sizeof(out), "-F", self->pin, "-G",
				     "-m", "-k", key, NULL));
		snprintf(want, sizeof(want),
			 "bpf: get fd:3 (Success)\nbpf: fd:3 l->(%d):%d ret:(0,Success)\n",
			 i, i * i);
		EXPECT_STREQ(want, out);
	}
}

TEST_HARNESS_MAIN
