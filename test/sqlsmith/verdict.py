#!/usr/bin/python3
"""The verdict of a sqlsmith run of idgen (test/sqlsmith), from the server
log (log_error_verbosity = verbose, log_min_error_statement = error,
log_line_prefix '%m [%p] %e ') and the query counts of sqlsmith_run.

Prints the figures (queries, errors by SQLSTATE overall and from idgen's
code, idgen XX000s, crashes) and fails (exit 1) on a crash, an assertion
failure, a sanitizer report, an XX000 from idgen, or too few queries.

Where an error comes from: the LOCATION line names the C function and the
file that raised it.  It is idgen's when that file is one of idgen's sources
(src/, src/core/) AND that function is idgen's: it starts a line of that file
(PostgreSQL's style of defining one) or idgen.so defines it (those its
macros define, as iuid_smaller).  The file name alone is not enough, since
src/shmem.c shares its name with PostgreSQL's.

An XX000 (any class XX error) counts against idgen when
 (a) it was raised in idgen's code, as above; or
 (b) its message names an idgen object and its statement calls one; or
 (c) it was raised by PostgreSQL on idgen's behalf: re-run (--conninfo),
     with backtrace_functions set to the C function of its LOCATION, the
     statement logs a backtrace with a frame in idgen.so.  This catches what
     the location cannot: idgen calling a PostgreSQL helper that raises
     XX000 when misused (InitMaterializedSRF's "return type must be a row
     type"), or an operator of an idgen type (its statement names no idgen
     function).
Other XX errors (not reproduced, or no idgen frame) are PostgreSQL's own,
which sqlsmith finds in the core too: listed, not failed on.
"""
import argparse
import collections
import os
import re
import sys

IDGEN_RE = None  # set from the command line: idgen's object names

PREFIX = re.compile(r'^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \S+ \[(\d+)\] (\w{5}) (\w+):  (.*)$')
# a process that died: one line per crash (not the "terminating any other
# active server processes" that follows one); "server process (PID n)" up to
# 16, "client backend (PID n)" and the like from 17 on
CRASH = [
	re.compile(r'\(PID \d+\) was terminated by'),
	re.compile(r'\(PID \d+\) exited with exit code (?![01]\b)\d+'),
	re.compile(r'^PANIC:|\bPANIC:  '),
]
# what an assert-enabled or sanitizer build reports first (a sanitizer
# report need not kill the process: UBSan's runtime errors)
TRAP = re.compile(r'TRAP: ')
SANITIZER = re.compile(r'==\d+==ERROR: \w*Sanitizer|runtime error: ')


def idgen_functions(src, lib):
	"""{file name: set of functions it defines} for idgen's C sources; each
	also gets the functions idgen.so defines"""
	import subprocess
	syms = set()
	if lib:
		out = subprocess.run(['nm', '--defined-only', lib], capture_output=True, text=True, check=True).stdout
		syms = {w[2] for w in (l.split() for l in out.splitlines()) if len(w) == 3 and w[1] in 'Tt'}
	defs = {}
	for d in (src, os.path.join(src, 'core')):
		if not os.path.isdir(d):
			continue
		for name in os.listdir(d):
			if not name.endswith('.c'):
				continue
			with open(os.path.join(d, name), encoding='utf-8', errors='replace') as f:
				# PostgreSQL style: the function's name starts its line
				funcs = set(re.findall(r'^([A-Za-z_]\w*)\(', f.read(), re.M))
			defs.setdefault(name, set()).update(funcs | syms)
	return defs


def errors(log):
	"""every ERROR/FATAL/PANIC report: dicts of sqlstate, level, message, location, statement"""
	cur = None
	field = None
	with open(log, encoding='utf-8', errors='replace') as f:
		for line in f:
			line = line.rstrip('\n')
			m = PREFIX.match(line)
			if not m:
				# a continuation line (of a multi-line statement or message)
				# (the server puts a tab before each)
				if cur is not None and field:
					cur[field] += '\n' + (line[1:] if line.startswith('\t') else line)
				continue
			pid, state, level, text = m.groups()
			if level in ('ERROR', 'FATAL', 'PANIC'):
				if cur is not None:
					yield cur
				cur = {'pid': pid, 'level': level, 'sqlstate': state,
					   'message': re.sub(r'^\w{5}: ', '', text),
					   'location': '', 'statement': ''}
				field = 'message'
			elif cur is not None and pid == cur['pid'] and level in (
					'LOCATION', 'STATEMENT', 'DETAIL', 'HINT', 'CONTEXT'):
				field = level.lower() if level in ('LOCATION', 'STATEMENT') else None
				if field:
					cur[field] = text
			else:
				if cur is not None:
					yield cur
				cur, field = None, None
	if cur is not None:
		yield cur


def from_idgen(err, defs):
	m = re.match(r'\s*(\w+), ([\w.]+):\d+', err['location'])
	return bool(m) and m.group(2) in defs and m.group(1) in defs[m.group(2)]


