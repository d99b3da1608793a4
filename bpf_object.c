// SPDX-License-Identifier: GPL-2.0
/*
 * The ELF parser for BPF objects in the legacy "maps" layout: it reads an
 * image in memory and describes it in a struct bpf_object_spec, with no
 * syscall, so it can be fuzzed. The file is trusted for nothing: every
 * offset, size, index and count is checked before use.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libelf.h>
#include <gelf.h>

#include "bpf_object.h"
#include "spec_error.h"

#ifndef EM_BPF
#define EM_BPF 247
#endif
#ifndef R_BPF_64_64
#define R_BPF_64_64 1
#endif

/* The verifier's own ceiling on program size. */
#define MAX_INSNS 1000000

#define LD_IMM64_CODE (BPF_LD | BPF_IMM | BPF_DW)

/* The byte order of this machine, which an object must share. */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOST_ELFDATA ELFDATA2LSB
#else
#define HOST_ELFDATA ELFDATA2MSB
#endif

/*
 * What bpf_object_parse() has learned of the file so far: its size, the
 * indexes of the sections that matter (0 means absent) and the symbol table.
 */
struct parse_state {
	size_t file_size;
	size_t shnum;
	size_t shstrndx;
	size_t license;
	size_t version;
	size_t maps;
	size_t symtab;
	size_t strtab;
	size_t nsyms;
	Elf_Data *syms;
	/* The section index of each program, in program order. */
	size_t prog_sec[MAX_PROGS];
};

void spec_error(struct bpf_object_spec *spec, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(spec->err, sizeof(spec->err), fmt, ap);
	va_end(ap);
}

/* Copies a name from the file, readable in a message whatever its bytes. */
static void copy_name(char *dst, size_t len, const char *src)
{
	size_t i;

	for (i = 0; i + 1 < len && src[i]; i++)
		dst[i] = (src[i] > ' ' && src[i] < 0x7f) ? src[i] : '?';
	dst[i] = '\0';
}

static int section_data(Elf_Scn *scn, const GElf_Shdr *shdr, Elf_Data **out)
{
	Elf_Data *data = elf_getdata(scn, NULL);

	if (!data || !data->d_buf || data->d_size != shdr->sh_size ||
	    elf_getdata(scn, data) != NULL)
		return -1;
	*out = data;
	return 0;
}

static int read_section(Elf *elf, size_t idx, GElf_Shdr *shdr,
			Elf_Data **data)
{
	Elf_Scn *scn = elf_getscn(elf, idx);

	if (!scn || !gelf_getshdr(scn, shdr))
		return -1;
	return section_data(scn, shdr, data);
}

static int check_header(Elf *elf, struct bpf_object_spec *spec)
{
	GElf_Ehdr ehdr;
	char *ident;
	size_t n;

	if (elf_kind(elf) != ELF_K_ELF) {
		spec_error(spec, "not an ELF file");
		return -1;
	}
	ident = elf_getident(elf, &n);
	if (!ident || n < EI_NIDENT) {
		spec_error(spec, "truncated ELF identification");
		return -1;
	}
	if (ident[EI_CLASS] != ELFCLASS64) {
		spec_error(spec, "ELF class %d, BPF objects are 64-bit",
			   ident[EI_CLASS]);
		return -1;
	}
	if (ident[EI_DATA] != HOST_ELFDATA) {
		/* only the message differs between the byte orders */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		spec_error(spec, "not little-endian like this machine");
#else
		spec_error(spec, "not big-endian like this machine");
#endif
		return -1;
	}
	if (!gelf_getehdr(elf, &ehdr)) {
		spec_error(spec, "bad ELF header: %s", elf_errmsg(-1));
		return -1;
	}
	if (ehdr.e_machine != EM_BPF) {
		spec_error(spec, "machine %u is not BPF (%u)", ehdr.e_machine,
			   EM_BPF);
		return -1;
	}
	if (ehdr.e_shnum && ehdr.e_shentsize != sizeof(Elf64_Shdr)) {
		spec_error(spec, "section header entry size %u, expected %zu",
			   ehdr.e_shentsize, sizeof(Elf64_Shdr));
		return -1;
	}
	if (ehdr.e_type != ET_REL) {
		spec_error(spec, "ELF type %u is not a relocatable object",
			   ehdr.e_type);
		return -1;
	}
	return 0;
}

