// SPDX-License-Identifier: GPL-2.0
/*
 * The ELF loader: the specs it makes for good objects (maps, programs, which
 * instruction gets which map), what the kernel ends up with after loading, and
 * clear refusals of malformed objects, without leaking fds.
 */
#include "kselftest_harness.h"
#include "bpffs_fixture.h"
#include "bpf_load.h"
#include "bpf_object.h"

#include <libelf.h>
#include <gelf.h>
#include <malloc.h>
#include <sys/resource.h>

#define SOCKEX1 "./sockex1_kern.o"
#define TWO_PROGS "./tests/bin/two_progs_kern.o"
#define MAP_FLAGS "./tests/bin/map_flags_kern.o"
#define STATIC_MAPS "./tests/bin/static_maps_kern.o"
#define THREE_MAPS "./tests/bin/three_maps_kern.o"
#define REJECTED "./tests/bin/rejected_kern.o"
#define LONG_NAMES "./tests/bin/long_names_kern.o"
#define LONG_LICENSE "./tests/bin/long_license_kern.o"

static char *slurp(const char *path, size_t *size)
{
	char *buf = NULL;
	struct stat st;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0)
		goto fail;
	buf = malloc(st.st_size ? st.st_size : 1);
	if (!buf || read(fd, buf, st.st_size) != st.st_size)
		goto fail;
	close(fd);
	*size = st.st_size;
	return buf;
fail:
	free(buf);
	close(fd);
	return NULL;
}

/* Where the section called name starts in the file, and its header's offset. */
static int find_section(const char *buf, size_t size, const char *name,
			GElf_Shdr *out, size_t *shdr_off)
{
	size_t shstrndx, i, n;
	GElf_Ehdr ehdr;
	Elf *elf;
	int ret = -1;

	elf_version(EV_CURRENT);
	elf = elf_memory((char *)buf, size);
	if (!elf || elf_getshdrstrndx(elf, &shstrndx) || elf_getshdrnum(elf, &n) ||
	    !gelf_getehdr(elf, &ehdr))
		goto out;
	for (i = 1; i < n; i++) {
		GElf_Shdr shdr;
		const char *s;

		if (!gelf_getshdr(elf_getscn(elf, i), &shdr))
			continue;
		s = elf_strptr(elf, shstrndx, shdr.sh_name);
		if (s && strcmp(s, name) == 0) {
			*out = shdr;
			*shdr_off = ehdr.e_shoff + i * ehdr.e_shentsize;
			ret = 0;
			break;
		}
	}
out:
	if (elf)
		elf_end(elf);
	return ret;
}

TEST(sockex1_spec_is_one_map_one_program_one_relocation)
{
	struct bpf_object_spec spec;
	size_t size;
	char *buf = slurp(SOCKEX1, &size);

	ASSERT_NE(NULL, buf) TH_LOG("run make first: %s", SOCKEX1);
	ASSERT_EQ(0, bpf_object_parse(buf, size, &spec)) TH_LOG("%s", spec.err);
	EXPECT_STREQ("GPL", spec.license);
	EXPECT_EQ(16, spec.map_def_size);
	ASSERT_EQ(1, spec.map_cnt);
	EXPECT_STREQ("proto_bytes", spec.maps[0].name);
	EXPECT_EQ(BPF_MAP_TYPE_ARRAY, spec.maps[0].type);
	EXPECT_EQ(4, spec.maps[0].key_size);
	/* sockex1_kern.c says sizeof(long): the BPF target's, 8 even under -m32 */
	EXPECT_EQ(8, spec.maps[0].value_size);
	EXPECT_EQ(256, spec.maps[0].max_entries);
	ASSERT_EQ(1, spec.prog_cnt);
	EXPECT_STREQ("socket1", spec.progs[0].name);
	EXPECT_EQ(BPF_PROG_TYPE_SOCKET_FILTER, spec.progs[0].type);
	ASSERT_EQ(1, spec.progs[0].reloc_cnt);
	EXPECT_EQ(0, spec.progs[0].relocs[0].map);
	EXPECT_EQ(BPF_LD | BPF_IMM | BPF_DW,
		  spec.progs[0].insns[spec.progs[0].relocs[0].insn].code);
	bpf_object_spec_free(&spec);
	free(buf);
}

TEST(two_maps_two_programs_are_described_in_file_order)
{
	struct bpf_object_spec spec;
	struct bpf_prog_spec *count, *sum;
	size_t size;
	char *buf = slurp(TWO_PROGS, &size);

	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, bpf_object_parse(buf, size, &spec)) TH_LOG("%s", spec.err);
	ASSERT_EQ(2, spec.map_cnt);
	EXPECT_STREQ("counts", spec.maps[0].name);
	EXPECT_STREQ("sums", spec.maps[1].name);
	EXPECT_EQ(BPF_MAP_TYPE_HASH, spec.maps[1].type);
	EXPECT_EQ(0x040400, spec.kern_version);
	ASSERT_EQ(2, spec.prog_cnt);
	count = &spec.progs[0];
	sum = &spec.progs[1];
	EXPECT_STREQ("socket_count", count->name);
	EXPECT_STREQ("socket_sum", sum->name);
	ASSERT_EQ(1, count->reloc_cnt);
	EXPECT_EQ(0, count->relocs[0].map);
	ASSERT_EQ(2, sum->reloc_cnt);
	EXPECT_EQ(1, sum->relocs[0].map);
	EXPECT_EQ(0, sum->relocs[1].map);
	bpf_object_spec_free(&spec);
	free(buf);
}

