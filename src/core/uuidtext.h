/*
 * uuidtext.h — text form of 16-byte UUID-shaped ids.
 *
 * Parsing accepts exactly what PostgreSQL's uuid_in accepts (optional braces,
 * a hyphen after any group of four hex digits, either case) and reports why
 * it failed, so the SQL layer can say more than "invalid input".
 */
#ifndef IDGEN_CORE_UUIDTEXT_H
#define IDGEN_CORE_UUIDTEXT_H

#include <stddef.h>
#include <stdint.h>

#define IDG_UUID_LEN 16
#define IDG_UUID_TEXT_LEN 36	/* canonical 8-4-4-4-12, without the NUL */

typedef enum idg_uuid_parse_status
{
	IDG_UUID_OK = 0,
	IDG_UUID_EMPTY,				/* nothing but an optional "{" */
	IDG_UUID_BAD_CHAR,			/* a character that may not stand there */
	IDG_UUID_TOO_SHORT,			/* input ended before 32 hex digits */
	IDG_UUID_TOO_LONG,			/* more hex digits after the 32nd */
	IDG_UUID_NO_CLOSING_BRACE	/* "{" without "}" */
} idg_uuid_parse_status;

typedef struct idg_uuid_parse_error
{
	size_t		offset;			/* byte offset of the offending character */
	int			hex_digits;		/* hex digits in the whole input */
} idg_uuid_parse_error;

extern idg_uuid_parse_status idg_uuid_parse(const char *src, uint8_t out[IDG_UUID_LEN],
											idg_uuid_parse_error *err);

/* writes IDG_UUID_TEXT_LEN characters and a terminating NUL */
extern void idg_uuid_format(const uint8_t in[IDG_UUID_LEN], char out[IDG_UUID_TEXT_LEN + 1]);

#endif							/* IDGEN_CORE_UUIDTEXT_H */
