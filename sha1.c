// SPDX-License-Identifier: GPL-2.0
/*
 * SHA-1 of a buffer, with no library and no syscall (iproute2 asks the
 * kernel's AF_ALG "sha1", which not every kernel offers). Written from FIPS
 * 180-4; each call hashes one whole buffer.
 */
#include <stdio.h>
#include <string.h>

#include "sha1.h"

static unsigned int rol32(unsigned int x, unsigned int n)
{
	return x << n | x >> (32 - n);
}

/* One 64-byte block into the SHA-1 state h (FIPS 180-4, 6.1.2). */
static void sha1_block(unsigned int *h, const unsigned char *p)
{
	unsigned int w[80], a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
	unsigned int f, k, t, i;

	for (i = 0; i < 16; i++)
		w[i] = (unsigned int)p[4 * i] << 24 | p[4 * i + 1] << 16 |
		       p[4 * i + 2] << 8 | p[4 * i + 3];
	for (; i < 80; i++)
		w[i] = rol32(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
	for (i = 0; i < 80; i++) {
		if (i < 20) {
			f = (b & c) | (~b & d);
			k = 0x5a827999;
		} else if (i < 40) {
			f = b ^ c ^ d;
			k = 0x6ed9eba1;
		} else if (i < 60) {
			f = (b & c) | (b & d) | (c & d);
			k = 0x8f1bbcdc;
		} else {
			f = b ^ c ^ d;
			k = 0xca62c1d6;
		}
		t = rol32(a, 5) + f + e + k + w[i];
		e = d;
		d = c;
		c = rol32(b, 30);
		b = a;
		a = t;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
}

void sha1_hex(const unsigned char *data, size_t size, char *hex)
{
	unsigned int h[5] = { 0x67452301, 0xefcdab89, 0x98badcfe,
			      0x10325476, 0xc3d2e1f0 };
	unsigned long long bits = (unsigned long long)size * 8;
	unsigned char tail[128] = { 0 };
	size_t done, rest, tail_len, i;

	for (done = 0; size - done >= 64; done += 64)
		sha1_block(h, data + done);
	rest = size - done;
	memcpy(tail, data + done, rest);
	tail[rest] = 0x80;
	/* then the 64-bit count, ending one block or two (all of tail) */
	tail_len = rest + 9 <= 64 ? 64 : sizeof(tail);
	for (i = 0; i < 8; i++)
		tail[tail_len - 1 - i] = bits >> (8 * i);
	for (i = 0; i < tail_len; i += 64)
		sha1_block(h, tail + i);
	for (i = 0; i < 5; i++)
		sprintf(hex + 8 * i, "%08x", h[i]);
}