TEST(twenty_byte_definitions_carry_map_flags)
{
	struct bpf_object_spec spec;
	size_t size;
	char *buf = slurp(MAP_FLAGS, &size);

	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, bpf_object_parse(buf, size, &spec)) TH_LOG("%s", spec.err);
	EXPECT_EQ(20, spec.map_def_size);
	ASSERT_EQ(3, spec.map_cnt);
	EXPECT_STREQ("sparse", spec.maps[1].name);
	EXPECT_EQ(BPF_F_NO_PREALLOC, spec.maps[1].map_flags);
	EXPECT_EQ(16, spec.maps[1].max_entries);
	EXPECT_EQ(3, spec.maps[2].max_entries);
	ASSERT_EQ(1, spec.progs[0].reloc_cnt);
	EXPECT_EQ(2, spec.progs[0].relocs[0].map);
	bpf_object_spec_free(&spec);
	free(buf);
}

TEST(load_bpf_file_relocates_against_the_right_maps)
{
	unsigned int ids[4];
	int before = open_fd_count();

	ASSERT_EQ(0, load_bpf_file(TWO_PROGS)) TH_LOG("%s", bpf_log_buf);
	/* map fds first, then programs, and the object file already closed */
	EXPECT_EQ(before + 4, open_fd_count());
	EXPECT_LT(map_fd[1], prog_fd[0]);

	ASSERT_EQ(1, prog_map_ids(prog_fd[0], ids, 4));
	EXPECT_EQ(map_id_of(map_fd[0]), ids[0]);
	ASSERT_EQ(2, prog_map_ids(prog_fd[1], ids, 4));
	EXPECT_TRUE((ids[0] == map_id_of(map_fd[0]) && ids[1] == map_id_of(map_fd[1])) ||
		    (ids[1] == map_id_of(map_fd[0]) && ids[0] == map_id_of(map_fd[1])));
}

TEST(map_flags_of_twenty_byte_definitions_reach_the_kernel)
{
	struct bpf_map_info info;

	ASSERT_EQ(0, load_bpf_file(MAP_FLAGS)) TH_LOG("%s", bpf_log_buf);
	ASSERT_EQ(0, bpf_map_get_info(map_fd[1], &info)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(BPF_MAP_TYPE_HASH, info.type);
	EXPECT_EQ(16, info.max_entries);
	EXPECT_EQ(BPF_F_NO_PREALLOC, info.map_flags);
	ASSERT_EQ(0, bpf_map_get_info(map_fd[0], &info));
	EXPECT_EQ(0, info.map_flags);
	EXPECT_EQ(2, info.max_entries);
	ASSERT_EQ(0, bpf_map_get_info(map_fd[2], &info));
	EXPECT_EQ(3, info.max_entries);
}

TEST(static_maps_are_found_by_their_offset_in_the_maps_section)
{
	struct bpf_object_spec spec;
	size_t size;
	char *buf = slurp(STATIC_MAPS, &size);
	struct bpf_prog_spec *p = &spec.progs[0];

	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, bpf_object_parse(buf, size, &spec)) TH_LOG("%s", spec.err);
	ASSERT_EQ(2, spec.map_cnt);
	EXPECT_STREQ("small", spec.maps[0].name);
	EXPECT_STREQ("big", spec.maps[1].name);
	ASSERT_EQ(2, p->reloc_cnt);
	/* both against the section symbol; the immediates say 0 and 16 */
	EXPECT_EQ(0, p->relocs[0].map);
	EXPECT_EQ(1, p->relocs[1].map);
	bpf_object_spec_free(&spec);
	free(buf);
}

/* Runs prog_fd as the filter of a datagram socket, on one datagram. */
static int run_socket_filter(int prog, const char *msg)
{
	int sv[2], ret = -1;

	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	if (setsockopt(sv[1], SOL_SOCKET, SO_ATTACH_BPF, &prog, sizeof(prog)) == 0 &&
	    send(sv[0], msg, strlen(msg), 0) == (ssize_t)strlen(msg))
		ret = 0;
	close(sv[0]);
	close(sv[1]);
	return ret;
}

TEST(a_program_with_static_maps_writes_into_each_its_own)
{
	__u64 small = 0, big[2] = { 0, 0 };
	__u32 zero = 0, one = 1;

	ASSERT_EQ(0, load_bpf_file(STATIC_MAPS)) TH_LOG("%s", bpf_log_buf);
	ASSERT_EQ(0, run_socket_filter(prog_fd[0], "mark"))
		TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, bpf_lookup_elem(map_fd[0], &zero, &small));
	EXPECT_EQ(0x5e11, small);
	ASSERT_EQ(0, bpf_lookup_elem(map_fd[1], &one, big));
	EXPECT_EQ(0, big[0]);
	EXPECT_EQ(0xb16, big[1]);
}

TEST(load_bpf_file_uses_fds_in_the_samples_order)
{
	int first = open(SOCKEX1, O_RDONLY);

	/* the transcript's "prog fd:5" after the object file (3) and map (4) */
	ASSERT_GE(first, 0);
	close(first);
	ASSERT_EQ(0, load_bpf_file(SOCKEX1));
	EXPECT_EQ(first + 1, map_fd[0]);
	EXPECT_EQ(first + 2, prog_fd[0]);
	EXPECT_EQ(first, dup(0)) TH_LOG("the object file was not closed last");
}

