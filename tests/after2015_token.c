// SPDX-License-Identifier: GPL-2.0
/*
 * bpffs mount options and BPF tokens: mode= (4.10) and uid=/gid= set the
 * root of a bpffs; delegate_* (6.9) let root hand an unprivileged user
 * namespace a bpffs from which it makes a token, and with the token that
 * namespace may create what was delegated. Older kernels ignore unknown
 * bpffs options and know no BPF_TOKEN_CREATE; what they answer is asserted.
 */
#include "kselftest_harness.h"
#include "bpffs_fixture.h"

#include <sys/prctl.h>

TEST(mount_options_set_the_root_of_a_bpffs)
{
	char dir[64] = "", mnt[80];
	struct stat st;
	int uid_set;

	/* the fixture's mount is default; this one carries the options */
	ASSERT_EQ(0, bpffs_private_mount(dir, sizeof(dir)));
	snprintf(mnt, sizeof(mnt), "%s/opt", dir);
	ASSERT_EQ(0, mkdir(mnt, 0700));
	ASSERT_EQ(0, mount("bpf", mnt, "bpf", 0,
			   "mode=0750,uid=65534,gid=65534"))
		TH_LOG("mount: %s", strerror(errno));
	ASSERT_EQ(0, stat(mnt, &st));
	umount2(mnt, MNT_DETACH);
	rmdir(mnt);
	bpffs_unmount(dir);

	matrix_record("mount-mode-0750-root-mode", "%04o", st.st_mode & 07777);
	/* the root is sticky whatever the mode, like /tmp */
	EXPECT_EQ(01750, st.st_mode & 07777);
	/* kernels before uid=/gid= ignore them: root keeps 0:0 */
	uid_set = st.st_uid == 65534;
	matrix_record("mount-uid-gid-options", "%s",
		      uid_set ? "yes" : "ignored");
	EXPECT_EQ(uid_set ? 65534 : 0, st.st_uid);
	EXPECT_EQ(uid_set ? 65534 : 0, st.st_gid);
}

/*
 * mode= is octal whether or not it starts with a 0: "750" is 0750, as
 * chmod would read it (a kernel that read it in decimal would set 01356).
 */
TEST(the_mode_option_is_octal_without_its_leading_zero)
{
	char dir[64] = "", mnt[80];
	struct stat st;

	ASSERT_EQ(0, bpffs_private_mount(dir, sizeof(dir)));
	snprintf(mnt, sizeof(mnt), "%s/opt", dir);
	ASSERT_EQ(0, mkdir(mnt, 0700));
	ASSERT_EQ(0, mount("bpf", mnt, "bpf", 0, "mode=750"))
		TH_LOG("mount: %s", strerror(errno));
	ASSERT_EQ(0, stat(mnt, &st));
	umount2(mnt, MNT_DETACH);
	rmdir(mnt);
	bpffs_unmount(dir);
	EXPECT_EQ(01750, st.st_mode & 07777) TH_LOG("mode %04o", st.st_mode & 07777);
}

/*
 * bpffs ignores an option it does not know, as it always has: the mount
 * works (it says so in the kernel's log only).
 */
TEST(an_unknown_mount_option_is_ignored)
{
	char dir[64] = "", mnt[80];

	ASSERT_EQ(0, bpffs_private_mount(dir, sizeof(dir)));
	snprintf(mnt, sizeof(mnt), "%s/opt", dir);
	ASSERT_EQ(0, mkdir(mnt, 0700));
	EXPECT_EQ(0, mount("bpf", mnt, "bpf", 0, "nosuchoption=1"))
		TH_LOG("mount: %s", strerror(errno));
	umount2(mnt, MNT_DETACH);
	rmdir(mnt);
	bpffs_unmount(dir);
}

