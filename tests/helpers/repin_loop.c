// SPDX-License-Identifier: GPL-2.0
/*
 * repin_loop: replaces the object pinned at one path, as fast as it can,
 * with each of the objects pinned at SRC... in turn, until SIGTERM, so a
 * scenario can race its gets against the replacement. Two ways, as loaders
 * do it:
 *   unlink  remove the pin, then pin the next object: for a moment the
 *           path is absent
 *   rename  pin the next object beside the path, then rename(2) it over
 *           the path: the path is never absent
 * Prints "ready" once running and "swaps N" when stopped (SIGTERM is
 * blocked and looked for every 64 swaps). Bounded in time:
 * after LIMIT_SECONDS it stops by itself and exits 3, which tells the
 * scenario its gets did not all run while it was replacing.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bpf_syscall.h"
#include "libbpf.h"

#define MAX_SRCS	8
#define LIMIT_SECONDS	60

static int fail(const char *what)
{
	fprintf(stderr, "repin_loop: %s: %s\n", what, strerror(errno));
	return 1;
}

/* Puts the object of fd at path the way mode says. */
static int replace(const char *path, const char *beside, int by_rename,
		   int fd)
{
	if (by_rename) {
		if (bpf_obj_pin(fd, beside))
			return fail(beside);
		if (rename(beside, path))
			return fail("rename");
		return 0;
	}
	if (unlink(path) && errno != ENOENT)
		return fail("unlink");
	if (bpf_obj_pin(fd, path))
		return fail(path);
	return 0;
}

/* SIGTERM is blocked: it stays pending until asked for. */
static int terminated(void)
{
	sigset_t pending;

	return sigpending(&pending) == 0 && sigismember(&pending, SIGTERM);
}

static int run(const char *path, int by_rename, const int *fds, int n)
{
	char beside[4096];
	unsigned long swaps = 0;
	time_t end = time(NULL) + LIMIT_SECONDS;

	/* bpffs refuses names with a dot: a suffix, not an extension */
	if (snprintf(beside, sizeof(beside), "%s_next", path) >=
	    (int)sizeof(beside)) {
		errno = ENAMETOOLONG;
		return fail(path);
	}
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		if (replace(path, beside, by_rename, fds[swaps % n]))
			return 1;
		swaps++;
		if (swaps % 64)
			continue;
		if (terminated())
			break;
		if (time(NULL) > end) {
			printf("swaps %lu, stopped after %d s\n", swaps,
			       LIMIT_SECONDS);
			return 3;
		}
	}
	printf("swaps %lu\n", swaps);
	return 0;
}

int main(int argc, char **argv)
{
	int fds[MAX_SRCS], n, i, by_rename;
	sigset_t term;

	if (argc < 4 || argc - 3 > MAX_SRCS ||
	    (strcmp(argv[2], "unlink") && strcmp(argv[2], "rename"))) {
		fprintf(stderr,
			"Usage: repin_loop PATH unlink|rename SRC... (at most %d)\n",
			MAX_SRCS);
		return 2;
	}
	by_rename = strcmp(argv[2], "rename") == 0;
	n = argc - 3;
	for (i = 0; i < n; i++) {
		fds[i] = bpf_obj_get(argv[3 + i]);
		if (fds[i] < 0)
			return fail(argv[3 + i]);
	}
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &term, NULL))
		return fail("sigprocmask");
	return run(argv[1], by_rename, fds, n);
}