/* Writes buf to a new temporary file named in path (a mkstemp template). */
static int write_temp(char *path, const char *buf, size_t size)
{
	int fd = mkstemp(path);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, buf, size);
	close(fd);
	return n == (ssize_t)size ? 0 : -1;
}

/* Parse must fail with a message; load_bpf_file must fail without leaks. */
static void expect_rejected(struct __test_metadata *_metadata, const char *buf,
			    size_t size, const char *msg_part)
{
	struct bpf_object_spec spec;
	char path[] = "/tmp/fds-bad.XXXXXX";
	int before;

	ASSERT_EQ(-1, bpf_object_parse(buf, size, &spec));
	EXPECT_NE(0, spec.err[0]);
	if (msg_part)
		EXPECT_NE(NULL, strstr(spec.err, msg_part)) TH_LOG("message: %s", spec.err);
	bpf_object_spec_free(&spec);

	ASSERT_EQ(0, write_temp(path, buf, size));
	before = open_fd_count();
	EXPECT_EQ(-1, load_bpf_file(path));
	EXPECT_EQ(ENOEXEC, errno);
	EXPECT_EQ(before, open_fd_count());
	unlink(path);
}

TEST(truncated_objects_are_rejected_at_every_length)
{
	struct bpf_object_spec spec;
	size_t size, len;
	char *buf = slurp(SOCKEX1, &size);

	ASSERT_NE(NULL, buf);
	for (len = 0; len < size; len++) {
		ASSERT_EQ(-1, bpf_object_parse(buf, len, &spec)) TH_LOG("length %zu", len);
		EXPECT_NE(0, spec.err[0]);
		bpf_object_spec_free(&spec);
	}
	expect_rejected(_metadata, buf, size / 2, NULL);
	free(buf);
}

TEST(section_offset_past_the_end_is_rejected)
{
	GElf_Shdr shdr;
	size_t size, off;
	char *buf = slurp(SOCKEX1, &size);
	Elf64_Shdr *raw;

	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, find_section(buf, size, "socket1", &shdr, &off));
	raw = (Elf64_Shdr *)(buf + off);
	raw->sh_offset = size + 64;
	expect_rejected(_metadata, buf, size, "past the end");
	raw->sh_offset = shdr.sh_offset;
	raw->sh_size = (unsigned long long)-8;
	expect_rejected(_metadata, buf, size, NULL);
	free(buf);
}

TEST(relocation_on_an_instruction_that_is_not_ld_imm64_is_rejected)
{
	GElf_Shdr prog, rel;
	size_t size, off;
	char *buf = slurp(SOCKEX1, &size);
	Elf64_Rel *r;

	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, find_section(buf, size, "socket1", &prog, &off));
	ASSERT_EQ(0, find_section(buf, size, ".relsocket1", &rel, &off));
	r = (Elf64_Rel *)(buf + rel.sh_offset);
	r->r_offset = 0;	/* instruction 0 is r6 = r1 */
	expect_rejected(_metadata, buf, size, "is not LD_IMM64");
	r->r_offset = prog.sh_size - 8;	/* no room for the second half */
	expect_rejected(_metadata, buf, size, "offset");
	r->r_offset = 3;
	expect_rejected(_metadata, buf, size, "offset");
	free(buf);
}

TEST(relocation_symbol_index_out_of_range_is_rejected)
{
	GElf_Shdr rel;
	size_t size, off;
	char *buf = slurp(SOCKEX1, &size);
	Elf64_Rel *r;

	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, find_section(buf, size, ".relsocket1", &rel, &off));
	r = (Elf64_Rel *)(buf + rel.sh_offset);
	r->r_info = ELF64_R_INFO(1000, ELF64_R_TYPE(r->r_info));
	expect_rejected(_metadata, buf, size, "out of range");
	r->r_info = ELF64_R_INFO(1, ELF64_R_TYPE(r->r_info));	/* the FILE symbol */
	expect_rejected(_metadata, buf, size, "not a map definition");
	free(buf);
}

/* One instruction more than the verifier takes, appended to the file. */
TEST(a_program_longer_than_the_verifier_takes_is_rejected)
{
	const size_t insns = 1000000 + 1, len = insns * sizeof(struct bpf_insn);
	GElf_Shdr shdr;
	size_t size, off;
	char *buf = slurp(SOCKEX1, &size), *big;
	Elf64_Shdr *raw;

	ASSERT_NE(NULL, buf);
	big = calloc(1, size + len);
	ASSERT_NE(NULL, big);
	memcpy(big, buf, size);
	ASSERT_EQ(0, find_section(big, size, "socket1", &shdr, &off));
	raw = (Elf64_Shdr *)(big + off);
	raw->sh_offset = size;
	raw->sh_size = len;
	expect_rejected(_metadata, big, size + len,
			"section 'socket1': more than 1000000 instructions");
	free(big);
	free(buf);
}

TEST(section_name_table_index_out_of_range_is_rejected)
{
	size_t size;
	char *buf = slurp(SOCKEX1, &size);
	Elf64_Ehdr *ehdr = (Elf64_Ehdr *)buf;

	ASSERT_NE(NULL, buf);
	ehdr->e_shstrndx = ehdr->e_shnum + 3;
	expect_rejected(_metadata, buf, size, NULL);
	free(buf);
}