/* One fd, plus an int of data, over a unix socket. */
static int send_fd(int sock, int fd, int data)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = &data, .iov_len = sizeof(data) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cmsg;

	if (fd >= 0) {
		memset(cbuf, 0, sizeof(cbuf));
		msg.msg_control = cbuf;
		msg.msg_controllen = sizeof(cbuf);
		cmsg = CMSG_FIRSTHDR(&msg);
		cmsg->cmsg_level = SOL_SOCKET;
		cmsg->cmsg_type = SCM_RIGHTS;
		cmsg->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
	}
	return sendmsg(sock, &msg, 0) == sizeof(data) ? 0 : -1;
}

/* Returns the fd received (-1 if none came) and the data in *data. */
static int recv_fd(int sock, int *data)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = data, .iov_len = sizeof(*data) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cmsg;
	int fd = -1;

	*data = -1;
	if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != sizeof(*data))
		return -1;
	cmsg = CMSG_FIRSTHDR(&msg);
	if (cmsg && cmsg->cmsg_level == SOL_SOCKET &&
	    cmsg->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(cmsg), sizeof(int));
	return fd;
}

static int write_file(const char *path, const char *text)
{
	int fd, ok;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	close(fd);
	return ok ? 0 : -1;
}

/*
 * What the child in the user namespace saw, as errno values (0: worked;
 * NOT_TRIED: an earlier step failed, so the call was not made).
 */
#define NOT_TRIED (-1)

struct userns_result {
	int setup;		/* becoming nobody in a user namespace */
	int map_without_token;
	int token_undelegated;
	int token;
	int map_with_token;
	int delegate_self;	/* setting delegate_cmds on its own bpffs */
};

static int errno_of(int ret)
{
	return ret >= 0 ? 0 : errno;
}

/*
 * The child: nobody, in user and mount namespaces of its own, with no
 * capability in the initial namespace. It opens two bpffs contexts, which
 * the parent configures (one delegated, one not) and mounts for it.
 */
static void userns_child(int sock)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts);
	struct userns_result r = { 0 };
	int fsfd[2], mnt[2], data, fd, i;

	if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534) ||
	    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) ||
	    unshare(CLONE_NEWUSER | CLONE_NEWNS) ||
	    write_file("/proc/self/setgroups", "deny") ||
	    write_file("/proc/self/uid_map", "0 65534 1") ||
	    write_file("/proc/self/gid_map", "0 65534 1"))
		r.setup = errno ? errno : EIO;

	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, 4, 4, 1, NULL);
	r.map_without_token = errno_of(fd);
	if (fd >= 0)
		close(fd);

	for (i = 0; i < 2; i++)
		fsfd[i] = r.setup ? -1 : fsopen("bpf", FSOPEN_CLOEXEC);
	/* only root of the initial namespace may delegate: not on a third */
	fd = r.setup ? -1 : fsopen("bpf", FSOPEN_CLOEXEC);
	r.delegate_self = fd < 0 ? NOT_TRIED :
		errno_of(fsconfig(fd, FSCONFIG_SET_STRING, "delegate_cmds",
				  "map_create", 0));
	if (fd >= 0)
		close(fd);
	for (i = 0; i < 2; i++)
		send_fd(sock, fsfd[i], errno_of(fsfd[i]));
	/* fsmount() gives an O_PATH fd; a token needs the opened root */
	for (i = 0; i < 2; i++) {
		fd = recv_fd(sock, &data);
		mnt[i] = fd < 0 ? -1 :
			 openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0)
			close(fd);
	}

	fd = bpf_token_create(mnt[1], NULL);
	r.token_undelegated = mnt[1] < 0 ? NOT_TRIED : errno_of(fd);
	if (fd >= 0)
		close(fd);

	fd = bpf_token_create(mnt[0], NULL);
	r.token = mnt[0] < 0 ? NOT_TRIED : errno_of(fd);
	r.map_with_token = NOT_TRIED;
	if (fd >= 0) {
		opts.map_flags = BPF_F_TOKEN_FD;
		opts.token_fd = fd;
		i = bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, 4, 4, 1, &opts);
		r.map_with_token = errno_of(i);
	}
	if (write(sock, &r, sizeof(r)) != sizeof(r))
		_exit(1);
	_exit(0);
}

/*
 * The parent, root in the initial namespace, turns the child's context into
 * a mount: delegated or not. Returns the mount fd or -1; *step names what
 * failed.
 */
