#!/usr/bin/env python3
"""Fresh random bits, guessability and expected collisions of idgen's
time-ordered generators, from the layouts of doc/formats.md and generation rules (no
idgen code): the figures of doc/generation.md.

    /usr/bin/python3 test/vectors/odds.py          # the table
    /usr/bin/python3 test/vectors/odds.py --check  # and a Monte Carlo check

Model.  Two generators (sessions) make ids of the same stream (for iuid the
same country and entity) at R ids per second each, evenly spread.  Ids can
only be equal in the same millisecond.  A fresh field is f clock bits (the
fraction of the millisecond) above r random bits; in the same 1/2^f step a
session adds a random increment to its previous id instead.  A fresh field
of one session and any id of the other are equal with probability 2^-r if
their clock bits agree, and so is an incremented one (its start was
uniform).  With n = R/1000 ids per millisecond each, and the clock bits
spread over B values a reading can take,

    expected equal pairs per millisecond = n * n / B * 2^-r

and per year that times 3.15576e10 milliseconds.  B is 2^f when the clock
resolves every step; before idgen 1.1's coarse-clock fix a microsecond
clock gave only 1000 of iuid's 4096 values and a millisecond clock one,
while r stayed at field - 12.  With the fix f is what the clock resolves:
12 (ns), 9 (us), 0 (ms); a field without clock bits keeps its top bit clear
(room for increments), so r = field - 1 there.

--check replays the rules themselves on a scaled-down field, many times,
and compares the collisions counted with the formula.

The second table puts the core alternatives of doc/choosing.md through the
same model, from their published layouts: PostgreSQL 18's uuidv7() (48-bit
milliseconds, 12 bits of sub-millisecond time, 62 random bits drawn afresh
for every id: src/backend/utils/adt/uuid.c), gen_random_uuid() (122 random
bits, no time: every pair of a year's ids can collide), the UUIDv7 SQL
function of doc/choosing.md (gen_random_uuid() with its first 48 bits
replaced by the millisecond: 74 random bits) and a ULID made with
80 fresh random bits per id (the usual SQL function; the specification's
monotonic variant adds 1 within a millisecond instead, whose runs of n ids
meet with probability about 2n * 2^-80 per millisecond).
"""
import random
import sys

MS_PER_YEAR = 365.25 * 86400 * 1000
RATE = 1_000_000            # ids per second per generator
N = RATE // 1000            # ids per millisecond per generator

# resolution in ns -> (readings per millisecond, clock bits the fix keeps)
CLOCKS = {'ns': (10**6, 12), 'us': (1000, 9), 'ms': (1, 0)}


def frac_bits_for(res_ns, max_bits=12):
    # the largest b with 2^b steps of at least res_ns in a millisecond
    b = 0
    while b < max_bits and res_ns * 2 ** (b + 1) <= 10**6:
        b += 1
    return b


def fresh_bits(field, f):
    return field - f - (1 if f == 0 else 0)


def per_year(n, buckets, r):
    return n * n / buckets * 2.0 ** -r * MS_PER_YEAR


# name, random field, configured clock bits, increment bits, rate limit
# (ids per ms per generator, None: none)
TYPES = [
    ('iuid_generate', 54, 12, 32, None),
    ('flaxid_generate', 56, 12, 32, None),
    ('distid128_generate', 75, 12, 58, None),
    ('distid_generate_dense', 48, 12, 32, None),
]


def table():
    print('| generator | clock | clock bits | fresh random bits | successor: 1 in | '
          'collisions/year, 2 × 1M ids/s, one stream | before the coarse-clock fix |')
    print('|---|---|---:|---:|---:|---:|---:|')
    for name, field, fmax, inc, _ in TYPES:
        for clock, (readings, _) in CLOCKS.items():
            res = 10**6 // readings
            f = frac_bits_for(res, fmax)
            r = field - f if name == 'distid128_generate' else fresh_bits(field, f)
            now = per_year(N, 2 ** f, r)
            # before: always 12 clock bits, r = field - 12, B = distinct readings
            old_r = field - fmax
            old = per_year(N, min(2 ** fmax, readings), old_r)
            before = '%.3g' % old if name != 'distid_generate_dense' else 'new in 1.1'
            print('| `%s` | %s | %d | %d | 2^%d | %.3g | %s |'
                  % (name, clock, f, r, inc, now, before))
    # idgen.sub_millisecond_clock = off: no clock bits, the whole field random
    for name, field, fmax, inc, _ in TYPES[:3]:
        print('| `%s`, idgen.sub_millisecond_clock = off | any | 0 | %d | 2^%d | %.3g | new in 1.1 |'
              % (name, field, inc, per_year(N, 1, field)))
    # the reference distid: 48 fresh bits for the first id of a millisecond,
    # then increments of up to 2^41, about 128 ids per ms at most
    for n in (128,):
        print('| `distid_generate` (reference) | any | 0 | 48 | 2^41 | %.3g at its limit of '
              'about %d ids/ms each (2 × 1M ids/s is not reachable) | same |'
              % (per_year(n, 1, 48), n))


