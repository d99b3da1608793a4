// SPDX-License-Identifier: GPL-2.0
/*
 * Writes targeted corruptions of a valid BPF object into a directory, one
 * file per defect, named for it: truncations, header fields, section offsets,
 * sizes and links, relocations, map symbols, license. The input must be a
 * well-formed little-endian ELF64 object with a socket* section, a .rel for
 * it, a symbol table, maps and license (as sockex1_kern.o is).
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
static int written;

struct layout {
	Elf64_Ehdr *eh;
	Elf64_Shdr *sh;
	int prog, rel, symtab, maps, license;
	Elf64_Sym *map_sym;
	Elf64_Rel *first_rel;
};

static unsigned char *work;

static void emit(size_t size, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void emit(size_t size, const char *fmt, ...)
{
	char name[256], path[512];
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/%s", outdir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(work, 1, size, f) != size || fclose(f)) {
		fprintf(stderr, "mkcorrupt: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	written++;
	memcpy(work, orig, orig_size);	/* each corruption starts afresh */
}

static const char *sec_name(struct layout *l, int i)
{
	return (const char *)work + l->sh[l->eh->e_shstrndx].sh_offset +
	       l->sh[i].sh_name;
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
		else if (!strncmp(name, "socket", 6) && !l->prog)
			l->prog = i;
	}
	for (i = 1; i < l->eh->e_shnum; i++)
		if (l->sh[i].sh_type == SHT_REL && (int)l->sh[i].sh_info == l->prog)
			l->rel = i;
	if (!l->prog || !l->rel || !l->symtab || !l->maps || !l->license)
		return -1;
	l->first_rel = (Elf64_Rel *)(work + l->sh[l->rel].sh_offset);
	for (i = 1; i < (int)(l->sh[l->symtab].sh_size / sizeof(Elf64_Sym)); i++) {
		Elf64_Sym *s = (Elf64_Sym *)(work + l->sh[l->symtab].sh_offset) + i;

		if (s->st_shndx == l->maps && ELF64_ST_TYPE(s->st_info) != STT_SECTION) {
			l->map_sym = s;
			break;
		}
	}
	return l->map_sym ? 0 : -1;
}

static void header_corruptions(struct layout *l)
{
	work[EI_CLASS] = ELFCLASS32;
	emit(orig_size, "class-32");
	work[EI_DATA] = ELFDATA2MSB;
	emit(orig_size, "big-endian");
	work[EI_MAG1] = 'X';
	emit(orig_size, "bad-magic");
	l->eh->e_machine = EM_X86_64;
	emit(orig_size, "machine-x86-64");
	l->eh->e_type = ET_EXEC;
	emit(orig_size, "type-exec");
	l->eh->e_shoff = orig_size;
	emit(orig_size, "shoff-past-end");
	l->eh->e_shoff = ~0ULL - 63;
	emit(orig_size, "shoff-huge");
	l->eh->e_shnum = 0xfff0;
	emit(orig_size, "shnum-huge");
	l->eh->e_shnum = 0;
	emit(orig_size, "shnum-zero");
	l->eh->e_shentsize = sizeof(Elf64_Shdr) / 2;
	emit(orig_size, "shentsize-small");
	l->eh->e_shentsize = sizeof(Elf64_Shdr) * 2;
	emit(orig_size, "shentsize-large");
	l->eh->e_shstrndx = l->eh->e_shnum + 5;
	emit(orig_size, "shstrndx-out-of-range");
	l->eh->e_shstrndx = 0;
	emit(orig_size, "shstrndx-zero");
	l->eh->e_shstrndx = l->prog;
	emit(orig_size, "shstrndx-not-a-string-table");
}

