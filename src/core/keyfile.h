/*
 * keyfile.h — the text of a public-id key file: one base64 AES key (16, 24
 * or 32 bytes) per line; blank lines and "#" comments (whole lines, or after
 * a key) are ignored; surrounding spaces, tabs and a CR before the LF are
 * allowed.  The reader walks the text one key at a time and reports where
 * it stopped, never what the line said, so that callers cannot put key text
 * into an error message.
 */
#ifndef IDGEN_CORE_KEYFILE_H
#define IDGEN_CORE_KEYFILE_H

#include <stddef.h>
#include <stdint.h>

#define KEYFILE_MAX_KEY 32

typedef enum keyfile_status
{
	KEYFILE_END = 0,			/* no more keys */
	KEYFILE_KEY,				/* a key: its bytes and length are set */
	KEYFILE_NOT_BASE64,			/* the line is not base64 (with = padding) */
	KEYFILE_BAD_LENGTH,			/* valid base64 of a length other than 16/24/32 */
	KEYFILE_NUL					/* a NUL byte: not a text file */
} keyfile_status;

typedef struct keyfile_reader
{
	const char *text;
	size_t		len;
	size_t		pos;			/* start of the next line */
	int			line;			/* 1-based number of the line last read */
} keyfile_reader;

extern void keyfile_init(keyfile_reader *r, const char *text, size_t len);

/*
 * The next key.  On KEYFILE_KEY, key[0..*keylen) holds it; on
 * KEYFILE_BAD_LENGTH, *keylen is the length the line decodes to and key
 * is all zeros (no byte of a key of the wrong length stays).  r->line
 * is the line the status is about.  After an error, every call returns
 * KEYFILE_END.
 */
extern keyfile_status keyfile_next(keyfile_reader *r, uint8_t key[KEYFILE_MAX_KEY],
								   int *keylen);

#endif							/* IDGEN_CORE_KEYFILE_H */