static int add_prog(struct parse_state *s, size_t idx, const char *name,
		    const GElf_Shdr *shdr, Elf_Data *data,
		    struct bpf_object_spec *spec)
{
	struct bpf_prog_spec *prog;
	char shown[BPF_OBJECT_NAME_LEN];

	copy_name(shown, sizeof(shown), name);
	if (strncmp(name, "socket", 6) != 0) {
		spec_error(spec, "unsupported section '%s' (only socket* programs)",
			   shown);
		return -1;
	}
	if (shdr->sh_type != SHT_PROGBITS) {
		spec_error(spec, "section '%s': type %u is not PROGBITS",
			   shown, shdr->sh_type);
		return -1;
	}
	if (shdr->sh_size % sizeof(struct bpf_insn)) {
		spec_error(spec, "section '%s': size %llu is not whole instructions",
			   shown, (unsigned long long)shdr->sh_size);
		return -1;
	}
	if (shdr->sh_size / sizeof(struct bpf_insn) > MAX_INSNS) {
		spec_error(spec, "section '%s': more than %d instructions",
			   shown, MAX_INSNS);
		return -1;
	}
	if (spec->prog_cnt >= MAX_PROGS) {
		spec_error(spec, "more than %d programs", MAX_PROGS);
		return -1;
	}

	prog = &spec->progs[spec->prog_cnt];
	prog->insns = malloc(shdr->sh_size);
	if (!prog->insns) {
		spec_error(spec, "out of memory");
		return -1;
	}
	memcpy(prog->insns, data->d_buf, shdr->sh_size);
	prog->insn_cnt = shdr->sh_size / sizeof(struct bpf_insn);
	prog->type = BPF_PROG_TYPE_SOCKET_FILTER;
	copy_name(prog->name, sizeof(prog->name), name);
	s->prog_sec[spec->prog_cnt++] = idx;
	return 0;
}

/* Reads the section count and name table. */
static int prepare_scan(Elf *elf, struct parse_state *s,
			struct bpf_object_spec *spec)
{
	if (elf_getshdrnum(elf, &s->shnum) || s->shnum == 0) {
		spec_error(spec, "no section headers");
		return -1;
	}
	if (elf_getshdrstrndx(elf, &s->shstrndx) || s->shstrndx == 0 ||
	    s->shstrndx >= s->shnum) {
		spec_error(spec, "section name table index out of range");
		return -1;
	}
	return 0;
}

/* Section idx's header and name, both checked against the file. */
static const char *section_header(Elf *elf, struct parse_state *s, size_t idx,
				  GElf_Shdr *shdr, struct bpf_object_spec *spec)
{
	Elf_Scn *scn = elf_getscn(elf, idx);
	size_t size = s->file_size;
	const char *name;

	if (!scn || !gelf_getshdr(scn, shdr)) {
		spec_error(spec, "section %zu: bad header", idx);
		return NULL;
	}
	if (shdr->sh_type != SHT_NOBITS &&
	    (shdr->sh_offset > size || shdr->sh_size > size - shdr->sh_offset)) {
		spec_error(spec, "section %zu: offset %llu size %llu past the end of the file (%zu bytes)",
			   idx, (unsigned long long)shdr->sh_offset,
			   (unsigned long long)shdr->sh_size, size);
		return NULL;
	}
	name = elf_strptr(elf, s->shstrndx, shdr->sh_name);
	if (!name)
		spec_error(spec, "section %zu: name offset %u out of range",
			   idx, shdr->sh_name);
	return name;
}

/* Notes section idx if it is one that matters; copies a program out. */
static int classify_section(Elf *elf, struct parse_state *s, size_t idx,
			    struct bpf_object_spec *spec)
{
	const char *name;
	Elf_Data *data;
	GElf_Shdr shdr;

	name = section_header(elf, s, idx, &shdr, spec);
	if (!name)
		return -1;
	if (shdr.sh_type == SHT_SYMTAB) {
		if (s->symtab) {
			spec_error(spec, "more than one symbol table");
			return -1;
		}
		s->symtab = idx;
	} else if (strcmp(name, "license") == 0) {
		s->license = idx;
	} else if (strcmp(name, "version") == 0) {
		s->version = idx;
	} else if (strcmp(name, "maps") == 0) {
		s->maps = idx;
	} else if ((shdr.sh_flags & SHF_EXECINSTR) && shdr.sh_size) {
		if (section_data(elf_getscn(elf, idx), &shdr, &data)) {
			spec_error(spec, "section %zu: cannot read its data", idx);
			return -1;
		}
		return add_prog(s, idx, name, &shdr, data, spec);
	}
	return 0;
}

