// SPDX-License-Identifier: GPL-2.0
/*
 * The kselftest-harness tests' helpers (tests/bpffs_fixture.h), compiled
 * once and linked into each test.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "bpf_syscall.h"
#include "libbpf.h"
#include "bpffs_fixture.h"

/*
 * The tests start with fds 0-2 only, as the transcripts they compare with
 * were taken ("bpf: map fd:3"): kselftest's runner.sh leaves its own pipes
 * open (fds 3 and 4) in the tests it starts. Before main, nothing else is
 * open yet.
 */
__attribute__((constructor)) static void close_inherited_fds(void)
{
	int fd;

	for (fd = 3; fd < 1024; fd++)
		close(fd);
}

/*
 * A bpffs that only this process (a harness test child) and its children
 * see: the mount namespace goes with the process even if it is killed.
 */
int bpffs_private_mount(char *dir, size_t len)
{
	if (unshare(CLONE_NEWNS) < 0)
		return -1;
	if (mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return -1;
	snprintf(dir, len, "/tmp/fds-ktest.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	if (mount("bpf", dir, "bpf", 0, NULL) < 0) {
		int err = errno;

		rmdir(dir);
		errno = err;
		return -1;
	}
	return 0;
}

void bpffs_unmount(const char *dir)
{
	if (dir[0]) {
		umount2(dir, MNT_DETACH);
		rmdir(dir);
	}
}

/* A network namespace of our own, so nothing else sends on its lo. */
int netns_private_lo(void)
{
	struct ifreq ifr;
	int sock, ret;

	if (unshare(CLONE_NEWNET) < 0)
		return -1;
	sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sock < 0)
		return -1;
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	ret = ioctl(sock, SIOCGIFFLAGS, &ifr);
	if (ret == 0) {
		ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
		ret = ioctl(sock, SIOCSIFFLAGS, &ifr);
	}
	close(sock);
	return ret;
}

/*
 * How a child ended, in words: "exit 1", "killed by signal 11 (Segmentation
 * fault)". exited_zero() is true for a normal exit with status 0 only, so a
 * child killed by a signal never reads as a success.
 */
const char *child_end(int status, char *buf, size_t len)
{
	if (WIFEXITED(status))
		snprintf(buf, len, "exit %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "wait status 0x%x", status);
	return buf;
}

int exited_zero(int status)
{
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* After a run_fds() that did not exit 0: its stderr, as "# " lines. */
static void show_fds_stderr(FILE *err, const char *end)
{
	char line[512];

	fprintf(stderr, "# fds_example: %s\n", end);
	rewind(err);
	while (fgets(line, sizeof(line), err))
		fprintf(stderr, "#   %s", line);
}

/*
 * Everything the child writes to fd, into out (outlen bytes, always
 * terminated; what does not fit is read and dropped), or only drained when
 * out is NULL.
 */
static void read_output(int fd, char *out, size_t outlen)
{
	size_t done = 0;

	for (;;) {
		char scratch[256];
		char *dst = out ? out + done : scratch;
		size_t room = out ? outlen - 1 - done : sizeof(scratch);
		ssize_t n;

		if (room == 0) {
			dst = scratch;
			room = sizeof(scratch);
		}
		n = read(fd, dst, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (out && dst != scratch)
			done += n;
	}
	if (out)
		out[done] = '\0';
}

/* ./fds_example argv, stdout to the pipe's write end, stderr to err. */
static void exec_fds(const char **argv, int out_fd, FILE *err)
{
	dup2(out_fd, 1);
	dup2(fileno(err), 2);
	execv(argv[0], (char **)argv);
	_exit(127);
}

int run_fds(char *out, size_t outlen, ...)
{
	const char *argv[32] = { "./fds_example" };
	int pipefd[2], status, argc = 1;
	char end[80];
	va_list ap;
	FILE *err;
	pid_t pid;

	va_start(ap, outlen);
	while (argc < 31 && (argv[argc] = va_arg(ap, const char *)))
		argc++;
	va_end(ap);
	argv[argc] = NULL;

	err = tmpfile();
	if (!err)
		return -1;
	/* fds_example must start with fds 0-2 only: its fd numbers are output */
	fcntl(fileno(err), F_SETFD, FD_CLOEXEC);
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		fclose(err);
		return -1;
	}
	pid = fork();
	if (pid == 0)
		exec_fds(argv, pipefd[1], err);
	close(pipefd[1]);
	if (pid > 0)
		read_output(pipefd[0], out, outlen);
	close(pipefd[0]);
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		fclose(err);
		return -1;
	}
	if (!exited_zero(status))
		show_fds_stderr(err, child_end(status, end, sizeof(end)));
	fclose(err);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The kernel frees an object after an RCU grace period: poll for its id. */
int wait_id_gone(int (*get_by_id)(unsigned int), unsigned int id)
{
	int i, fd;

	for (i = 0; i < 500; i++) {
		fd = get_by_id(id);
		if (fd < 0 && errno == ENOENT)
			return 0;
		if (fd >= 0)
			close(fd);
		usleep(10000);
	}
	return -1;
}

unsigned int map_id_of(int fd)
{
	struct bpf_map_info info;
	unsigned int len = sizeof(info);

	memset(&info, 0, sizeof(info));
	return bpf_obj_get_info_by_fd(fd, &info, &len) ? 0 : info.id;
}

/* The id of the map pinned at path, or 0 if none can be got there. */
unsigned int pinned_map_id(const char *path)
{
	int fd = bpf_obj_get(path);
	unsigned int id;

	if (fd < 0)
		return 0;
	id = map_id_of(fd);
	close(fd);
	return id;
}

unsigned int prog_id_of(int fd)
{
	struct bpf_prog_info info;
	unsigned int len = sizeof(info);

	memset(&info, 0, sizeof(info));
	return bpf_obj_get_info_by_fd(fd, &info, &len) ? 0 : info.id;
}

/* The ids of the maps a program uses; returns how many, or -1. */
void read_sysctl(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	snprintf(buf, len, "absent");
	if (!f)
		return;
	if (!fgets(buf, len, f))
		snprintf(buf, len, "unreadable");
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* Number of open fds of this process, to show nothing leaked. */
int open_fd_count(void)
{
	int fd, n = 0;

	for (fd = 0; fd < 1024; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			n++;
	return n;
}

/*
 * How this kernel behaves for one row of the kernel matrix
 * (docs/kernel-matrix.md): "ROW<TAB>VALUE" appended to the file that
 * $FDS_MATRIX_OUT names, when the runner sets it. VALUE is a short token
 * (an errno name from strerrorname_np(), "yes"/"no", a count) that is the
 * same on every run on one kernel.
 */
void matrix_record(const char *row, const char *fmt, ...)
{
	const char *out = getenv("FDS_MATRIX_OUT");
	int saved = errno;	/* callers go on to check errno */
	char value[128];
	va_list ap;
	FILE *f;

	if (!out || !*out)
		return;
	va_start(ap, fmt);
	vsnprintf(value, sizeof(value), fmt, ap);
	va_end(ap);
	f = fopen(out, "ae");
	if (f) {
		fprintf(f, "%s\t%s\n", row, value);
		fclose(f);
	}
	errno = saved;
}

/*
 * One matrix row for a call's result: "ok" or the errno's name. errno is
 * kept, since writing the row may change it.
 */
void record_result(const char *row, long ret)
{
	int err = errno;

	matrix_record(row, "%s", ret >= 0 ? "ok" :
		      strerrorname_np(err) ? strerrorname_np(err) : "E?");
	errno = err;
}

