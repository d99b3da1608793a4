/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the kselftest-harness tests: a private bpffs in a private
 * mount namespace, a private network namespace with lo up, running
 * fds_example as a separate process, object ids, kernel-matrix rows. They
 * are compiled once, in tests/bpffs_fixture.c; traffic on lo is lo_net.h's.
 * Include after kselftest_harness.h (only one .c per binary includes it):
 * the fixture's macros below use the harness's.
 */
#ifndef BPFFS_FIXTURE_H
#define BPFFS_FIXTURE_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "bpf_syscall.h"
#include "libbpf.h"
#include "lo_net.h"
#include "prog_maps.h"

/*
 * A bpffs that only this process (a harness test child) and its children
 * see: the mount namespace goes with the process even if it is killed.
 * The mount point, made under /tmp, goes into dir (len bytes).
 */
int bpffs_private_mount(char *dir, size_t len);
/* Unmounts and removes dir; nothing when dir is "". */
void bpffs_unmount(const char *dir);

/* The harness's part: for the tests, which include kselftest_harness.h. */
#ifdef __KSELFTEST_HARNESS_H
/*
 * A fixture's setup step: the private bpffs into fs (len bytes), or the
 * test fails here. fs is "" until mounted, so teardown may always run
 * bpffs_unmount(fs).
 */
static inline void bpffs_fixture_mount(struct __test_metadata *_metadata,
				       char *fs, size_t len)
{
	fs[0] = '\0';
	ASSERT_EQ(0, bpffs_private_mount(fs, len))
		TH_LOG("bpffs: %s", strerror(errno));
}

/*
 * The fixture "fs" of the tests that need a bpffs and one pin path in it:
 * self->fs is the mount, self->pin is "<fs>/<pin_name>". A test file writes
 * BPFFS_FS_FIXTURE("m") where it would write FIXTURE(fs), FIXTURE_SETUP(fs)
 * and FIXTURE_TEARDOWN(fs); its tests are TEST_F(fs, ...) as before.
 */
#define BPFFS_FS_FIXTURE(pin_name)					\
	FIXTURE(fs) {							\
		char fs[64];						\
		char pin[128];						\
	};								\
	FIXTURE_SETUP(fs)						\
	{								\
		bpffs_fixture_mount(_metadata, self->fs, sizeof(self->fs)); \
		snprintf(self->pin, sizeof(self->pin), "%s/%s", self->fs, \
			 pin_name);					\
	}								\
	FIXTURE_TEARDOWN(fs)						\
	{								\
		bpffs_unmount(self->fs);				\
	}
#endif /* __KSELFTEST_HARNESS_H */

/* A network namespace of our own, so nothing else sends on its lo. */
int netns_private_lo(void);

/*
 * How a child ended, in words: "exit 1", "killed by signal 11 (Segmentation
 * fault)". exited_zero() is true for a normal exit with status 0 only, so a
 * child killed by a signal never reads as a success.
 */
const char *child_end(int status, char *buf, size_t len);
int exited_zero(int status);

/*
 * Runs ./fds_example with the given arguments (NULL-terminated), stdout into
 * out (may be NULL). Returns its exit status, or -1 (also when a signal
 * killed it). Unless it exits 0, how it ended and its stderr are printed as
 * "# " lines, so a failing assertion comes with fds_example's own words.
 */
int run_fds(char *out, size_t outlen, ...);

/* The kernel frees an object after an RCU grace period: poll for its id. */
int wait_id_gone(int (*get_by_id)(unsigned int), unsigned int id);

unsigned int map_id_of(int fd);
/* The id of the map pinned at path, or 0 if none can be got there. */
unsigned int pinned_map_id(const char *path);
unsigned int prog_id_of(int fd);
/* prog_map_ids(): the ids of the maps a program uses (prog_maps.h). */

/*
 * A sysctl's first line, as /proc/sys/PATH gives it, into buf: "absent"
 * if the file cannot be opened, "unreadable" if it has no line.
 */
void read_sysctl(const char *path, char *buf, size_t len);

/* Number of open fds of this process, to show nothing leaked. */
int open_fd_count(void);

/*
 * How this kernel behaves for one row of the kernel matrix
 * (docs/kernel-matrix.md): "ROW<TAB>VALUE" appended to the file that
 * $FDS_MATRIX_OUT names, when the runner sets it. VALUE is a short token
 * (an errno name from strerrorname_np(), "yes"/"no", a count) that is the
 * same on every run on one kernel.
 */
void matrix_record(const char *row, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * One matrix row for a call's result: "ok" or the errno's name. errno is
 * kept, since writing the row may change it.
 */
void record_result(const char *row, long ret);

#endif /* BPFFS_FIXTURE_H */
