#!/usr/bin/env python3
"""distid's text forms of boundary values, computed from doc/formats.md's
layouts with Python integers only (no idgen code), for the vector tables of
test/unit/test_core.c (distid_vectors) and sql/distid.sql.

The values: the small and 64-bit edges, the type's maximum 10^28-1, the
published vector, and every value where the decimal text gains a group of
nine digits with a group exactly 10^8 at its head (10^8, 10^17, 10^26: the
formatter writes the digits nine at a time and counts the head group's),
each with its neighbours.

Prints one line per value: decimal, alphanumeric (base62 0-9A-Za-z, a
5-character block of v >> 64 and an 11-character block of the low 64 bits,
each left-padded with 0), hex (%026X), tab-separated."""
ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'


def base62(v, width):
    out = ''
    while v:
        v, r = divmod(v, 62)
        out = ALPHABET[r] + out
    return out.rjust(width, '0')


def forms(v):
    assert 0 <= v <= 10 ** 28 - 1
    return str(v), base62(v >> 64, 5) + base62(v & (2 ** 64 - 1), 11), '%026X' % v


VALUES = [0, 1, 61, 62, 2 ** 32, 2 ** 64 - 1, 10 ** 28 - 1, 1088824355131185736905670087]
for k in (8, 17, 26):
    VALUES += [10 ** k - 1, 10 ** k, 10 ** k + 1]
VALUES += [10 ** 28 - 2]

if __name__ == '__main__':
    for v in VALUES:
        print('\t'.join(forms(v)))
