// SPDX-License-Identifier: GPL-2.0
/*
 * Writes targeted corruptions of a valid BPF object into a directory, one
 * file per defect, named for it: truncations, header fields, section offsets,
 * sizes and links, relocations, map symbols, license, version. The input must
 * be a well-formed little-endian ELF64 object with a socket* section, a .rel
 * for it, a symbol table, maps and license (as sockex1_kern.o is); with two
 * maps and a version section (as two_progs_kern.o) a few more are written;
 * with iproute2's 28 or 36-byte definitions (tc_legacy_kern.o), the
 * pinning ones.
 * Prints one line per file: its name, a tab, and the exact refusal the loader
 * must give for that defect (after "PATH: " in the message), so each check in the
 * loader is proven by its own file.
 * Usage: mkcorrupt OBJECT OUTDIR
 */
#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *outdir;
static unsigned char *orig;
static size_t orig_size;
static char want[256];

struct layout {
	Elf64_Ehdr *eh;
	Elf64_Shdr *sh;
	int prog, rel, symtab, maps, license, version;
	size_t nsyms, nmaps;
	/* the first two map symbols (the second may be NULL) */
	Elf64_Sym *map_sym, *map_sym2;
	size_t map_sym_idx;
	Elf64_Rel *first_rel;
};

static unsigned char *work;
/* Room after the object in work[] for a corruption that appends bytes. */
#define TAIL 256

