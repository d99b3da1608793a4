/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SHA-1 (FIPS 180-4) of a buffer in memory, in hex: what tc names an
 * object's pin directory with. Not for security: tc's choice, kept only so
 * the names match.
 */
#ifndef __SHA1_H
#define __SHA1_H

#include <stddef.h>

/* The digest's 40 hex digits and their NUL. */
#define SHA1_HEX_LEN 41

/* hex (SHA1_HEX_LEN bytes) becomes the SHA-1 of data, in lower-case hex. */
void sha1_hex(const unsigned char *data, size_t size, char *hex);

#endif /* __SHA1_H */
