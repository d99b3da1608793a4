// SPDX-License-Identifier: GPL-2.0
/*
 * map_ids: the kernel's map ids, for the scenarios that show by id which
 * maps a command left behind or which map a pin holds. Map ids are global
 * and handed out in increasing order, so a map made before a command and
 * one made after it bound the ids of every map made in between.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf_syscall.h"
#include "libbpf.h"
#include "../bpffs_fixture.h"

static const char usage[] =
	"Usage: map_ids next          make a map, print its id, free it\n"
	"       map_ids between A B   print the ids of the live maps above A, below B\n"
	"       map_ids pinned PATH   print the id of the map pinned at PATH\n"
	"       map_ids unlink PATH   pin a map at PATH, its only reference, and\n"
	"                             remove the pin: print at-unlink if its id\n"
	"                             was gone when unlink() returned, or\n"
	"                             after-rcu-grace-period (5 tries; each\n"
	"                             waits up to 5 s for the id to go)\n";

static int fail(const char *what)
{
	fprintf(stderr, "map_ids: %s: %s\n", what, strerror(errno));
	return 1;
}

static int print_id_of(int fd)
{
	struct bpf_map_info info;

	if (bpf_map_get_info(fd, &info))
		return fail("BPF_OBJ_GET_INFO_BY_FD");
	printf("%u\n", info.id);
	return 0;
}

static int cmd_next(void)
{
	int fd, ret;

	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "map_ids", 4, 4, 1, NULL);
	if (fd < 0)
		return fail("BPF_MAP_CREATE");
	ret = print_id_of(fd);
	close(fd);
	return ret;
}

static int cmd_pinned(const char *path)
{
	int fd, ret;

	fd = bpf_obj_get(path);
	if (fd < 0)
		return fail(path);
	ret = print_id_of(fd);
	close(fd);
	return ret;
}

static int parse_id(const char *s, __u32 *id)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *s < '0' || *s > '9' || *end || v > 0xffffffffUL)
		return -1;
	*id = v;
	return 0;
}

static int cmd_between(const char *low, const char *high)
{
	__u32 id, next, above, below;

	if (parse_id(low, &above) || parse_id(high, &below)) {
		fputs(usage, stderr);
		return 2;
	}
	for (id = above; id + 1 < below; id = next) {
		if (bpf_map_get_next_id(id, &next)) {
			if (errno == ENOENT)	/* no map above id */
				return 0;
			return fail("BPF_MAP_GET_NEXT_ID");
		}
		if (next <= id) {
			fprintf(stderr, "map_ids: the id after %u is %u\n", id,
				next);
			return 1;
		}
		if (next < below)
			printf("%u\n", next);
	}
	return 0;
}

/*
 * Where bpffs drops a pin's reference when the inode is destroyed, the
 * id of a map whose last reference was the pin is gone when unlink()
 * returns. Where it drops it from ->free_inode, after an RCU grace period
 * (Debian's 5.10), a lookup right after unlink() still finds the map: on
 * a machine with one CPU the grace period cannot end before this process
 * sleeps, on more it seldom does within microseconds, so 5 tries tell.
 * A lookup that finds the map holds it until its fd is closed.
 */
static int unlink_once(const char *path, int *found)
{
	struct bpf_map_info info;
	int fd;

	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "map_ids", 4, 4, 1, NULL);
	if (fd < 0)
		return fail("BPF_MAP_CREATE");
	if (bpf_map_get_info(fd, &info)) {
		close(fd);
		return fail("BPF_OBJ_GET_INFO_BY_FD");
	}
	if (bpf_obj_pin(fd, path)) {
		close(fd);
		return fail(path);
	}
	close(fd);
	if (unlink(path))
		return fail(path);
	fd = bpf_map_get_fd_by_id(info.id);
	if (fd >= 0) {
		*found += 1;
		close(fd);
	} else if (errno != ENOENT) {
		return fail("BPF_MAP_GET_FD_BY_ID");
	}
	if (wait_id_gone(bpf_map_get_fd_by_id, info.id) == 0)
		return 0;
	fprintf(stderr, "map_ids: map %u still exists 5 s after its pin went\n",
		info.id);
	return 1;
}

static int cmd_unlink(const char *path)
{
	int i, found = 0;

	for (i = 0; i < 5; i++)
		if (unlink_once(path, &found))
			return 1;
	puts(found ? "after-rcu-grace-period" : "at-unlink");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "next") == 0)
		return cmd_next();
	if (argc == 3 && strcmp(argv[1], "pinned") == 0)
		return cmd_pinned(argv[2]);
	if (argc == 3 && strcmp(argv[1], "unlink") == 0)
		return cmd_unlink(argv[2]);
	if (argc == 4 && strcmp(argv[1], "between") == 0)
		return cmd_between(argv[2], argv[3]);
	fputs(usage, stderr);
	return 2;
}