/* Finds the sections that matter and copies the programs out. */
static int scan_sections(Elf *elf, struct parse_state *s,
			 struct bpf_object_spec *spec)
{
	size_t idx;

	if (prepare_scan(elf, s, spec))
		return -1;
	for (idx = 1; idx < s->shnum; idx++)
		if (classify_section(elf, s, idx, spec))
			return -1;
	if (spec->prog_cnt == 0) {
		spec_error(spec, "no program section (socket*)");
		return -1;
	}
	return 0;
}

static int parse_license_version(Elf *elf, struct parse_state *s,
				 struct bpf_object_spec *spec)
{
	GElf_Shdr shdr;
	Elf_Data *data;

	if (s->license) {
		if (read_section(elf, s->license, &shdr, &data)) {
			spec_error(spec, "license section: cannot read it");
			return -1;
		}
		if (!memchr(data->d_buf, '\0', data->d_size)) {
			spec_error(spec, "license is not NUL-terminated");
			return -1;
		}
		if (strlen(data->d_buf) >= sizeof(spec->license)) {
			spec_error(spec, "license longer than %zu bytes",
				   sizeof(spec->license) - 1);
			return -1;
		}
		strcpy(spec->license, data->d_buf);
	}
	if (s->version) {
		if (read_section(elf, s->version, &shdr, &data) ||
		    data->d_size != sizeof(__u32)) {
			spec_error(spec, "version section is not one 32-bit word");
			return -1;
		}
		memcpy(&spec->kern_version, data->d_buf, sizeof(__u32));
	}
	return 0;
}

static int parse_symtab(Elf *elf, struct parse_state *s,
			struct bpf_object_spec *spec)
{
	GElf_Shdr shdr;

	if (!s->symtab)
		return 0;
	if (read_section(elf, s->symtab, &shdr, &s->syms) ||
	    shdr.sh_entsize != sizeof(Elf64_Sym) ||
	    shdr.sh_size % sizeof(Elf64_Sym)) {
		spec_error(spec, "symbol table: bad size or entry size");
		return -1;
	}
	if (shdr.sh_link == 0 || shdr.sh_link >= s->shnum) {
		spec_error(spec, "symbol table: string table index %u out of range",
			   shdr.sh_link);
		return -1;
	}
	s->strtab = shdr.sh_link;
	s->nsyms = shdr.sh_size / sizeof(Elf64_Sym);
	return 0;
}

static int get_sym(struct parse_state *s, size_t idx, GElf_Sym *sym)
{
	if (idx >= s->nsyms || !gelf_getsym(s->syms, idx, sym))
		return -1;
	return 0;
}

/* A symbol naming one map definition, not the section itself. */
static int is_map_sym(const struct parse_state *s, const GElf_Sym *sym)
{
	return sym->st_shndx == s->maps &&
	       GELF_ST_TYPE(sym->st_info) != STT_SECTION;
}

static int count_map_syms(struct parse_state *s, size_t *nmaps,
			  struct bpf_object_spec *spec)
{
	GElf_Sym sym;
	size_t i;

	*nmaps = 0;
	for (i = 1; i < s->nsyms; i++) {
		if (get_sym(s, i, &sym)) {
			spec_error(spec, "symbol %zu: cannot read it", i);
			return -1;
		}
		if (is_map_sym(s, &sym))
			(*nmaps)++;
	}
	return 0;
}

/*
 * The "maps" section is an array of definitions, four u32 in 2015, five once
 * map_flags was added; iproute2's bpf_elf_map adds id and pinning (seven),
 * then inner_id and inner_idx (nine). The file does not say which: the
 * number of map symbols does, since each definition has one.
 */
static int choose_def_size(struct parse_state *s, size_t maps_size,
			   struct bpf_object_spec *spec)
{
	size_t nmaps, def_size;

