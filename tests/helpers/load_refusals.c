// SPDX-License-Identifier: GPL-2.0
/*
 * load_refusals FILE...: the loader (bpf_object_load_file, as fds_example -o
 * calls it) on each file in turn, in one process. Prints "FILE<TAB>REASON"
 * for a file it refuses, REASON being what fds_example prints after "cannot
 * load the program from FILE: ", and "FILE<TAB>loaded" for one it loads.
 * malformed_objects.sh runs it under valgrind with VALGRIND=1: memcheck
 * starts once for some 500 files, where one valgrind per fds_example took
 * minutes. beyond_tc.sh loads some 70 good objects with it, one process
 * for them all. Exit 0 once every file was tried, 1 when memory ran out, 2
 * with no file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bpf_object.h"
#include "libbpf.h"

int main(int argc, char **argv)
{
	int map_fds[MAX_MAPS], prog_fds[MAX_PROGS];
	static char vlog[LOG_BUF_SIZE];
	struct bpf_object_spec *spec;
	unsigned int j;
	int i;

	if (argc < 2) {
		fputs("Usage: load_refusals FILE...\n", stderr);
		return 2;
	}
	spec = malloc(sizeof(*spec));
	if (!spec) {
		perror("load_refusals");
		return 1;
	}
	for (i = 1; i < argc; i++) {
		if (bpf_object_load_file(argv[i], spec, map_fds, prog_fds, vlog,
					 sizeof(vlog))) {
			printf("%s\t%s\n", argv[i], spec->err);
		} else {
			printf("%s\tloaded\n", argv[i]);
			for (j = 0; j < spec->map_cnt; j++)
				close(map_fds[j]);
			for (j = 0; j < spec->prog_cnt; j++)
				close(prog_fds[j]);
		}
		bpf_object_spec_free(spec);
	}
	free(spec);
	return 0;
}
