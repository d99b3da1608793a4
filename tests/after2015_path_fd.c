// SPDX-License-Identifier: GPL-2.0
/*
 * BPF_F_PATH_FD (6.5): pin and get relative to a directory fd, like openat(),
 * including into a bpffs that is mounted nowhere (fsopen/fsmount). Kernels
 * before 6.5 refuse the flag with EINVAL and pin nothing.
 */
#include "kselftest_harness.h"
#include "bpffs_fixture.h"

FIXTURE(fs) {
	char fs[64];
	int dirfd;
	int map;
};

FIXTURE_SETUP(fs)
{
	self->dirfd = -1;
	self->map = -1;
	bpffs_fixture_mount(_metadata, self->fs, sizeof(self->fs));
	self->dirfd = open(self->fs, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	ASSERT_GE(self->dirfd, 0);
	self->map = bpf_create_map(BPF_MAP_TYPE_ARRAY, 4, 4, 1);
	ASSERT_GE(self->map, 0) TH_LOG("map: %s", strerror(errno));
}

FIXTURE_TEARDOWN(fs)
{
	if (self->map >= 0)
		close(self->map);
	if (self->dirfd >= 0)
		close(self->dirfd);
	bpffs_unmount(self->fs);
}

/* The id of the map pinned at name under dirfd, through BPF_F_PATH_FD. */
static unsigned int id_at(int dirfd, const char *name)
{
	LIBBPF_OPTS(bpf_obj_get_opts, opts,
		    .file_flags = BPF_F_PATH_FD,
		    .path_fd = dirfd);
	unsigned int id;
	int fd;

	fd = bpf_obj_get_opts(name, &opts);
	if (fd < 0)
		return 0;
	id = map_id_of(fd);
	close(fd);
	return id;
}

TEST_F(fs, pin_and_get_relative_to_a_directory_fd)
{
	LIBBPF_OPTS(bpf_obj_pin_opts, opts,
		    .file_flags = BPF_F_PATH_FD,
		    .path_fd = self->dirfd);
	char path[128];
	int ret, saved;

	snprintf(path, sizeof(path), "%s/rel", self->fs);
	/* a relative name that must not land in the working directory */
	ASSERT_EQ(0, chdir("/"));
	ret = bpf_obj_pin_opts(self->map, "rel", &opts);
	saved = errno;
	record_result("pin-path-fd", ret);
	if (ret < 0) {
		EXPECT_EQ(EINVAL, saved) TH_LOG("%s", strerror(saved));
		EXPECT_EQ(-1, access(path, F_OK)) TH_LOG("a refused pin left %s",
							 path);
		EXPECT_EQ(0, id_at(self->dirfd, "rel"));
		return;
	}
	EXPECT_EQ(0, access(path, F_OK));
	EXPECT_EQ(map_id_of(self->map), id_at(self->dirfd, "rel"));
}

TEST_F(fs, pin_into_a_bpffs_that_is_mounted_nowhere)
{
	LIBBPF_OPTS(bpf_obj_pin_opts, opts, .file_flags = BPF_F_PATH_FD);
	int fsfd, mnt, ret, saved;
	char path[128];

	fsfd = fsopen("bpf", FSOPEN_CLOEXEC);
	ASSERT_GE(fsfd, 0) TH_LOG("fsopen: %s", strerror(errno));
	ASSERT_EQ(0, fsconfig(fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0))
		TH_LOG("fsconfig: %s", strerror(errno));
	mnt = fsmount(fsfd, FSMOUNT_CLOEXEC, 0);
	close(fsfd);
	ASSERT_GE(mnt, 0) TH_LOG("fsmount: %s", strerror(errno));

	opts.path_fd = mnt;
	ret = bpf_obj_pin_opts(self->map, "detached", &opts);
	saved = errno;
	record_result("pin-path-fd-detached-mount", ret);
	if (ret < 0) {
		EXPECT_EQ(EINVAL, saved) TH_LOG("%s", strerror(saved));
	} else {
		EXPECT_EQ(map_id_of(self->map), id_at(mnt, "detached"));
		/* a bpffs of its own: the attached one did not get the name */
		snprintf(path, sizeof(path), "%s/detached", self->fs);
		EXPECT_EQ(-1, access(path, F_OK));
		EXPECT_EQ(0, faccessat(mnt, "detached", F_OK, 0));
	}
	close(mnt);
}

TEST_F(fs, a_path_fd_without_the_flag_is_ignored)
{
	char path[128];

	/* without BPF_F_PATH_FD the path is absolute as in 2015, path_fd 0 */
	snprintf(path, sizeof(path), "%s/abs", self->fs);
	ASSERT_EQ(0, bpf_obj_pin_opts(self->map, path, NULL));
	EXPECT_EQ(0, access(path, F_OK));
}

/*
 * A working directory that is a bpffs too, holding another map under the
 * same name: only with BPF_F_PATH_FD really sent does the name resolve
 * under the directory fd, for a get and for a pin.
 */
TEST_F(fs, a_relative_name_resolves_under_the_fd_not_the_working_directory)
{
	LIBBPF_OPTS(bpf_obj_pin_opts, opts,
		    .file_flags = BPF_F_PATH_FD,
		    .path_fd = self->dirfd);
	char cwd_fs[64], path[128];
	int other, ret;

	bpffs_fixture_mount(_metadata, cwd_fs, sizeof(cwd_fs));
	other = bpf_create_map(BPF_MAP_TYPE_ARRAY, 4, 4, 2);
	ASSERT_GE(other, 0);
	snprintf(path, sizeof(path), "%s/same", cwd_fs);
	ASSERT_EQ(0, bpf_obj_pin(other, path));
	snprintf(path, sizeof(path), "%s/same", self->fs);
	ASSERT_EQ(0, bpf_obj_pin(self->map, path));
	ASSERT_EQ(0, chdir(cwd_fs));

	ret = bpf_obj_pin_opts(self->map, "new", &opts);
	if (ret < 0) {
		/* before 6.5: refused, nothing pinned on either side */
		EXPECT_EQ(EINVAL, errno);
		EXPECT_EQ(0, id_at(self->dirfd, "same"));
	} else {
		EXPECT_EQ(map_id_of(self->map), id_at(self->dirfd, "same"));
		snprintf(path, sizeof(path), "%s/new", self->fs);
		EXPECT_EQ(0, access(path, F_OK));
		EXPECT_EQ(-1, access("new", F_OK)) TH_LOG("pinned in the cwd");
	}
	EXPECT_EQ(0, chdir("/"));
	close(other);
	bpffs_unmount(cwd_fs);
}

TEST_HARNESS_MAIN