TEST(a_verifier_rejection_fails_the_load_and_closes_the_maps)
{
	GElf_Shdr prog;
	size_t size, off;
	char *buf = slurp(SOCKEX1, &size);
	char path[] = "/tmp/fds-rej.XXXXXX";
	struct bpf_insn *insn;
	int before;

	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, find_section(buf, size, "socket1", &prog, &off));
	/* the last instruction, exit, becomes r0 = 0: falls off the end */
	insn = (struct bpf_insn *)(buf + prog.sh_offset + prog.sh_size - 8);
	*insn = (struct bpf_insn)BPF_MOV64_IMM(BPF_REG_0, 0);
	ASSERT_EQ(0, write_temp(path, buf, size));
	before = open_fd_count();
	EXPECT_EQ(-1, load_bpf_file(path));
	EXPECT_NE(ENOEXEC, errno);
	EXPECT_NE(0, bpf_log_buf[0]) TH_LOG("no verifier log");
	EXPECT_EQ(before, open_fd_count());
	unlink(path);
	free(buf);
}

/*
 * A rejected program whose verifier log does not fit bpf_log_buf: the log
 * run fails with ENOSPC, but the caller must see why the program was
 * rejected (EACCES: r0 = r5 reads a register never written).
 */
TEST(a_rejection_whose_log_overflows_reports_the_verifier_errno)
{
	enum { N = 8000 };
	struct bpf_insn *insns = calloc(N + 2, sizeof(*insns));
	int i, fd;

	ASSERT_NE(NULL, insns);
	for (i = 0; i < N; i++)
		insns[i] = (struct bpf_insn)BPF_MOV64_IMM(BPF_REG_0, 0);
	insns[N] = (struct bpf_insn)BPF_MOV64_REG(BPF_REG_0, BPF_REG_5);
	insns[N + 1] = (struct bpf_insn)BPF_EXIT_INSN();
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, insns,
			   (N + 2) * sizeof(*insns), "GPL", 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EACCES, errno) TH_LOG("errno %s", strerror(errno));
	EXPECT_NE(0, bpf_log_buf[0]) TH_LOG("no verifier log");
	/* the log really overflowed: it fills the buffer to the end */
	EXPECT_GT(strlen(bpf_log_buf), LOG_BUF_SIZE / 2);
	if (fd >= 0)
		close(fd);
	free(insns);
}

/* The 2015 interface fills one map_fd[] per map and one prog_fd[] per program. */
TEST(load_bpf_file_fills_every_map_fd_and_prog_fd)
{
	unsigned int ids[4];
	int i;

	ASSERT_EQ(0, load_bpf_file(THREE_MAPS)) TH_LOG("%s", bpf_log_buf);
	for (i = 0; i < 3; i++)
		EXPECT_EQ(BPF_OBJ_KIND_MAP, bpf_obj_kind(map_fd[i]))
			TH_LOG("map_fd[%d] = %d", i, map_fd[i]);
	for (i = 0; i < 2; i++)
		EXPECT_EQ(BPF_OBJ_KIND_PROG, bpf_obj_kind(prog_fd[i]))
			TH_LOG("prog_fd[%d] = %d", i, prog_fd[i]);
	/* socket_first uses maps 0 and 2, socket_second maps 1 and 2 */
	ASSERT_EQ(2, prog_map_ids(prog_fd[0], ids, 4));
	EXPECT_TRUE(ids[0] == map_id_of(map_fd[0]) || ids[1] == map_id_of(map_fd[0]));
	EXPECT_TRUE(ids[0] == map_id_of(map_fd[2]) || ids[1] == map_id_of(map_fd[2]));
	ASSERT_EQ(2, prog_map_ids(prog_fd[1], ids, 4));
	EXPECT_TRUE(ids[0] == map_id_of(map_fd[1]) || ids[1] == map_id_of(map_fd[1]));
	EXPECT_TRUE(ids[0] == map_id_of(map_fd[2]) || ids[1] == map_id_of(map_fd[2]));
}

/*
 * A load that fails at the second program, after the map and the first
 * program exist, closes them all, keeps the verifier's errno and says what
 * the verifier refused in one line; the caller's log has the whole log, and
 * bpf_log_buf, the 2015 interface's, is left alone.
 */
TEST(a_load_failing_at_the_second_program_closes_every_fd_it_made)
{
	struct bpf_object_spec *spec = malloc(sizeof(*spec));
	int map_fds[MAX_MAPS], prog_fds[MAX_PROGS], before;
	static char vlog[LOG_BUF_SIZE];

	ASSERT_NE(NULL, spec);
	strcpy(bpf_log_buf, "not this load's");
	before = open_fd_count();
	EXPECT_EQ(-1, bpf_object_load_file(REJECTED, spec, map_fds, prog_fds,
					   vlog, sizeof(vlog)));
	EXPECT_EQ(EACCES, errno) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(before, open_fd_count());
	EXPECT_EQ(-1, map_fds[0]);
	EXPECT_EQ(-1, prog_fds[0]);
	EXPECT_EQ(0, strncmp(spec->err, "program 'socket_bad' was not loaded: Permission denied; the verifier: invalid bpf_context access",
			     strlen("program 'socket_bad' was not loaded: Permission denied; the verifier: invalid bpf_context access")))
		TH_LOG("%s", spec->err);
	EXPECT_NE(NULL, strstr(vlog, "invalid bpf_context access"));
	EXPECT_STREQ("not this load's", bpf_log_buf);
	bpf_object_spec_free(spec);

	/* no log wanted: the reason is the errno's alone */
	EXPECT_EQ(-1, bpf_object_load_file(REJECTED, spec, map_fds, prog_fds,
					   NULL, 0));
	EXPECT_EQ(EACCES, errno);
	EXPECT_STREQ("program 'socket_bad' was not loaded: Permission denied",
		     spec->err);
	bpf_object_spec_free(spec);
	free(spec);

	before = open_fd_count();
	EXPECT_EQ(-1, load_bpf_file(REJECTED));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(before, open_fd_count());
}