	if (count_map_syms(s, &nmaps, spec))
		return -1;
	if (nmaps == 0) {
		spec_error(spec, "maps section has no map symbols");
		return -1;
	}
	if (nmaps > MAX_MAPS) {
		spec_error(spec, "%zu maps, at most %d", nmaps, MAX_MAPS);
		return -1;
	}
	def_size = maps_size / nmaps;
	if (maps_size % nmaps || (def_size != 16 && def_size != 20 &&
				  def_size != 28 && def_size != 36)) {
		spec_error(spec, "maps section of %llu bytes fits no definition size for %zu maps (16, 20, 28 or 36 bytes each)",
			   (unsigned long long)maps_size, nmaps);
		return -1;
	}
	spec->map_def_size = def_size;
	spec->map_cnt = nmaps;
	return 0;
}

/*
 * iproute2's fields this loader acts on: pinning, whose name must then be a
 * file name; no map-in-map (inner_id, inner_idx).
 */
static int check_pinning(const struct bpf_map_spec *map,
			 struct bpf_object_spec *spec)
{
	if (map->pinning > PIN_GLOBAL_NS) {
		spec_error(spec, "map '%s': pinning %u is none of PIN_NONE (0), PIN_OBJECT_NS (1), PIN_GLOBAL_NS (2)",
			   map->name, map->pinning);
		return -1;
	}
	if (map->inner_id || map->inner_idx) {
		spec_error(spec, "map '%s': inner map (inner_id %u, inner_idx %u) not supported",
			   map->name, map->inner_id, map->inner_idx);
		return -1;
	}
	if (map->pinning != PIN_NONE &&
	    (!map->name[0] || strchr(map->name, '/') ||
	     !strcmp(map->name, ".") || !strcmp(map->name, ".."))) {
		spec_error(spec, "map '%s': a pinned map's name must be a file name",
			   map->name);
		return -1;
	}
	return 0;
}

/* Fills in the map that symbol i defines, if it defines one. */
static int fill_map(Elf *elf, struct parse_state *s, size_t i,
		    const Elf_Data *data, unsigned int *seen,
		    struct bpf_object_spec *spec)
{
	size_t def_size = spec->map_def_size, slot;
	unsigned int def[9] = { 0 };
	struct bpf_map_spec *map;
	const char *name;
	GElf_Sym sym;

	if (get_sym(s, i, &sym)) {
		spec_error(spec, "symbol %zu: cannot read it", i);
		return -1;
	}
	if (!is_map_sym(s, &sym))
		return 0;
	if (sym.st_value % def_size || sym.st_value >= data->d_size ||
	    (sym.st_size && sym.st_size != def_size)) {
		spec_error(spec, "map symbol %zu at offset %llu size %llu is not one whole definition",
			   i, (unsigned long long)sym.st_value,
			   (unsigned long long)sym.st_size);
		return -1;
	}
	slot = sym.st_value / def_size;
	if (seen[slot]++) {
		spec_error(spec, "two map symbols at offset %llu",
			   (unsigned long long)sym.st_value);
		return -1;
	}
	map = &spec->maps[slot];
	name = elf_strptr(elf, s->strtab, sym.st_name);
	if (!name) {
		spec_error(spec, "map symbol %zu: name out of range", i);
		return -1;
	}
	copy_name(map->name, sizeof(map->name), name);
	memcpy(def, (const char *)data->d_buf + sym.st_value, def_size);
	map->type = def[0];
	map->key_size = def[1];
	map->value_size = def[2];
	map->max_entries = def[3];
	map->map_flags = def[4];
	map->id = def[5];
	map->pinning = def[6];
	map->inner_id = def[7];
	map->inner_idx = def[8];
	return check_pinning(map, spec);
}

static int parse_maps(Elf *elf, struct parse_state *s,
		      struct bpf_object_spec *spec)
{
	unsigned int seen[MAX_MAPS] = { 0 };
	GElf_Shdr shdr;
	Elf_Data *data;
	size_t i;

	if (!s->maps)
		return 0;
	if (read_section(elf, s->maps, &shdr, &data)) {
		spec_error(spec, "maps section: cannot read it");
		return -1;
	}
	if (!s->symtab) {
		spec_error(spec, "maps section but no symbol table");
		return -1;
	}
	if (choose_def_size(s, shdr.sh_size, spec))
		return -1;
	for (i = 1; i < s->nsyms; i++)
		if (fill_map(elf, s, i, data, seen, spec))
			return -1;
	return 0;
}

