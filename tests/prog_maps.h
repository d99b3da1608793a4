/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The maps a loaded program uses, as the kernel reports them: for the
 * kselftest tests (through bpffs_fixture.h) and the pinctl helper, which
 * does not link the fixture.
 */
#ifndef PROG_MAPS_H
#define PROG_MAPS_H

#include <string.h>

#include "libbpf.h"

/* The ids of the maps the program fd uses, at most max of them into ids;
 * returns how many the program has (which may exceed max), or -1 and errno.
 */
static inline int prog_map_ids(int fd, unsigned int *ids, unsigned int max)
{
	struct bpf_prog_info info;
	unsigned int len = sizeof(info);

	memset(&info, 0, sizeof(info));
	info.nr_map_ids = max;
	info.map_ids = (unsigned long)ids;
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -1;
	return info.nr_map_ids;
}

#endif /* PROG_MAPS_H */