static int make_mount(int fsfd, int delegate, const char **step)
{
	static const char *const opts[][2] = {
		{ "delegate_cmds", "map_create" },
		{ "delegate_maps", "array" },
	};
	int i, mnt;

	for (i = 0; delegate && i < 2; i++) {
		*step = opts[i][0];
		if (fsconfig(fsfd, FSCONFIG_SET_STRING, opts[i][0], opts[i][1],
			     0))
			return -1;
	}
	*step = "create";
	if (fsconfig(fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0))
		return -1;
	*step = "fsmount";
	mnt = fsmount(fsfd, FSMOUNT_CLOEXEC, 0);
	return mnt;
}

/*
 * Does this kernel know BPF_TOKEN_CREATE at all? Asked as root on a plain
 * bpffs: EINVAL, no such command; EOPNOTSUPP, no token in the initial user
 * namespace. Returns 1 if tokens exist.
 */
static int probe_token_cmd(struct __test_metadata *_metadata)
{
	char dir[64] = "";
	int plain_fd, ret, known;

	ASSERT_EQ(0, bpffs_private_mount(dir, sizeof(dir)));
	plain_fd = open(dir, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	ASSERT_GE(plain_fd, 0);
	ret = bpf_token_create(plain_fd, NULL);
	record_result("token-create-plain-bpffs", ret);
	ASSERT_EQ(-1, ret);
	ASSERT_TRUE(errno == EINVAL || errno == EOPNOTSUPP)
		TH_LOG("%s", strerror(errno));
	known = errno == EOPNOTSUPP;
	close(plain_fd);
	bpffs_unmount(dir);
	return known;
}

/*
 * The parent's side of the exchange: the child's two bpffs contexts become
 * mounts (the first delegated) and go back to it. Returns the errno of the
 * first mount that failed, 0 if none did.
 */
static int serve_mounts(struct __test_metadata *_metadata, int sock)
{
	int fsfd, mnt[2], data, i, create_err = 0;
	const char *step = "";

	for (i = 0; i < 2; i++) {
		fsfd = recv_fd(sock, &data);
		mnt[i] = -1;
		if (fsfd < 0)
			continue;
		mnt[i] = make_mount(fsfd, i == 0, &step);
		if (mnt[i] < 0 && !create_err) {
			create_err = errno;
			TH_LOG("bpffs for the user namespace, %s: %s",
			       step, strerror(errno));
		}
		close(fsfd);
	}
	for (i = 0; i < 2; i++) {
		send_fd(sock, mnt[i], 0);
		if (mnt[i] >= 0)
			close(mnt[i]);
	}
	return create_err;
}

/* Runs the child; its results come back in *r, the mount errno returned. */
static int run_userns_child(struct __test_metadata *_metadata,
			    struct userns_result *r)
{
	int sv[2], status, create_err;
	pid_t pid;

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		close(sv[0]);
		userns_child(sv[1]);
	}
	close(sv[1]);
	create_err = serve_mounts(_metadata, sv[0]);
	ASSERT_EQ(sizeof(*r), read(sv[0], r, sizeof(*r)));
	close(sv[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	return create_err;
}

/*
 * No tokens. Whether root may still create a bpffs for a user namespace
 * differs (5.10 yes, 6.1 EPERM); if it could, the namespace's
 * BPF_TOKEN_CREATE is an unknown command (EINVAL), or refused before that
 * by 5.10's unprivileged_bpf_disabled gate on every command (EPERM).
 */
static void check_without_tokens(struct __test_metadata *_metadata,
				 const struct userns_result *r, int create_err)
{
	EXPECT_TRUE(create_err == 0 || create_err == EPERM);
	if (create_err == 0) {
		EXPECT_TRUE(r->token == EINVAL || r->token == EPERM)
			TH_LOG("token: %s", strerror(r->token));
	}
	EXPECT_NE(0, r->map_with_token);
	/* no delegate_* option: an unknown option, ignored */
	EXPECT_EQ(0, r->delegate_self) TH_LOG("%s", strerror(r->delegate_self));
}

static void check_with_tokens(struct __test_metadata *_metadata,
			      const struct userns_result *r, int create_err)
{
	ASSERT_EQ(0, create_err);
	matrix_record("userns-token-undelegated-bpffs", "%s",
		      r->token_undelegated ?
		      strerrorname_np(r->token_undelegated) : "ok");
	matrix_record("userns-map-create-with-token", "%s",
		      r->map_with_token ?
		      strerrorname_np(r->map_with_token) : "ok");
	EXPECT_NE(0, r->token_undelegated);
	EXPECT_EQ(EPERM, r->delegate_self) TH_LOG("%s", strerror(r->delegate_self));
	EXPECT_EQ(0, r->token) TH_LOG("token: %s", strerror(r->token));
	EXPECT_EQ(0, r->map_with_token) TH_LOG("map: %s",
					       strerror(r->map_with_token));
}

/*
 * The options of the bpffs mounted at mnt, as /proc/self/mountinfo shows
 * them (the super block's, after " - bpf bpf "), into buf; 0 if found.
 */
static int mount_options(const char *mnt, char *buf, size_t len)
{
	char line[1024], point[256], *super;
	FILE *f = fopen("/proc/self/mountinfo", "r");
	int found = -1;

	if (!f)
		return -1;
	while (found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %*s %*s %*s %255s", point) != 1 ||
		    strcmp(point, mnt))
			continue;
		super = strstr(line, " - bpf ");
		if (super)
			super = strchr(super + 7, ' ');
		if (super) {
			snprintf(buf, len, "%s", super + 1);
			buf[strcspn(buf, "\n")] = '\0';
			found = 0;
		}
	}
	fclose(f);
	return found;
}

/*
 * delegate_cmds=any is shown as "any" where tokens exist (6.9), not as the
 * list of every command; older kernels ignore the option, and show none.
 */
TEST(a_delegation_of_any_command_is_shown_as_any)
{
	char dir[64] = "", mnt[80], opts[512] = "";
	int token_cmd = probe_token_cmd(_metadata);

	ASSERT_EQ(0, bpffs_private_mount(dir, sizeof(dir)));
	snprintf(mnt, sizeof(mnt), "%s/opt", dir);
	ASSERT_EQ(0, mkdir(mnt, 0700));
	ASSERT_EQ(0, mount("bpf", mnt, "bpf", 0, "delegate_cmds=any"))
		TH_LOG("mount: %s", strerror(errno));
	EXPECT_EQ(0, mount_options(mnt, opts, sizeof(opts)))
		TH_LOG("%s is not in /proc/self/mountinfo", mnt);
	umount2(mnt, MNT_DETACH);
	rmdir(mnt);
	bpffs_unmount(dir);
	if (token_cmd) {
		EXPECT_NE(NULL, strstr(opts, ",delegate_cmds=any"))
			TH_LOG("options: %s", opts);
	} else {
		EXPECT_EQ(NULL, strstr(opts, "delegate")) TH_LOG("options: %s", opts);
	}
}

TEST(a_user_namespace_creates_a_map_only_through_a_delegated_token)
{
	struct userns_result r;
	int token_cmd, create_err;

	token_cmd = probe_token_cmd(_metadata);
	create_err = run_userns_child(_metadata, &r);
	ASSERT_EQ(0, r.setup) TH_LOG("user namespace: %s", strerror(r.setup));

	matrix_record("userns-map-create-no-token", "%s",
		      strerrorname_np(r.map_without_token) ?: "ok");
	matrix_record("userns-bpffs-mount", "%s",
		      create_err ? strerrorname_np(create_err) : "ok");
	EXPECT_EQ(EPERM, r.map_without_token);
	matrix_record("userns-token-delegated-bpffs", "%s",
		      r.token == NOT_TRIED ? "no-bpffs" :
		      r.token ? strerrorname_np(r.token) : "ok");
	if (token_cmd)
		check_with_tokens(_metadata, &r, create_err);
	else
		check_without_tokens(_metadata, &r, create_err);
}

TEST_HARNESS_MAIN
