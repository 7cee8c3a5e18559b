#!/usr/bin/env python3
"""The vector generators of test/vectors run, and what quotes them matches.

    /usr/bin/python3 test/vectors/check.py ROOT

- time_bounds.py: every row of sql/ranges.sql's vector table is a row the
  generator computes (type, time, least id, greatest id), and every row it
  computes is in the table;
- distid_forms.py: the distid vector tables of test/unit/test_core.c
  (distid_vectors) and sql/distid.sql hold exactly its rows (decimal,
  alphanumeric, hex);
- odds.py: every row of a user page's table that has columns of fresh
  random bits and collisions and names a generator odds.py computes (with
  its clock, where the table has one) quotes its figures, at the page's
  precision (two significant digits); every idgen generator's row is quoted
  somewhere; its Monte Carlo check (--check) agrees with its formula.

Prints "ok"/"not ok" lines and "vectors: N passed, M failed"; exit status 1
on a failure."""
import glob
import os
import re
import subprocess
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..')
HERE = os.path.join(ROOT, 'test', 'vectors')
PY = sys.executable or '/usr/bin/python3'
passed = failed = 0


def check(ok, what, detail=''):
    global passed, failed
    if ok:
        passed += 1
        print('ok - %s' % what)
    else:
        failed += 1
        print('not ok - %s' % what)
        for line in detail.splitlines():
            print('#   %s' % line)


def run(script, *args):
    r = subprocess.run([PY, os.path.join(HERE, script), *args], capture_output=True, text=True)
    check(r.returncode == 0, '%s %s runs' % (script, ' '.join(args)), r.stderr[-2000:])
    return r.stdout


# time_bounds.py against sql/ranges.sql
computed = set()
for line in run('time_bounds.py').splitlines():
    fn, ts, text = line.split('\t')
    computed.add((fn, ts, text))
rows = set()
sql = open(os.path.join(ROOT, 'sql', 'ranges.sql')).read()
for typ, ts, lo, hi in re.findall(r"\('(\w+)', '([^']+)\+00', '([^']*)', '([^']*)'\)", sql):
    rows.add(('%s_from_timestamp' % typ, ts, lo))
    rows.add(('%s_max_for_timestamp' % typ, ts, hi))
check(len(rows) > 0, 'sql/ranges.sql has a vector table (%d bounds)' % len(rows))
check(not rows - computed, 'every bound in sql/ranges.sql is the one time_bounds.py computes',
      '\n'.join('\t'.join(r) for r in sorted(rows - computed)))
check(not computed - rows, 'every bound time_bounds.py computes is in sql/ranges.sql',
      '\n'.join('\t'.join(r) for r in sorted(computed - rows)))

# distid_forms.py against the distid vector tables of the unit and regression tests
computed = set(tuple(line.split('\t')) for line in run('distid_forms.py').splitlines())
sql = open(os.path.join(ROOT, 'sql', 'distid.sql')).read()
unit = open(os.path.join(ROOT, 'test', 'unit', 'test_core.c')).read()
for where, rows in (
        ('sql/distid.sql', set(re.findall(r"\('(\d+)', '([0-9A-Za-z]{16})', '([0-9A-F]{26})'\)", sql))),
        ('test/unit/test_core.c distid_vectors', set(re.findall(
            r'\{"(\d+)", "([0-9A-Za-z]{16})", "([0-9A-F]{26})"\}',
            unit[unit.index('distid_vectors[] = {'):unit.index('};', unit.index('distid_vectors[] = {'))])))):
    check(not rows - computed, 'every distid row of %s is the one distid_forms.py computes' % where,
          '\n'.join('\t'.join(r) for r in sorted(rows - computed)))
    check(not computed - rows, 'every distid row distid_forms.py computes is in %s' % where,
          '\n'.join('\t'.join(r) for r in sorted(computed - rows)))


def tables(text):
    """blocks of consecutive lines starting with '|'"""
    out, cur = [], []
    for line in text.splitlines() + ['']:
        if line.startswith('|'):
            cur.append(line.rstrip())
        elif cur:
            out.append(cur)
            cur = []
    return out


SUP = str.maketrans('⁰¹²³⁴⁵⁶⁷⁸⁹⁻', '0123456789-')


def number(cell):
    """the first figure of a cell: 1.75, 7,180, 8.4·10⁻⁷, 8.35e-07; None if none"""
    cell = cell.translate(SUP).replace(',', '')
    m = re.search(r'(\d+(?:\.\d+)?)(?:·10(-?\d+)|e([-+]?\d+))?', cell)
    if not m:
        return None
    exp = m.group(2) or m.group(3)
    return float(m.group(1)) * (10 ** int(exp) if exp else 1)


def close(a, b):
    """equal at the page's precision: two significant digits at least"""
    return a is not None and b is not None and abs(a - b) <= 0.03 * max(abs(a), abs(b)) + 1e-300


def cells(row):
    return [c.strip() for c in row.strip().strip('|').split('|')]


def key(first, clock):
    name = re.sub(r'[`*]|\(the reference\)', '', first).replace('idgen.sub_millisecond_clock = off', 'off')
    name = re.sub(r'\s+', ' ', name).strip(' ,')
    return (name, clock.replace('µs', 'us'))


def column(header, word):
    for i, h in enumerate(header):
        if word in h.lower():
            return i
    return None


# odds.py's tables: per generator (and clock), its fresh random bits and
# collisions per year; the pages' tables with those columns quote them
pages = sorted(glob.glob(os.path.join(ROOT, 'doc', '*.md'))) + [os.path.join(ROOT, 'README.md')]
printed = tables(run('odds.py'))
check(len(printed) == 2, 'odds.py prints its two tables')
figures = {}
for t in printed:
    head = cells(t[0])
    cb, fb, co = column(head, 'clock bits'), column(head, 'fresh random bits'), column(head, 'collisions')
    ck = 1 if head[1] == 'clock' else None
    for row in t[2:]:
        c = cells(row)
        figures[key(c[0], c[ck] if ck else '')] = (number(c[fb]), number(c[co]), number(c[cb]) if cb else None)
quoted = set()
for p in pages:
    for pt in tables(open(p).read()):
        head = cells(pt[0])
        fb, co = column(head, 'fresh random bits'), column(head, 'collisions')
        if fb is None or co is None:
            continue
        ck = 1 if len(head) > 1 and head[1] == 'clock' else None
        for row in pt[2:]:
            c = cells(row)
            k = key(c[0], c[ck] if ck else '')
            if k not in figures:
                continue
            quoted.add(k)
            want = figures[k]
            ok = close(number(c[fb]), want[0]) and (close(number(c[co]), want[1]) or
                                                     (want[1] is None and number(c[co]) is None))
            check(ok, '%s: %s %s as odds.py computes (%g fresh bits, %g collisions/year)' %
                  (os.path.relpath(p, ROOT), k[0], k[1], want[0], want[1]), row)
missing = [k for k in figures if k not in quoted and k[0].startswith(('iuid_generate', 'flaxid_generate', 'distid'))]
check(not missing, "every idgen generator's row of odds.py is quoted in a user page",
      '\n'.join(' '.join(k) for k in missing))
out = run('odds.py', '--check')

print('vectors: %d passed, %d failed' % (passed, failed))
sys.exit(1 if failed else 0)