/* bpf_log_buf holds the last load's log or nothing, never an earlier one's. */
TEST(a_second_load_never_reports_the_first_loads_verifier_log)
{
	static const struct bpf_insn exit_only[] = { BPF_EXIT_INSN() };
	char path[] = "/tmp/fds-text.XXXXXX";

	EXPECT_EQ(-1, load_bpf_file(REJECTED));
	ASSERT_NE(0, bpf_log_buf[0]) TH_LOG("no log from the first load");
	/* a program type no kernel has: refused before the verifier runs */
	EXPECT_EQ(-1, bpf_prog_load(0x7fff, exit_only, sizeof(exit_only),
				    "GPL", 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, bpf_log_buf[0]) TH_LOG("stale log: %s", bpf_log_buf);

	EXPECT_EQ(-1, load_bpf_file(REJECTED));
	ASSERT_NE(0, bpf_log_buf[0]);
	ASSERT_EQ(0, write_temp(path, "not an object", 13));
	EXPECT_EQ(-1, load_bpf_file(path));
	EXPECT_EQ(ENOEXEC, errno);
	EXPECT_EQ(0, bpf_log_buf[0]) TH_LOG("stale log: %s", bpf_log_buf);
	unlink(path);
}

/* Longer names are cut to what the spec holds, and stay terminated. */
TEST(the_longest_names_and_license_stay_terminated)
{
	struct bpf_object_spec spec;
	size_t size;
	char *buf = slurp(LONG_NAMES, &size);

	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, bpf_object_parse(buf, size, &spec)) TH_LOG("%s", spec.err);
	EXPECT_EQ(BPF_OBJECT_NAME_LEN - 1, strlen(spec.maps[0].name));
	EXPECT_EQ(0, strncmp(spec.maps[0].name, "m012345678901234567890",
			     22));
	EXPECT_EQ(BPF_MAP_TYPE_ARRAY, spec.maps[0].type);
	EXPECT_EQ(BPF_OBJECT_NAME_LEN - 1, strlen(spec.progs[0].name));
	EXPECT_EQ(0, strncmp(spec.progs[0].name, "socket_abcdefghijabcdefghij",
			     27));
	EXPECT_EQ(sizeof(spec.license) - 1, strlen(spec.license));
	EXPECT_EQ('G', spec.license[sizeof(spec.license) - 2]);
	bpf_object_spec_free(&spec);
	free(buf);

	buf = slurp(LONG_LICENSE, &size);
	ASSERT_NE(NULL, buf);
	expect_rejected(_metadata, buf, size, "license longer than 127 bytes");
	free(buf);
}

/*
 * A relocation section may patch the last section (here the symbol table,
 * which is no program: it patches nothing) or section 0 (no section: it
 * patches nothing either), never one past the last.
 */
TEST(a_relocation_for_the_last_section_is_read_and_one_past_is_not)
{
	struct bpf_object_spec spec;
	Elf64_Ehdr *ehdr;
	GElf_Shdr rel;
	size_t size, off;
	char *buf = slurp(SOCKEX1, &size);
	Elf64_Shdr *raw;

	ASSERT_NE(NULL, buf);
	ehdr = (Elf64_Ehdr *)buf;
	ASSERT_EQ(0, find_section(buf, size, ".relsocket1", &rel, &off));
	raw = (Elf64_Shdr *)(buf + off);
	raw->sh_info = ehdr->e_shnum - 1;
	ASSERT_EQ(0, bpf_object_parse(buf, size, &spec)) TH_LOG("%s", spec.err);
	EXPECT_EQ(0, spec.progs[0].reloc_cnt);
	bpf_object_spec_free(&spec);
	raw->sh_info = 0;
	ASSERT_EQ(0, bpf_object_parse(buf, size, &spec)) TH_LOG("%s", spec.err);
	EXPECT_EQ(0, spec.progs[0].reloc_cnt);
	bpf_object_spec_free(&spec);
	raw->sh_info = ehdr->e_shnum;
	expect_rejected(_metadata, buf, size, "target section");
	free(buf);
}

/* Where the name of the section whose header is shdr lies in the file. */
static char *section_name_in(char *buf, const GElf_Shdr *shdr)
{
	Elf64_Ehdr *ehdr = (Elf64_Ehdr *)buf;
	Elf64_Shdr *sh = (Elf64_Shdr *)(buf + ehdr->e_shoff);

	return buf + sh[ehdr->e_shstrndx].sh_offset + shdr->sh_name;
}

/*
 * Names are copied to be shown in messages: a blank, a control byte, DEL
 * and any byte past ASCII become '?', the printable bytes from '!' to '~'
 * stay as they are.
 */
