// SPDX-License-Identifier: GPL-2.0
/*
 * A program written the way samples/bpf programs of 2015 were (sock_example,
 * sockex1_user, fds_example): it must build and run against this project's
 * libbpf.h and bpf_load.h without a change. Usage: compat_2015 BPFFS OBJECT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <linux/bpf.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include "libbpf.h"
#include "bpf_load.h"

static int failed;

#define CHECK(cond, what) do {						\
	if (!(cond)) {							\
		printf("compat: %s failed: %s\n", what, strerror(errno)); \
		failed = 1;						\
	}								\
} while (0)

static int test_sock_prog(int map_fd)
{
	/* sock_example's program: count packets per IP protocol */
	struct bpf_insn prog[] = {
		BPF_MOV64_REG(BPF_REG_6, BPF_REG_1),
		BPF_LD_ABS(BPF_B, 14 + 9 /* R0 = ip->proto */),
		BPF_STX_MEM(BPF_W, BPF_REG_10, BPF_REG_0, -4), /* *(u32 *)(fp - 4) = r0 */
		BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -4), /* r2 = fp - 4 */
		BPF_LD_MAP_FD(BPF_REG_1, map_fd),
		BPF_RAW_INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem),
		BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 2),
		BPF_MOV64_IMM(BPF_REG_1, 1), /* r1 = 1 */
		BPF_RAW_INSN(BPF_STX | BPF_XADD | BPF_DW, BPF_REG_0, BPF_REG_1, 0, 0),
		BPF_MOV64_IMM(BPF_REG_0, 0), /* r0 = 0 */
		BPF_EXIT_INSN(),
	};

	return bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, prog, sizeof(prog),
			     "GPL", 0);
}

int main(int argc, char **argv)
{
	char path[256], filename[256];
	long long value = 0, got = 0;
	int key = 6, fd, prog, sock, got_fd;

	if (argc != 3) {
		printf("usage: %s BPFFS OBJECT\n", argv[0]);
		return 2;
	}

	fd = bpf_create_map(BPF_MAP_TYPE_ARRAY, sizeof(key), sizeof(value), 256);
	CHECK(fd > 0, "bpf_create_map");

	value = 1234;
	CHECK(bpf_update_elem(fd, &key, &value, BPF_ANY) == 0, "bpf_update_elem");
	CHECK(bpf_lookup_elem(fd, &key, &got) == 0 && got == 1234, "bpf_lookup_elem");

	prog = test_sock_prog(fd);
	if (prog < 0)
		printf("%s", bpf_log_buf);
	CHECK(prog > 0, "bpf_prog_load");

	snprintf(path, sizeof(path), "%s/compat_map", argv[1]);
	CHECK(bpf_obj_pin(fd, path) == 0, "bpf_obj_pin map");
	got_fd = bpf_obj_get(path);
	CHECK(got_fd > 0, "bpf_obj_get map");
	got = 0;
	CHECK(bpf_lookup_elem(got_fd, &key, &got) == 0 && got == 1234,
	      "lookup through the pin");

	snprintf(path, sizeof(path), "%s/compat_prog", argv[1]);
	CHECK(bpf_obj_pin(prog, path) == 0, "bpf_obj_pin prog");
	CHECK(bpf_obj_get(path) > 0, "bpf_obj_get prog");

	strncpy(filename, argv[2], sizeof(filename) - 1);
	filename[sizeof(filename) - 1] = '\0';
	if (load_bpf_file(filename)) {
		printf("%s", bpf_log_buf);
		printf("compat: load_bpf_file failed\n");
		return 1;
	}

	sock = open_raw_sock("lo");
	CHECK(sock > 0, "open_raw_sock");
	CHECK(setsockopt(sock, SOL_SOCKET, SO_ATTACH_BPF, prog_fd,
			 sizeof(prog_fd[0])) == 0, "attach prog_fd[0]");

	key = IPPROTO_UDP;
	got = -1;
	CHECK(bpf_lookup_elem(map_fd[0], &key, &got) == 0 && got == 0,
	      "lookup in map_fd[0]");

	if (failed)
		return 1;
	printf("compat: ok\n");
	return 0;
}