def core():
    """Core alternatives, same model and rate: 2 sessions at RATE ids/s, a
    year.  A generator that draws every id afresh (gen_random_uuid(), the
    SQL UUIDv7 function, a random ULID) can also repeat an id of its own
    session: all C(2n, 2) pairs of the 2n ids count, about twice the n * n
    pairs across the two sessions.  uuidv7() and a monotonic ULID increase
    within a session, so only the pairs across sessions count for them."""
    ids_per_year = RATE * MS_PER_YEAR / 1000

    def all_pairs(n, r):
        return (2 * n) * (2 * n - 1) / 2 * 2.0 ** -r

    print()
    print('| generator | clock bits | fresh random bits per id | pairs that can be equal | '
          'collisions/year, 2 × 1M ids/s |')
    print('|---|---:|---:|---|---:|')
    print('| `uuidv7()` (PostgreSQL 18, ns clock) | 12 | 62 | across sessions | %.3g |'
          % per_year(N, 2 ** 12, 62))
    print('| UUIDv7 as a SQL function (gen_random_uuid() with 48 bits of ms time) | 0 | 74 | '
          'all | %.3g |' % (all_pairs(N, 74) * MS_PER_YEAR))
    print('| `gen_random_uuid()` | 0 | 122 | all, over the year | %.3g |'
          % all_pairs(ids_per_year, 122))
    print('| ULID, 80 fresh random bits per id | 0 | 80 | all | %.3g |'
          % (all_pairs(N, 80) * MS_PER_YEAR))
    print('| ULID, monotonic (+1 within a millisecond) | 0 | 80 (first id of a millisecond) | '
          'across sessions | %.3g |' % (2 * N * 2.0 ** -80 * MS_PER_YEAR))


def simulate(field, fcfg, f_used, inc_bits, readings, n, ms, seed):
    """Two sessions, n ids per ms each, clock of `readings` values per ms;
    the fresh field takes f_used clock bits (the old code: fcfg bits of a
    coarse reading).  Returns the number of equal pairs."""
    rnd = random.Random(seed)
    low = field - f_used
    top_clear = f_used == 0
    equal = 0
    for _ in range(ms):
        ids = []
        for _s in range(2):
            phase = rnd.random()
            prev = None
            for i in range(n):
                t = (i + phase) / n                     # time in the ms, 0..1
                reading = int(t * readings) / readings  # coarse clock
                fr = int(reading * 2 ** f_used)
                if prev is None or fr > prev >> low:
                    rb = low - 1 if top_clear else low
                    prev = (fr << low) | rnd.getrandbits(rb)
                else:
                    prev += rnd.getrandbits(inc_bits) + 1
                    if prev >= 2 ** field:
                        break   # borrowed into the next ms: rare at this scale
                ids.append((_s, prev))
        a = {v for s, v in ids if s == 0}
        equal += sum(1 for s, v in ids if s == 1 and v in a)
    return equal


def check():
    # a 20-bit field, 4 clock bits, increments of 1..2^4, 16 ids per ms
    field, fcfg, inc, n, ms = 20, 4, 4, 16, 100000
    cases = [
        ('fine clock', 4, 4, 10**6),
        ('8 readings per ms, old: 4 clock bits', 4, 4, 8),
        ('8 readings per ms, fixed: 3 clock bits', 3, 3, 8),
        ('millisecond clock, old: 4 clock bits', 4, 4, 1),
        ('millisecond clock, fixed: no clock bits', 0, 0, 1),
    ]
    ok = True
    for label, f_bits, f_used, readings in cases:
        r = fresh_bits(field, f_used) if f_used == 0 else field - f_used
        buckets = min(2 ** f_used, readings)
        want = n * n / buckets * 2.0 ** -r * ms
        got = simulate(field, fcfg, f_used, inc, readings, n, ms, seed=len(label))
        # Poisson: accept within 4 standard deviations
        good = abs(got - want) <= 4 * want ** 0.5 + 1
        ok &= good
        print('%-45s expected %8.1f counted %6d %s' % (label, want, got, 'ok' if good else 'OFF'))
    return ok


if __name__ == '__main__':
    table()
    core()
    if '--check' in sys.argv[1:]:
        sys.exit(0 if check() else 1)