TEST(names_keep_printable_bytes_and_show_the_others_as_question_marks)
{
	static const char odd[] = "a b!~\x7f\x1f\x80z";
	struct bpf_object_spec spec;
	GElf_Shdr prog;
	size_t size, off;
	char *buf = slurp(SOCKEX1, &size), *name;

	ASSERT_NE(NULL, buf);
	/* the map's symbol name, "proto_bytes" and its NUL: room for odd */
	name = memmem(buf, size, "proto_bytes", sizeof("proto_bytes"));
	ASSERT_NE(NULL, name);
	ASSERT_EQ(NULL, memmem(name + 1, buf + size - name - 1, "proto_bytes",
			       sizeof("proto_bytes")));
	memcpy(name, odd, sizeof(odd));
	/* the program's section "socket1" becomes "socket " */
	ASSERT_EQ(0, find_section(buf, size, "socket1", &prog, &off));
	section_name_in(buf, &prog)[6] = ' ';
	ASSERT_EQ(0, bpf_object_parse(buf, size, &spec)) TH_LOG("%s", spec.err);
	EXPECT_STREQ("a?b!~???z", spec.maps[0].name);
	EXPECT_STREQ("socket?", spec.progs[0].name);
	bpf_object_spec_free(&spec);
	free(buf);
}

/*
 * A section may end at the end of the file: one of no bytes may start
 * there (sockex1_kern.o's empty .text, moved), one of a byte may not.
 */
TEST(an_empty_section_may_start_at_the_end_of_the_file)
{
	struct bpf_object_spec spec;
	GElf_Shdr text;
	size_t size, off, idx;
	char *buf = slurp(SOCKEX1, &size), want[BPF_OBJECT_ERR_LEN];
	Elf64_Shdr *raw;

	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, find_section(buf, size, ".text", &text, &off));
	ASSERT_EQ(0, text.sh_size) TH_LOG("clang's .text is not empty here");
	idx = (off - ((Elf64_Ehdr *)buf)->e_shoff) / sizeof(Elf64_Shdr);
	raw = (Elf64_Shdr *)(buf + off);
	raw->sh_offset = size;
	ASSERT_EQ(0, bpf_object_parse(buf, size, &spec)) TH_LOG("%s", spec.err);
	EXPECT_EQ(1, spec.prog_cnt);
	EXPECT_EQ(1, spec.map_cnt);
	bpf_object_spec_free(&spec);
	raw->sh_size = 1;
	snprintf(want, sizeof(want),
		 "section %zu: offset %zu size 1 past the end of the file (%zu bytes)",
		 idx, size, size);
	expect_rejected(_metadata, buf, size, want);
	free(buf);
}

/* load_bpf_file(path) with what it prints on stderr in out (len bytes). */
static int load_capturing_stderr(const char *path, char *out, size_t len)
{
	FILE *f = tmpfile();
	int saved, ret, err;
	ssize_t n;

	if (!f)
		return -2;
	fflush(stderr);
	saved = dup(2);
	if (saved < 0 || dup2(fileno(f), 2) < 0) {
		fclose(f);
		return -2;
	}
	ret = load_bpf_file((char *)path);
	err = errno;
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(fileno(f), out, len - 1, 0);
	out[n > 0 ? n : 0] = '\0';
	fclose(f);
	errno = err;
	return ret;
}

/*
 * What load_bpf_file() prints when it fails: one line saying why, then
 * the verifier's log if this load's verifier refused a program, never the
 * log an earlier load left in bpf_log_buf.
 */
TEST(load_bpf_file_prints_the_verifier_log_of_this_load_only)
{
	const size_t len = 2 * LOG_BUF_SIZE;
	const char *first = "bpf_load: " REJECTED
		": program 'socket_bad' was not loaded: Permission denied; the verifier: ";
	char *err = malloc(len), *want = malloc(len), *nl;
	char path[] = "/tmp/fds-text.XXXXXX";
	size_t log_len;

	ASSERT_NE(NULL, err);
	ASSERT_NE(NULL, want);
	EXPECT_EQ(-1, load_capturing_stderr(REJECTED, err, len));
	log_len = strlen(bpf_log_buf);
	ASSERT_LT(1, log_len) TH_LOG("no verifier log");
	EXPECT_EQ(0, strncmp(err, first, strlen(first))) TH_LOG("stderr: %s", err);
	nl = strchr(err, '\n');
	ASSERT_NE(NULL, nl);
	snprintf(want, len, "bpf_load: verifier log:\n%s%s", bpf_log_buf,
		 bpf_log_buf[log_len - 1] == '\n' ? "" : "\n");
	EXPECT_STREQ(want, nl + 1);

	/* refused before any bpf(): the first log is still behind its NUL */
	ASSERT_EQ(0, write_temp(path, "not an object", 13));
	EXPECT_EQ(-1, load_capturing_stderr(path, err, len));
	EXPECT_EQ(ENOEXEC, errno);
	snprintf(want, len, "bpf_load: %s: too short for an ELF file (13 bytes)\n",
		 path);
	EXPECT_STREQ(want, err);
	unlink(path);
	free(want);
	free(err);
}

/* bpf_object_spec_free() leaves no pointer behind: a second call is harmless. */
TEST(a_freed_spec_points_nowhere)
{
	struct bpf_object_spec spec;
	size_t size;
	char *buf = slurp(TWO_PROGS, &size);
	int i;

	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, bpf_object_parse(buf, size, &spec)) TH_LOG("%s", spec.err);
	ASSERT_NE(NULL, spec.progs[1].relocs);
	bpf_object_spec_free(&spec);
	for (i = 0; i < MAX_PROGS; i++) {
		EXPECT_EQ(NULL, spec.progs[i].insns) TH_LOG("program %d", i);
		EXPECT_EQ(NULL, spec.progs[i].relocs) TH_LOG("program %d", i);
	}
	bpf_object_spec_free(&spec);
	free(buf);
}

