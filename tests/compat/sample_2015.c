// SPDX-License-Identifier: GPL-2.0
/*
 * A program written the way the samples/bpf programs of Linux 4.4 were, with
 * the helper names they gave themselves: fds_example's bpf_map_create(void)
 * and bpf_prog_create(const char *) and its BPF_F_ and BPF_M_ flags,
 * test_verifier's create_map(void) and create_prog_array(void),
 * sock_example's test_sock(void), and map_cnt/prog_cnt, counters any sample
 * could keep. It must build with -Wall -Wextra -Werror and run against this
 * project's libbpf.h and bpf_load.h without a change: those headers declare
 * only what 2015 code saw. Usage: compat_2015 BPFFS OBJECT
 */
#include <linux/bpf.h>

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <sys/socket.h>

#include "bpf_load.h"
#include "libbpf.h"

#define BPF_F_PIN	(1 << 0)
#define BPF_F_GET	(1 << 1)
#define BPF_F_KEY	(1 << 2)
#define BPF_F_VAL	(1 << 3)

#define BPF_M_MAP	1
#define BPF_M_PROG	2

static int map_cnt;
static int prog_cnt;
static int failed;

#define CHECK(cond, what) do {						\
	if (!(cond)) {							\
		printf("compat: %s failed: %s\n", what, strerror(errno)); \
		failed = 1;						\
	}								\
} while (0)

static void usage(void)
{
	printf("usage: compat_2015 BPFFS OBJECT\n");
}

/* fds_example's: the array map of -P -m */
static int bpf_map_create(void)
{
	map_cnt++;
	return bpf_create_map(BPF_MAP_TYPE_ARRAY, sizeof(uint32_t),
			      sizeof(uint32_t), 1024);
}

/* fds_example's: the object's first program, or r0 = 1; exit */
static int bpf_prog_create(const char *object)
{
	static const struct bpf_insn insns[] = {
		BPF_MOV64_IMM(BPF_REG_0, 1),
		BPF_EXIT_INSN(),
	};

	prog_cnt++;
	if (object)
		return load_bpf_file((char *)object) ? -1 : prog_fd[0];
	return bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, insns, sizeof(insns),
			     "GPL", 0);
}

/* test_verifier's */
static int create_map(void)
{
	map_cnt++;
	return bpf_create_map(BPF_MAP_TYPE_HASH, sizeof(long long),
			      sizeof(long long), 1024);
}

/* test_verifier's */
static int create_prog_array(void)
{
	map_cnt++;
	return bpf_create_map(BPF_MAP_TYPE_PROG_ARRAY, sizeof(int),
			      sizeof(int), 4);
}

/* sock_example's program: count packets per IP protocol in an array map */
static int test_sock(void)
{
	long long value = 0, got = 0;
	int map, prog, key = 6;
	struct bpf_insn insns[] = {
		BPF_MOV64_REG(BPF_REG_6, BPF_REG_1),
		BPF_LD_ABS(BPF_B, 14 + 9),		/* r0 = ip->protocol */
		BPF_STX_MEM(BPF_W, BPF_REG_10, BPF_REG_0, -4),
		BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -4),	/* r2 = fp - 4 */
		BPF_LD_MAP_FD(BPF_REG_1, 0),		/* patched below */
		BPF_RAW_INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem),
		BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 2),
		BPF_MOV64_IMM(BPF_REG_1, 1),
		BPF_RAW_INSN(BPF_STX | BPF_XADD | BPF_DW, BPF_REG_0, BPF_REG_1, 0, 0),
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};

	map = bpf_create_map(BPF_MAP_TYPE_ARRAY, sizeof(key), sizeof(value), 256);
	CHECK(map > 0, "bpf_create_map");
	value = 1234;
	CHECK(bpf_update_elem(map, &key, &value, BPF_ANY) == 0, "bpf_update_elem");
	CHECK(bpf_lookup_elem(map, &key, &got) == 0 && got == 1234,
	      "bpf_lookup_elem");
	CHECK(bpf_delete_elem(map, &key) == -1 && errno == EINVAL,
	      "bpf_delete_elem on an array refused");
	CHECK(bpf_get_next_key(map, &key, &key) == 0 && key == 7,
	      "bpf_get_next_key");

	insns[5].imm = map;
	prog = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, insns, sizeof(insns),
			     "GPL", 0);
	if (prog < 0)
		printf("%s", bpf_log_buf);
	return prog;
}

/* fds_example's two modes, as flags say */
static int bpf_do_map(const char *file, uint32_t flags, uint32_t key,
		      uint32_t value)
{
	uint32_t got = 0;
	int fd;

	fd = (flags & BPF_F_PIN) ? bpf_map_create() : bpf_obj_get(file);
	CHECK(fd > 0, "map");
	if (flags & BPF_F_PIN)
		CHECK(bpf_obj_pin(fd, file) == 0, "bpf_obj_pin map");
	if (flags & BPF_F_VAL)
		CHECK(bpf_update_elem(fd, &key, &value, 0) == 0, "update");
	if (flags & BPF_F_KEY)
		CHECK(bpf_lookup_elem(fd, &key, &got) == 0 && got == value,
		      "lookup");
	return fd;
}

static int bpf_do_prog(const char *file, uint32_t flags, const char *object)
{
	int fd, sock;

	fd = (flags & BPF_F_PIN) ? bpf_prog_create(object) : bpf_obj_get(file);
	CHECK(fd > 0, "prog");
	if (flags & BPF_F_PIN)
		CHECK(bpf_obj_pin(fd, file) == 0, "bpf_obj_pin prog");
	sock = open_raw_sock("lo");
	CHECK(sock > 0, "open_raw_sock");
	CHECK(setsockopt(sock, SOL_SOCKET, SO_ATTACH_BPF, &fd, sizeof(fd)) == 0,
	      "SO_ATTACH_BPF");
	return fd;
}

int main(int argc, char **argv)
{
	char path[256];
	int mode;

	if (argc != 3) {
		usage();
		return 2;
	}

	for (mode = BPF_M_MAP; mode <= BPF_M_PROG; mode++) {
		snprintf(path, sizeof(path), "%s/compat_%s", argv[1],
			 mode == BPF_M_MAP ? "map" : "prog");
		if (mode == BPF_M_MAP) {
			bpf_do_map(path, BPF_F_PIN | BPF_F_KEY | BPF_F_VAL, 1, 42);
			bpf_do_map(path, BPF_F_GET | BPF_F_KEY, 1, 42);
		} else {
			bpf_do_prog(path, BPF_F_PIN, NULL);
			bpf_do_prog(path, BPF_F_GET, NULL);
		}
	}
	snprintf(path, sizeof(path), "%s/compat_object", argv[1]);
	bpf_do_prog(path, BPF_F_PIN, argv[2]);
	CHECK(map_fd[0] > 0, "map_fd[0] of the object");

	CHECK(create_map() > 0, "create_map");
	CHECK(create_prog_array() > 0, "create_prog_array");
	CHECK(test_sock() > 0, "test_sock");
	CHECK(map_cnt == 3 && prog_cnt == 2, "the sample's own counters");

	if (failed)
		return 1;
	printf("compat: ok\n");
	return 0;
}