static void expect(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static void emit(size_t size, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The refusal the next emit()'s file must get. */
static void expect(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
}

static void emit(size_t size, const char *fmt, ...)
{
	char name[256], path[512];
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	if (!want[0]) {
		fprintf(stderr, "mkcorrupt: %s: no expected refusal given\n", name);
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/%s", outdir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(work, 1, size, f) != size || fclose(f)) {
		fprintf(stderr, "mkcorrupt: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	printf("%s\t%s\n", name, want);
	want[0] = '\0';
	memcpy(work, orig, orig_size);	/* each corruption starts afresh */
}

static const char *sec_name(struct layout *l, int i)
{
	return (const char *)work + l->sh[l->eh->e_shstrndx].sh_offset +
	       l->sh[i].sh_name;
}

static Elf64_Sym *sym_at(struct layout *l, size_t i)
{
	return (Elf64_Sym *)(work + l->sh[l->symtab].sh_offset) + i;
}

static void find_map_syms(struct layout *l)
{
	size_t i;

	l->nsyms = l->sh[l->symtab].sh_size / sizeof(Elf64_Sym);
	for (i = 1; i < l->nsyms; i++) {
		Elf64_Sym *s = sym_at(l, i);

		if (s->st_shndx != l->maps || ELF64_ST_TYPE(s->st_info) == STT_SECTION)
			continue;
		if (!l->map_sym) {
			l->map_sym = s;
			l->map_sym_idx = i;
		} else if (!l->map_sym2) {
			l->map_sym2 = s;
		}
		l->nmaps++;
	}
}

static int find_layout(struct layout *l)
{
	int i;

	memset(l, 0, sizeof(*l));
	l->eh = (Elf64_Ehdr *)work;
	if (orig_size < sizeof(Elf64_Ehdr) || memcmp(work, ELFMAG, SELFMAG) ||
	    l->eh->e_shoff + (size_t)l->eh->e_shnum * sizeof(Elf64_Shdr) > orig_size)
		return -1;
	l->sh = (Elf64_Shdr *)(work + l->eh->e_shoff);
	for (i = 1; i < l->eh->e_shnum; i++) {
		const char *name = sec_name(l, i);

		if (l->sh[i].sh_type == SHT_SYMTAB)
			l->symtab = i;
		else if (!strcmp(name, "maps"))
			l->maps = i;
		else if (!strcmp(name, "license"))
			l->license = i;
		else if (!strcmp(name, "version"))
			l->version = i;
		else if (!strncmp(name, "socket", 6) && !l->prog)
			l->prog = i;
	}
	for (i = 1; i < l->eh->e_shnum; i++)
		if (l->sh[i].sh_type == SHT_REL && (int)l->sh[i].sh_info == l->prog)
			l->rel = i;
	if (!l->prog || !l->rel || !l->symtab || !l->maps || !l->license)
		return -1;
	l->first_rel = (Elf64_Rel *)(work + l->sh[l->rel].sh_offset);
	find_map_syms(l);
	return l->map_sym ? 0 : -1;
}

static void header_corruptions(struct layout *l)
{
	expect("ELF class %d, BPF objects are 64-bit", ELFCLASS32);
	work[EI_CLASS] = ELFCLASS32;
	emit(orig_size, "class-32");
	/* the object's byte order is this machine's: the other one is refused */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	expect("not little-endian like this machine");
	work[EI_DATA] = ELFDATA2MSB;
#else
	expect("not big-endian like this machine");
	work[EI_DATA] = ELFDATA2LSB;
#endif
	emit(orig_size, "other-byte-order");
	expect("not an ELF file");
	work[EI_MAG1] = 'X';
	emit(orig_size, "bad-magic");
	expect("machine %d is not BPF (%d)", EM_X86_64, EM_BPF);
	l->eh->e_machine = EM_X86_64;
	emit(orig_size, "machine-x86-64");
	expect("ELF type %d is not a relocatable object", ET_EXEC);
	l->eh->e_type = ET_EXEC;
	emit(orig_size, "type-exec");
}

static void section_table_corruptions(struct layout *l)
{
	expect("no section headers");
	l->eh->e_shoff = orig_size;
	emit(orig_size, "shoff-past-end");
	expect("no section headers");
	l->eh->e_shoff = ~0ULL - 63;
	emit(orig_size, "shoff-huge");
	expect("no section headers");
	l->eh->e_shnum = 0xfff0;
	emit(orig_size, "shnum-huge");
	expect("no section headers");
	l->eh->e_shnum = 0;
	emit(orig_size, "shnum-zero");
	expect("section header entry size %zu, expected %zu",
	       sizeof(Elf64_Shdr) / 2, sizeof(Elf64_Shdr));
	l->eh->e_shentsize = sizeof(Elf64_Shdr) / 2;
	emit(orig_size, "shentsize-small");
	expect("section header entry size %zu, expected %zu",
	       sizeof(Elf64_Shdr) * 2, sizeof(Elf64_Shdr));
	l->eh->e_shentsize = sizeof(Elf64_Shdr) * 2;
	emit(orig_size, "shentsize-large");
	expect("section name table index out of range");
	l->eh->e_shstrndx = l->eh->e_shnum + 5;
	emit(orig_size, "shstrndx-out-of-range");
	expect("section name table index out of range");
	l->eh->e_shstrndx = l->eh->e_shnum;
	emit(orig_size, "shstrndx-one-past-the-last");
	expect("section name table index out of range");
	l->eh->e_shstrndx = 0;
	emit(orig_size, "shstrndx-zero");
	/* section 1's name is then looked up in a program */
	expect("section 1: name offset %u out of range", l->sh[1].sh_name);
	l->eh->e_shstrndx = l->prog;
	emit(orig_size, "shstrndx-not-a-string-table");
}

/* Section i's extent moved or grown past the end of the file. */
static void extent_corruption(struct layout *l, int i, Elf64_Off off,
			      Elf64_Xword size, const char *what)
{
	expect("section %d: offset %llu size %llu past the end of the file (%zu bytes)",
	       i, (unsigned long long)off, (unsigned long long)size, orig_size);
	l->sh[i].sh_offset = off;
	l->sh[i].sh_size = size;
	emit(orig_size, "sec%d-%s", i, what);
}

static void each_section_corruptions(struct layout *l)
{
	int i;

	for (i = 1; i < l->eh->e_shnum; i++) {
		Elf64_Off off = l->sh[i].sh_offset;
		Elf64_Xword size = l->sh[i].sh_size;

		if (l->sh[i].sh_type == SHT_NOBITS)
			continue;	/* no extent in the file to get wrong */
		extent_corruption(l, i, orig_size + 8, size, "offset-past-end");
		extent_corruption(l, i, ~0ULL - 15, size, "offset-huge");
		extent_corruption(l, i, off, orig_size, "size-past-end");
		extent_corruption(l, i, off, ~0ULL - 7, "size-huge");
		expect("section %d: name offset %u out of range", i, 0xfffff);
		l->sh[i].sh_name = 0xfffff;
		emit(orig_size, "sec%d-name-out-of-range", i);
	}
}

static void symtab_corruptions(struct layout *l)
{
	expect("symbol table: string table index %u out of range", 0xffff);
	l->sh[l->symtab].sh_link = 0xffff;
	emit(orig_size, "symtab-link-out-of-range");
	expect("symbol table: string table index 0 out of range");
	l->sh[l->symtab].sh_link = 0;
	emit(orig_size, "symtab-link-zero");
	expect("symbol table: bad size or entry size");
	l->sh[l->symtab].sh_entsize = sizeof(Elf64_Sym) / 2;
	emit(orig_size, "symtab-entsize-wrong");
	expect("symbol table: bad size or entry size");
	l->sh[l->symtab].sh_entsize = sizeof(Elf64_Sym) * 2;
	emit(orig_size, "symtab-entsize-large");
	expect("symbol table: string table index %u out of range",
	       l->eh->e_shnum);
	l->sh[l->symtab].sh_link = l->eh->e_shnum;
	emit(orig_size, "symtab-link-one-past-the-last");
	expect("symbol table: bad size or entry size");
	l->sh[l->symtab].sh_size -= 1;
	emit(orig_size, "symtab-size-not-whole-symbols");
	/* symbol names then come from the symbol table itself */
	expect("map symbol %zu: name out of range", l->map_sym_idx);
	l->sh[l->symtab].sh_link = l->symtab;
	emit(orig_size, "symtab-link-not-strings");
	expect("more than one symbol table");
	l->sh[l->license].sh_type = SHT_SYMTAB;
	emit(orig_size, "second-symbol-table");
	expect("maps section but no symbol table");
	l->sh[l->symtab].sh_type = SHT_PROGBITS;
	emit(orig_size, "symtab-not-a-symbol-table");
}

/* Programs: a section of code named otherwise, or none left at all. */
static void prog_corruptions(struct layout *l)
{
	int i;

	expect("unsupported section '%s' (only socket* programs)",
	       sec_name(l, l->rel));
	l->sh[l->prog].sh_name = l->sh[l->rel].sh_name;
	emit(orig_size, "prog-not-named-socket");
	expect("no program section (socket*)");
	for (i = 1; i < l->eh->e_shnum; i++)
		l->sh[i].sh_flags &= ~(Elf64_Xword)SHF_EXECINSTR;
	emit(orig_size, "no-program-section");
}

/* A license of 200 bytes, appended to the file: more than the loader holds. */
static void license_too_long(struct layout *l)
{
	const size_t len = 200;

	expect("license longer than %d bytes", 127);
	memset(work + orig_size, 'G', len);
	work[orig_size + len] = '\0';
	l->sh[l->license].sh_offset = orig_size;
	l->sh[l->license].sh_size = len + 1;
	emit(orig_size + len + 1, "license-too-long");
}

static void content_corruptions(struct layout *l)
{
	const char *prog = sec_name(l, l->prog);

	expect("section '%s': size %llu is not whole instructions", prog,
	       (unsigned long long)l->sh[l->prog].sh_size - 3);
	l->sh[l->prog].sh_size -= 3;
	emit(orig_size, "prog-size-not-whole-instructions");
	expect("section '%s': size %llu is not whole instructions", prog,
	       (unsigned long long)l->sh[l->prog].sh_size - 4);
	l->sh[l->prog].sh_size -= 4;
	emit(orig_size, "prog-size-half-an-instruction");
	expect("section %d: cannot read its data", l->prog);
	l->sh[l->prog].sh_type = SHT_NOBITS;
	emit(orig_size, "prog-nobits");
	expect("section '%s': type %u is not PROGBITS", prog, SHT_NOTE);
	l->sh[l->prog].sh_type = SHT_NOTE;
	emit(orig_size, "prog-not-progbits");
	prog_corruptions(l);
	expect("maps section: cannot read it");
	l->sh[l->maps].sh_type = SHT_NOBITS;
	emit(orig_size, "maps-nobits");
	/* libelf gives a section of no bytes no data: refused as unreadable */
	expect("maps section: cannot read it");
	l->sh[l->maps].sh_size = 0;
	emit(orig_size, "maps-empty");
	/* NOBITS has no extent in the file: its size is not checked against it */
	expect("maps section: cannot read it");
	l->sh[l->maps].sh_type = SHT_NOBITS;
	l->sh[l->maps].sh_size = ~0ULL - 7;
	emit(orig_size, "maps-nobits-huge");
	license_too_long(l);
	if (!l->version)
		return;
	expect("version section is not one 32-bit word");
	l->sh[l->version].sh_size = 2 * sizeof(Elf64_Word);
	emit(orig_size, "version-size-wrong");
}

static void rel_section_corruptions(struct layout *l)
{
	const char *prog = sec_name(l, l->prog);

	expect("relocation section %d: symbol table index %u is not the symbol table",
	       l->rel, 0xffff);
	l->sh[l->rel].sh_link = 0xffff;
	emit(orig_size, "rel-link-out-of-range");
	expect("relocation section %d: target section %u out of range",
	       l->rel, 0xffff);
	l->sh[l->rel].sh_info = 0xffff;
	emit(orig_size, "rel-target-out-of-range");
	expect("relocation section %d: symbol table index 0 is not the symbol table",
	       l->rel);
	l->sh[l->rel].sh_link = 0;
	emit(orig_size, "rel-link-not-symtab");
	expect("relocation section %d: bad size or entry size", l->rel);
	l->sh[l->rel].sh_entsize = 24;
	emit(orig_size, "rel-entsize-wrong");
	expect("section '%s': RELA relocations are not supported", prog);
	l->sh[l->rel].sh_type = SHT_RELA;
	emit(orig_size, "rel-is-rela");
	expect("relocation section %d: bad size or entry size", l->rel);
	l->sh[l->rel].sh_size -= 1;
	emit(orig_size, "rel-size-not-whole-entries");
	expect("relocation section %d: cannot read it", l->rel);
	l->sh[l->rel].sh_size = 0;
	emit(orig_size, "rel-size-zero");
	/* the license's header becomes a copy of the program's .rel */
	expect("section '%s': more than one relocation section", prog);
	l->sh[l->license] = l->sh[l->rel];
	emit(orig_size, "rel-second-section-for-one-program");
}

static void section_corruptions(struct layout *l)
{
	section_table_corruptions(l);
	each_section_corruptions(l);
	symtab_corruptions(l);
	content_corruptions(l);
	rel_section_corruptions(l);
}

/* Relocation 0 with r_offset off: not a place for an LD_IMM64. */
static void rel_offset_corruption(struct layout *l, Elf64_Addr off,
				  const char *what)
{
	expect("relocation 0 of '%s': offset %llu is not an instruction with room for LD_IMM64",
	       sec_name(l, l->prog), (unsigned long long)off);
	l->first_rel->r_offset = off;
	emit(orig_size, "rel-offset-%s", what);
}

static void rel_symbol_corruptions(struct layout *l)
{
	Elf64_Rel *r = l->first_rel;
	Elf64_Xword type = ELF64_R_TYPE(r->r_info), sym = ELF64_R_SYM(r->r_info);
	const char *prog = sec_name(l, l->prog);

	expect("relocation 0 of '%s': symbol 100000 out of range (%zu symbols)",
	       prog, l->nsyms);
	r->r_info = ELF64_R_INFO(100000, type);
	emit(orig_size, "rel-symbol-out-of-range");
	expect("relocation 0 of '%s': symbol 0 out of range (%zu symbols)",
	       prog, l->nsyms);
	r->r_info = ELF64_R_INFO(0, type);
	emit(orig_size, "rel-symbol-zero");
	expect("relocation 0 of '%s': symbol 1 is not a map definition", prog);
	r->r_info = ELF64_R_INFO(1, type);
	emit(orig_size, "rel-symbol-not-a-map");
	expect("relocation 0 of '%s': type 10 is not R_BPF_64_64", prog);
	r->r_info = ELF64_R_INFO(sym, 10);
	emit(orig_size, "rel-type-not-64-64");
	expect("relocation 0 of '%s': type 0 is not R_BPF_64_64", prog);
	r->r_info = ELF64_R_INFO(sym, 0);
	emit(orig_size, "rel-type-none");
}

/*
 * Symbol 1 becomes the maps section's own symbol, and relocation 0 loads
 * from it at the immediate's offset: one past the last map, or inside one.
 */
static void rel_section_symbol_corruption(struct layout *l, Elf64_Xword off,
					  const char *what)
{
	Elf64_Rel *r = l->first_rel;
	Elf64_Sym *s = sym_at(l, 1);
	unsigned char *insn = work + l->sh[l->prog].sh_offset + r->r_offset;
	int imm = (int)off;

	expect("relocation 0 of '%s': symbol 1 is not a map definition",
	       sec_name(l, l->prog));
	s->st_info = ELF64_ST_INFO(STB_LOCAL, STT_SECTION);
	s->st_shndx = l->maps;
	s->st_value = 0;
	r->r_info = ELF64_R_INFO(1, ELF64_R_TYPE(r->r_info));
	memcpy(insn + 4, &imm, sizeof(imm));
	emit(orig_size, "rel-%s", what);
}

static void reloc_corruptions(struct layout *l)
{
	size_t prog_size = l->sh[l->prog].sh_size;
	size_t maps_size = l->sh[l->maps].sh_size;
	unsigned char code = work[l->sh[l->prog].sh_offset];

	rel_offset_corruption(l, prog_size + 16, "past-section");
	rel_offset_corruption(l, ~0ULL - 7, "huge");
	rel_offset_corruption(l, prog_size - 8, "last-instruction");
	rel_offset_corruption(l, prog_size - 4, "unaligned");
	rel_offset_corruption(l, l->first_rel->r_offset + 4, "inside-ld-imm64");
	expect("relocation 0 of '%s': instruction 0 (code 0x%02x) is not LD_IMM64",
	       sec_name(l, l->prog), code);
	l->first_rel->r_offset = 0;
	emit(orig_size, "rel-not-on-ld-imm64");
	rel_symbol_corruptions(l);
	rel_section_symbol_corruption(l, maps_size, "one-past-the-last-map");
	rel_section_symbol_corruption(l, maps_size / l->nmaps / 2,
				      "inside-a-map-definition");
}

/* The first map symbol at value off with size size: not one definition. */
static void map_extent_corruption(struct layout *l, Elf64_Addr off,
				  Elf64_Xword size, const char *what)
{
	expect("map symbol %zu at offset %llu size %llu is not one whole definition",
	       l->map_sym_idx, (unsigned long long)off,
	       (unsigned long long)size);
	l->map_sym->st_value = off;
	l->map_sym->st_size = size;
	emit(orig_size, "map-symbol-%s", what);
}

static void maps_size_corruption(struct layout *l, Elf64_Xword size,
				 const char *what)
{
	expect("maps section of %llu bytes fits no definition size for %zu maps (16, 20, 28 or 36 bytes each)",
	       (unsigned long long)size, l->nmaps);
	l->sh[l->maps].sh_size = size;
	emit(orig_size, "maps-size-%s", what);
}

/* Every map symbol moved to the absolute section. */
static void no_map_symbols(struct layout *l)
{
	size_t i;

	expect("maps section has no map symbols");
	for (i = 1; i < l->nsyms; i++)
		if (sym_at(l, i)->st_shndx == l->maps)
			sym_at(l, i)->st_shndx = SHN_ABS;
	emit(orig_size, "maps-without-map-symbols");
}

static void map_corruptions(struct layout *l)
{
	size_t maps_size = l->sh[l->maps].sh_size;
	Elf64_Addr off = l->map_sym->st_value;
	Elf64_Xword size = l->map_sym->st_size;
	unsigned char *lic = work + l->sh[l->license].sh_offset;

	map_extent_corruption(l, maps_size + 16, size, "outside-maps");
	map_extent_corruption(l, 4, size, "between-definitions");
	map_extent_corruption(l, off, 12, "size-wrong");
	expect("map symbol %zu: name out of range", l->map_sym_idx);
	l->map_sym->st_name = 0xfffff;
	emit(orig_size, "map-symbol-name-out-of-range");
	if (l->map_sym2) {
		expect("two map symbols at offset %llu", (unsigned long long)off);
		l->map_sym2->st_value = off;
		emit(orig_size, "map-symbols-at-one-offset");
	}
	no_map_symbols(l);
	maps_size_corruption(l, 12, "fits-no-definition");
	maps_size_corruption(l, maps_size + 1, "odd");
	maps_size_corruption(l, maps_size * 3 / 2, "one-and-a-half");
	expect("license is not NUL-terminated");
	memset(lic, 'X', l->sh[l->license].sh_size);
	emit(orig_size, "license-unterminated");
	expect("license section: cannot read it");
	l->sh[l->license].sh_size = 0;
	emit(orig_size, "license-empty");
}

/* The first map's definition: u32 words, in this machine's order. */
static unsigned int *map_def(struct layout *l)
{
	return (unsigned int *)(work + l->sh[l->maps].sh_offset +
				l->map_sym->st_value);
}

/* The first map symbol's name, in the symbol string table. */
static char *map_name(struct layout *l)
{
	return (char *)work + l->sh[l->sh[l->symtab].sh_link].sh_offset +
	       l->map_sym->st_name;
}

static void pinning_value(struct layout *l, unsigned int pinning)
{
	expect("map '%s': pinning %u is none of PIN_NONE (0), PIN_OBJECT_NS (1), PIN_GLOBAL_NS (2)",
	       map_name(l), pinning);
	map_def(l)[6] = pinning;
	emit(orig_size, "pinning-%u", pinning);
}

/*
 * iproute2's bpf_elf_map (28 or 36 bytes, pinned): pinning values past
 * PIN_GLOBAL_NS, an inner map, names that are no file name, and sizes
 * between the known ones.
 */
static void elf_map_corruptions(struct layout *l)
{
	size_t def_size = l->sh[l->maps].sh_size / l->nmaps;
	char *name = map_name(l);

	if (def_size != 28 && def_size != 36)
		return;
	pinning_value(l, 3);
	pinning_value(l, 0xffffffff);
	if (def_size == 36) {
		expect("map '%s': inner map (inner_id 1, inner_idx 0) not supported",
		       name);
		map_def(l)[7] = 1;
		emit(orig_size, "inner-id");
		expect("map '%s': inner map (inner_id 0, inner_idx 2) not supported",
		       name);
		map_def(l)[8] = 2;
		emit(orig_size, "inner-idx");
	}
	expect("map '': a pinned map's name must be a file name");
	name[0] = '\0';
	emit(orig_size, "pinned-name-empty");
	expect("map '/%s': a pinned map's name must be a file name", name + 1);
	name[0] = '/';
	emit(orig_size, "pinned-name-slash");
	expect("map '..': a pinned map's name must be a file name");
	memcpy(name, "..", 3);
	emit(orig_size, "pinned-name-dotdot");
	maps_size_corruption(l, 24 * l->nmaps, "between-20-and-28");
	maps_size_corruption(l, 32 * l->nmaps, "between-28-and-36");
	maps_size_corruption(l, 40 * l->nmaps, "past-36");
}

/*
 * The refusal for the first len bytes of the object, or NULL when the section
 * headers survive the cut (never so for clang's objects, which end with them:
 * which section was cut would decide, and the sec*-* files cover that).
 */
static int expect_truncated(struct layout *l, size_t len)
{
	if (len == 0)
		expect("empty file");
	else if (len < EI_NIDENT)
		expect("too short for an ELF file (%zu bytes)", len);
	else if (len < sizeof(Elf64_Ehdr))
		expect("libelf: invalid ELF file data");
	else if (l->eh->e_shoff + (size_t)l->eh->e_shnum * sizeof(Elf64_Shdr) > len)
		expect("no section headers");
	else
		return -1;
	return 0;
}

static void truncation(struct layout *l, size_t len)
{
	if (expect_truncated(l, len) == 0)
		emit(len, "trunc-%04zu", len);
}

static void truncations(struct layout *l)
{
	size_t len;

	for (len = 0; len < orig_size; len += (len < 80 ? 1 : 29))
		truncation(l, len);
	truncation(l, orig_size - 1);
}

int main(int argc, char **argv)
{
	struct layout l;
	struct stat st;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: mkcorrupt OBJECT OUTDIR\n");
		return 2;
	}
	outdir = argv[2];
	f = fopen(argv[1], "rb");
	if (!f || fstat(fileno(f), &st) || st.st_size <= 0) {
		fprintf(stderr, "mkcorrupt: %s: cannot read\n", argv[1]);
		return 1;
	}
	orig_size = st.st_size;
	orig = malloc(orig_size);
	work = calloc(1, orig_size + TAIL);
	if (!orig || !work || fread(orig, 1, orig_size, f) != orig_size) {
		fprintf(stderr, "mkcorrupt: %s: cannot read\n", argv[1]);
		return 1;
	}
	fclose(f);
	memcpy(work, orig, orig_size);
	if (find_layout(&l)) {
		fprintf(stderr, "mkcorrupt: %s: not the kind of object expected\n", argv[1]);
		return 1;
	}
	header_corruptions(&l);
	section_corruptions(&l);
	reloc_corruptions(&l);
	map_corruptions(&l);
	elf_map_corruptions(&l);
	truncations(&l);
	free(orig);
	free(work);
	return 0;
}