/* Which map a relocation's symbol names, or -1. */
static int reloc_map(struct parse_state *s, struct bpf_object_spec *spec,
		     const GElf_Sym *sym, const struct bpf_insn *insn)
{
	unsigned long long off = sym->st_value;

	/* Against the section symbol, the offset travels in the immediate. */
	if (GELF_ST_TYPE(sym->st_info) == STT_SECTION)
		off += (unsigned int)insn->imm;
	if (!s->maps || sym->st_shndx != s->maps || spec->map_cnt == 0)
		return -1;
	if (off % spec->map_def_size ||
	    off / spec->map_def_size >= spec->map_cnt)
		return -1;
	return off / spec->map_def_size;
}

/* The program copied from section idx, or NULL. */
static struct bpf_prog_spec *prog_of(const struct parse_state *s, size_t idx,
				     struct bpf_object_spec *spec)
{
	unsigned int i;

	for (i = 0; i < spec->prog_cnt; i++)
		if (s->prog_sec[i] == idx)
			return &spec->progs[i];
	return NULL;
}

/*
 * Checks relocation section idx as a whole. On success *prog is the program
 * it patches, or NULL if it patches none (debug info and the like).
 */
static int check_rel_section(struct parse_state *s, size_t idx,
			     const GElf_Shdr *shdr, struct bpf_prog_spec **prog,
			     struct bpf_object_spec *spec)
{
	if (shdr->sh_info >= s->shnum) {
		spec_error(spec, "relocation section %zu: target section %u out of range",
			   idx, shdr->sh_info);
		return -1;
	}
	*prog = prog_of(s, shdr->sh_info, spec);
	if (!*prog)
		return 0;

	if (shdr->sh_type == SHT_RELA) {
		spec_error(spec, "section '%s': RELA relocations are not supported",
			   (*prog)->name);
		return -1;
	}
	if ((*prog)->relocs) {
		spec_error(spec, "section '%s': more than one relocation section",
			   (*prog)->name);
		return -1;
	}
	if (!s->symtab || shdr->sh_link != s->symtab) {
		spec_error(spec, "relocation section %zu: symbol table index %u is not the symbol table",
			   idx, shdr->sh_link);
		return -1;
	}
	if (shdr->sh_entsize != sizeof(Elf64_Rel) ||
	    shdr->sh_size % sizeof(Elf64_Rel)) {
		spec_error(spec, "relocation section %zu: bad size or entry size",
			   idx);
		return -1;
	}
	return 0;
}

/* The LD_IMM64 that relocation i of prog patches: its index, or -1. */
static long rel_target(const struct bpf_prog_spec *prog, size_t i,
		       const GElf_Rel *r, struct bpf_object_spec *spec)
{
	size_t insn_idx;

	if (GELF_R_TYPE(r->r_info) != R_BPF_64_64) {
		spec_error(spec, "relocation %zu of '%s': type %llu is not R_BPF_64_64",
			   i, prog->name,
			   (unsigned long long)GELF_R_TYPE(r->r_info));
		return -1;
	}
	if (r->r_offset % sizeof(struct bpf_insn) ||
	    r->r_offset / sizeof(struct bpf_insn) + 1 >= prog->insn_cnt) {
		spec_error(spec, "relocation %zu of '%s': offset %llu is not an instruction with room for LD_IMM64",
			   i, prog->name, (unsigned long long)r->r_offset);
		return -1;
	}
	insn_idx = r->r_offset / sizeof(struct bpf_insn);
	if (prog->insns[insn_idx].code != LD_IMM64_CODE) {
		spec_error(spec, "relocation %zu of '%s': instruction %zu (code 0x%02x) is not LD_IMM64",
			   i, prog->name, insn_idx, prog->insns[insn_idx].code);
		return -1;
	}
	return insn_idx;
}

/* Records which map the instruction relocation i patches is to load. */
static int parse_rel(struct parse_state *s, Elf_Data *data, size_t i,
		     struct bpf_prog_spec *prog, struct bpf_object_spec *spec)
{
	struct bpf_reloc_spec *rel = &prog->relocs[prog->reloc_cnt];
	size_t symidx;
	long insn_idx;
	GElf_Rel r;
	GElf_Sym sym;
	int map;