/* The bytes malloc() has handed out and not had back. */
static size_t heap_in_use(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

/* Parses the object whole and cut in half, rounds times; 0 if as expected. */
static int parse_good_and_bad(const char *buf, size_t size, int rounds)
{
	struct bpf_object_spec spec;
	int i, bad = 0;

	for (i = 0; i < rounds; i++) {
		bad |= bpf_object_parse(buf, size, &spec) != 0;
		bpf_object_spec_free(&spec);
		bad |= bpf_object_parse(buf, size / 2, &spec) != -1;
		bpf_object_spec_free(&spec);
	}
	return bad;
}

/*
 * Parsing keeps no memory, whether the file is good or refused: once
 * malloc's caches of freed chunks are full (tcache: 7 a size), the heap in
 * use stays what it is, parse after parse.
 */
TEST(parsing_keeps_no_memory)
{
	size_t size, before;
	char *buf = slurp(TWO_PROGS, &size);

	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, parse_good_and_bad(buf, size, 20));
	before = heap_in_use();
	ASSERT_EQ(0, parse_good_and_bad(buf, size, 100));
	EXPECT_EQ(before, heap_in_use());
	free(buf);
}

/* Loads TWO_PROGS with load_bpf_file() rounds times, closing what it made. */
static int load_and_close(int rounds)
{
	int i, j;

	for (i = 0; i < rounds; i++) {
		if (load_bpf_file(TWO_PROGS))
			return -1;
		for (j = 0; j < 2; j++) {
			close(map_fd[j]);
			close(prog_fd[j]);
		}
	}
	return 0;
}

