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

static const char usage[] =
	"Usage: map_ids next          make a map, print its id, free it\n"
	"       map_ids between A B   print the ids of the live maps above A, below B\n"
	"       map_ids pinned PATH   print the id of the map pinned at PATH\n";

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

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "next") == 0)
		return cmd_next();
	if (argc == 3 && strcmp(argv[1], "pinned") == 0)
		return cmd_pinned(argv[2]);
	if (argc == 4 && strcmp(argv[1], "between") == 0)
		return cmd_between(argv[2], argv[3]);
	fputs(usage, stderr);
	return 2;
}