	if (!gelf_getrel(data, i, &r)) {
		spec_error(spec, "relocation %zu of '%s': cannot read it",
			   i, prog->name);
		return -1;
	}
	insn_idx = rel_target(prog, i, &r, spec);
	if (insn_idx < 0)
		return -1;
	symidx = GELF_R_SYM(r.r_info);
	if (symidx == 0 || get_sym(s, symidx, &sym)) {
		spec_error(spec, "relocation %zu of '%s': symbol %zu out of range (%zu symbols)",
			   i, prog->name, symidx, s->nsyms);
		return -1;
	}
	map = reloc_map(s, spec, &sym, &prog->insns[insn_idx]);
	if (map < 0) {
		spec_error(spec, "relocation %zu of '%s': symbol %zu is not a map definition",
			   i, prog->name, symidx);
		return -1;
	}
	rel->insn = insn_idx;
	rel->map = map;
	prog->reloc_cnt++;
	return 0;
}

static int parse_rel_section(Elf *elf, struct parse_state *s, size_t idx,
			     const GElf_Shdr *shdr,
			     struct bpf_object_spec *spec)
{
	struct bpf_prog_spec *prog;
	GElf_Shdr copy;
	Elf_Data *data;
	size_t i, nrels;

	if (check_rel_section(s, idx, shdr, &prog, spec))
		return -1;
	if (!prog)
		return 0;
	if (read_section(elf, idx, &copy, &data)) {
		spec_error(spec, "relocation section %zu: cannot read it", idx);
		return -1;
	}
	nrels = shdr->sh_size / sizeof(Elf64_Rel);
	if (nrels == 0)
		return 0;
	prog->relocs = calloc(nrels, sizeof(*prog->relocs));
	if (!prog->relocs) {
		spec_error(spec, "out of memory");
		return -1;
	}
	for (i = 0; i < nrels; i++)
		if (parse_rel(s, data, i, prog, spec))
			return -1;
	return 0;
}

static int parse_relocs(Elf *elf, struct parse_state *s,
			struct bpf_object_spec *spec)
{
	size_t idx;

	for (idx = 1; idx < s->shnum; idx++) {
		GElf_Shdr shdr;

		if (!gelf_getshdr(elf_getscn(elf, idx), &shdr))
			return -1;
		if (shdr.sh_type != SHT_REL && shdr.sh_type != SHT_RELA)
			continue;
		if (parse_rel_section(elf, s, idx, &shdr, spec))
			return -1;
	}
	return 0;
}

int bpf_object_parse(const void *image, size_t size,
		     struct bpf_object_spec *spec)
{
	struct parse_state s;
	char *copy = NULL;
	Elf *elf = NULL;
	int ret = -1;

	memset(spec, 0, sizeof(*spec));
	memset(&s, 0, sizeof(s));
	s.file_size = size;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		spec_error(spec, "libelf: %s", elf_errmsg(-1));
		return -1;
	}
	if (size < EI_NIDENT) {
		spec_error(spec, size ? "too short for an ELF file (%zu bytes)" :
			   "empty file", size);
		return -1;
	}
	/* libelf may convert data in place; never in the caller's buffer. */
	copy = malloc(size);
	if (!copy) {
		spec_error(spec, "out of memory");
		return -1;
	}
	memcpy(copy, image, size);
	elf = elf_memory(copy, size);
	if (!elf) {
		spec_error(spec, "libelf: %s", elf_errmsg(-1));
		goto out;
	}

	if (check_header(elf, spec) ||
	    scan_sections(elf, &s, spec) ||
	    parse_license_version(elf, &s, spec) ||
	    parse_symtab(elf, &s, spec) ||
	    parse_maps(elf, &s, spec) ||
	    parse_relocs(elf, &s, spec))
		goto out;
	ret = 0;
out:
	if (ret && !spec->err[0])
		spec_error(spec, "malformed ELF: %s", elf_errmsg(-1));
	if (elf)
		elf_end(elf);
	free(copy);
	return ret;
}

void bpf_object_spec_free(struct bpf_object_spec *spec)
{
	unsigned int i;

	for (i = 0; i < MAX_PROGS; i++) {
		free(spec->progs[i].insns);
		free(spec->progs[i].relocs);
		spec->progs[i].insns = NULL;
		spec->progs[i].relocs = NULL;
	}
}