/* load_bpf_file() keeps no memory from one load to the next. */
TEST(load_bpf_file_keeps_no_memory)
{
	size_t before;

	ASSERT_EQ(0, load_and_close(10)) TH_LOG("%s", strerror(errno));
	before = heap_in_use();
	ASSERT_EQ(0, load_and_close(20)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(before, heap_in_use());
}

/* Whether fds[from] to fds[n - 1] all hold fd. */
static int all_are(const int *fds, int from, int n, int fd)
{
	int i;

	for (i = from; i < n; i++)
		if (fds[i] != fd)
			return 0;
	return 1;
}

/* Opens fd 0 on /dev/null if it is closed: 0 once it is open. */
static int fd0_open(void)
{
	if (fcntl(0, F_GETFD) != -1)
		return 0;
	return open("/dev/null", O_RDONLY) == 0 ? 0 : -1;
}

/*
 * bpf_object_load_file() fills map_fds[] and prog_fds[] as far as the
 * spec's counts and no further; a failed load closes what it made, never
 * an fd the caller has, in those arrays or not.
 */
TEST(a_load_writes_only_its_own_entries_and_closes_only_its_own_fds)
{
	struct bpf_object_spec *spec = malloc(sizeof(*spec));
	int map_fds[MAX_MAPS], prog_fds[MAX_PROGS], mine, before, i;
	char path[] = "/tmp/fds-max0.XXXXXX";
	GElf_Shdr maps;
	size_t size, off;
	char *buf = slurp(TWO_PROGS, &size);

	ASSERT_NE(NULL, spec);
	ASSERT_NE(NULL, buf);
	/* fd 0 too is the caller's, and open: a stray close(0) shows */
	ASSERT_EQ(0, fd0_open());
	mine = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, mine);
	for (i = 0; i < MAX_MAPS; i++)
		map_fds[i] = mine;
	for (i = 0; i < MAX_PROGS; i++)
		prog_fds[i] = mine;
	ASSERT_EQ(0, bpf_object_load_file(TWO_PROGS, spec, map_fds, prog_fds,
					  NULL, 0))
		TH_LOG("%s", spec->err);
	EXPECT_TRUE(all_are(map_fds, 2, MAX_MAPS, mine));
	EXPECT_TRUE(all_are(prog_fds, 2, MAX_PROGS, mine));
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(BPF_OBJ_KIND_MAP, bpf_obj_kind(map_fds[i]));
		EXPECT_EQ(BPF_OBJ_KIND_PROG, bpf_obj_kind(prog_fds[i]));
		close(map_fds[i]);
		close(prog_fds[i]);
		map_fds[i] = prog_fds[i] = mine;
	}
	bpf_object_spec_free(spec);

	/* the first map of no entries: refused by the kernel, before the rest */
	ASSERT_EQ(0, find_section(buf, size, "maps", &maps, &off));
	memset(buf + maps.sh_offset + 12, 0, 4);
	ASSERT_EQ(0, write_temp(path, buf, size));
	before = open_fd_count();
	EXPECT_EQ(-1, bpf_object_load_file(path, spec, map_fds, prog_fds,
					   NULL, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_STREQ("cannot create map 0 'counts': Invalid argument", spec->err);
	EXPECT_TRUE(all_are(map_fds, 0, 2, -1));
	EXPECT_TRUE(all_are(prog_fds, 0, 2, -1));
	EXPECT_TRUE(all_are(map_fds, 2, MAX_MAPS, mine));
	EXPECT_TRUE(all_are(prog_fds, 2, MAX_PROGS, mine));
	EXPECT_EQ(before, open_fd_count()) TH_LOG("an fd of the caller was closed");
	bpf_object_spec_free(spec);
	unlink(path);
	close(mine);
	free(buf);
	free(spec);
}

/*
 * bpf_object_load_file() of the sysfs file path, errno set to errno_before
 * first, no log: -2 when path is no regular file of at least min bytes
 * (the caller skips), -3 when no spec could be allocated, else what the
 * load returned, with its errno in *err and its reason in why.
 */
static int load_sysfs(const char *path, off_t min, int errno_before,
		      int *err, char *why, size_t len)
{
	int map_fds[MAX_MAPS], prog_fds[MAX_PROGS], ret;
	struct bpf_object_spec *spec;
	struct stat st;

	if (stat(path, &st) || !S_ISREG(st.st_mode) || st.st_size < min)
		return -2;
	spec = malloc(sizeof(*spec));
	if (!spec)
		return -3;
	errno = errno_before;
	ret = bpf_object_load_file(path, spec, map_fds, prog_fds, NULL, 0);
	*err = errno;
	snprintf(why, len, "%s", spec->err);
	bpf_object_spec_free(spec);
	free(spec);
	return ret;
}

/*
 * A regular file whose read() fails (sysfs has lo's speed as one, read as
 * EINVAL: lo has none) is refused with read()'s errno, at the first try.
 */
TEST(a_file_whose_read_fails_is_refused_with_its_errno)
{
	char why[BPF_OBJECT_ERR_LEN];
	int err = 0, ret;

	ret = load_sysfs("/sys/class/net/lo/speed", 1, 0, &err, why, sizeof(why));
	if (ret == -2)
		SKIP(return, "no /sys/class/net/lo/speed of a size");
	ASSERT_NE(-3, ret);
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(EINVAL, err);
	EXPECT_STREQ("Invalid argument", why);
}

/*
 * A regular file that ends before its size (sysfs gives lo's mtu the size
 * of a page) is refused when read() reaches its end, whatever errno the
 * caller left behind: EINTR here, which only a failed read() may mean.
 */
TEST(a_file_that_ends_before_its_size_is_refused_whatever_errno_was)
{
	char why[BPF_OBJECT_ERR_LEN];
	int err = 0, ret;

	ret = load_sysfs("/sys/class/net/lo/mtu", 16, EINTR, &err, why, sizeof(why));
	if (ret == -2)
		SKIP(return, "no /sys/class/net/lo/mtu of a page");
	ASSERT_NE(-3, ret);
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(EIO, err);
	EXPECT_STREQ("file shrank while read", why);
}

/* The address space this process has mapped, in bytes (/proc/self/statm). */
static size_t mapped_now(void)
{
	unsigned long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (!f)
		return 0;
	if (fscanf(f, "%lu", &pages) != 1)
		pages = 0;
	fclose(f);
	return pages * sysconf(_SC_PAGESIZE);
}

/* bpf_object_parse(image) with room for room bytes more mapped, no more. */
static int parse_within(const char *image, size_t size, size_t room,
			struct bpf_object_spec *spec)
{
	struct rlimit old, rl;
	int ret;

	if (getrlimit(RLIMIT_AS, &old))
		return -2;
	rl = old;
	rl.rlim_cur = mapped_now() + room;
	if (setrlimit(RLIMIT_AS, &rl))
		return -2;
	ret = bpf_object_parse(image, size, spec);
	setrlimit(RLIMIT_AS, &old);
	return ret;
}

/* Whether RLIMIT_AS may be lowered: not under ASan, whose shadow is terabytes. */
static int address_space_limitable(void)
{
#ifdef __SANITIZE_ADDRESS__
	return 0;
#else
	return 1;
#endif
}

/*
 * The image of size bytes, with a program of len bytes, refused as "out of
 * memory" with room for half the image (the parser's copy of it fails),
 * then with room for the image and half the program (the copy of the
 * program's instructions fails).
 */
static void expect_out_of_memory(struct __test_metadata *_metadata,
				 const char *image, size_t size, size_t len)
{
	struct bpf_object_spec spec;

	ASSERT_EQ(-1, parse_within(image, size, size / 2, &spec));
	EXPECT_STREQ("out of memory", spec.err);
	bpf_object_spec_free(&spec);
	ASSERT_EQ(-1, parse_within(image, size, size + len / 2, &spec));
	EXPECT_STREQ("out of memory", spec.err);
	EXPECT_EQ(0, spec.prog_cnt);
	bpf_object_spec_free(&spec);
}

/*
 * An object the memory has no room for is refused as "out of memory": here
 * sockex1_kern.o with a program of 900000 instructions (all zero) appended,
 * which, given the room, is refused for its relocation instead. (Under
 * ASan, whose allocator cannot be limited so, only the latter.)
 */
TEST(an_object_that_does_not_fit_in_memory_is_refused_as_such)
{
	const size_t len = 900000 * sizeof(struct bpf_insn);
	struct bpf_object_spec spec;
	GElf_Shdr shdr;
	size_t size, off;
	char *buf = slurp(SOCKEX1, &size), *big;
	Elf64_Shdr *raw;

	ASSERT_NE(NULL, buf);
	ASSERT_LT(0, mapped_now());
	big = calloc(1, size + len);
	ASSERT_NE(NULL, big);
	memcpy(big, buf, size);
	ASSERT_EQ(0, find_section(big, size, "socket1", &shdr, &off));
	raw = (Elf64_Shdr *)(big + off);
	raw->sh_offset = size;
	raw->sh_size = len;
	ASSERT_EQ(-1, bpf_object_parse(big, size + len, &spec));
	EXPECT_NE(NULL, strstr(spec.err, "(code 0x00) is not LD_IMM64"))
		TH_LOG("%s", spec.err);
	EXPECT_EQ(1, spec.prog_cnt);
	bpf_object_spec_free(&spec);
	if (address_space_limitable())
		expect_out_of_memory(_metadata, big, size + len, len);
	free(big);
	free(buf);
}

TEST_HARNESS_MAIN
