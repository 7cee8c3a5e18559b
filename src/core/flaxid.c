/*
 * flaxid.c — the 16-character text form of Flax IDs.
 *
 * The 96 bits are two halves of 48 bits, 8 characters each, so the text
 * converts to and from the 12 stored bytes with 64-bit arithmetic and table
 * lookups: one per character in, one per two characters out (type input and
 * output run once per value in COPY).
 */
#include "flaxid.h"

#include <string.h>

/*
 * The alphabet "-0-9A-Z_a-z" (ASCII order is numeric order): 1 + the value
 * of each of its characters; 0 for all others, NUL included.
 */
const uint8_t flaxid_code[256] = {
	['-'] = 1,
	['0'] = 2, ['1'] = 3, ['2'] = 4, ['3'] = 5, ['4'] = 6,
	['5'] = 7, ['6'] = 8, ['7'] = 9, ['8'] = 10, ['9'] = 11,
	['A'] = 12, ['B'] = 13, ['C'] = 14, ['D'] = 15, ['E'] = 16, ['F'] = 17, ['G'] = 18,
	['H'] = 19, ['I'] = 20, ['J'] = 21, ['K'] = 22, ['L'] = 23, ['M'] = 24, ['N'] = 25,
	['O'] = 26, ['P'] = 27, ['Q'] = 28, ['R'] = 29, ['S'] = 30, ['T'] = 31, ['U'] = 32,
	['V'] = 33, ['W'] = 34, ['X'] = 35, ['Y'] = 36, ['Z'] = 37,
	['_'] = 38,
	['a'] = 39, ['b'] = 40, ['c'] = 41, ['d'] = 42, ['e'] = 43, ['f'] = 44, ['g'] = 45,
	['h'] = 46, ['i'] = 47, ['j'] = 48, ['k'] = 49, ['l'] = 50, ['m'] = 51, ['n'] = 52,
	['o'] = 53, ['p'] = 54, ['q'] = 55, ['r'] = 56, ['s'] = 57, ['t'] = 58, ['u'] = 59,
	['v'] = 60, ['w'] = 61, ['x'] = 62, ['y'] = 63, ['z'] = 64,
};

/*
 * Every pair of characters, the index being their 12 bits: output takes
 * two characters per lookup (8 kB, read-only).
 */
#define FLAX_ROW(c) \
	c "-" c "0" c "1" c "2" c "3" c "4" c "5" c "6" c "7" c "8" c "9" c "A" c "B" \
	c "C" c "D" c "E" c "F" c "G" c "H" c "I" c "J" c "K" c "L" c "M" c "N" c "O" \
	c "P" c "Q" c "R" c "S" c "T" c "U" c "V" c "W" c "X" c "Y" c "Z" c "_" c "a" \
	c "b" c "c" c "d" c "e" c "f" c "g" c "h" c "i" c "j" c "k" c "l" c "m" c "n" \
	c "o" c "p" c "q" c "r" c "s" c "t" c "u" c "v" c "w" c "x" c "y" c "z"
static const char flax_pairs[2 * 4096 + 1] =
	FLAX_ROW("-") FLAX_ROW("0") FLAX_ROW("1") FLAX_ROW("2") FLAX_ROW("3")
	FLAX_ROW("4") FLAX_ROW("5") FLAX_ROW("6") FLAX_ROW("7") FLAX_ROW("8")
	FLAX_ROW("9") FLAX_ROW("A") FLAX_ROW("B") FLAX_ROW("C") FLAX_ROW("D")
	FLAX_ROW("E") FLAX_ROW("F") FLAX_ROW("G") FLAX_ROW("H") FLAX_ROW("I")
	FLAX_ROW("J") FLAX_ROW("K") FLAX_ROW("L") FLAX_ROW("M") FLAX_ROW("N")
	FLAX_ROW("O") FLAX_ROW("P") FLAX_ROW("Q") FLAX_ROW("R") FLAX_ROW("S")
	FLAX_ROW("T") FLAX_ROW("U") FLAX_ROW("V") FLAX_ROW("W") FLAX_ROW("X")
	FLAX_ROW("Y") FLAX_ROW("Z") FLAX_ROW("_") FLAX_ROW("a") FLAX_ROW("b")
	FLAX_ROW("c") FLAX_ROW("d") FLAX_ROW("e") FLAX_ROW("f") FLAX_ROW("g")
	FLAX_ROW("h") FLAX_ROW("i") FLAX_ROW("j") FLAX_ROW("k") FLAX_ROW("l")
	FLAX_ROW("m") FLAX_ROW("n") FLAX_ROW("o") FLAX_ROW("p") FLAX_ROW("q")
	FLAX_ROW("r") FLAX_ROW("s") FLAX_ROW("t") FLAX_ROW("u") FLAX_ROW("v")
	FLAX_ROW("w") FLAX_ROW("x") FLAX_ROW("y") FLAX_ROW("z");

/* 48 bits into 8 characters */
static inline void
flax_encode8(uint64_t v, char *out)
{
	memcpy(out, &flax_pairs[2 * ((v >> 36) & 0xFFF)], 2);
	memcpy(out + 2, &flax_pairs[2 * ((v >> 24) & 0xFFF)], 2);
	memcpy(out + 4, &flax_pairs[2 * ((v >> 12) & 0xFFF)], 2);
	memcpy(out + 6, &flax_pairs[2 * (v & 0xFFF)], 2);
}

/* why s is not a flaxid, character by character */
static flaxid_parse_status
flaxid_parse_error(const char *s, size_t *offset)
{
	size_t		i;

	for (i = 0; s[i] != '\0'; i++)
	{
		if (flaxid_code[(unsigned char) s[i]] == 0)
		{
			*offset = i;
			return FLAXID_PARSE_BAD_CHAR;
		}
	}
	*offset = i;
	return FLAXID_PARSE_LENGTH;
}

flaxid_parse_status
flaxid_parse_bytes(const char *s, uint8_t out[FLAXID_LEN], size_t *offset)
{
	if (!flaxid_decode(s, out))
		return flaxid_parse_error(s, offset);
	return FLAXID_PARSE_OK;
}

void
flaxid_format_bytes(const uint8_t in[FLAXID_LEN], char out[FLAXID_TEXT_LEN + 1])
{
	uint64_t	w0 = idg_load_be64(in);
	uint64_t	w1 = idg_load_be32(in + 8);

	flax_encode8(w0 >> 16, out);
	flax_encode8(((w0 & 0xFFFF) << 32) | w1, out + 8);
	out[FLAXID_TEXT_LEN] = '\0';
}

flaxid_parse_status
flaxid_parse(const char *s, idg_u128 *out, size_t *offset)
{
	uint8_t		b[FLAXID_LEN];
	flaxid_parse_status st = flaxid_parse_bytes(s, b, offset);

	if (st == FLAXID_PARSE_OK)
		*out = idg_load_be96(b);
	return st;
}

void
flaxid_format(idg_u128 v, char out[FLAXID_TEXT_LEN + 1])
{
	uint8_t		b[FLAXID_LEN];

	idg_store_be96(b, v);
	flaxid_format_bytes(b, out);
}