static void section_corruptions(struct layout *l)
{
	int i;

	for (i = 1; i < l->eh->e_shnum; i++) {
		l->sh[i].sh_offset = orig_size + 8;
		emit(orig_size, "sec%d-offset-past-end", i);
		l->sh[i].sh_offset = ~0ULL - 15;
		emit(orig_size, "sec%d-offset-huge", i);
		l->sh[i].sh_size = orig_size;
		emit(orig_size, "sec%d-size-past-end", i);
		l->sh[i].sh_size = ~0ULL - 7;
		emit(orig_size, "sec%d-size-huge", i);
		l->sh[i].sh_name = 0xfffff;
		emit(orig_size, "sec%d-name-out-of-range", i);
	}
	/* only these two sections' links mean anything to the loader */
	l->sh[l->symtab].sh_link = 0xffff;
	emit(orig_size, "symtab-link-out-of-range");
	l->sh[l->rel].sh_link = 0xffff;
	emit(orig_size, "rel-link-out-of-range");
	l->sh[l->symtab].sh_entsize = sizeof(Elf64_Sym) / 2;
	emit(orig_size, "symtab-entsize-wrong");
	l->sh[l->symtab].sh_size -= 1;
	emit(orig_size, "symtab-size-not-whole-symbols");
	l->sh[l->symtab].sh_link = l->symtab;
	emit(orig_size, "symtab-link-not-strings");
	l->sh[l->prog].sh_size -= 3;
	emit(orig_size, "prog-size-not-whole-instructions");
	l->sh[l->prog].sh_type = SHT_NOBITS;
	emit(orig_size, "prog-nobits");
	l->sh[l->maps].sh_type = SHT_NOBITS;
	emit(orig_size, "maps-nobits");
	l->sh[l->rel].sh_info = 0xffff;
	emit(orig_size, "rel-target-out-of-range");
	l->sh[l->rel].sh_link = 0;
	emit(orig_size, "rel-link-not-symtab");
	l->sh[l->rel].sh_entsize = 24;
	emit(orig_size, "rel-entsize-wrong");
	l->sh[l->rel].sh_type = SHT_RELA;
	emit(orig_size, "rel-is-rela");
	l->sh[l->rel].sh_size -= 1;
	emit(orig_size, "rel-size-not-whole-entries");
}

static void reloc_corruptions(struct layout *l)
{
	Elf64_Rel *r = l->first_rel;
	Elf64_Xword type = ELF64_R_TYPE(r->r_info), sym = ELF64_R_SYM(r->r_info);
	size_t prog_size = l->sh[l->prog].sh_size;

	r->r_offset = prog_size + 16;
	emit(orig_size, "rel-offset-past-section");
	r->r_offset = ~0ULL - 7;
	emit(orig_size, "rel-offset-huge");
	r->r_offset = prog_size - 8;
	emit(orig_size, "rel-offset-last-instruction");
	r->r_offset += 4;
	emit(orig_size, "rel-offset-unaligned");
	r->r_offset = 0;
	emit(orig_size, "rel-not-on-ld-imm64");
	r->r_info = ELF64_R_INFO(100000, type);
	emit(orig_size, "rel-symbol-out-of-range");
	r->r_info = ELF64_R_INFO(0, type);
	emit(orig_size, "rel-symbol-zero");
	r->r_info = ELF64_R_INFO(1, type);
	emit(orig_size, "rel-symbol-not-a-map");
	r->r_info = ELF64_R_INFO(sym, 10);
	emit(orig_size, "rel-type-not-64-64");
}

static void map_corruptions(struct layout *l)
{
	size_t maps_size = l->sh[l->maps].sh_size;
	unsigned char *lic = work + l->sh[l->license].sh_offset;

	l->map_sym->st_value = maps_size + 16;
	emit(orig_size, "map-symbol-outside-maps");
	l->map_sym->st_value = 4;
	emit(orig_size, "map-symbol-between-definitions");
	l->map_sym->st_size = 12;
	emit(orig_size, "map-symbol-size-wrong");
	l->map_sym->st_name = 0xfffff;
	emit(orig_size, "map-symbol-name-out-of-range");
	l->sh[l->maps].sh_size = 12;
	emit(orig_size, "maps-size-fits-no-definition");
	l->sh[l->maps].sh_size = maps_size + 1;
	emit(orig_size, "maps-size-odd");
	l->sh[l->maps].sh_size = maps_size * 3 / 2;
	emit(orig_size, "maps-size-one-and-a-half");
	memset(lic, 'X', l->sh[l->license].sh_size);
	emit(orig_size, "license-unterminated");
	l->sh[l->license].sh_size = 0;
	emit(orig_size, "license-empty");
}

static void truncations(void)
{
	size_t len;

	for (len = 0; len < orig_size; len += (len < 80 ? 1 : 29))
		emit(len, "trunc-%04zu", len);
	emit(orig_size - 1, "trunc-%04zu", orig_size - 1);
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
	work = malloc(orig_size);
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
	truncations();
	printf("%d\n", written);
	free(orig);
	free(work);
	return 0;
}
