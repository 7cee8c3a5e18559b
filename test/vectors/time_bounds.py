#!/usr/bin/env python3
"""Least and greatest ids of a time unit, computed from the layouts of doc/formats.md
with Python integers only (no idgen code), for sql/ranges.sql.

Prints one line per (function, time): name, time, expected text form."""
def days_from_civil(y, m, d):
    # days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant);
    # datetime stops at year 9999, iuid goes on to 10889
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def unix_ms(ts):
    # 'Y-M-D h:m:s[.frac]' in UTC, floored to the millisecond as the
    # *_from_timestamp functions do
    date, time = ts.split(' ')
    y, m, d = (int(x) for x in date.split('-'))
    hh, mm, ss = time.split(':')
    sec, _, frac = ss.partition('.')
    ms = int((frac + '000')[:3])
    return ((days_from_civil(y, m, d) * 24 + int(hh)) * 60 + int(mm)) * 60000 \
        + int(sec) * 1000 + ms


def uuid_text(v):
    h = '%032x' % v
    return '-'.join((h[0:8], h[8:12], h[12:16], h[16:20], h[20:32]))


def iuid(ts, top):
    ms = unix_ms(ts)
    # ver 8; format version, country, var 0b10, entity, random
    if top:
        hi = (ms << 16) | (8 << 12) | (0xF << 8) | 0xFF
        lo = (2 << 62) | (0xFF << 54) | ((1 << 54) - 1)
    else:
        hi = (ms << 16) | (8 << 12)
        lo = 2 << 62
    return uuid_text((hi << 64) | lo)


def distid(ts, top):
    ms = unix_ms(ts) + 2208988800000
    v = (ms << 48) | (((1 << 48) - 1) if top else 0)
    return str(min(v, 10**28 - 1))


FLAX = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz'


def flaxid(ts, top):
    ms = unix_ms(ts) - 1420070400000
    v = (ms << 56) | (((1 << 56) - 1) if top else 0)
    return ''.join(FLAX[(v >> (6 * (15 - i))) & 63] for i in range(16))


B36 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'


def base36id(ts, top):
    sec = (unix_ms(ts) // 1000) - 1704067200
    v = (sec * 36 + (35 if top else 0)) * 1296 + (1295 if top else 0)
    return ''.join(B36[(v // 36**(8 - i)) % 36] for i in range(9))


def distid128(ts, top):
    ms = unix_ms(ts) + 8520336000000
    r75 = (1 << 75) - 1 if top else 0
    # ts48 | version 7 | top 12 random bits | bit 64 zero | low 63 random bits
    hi = (ms << 16) | (7 << 12) | (r75 >> 63)
    lo = r75 & ((1 << 63) - 1)
    return uuid_text((hi << 64) | lo)


CASES = {
    'iuid': (iuid, ['1970-01-01 00:00:00', '2022-02-22 19:22:22.000999',
                    '2026-10-31 23:59:59.999', '10889-08-02 05:31:50.655']),
    'distid': (distid, ['1900-01-01 00:00:00', '2022-07-31 18:33:00.285',
                        '3025-10-23 17:06:28.004', '3025-10-23 17:06:28.005']),
    'flaxid': (flaxid, ['2015-01-01 00:00:00', '2015-10-15 20:10:25.807999',
                        '2049-11-03 19:53:47.775']),
    'base36id': (base36id, ['2024-01-01 00:00:00', '2025-01-01 00:00:00.999',
                            '2092-12-23 05:45:35']),
    'distid128': (distid128, ['1700-01-01 00:00:00', '2023-07-24 17:59:43.916',
                              '2026-11-01 00:00:00']),
}

if __name__ == '__main__':
    for name, (fn, times) in CASES.items():
        for ts in times:
            for top, suffix in ((False, 'from_timestamp'), (True, 'max_for_timestamp')):
                print('%s_%s\t%s\t%s' % (name, suffix, ts, fn(ts, top)))