def rerun(conninfo, log, err):
	"""(c) above: does the statement, run again, raise through idgen.so?
	True, False, or None when it did not raise the error again."""
	import psycopg
	func = re.match(r'\s*(\w+),', err['location'])
	if not func:
		return None
	start = os.path.getsize(log)
	try:
		with psycopg.connect(conninfo, autocommit=True) as c:
			c.execute("SELECT set_config('backtrace_functions', %s, false)", (func.group(1),))
			c.execute("SET statement_timeout = '10s'")
			c.execute('BEGIN')
			# as the role sqlsmith ran as; rolled back
			c.execute('SET LOCAL ROLE smith')
			try:
				c.execute(err['statement'].encode())
			except psycopg.Error:
				pass
			c.execute('ROLLBACK')
	except psycopg.Error as e:
		print('  re-run failed: %s' % e)
		return None
	with open(log, encoding='utf-8', errors='replace') as f:
		f.seek(start)
		tail = f.read()
	if 'BACKTRACE:' not in tail:
		return None
	return 'idgen.so' in tail


def main():
	ap = argparse.ArgumentParser()
	ap.add_argument('--server-log', required=True)
	ap.add_argument('--src', required=True, help="idgen's src directory")
	ap.add_argument('--lib', help='idgen.so, for the functions its macros define')
	ap.add_argument('--stats', required=True, help='sqlsmith_run\'s counts')
	ap.add_argument('--idgen-re', required=True)
	ap.add_argument('--min-queries', type=int, default=1)
	ap.add_argument('--min-calls', type=int, default=1)
	ap.add_argument('--conninfo', help='to re-run XX statements with a backtrace')
	a = ap.parse_args()
	idgen_re = re.compile(a.idgen_re)
	calls_idgen = re.compile(a.idgen_re + r'\w*\s*\(')
	defs = idgen_functions(a.src, a.lib)

	stats, fns = {}, collections.Counter()
	for line in open(a.stats):
		w = line.split()
		if len(w) == 3 and w[0] == 'fn':
			fns[w[1]] = int(w[2])
		elif len(w) == 2:
			stats[w[0]] = int(w[1])
	queries, idgen_queries, calls = stats.get('queries', 0), stats.get('idgen', 0), stats.get('calls', 0)

	crashes, traps, sanitizer = [], [], []
	with open(a.server_log, encoding='utf-8', errors='replace') as f:
		for line in f:
			line = line.rstrip('\n')
			if any(p.search(line) for p in CRASH):
				crashes.append(line)
			if TRAP.search(line):
				traps.append(line)
			if SANITIZER.search(line):
				sanitizer.append(line)

	by_state = collections.Counter()
	by_state_idgen = collections.Counter()
	idgen_xx, other_xx = [], []
	for e in errors(a.server_log):
		by_state[e['sqlstate']] += 1
		mine = from_idgen(e, defs)
		if mine:
			by_state_idgen[e['sqlstate']] += 1
		if e['sqlstate'].startswith('XX'):
			if mine or (idgen_re.search(e['message']) and calls_idgen.search(e['statement'])):
				idgen_xx.append(e)
			else:
				other_xx.append(e)
	# (c): at most 20 re-runs, with one message each
	reran = {}
	for e in other_xx:
		if not a.conninfo or not e['statement'] or len(reran) >= 20:
			e['rerun'] = 'not re-run'
			continue
		key = (e['message'], e['location'])
		if key not in reran:
			reran[key] = rerun(a.conninfo, a.server_log, e)
		e['rerun'] = {True: 'through idgen.so', False: 'no idgen frame', None: 'not reproduced'}[reran[key]]
		if reran[key]:
			idgen_xx.append(e)
	other_xx = [e for e in other_xx if e['rerun'] != 'through idgen.so']

	def fmt(c):
		return ', '.join('%s %d' % kv for kv in sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))) or 'none'

	print('queries: %d, naming an idgen object: %d, calling an idgen function: %d, reading id_fields: %d'
		  % (queries, idgen_queries, calls, stats.get('view', 0)))
	print('idgen functions called: %d (most called: %s)' % (len(fns), ', '.join('%s %d' % kv for kv in fns.most_common(8)) or 'none'))
	print('errors by SQLSTATE: %d (%s)' % (sum(by_state.values()), fmt(by_state)))
	print("errors raised in idgen's code by SQLSTATE: %d (%s)" % (sum(by_state_idgen.values()), fmt(by_state_idgen)))
	print('idgen XX000s: %d' % len(idgen_xx))
	for e in idgen_xx[:10]:
		print('  %s: %s (%s%s)\n    %s' % (e['sqlstate'], e['message'], e['location'], '; ' + e['rerun'] if 'rerun' in e else '', e['statement'][:2000].replace('\n', '\n    ')))
	print("other XX errors (PostgreSQL's own): %d" % len(other_xx))
	for e in other_xx[:10]:
		print('  %s: %s (%s; %s)' % (e['sqlstate'], e['message'], e['location'], e['rerun']))
	print('crashes: %d, assertion failures: %d, sanitizer reports: %d' % (len(crashes), len(traps), len(sanitizer)))
	for c in (traps + sanitizer + crashes)[:20]:
		print('  ' + c)

	failed = []
	if crashes or traps or sanitizer:
		failed.append('a crash, assertion failure or sanitizer report in the server log')
	if idgen_xx:
		failed.append('XX000 from idgen')
	if queries < a.min_queries:
		failed.append('sqlsmith ran %d queries, fewer than %d' % (queries, a.min_queries))
	if calls < a.min_calls:
		failed.append('%d queries called an idgen function, fewer than %d' % (calls, a.min_calls))
	for f in failed:
		print('FAILED: ' + f)
	return 1 if failed else 0


if __name__ == '__main__':
	sys.exit(main())
