# Scaffolding shared by idgen's TAP tests (test/t/*.pl): a node with idgen
# preloaded, pgbench clients held at a barrier until all of them wait, the
# queries several tests ask of a table of generated ids, and a few polls.
#
# A test uses it from its own directory:
#
#   use FindBin;
#   use lib $FindBin::RealBin;
#   use IdgenTest;
#
# Only the check_* functions, wait_at_barrier(), run_pgbench_at_barrier(),
# crash_restart() and kill_backend() make assertions (their test names may start with a
# label the caller gives); the count_* and other query helpers return the
# query's result and leave the assertion to the test, so that a test still
# reads on its own.

package IdgenTest;

use strict;
use warnings;

use Exporter 'import';
use File::Spec;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes ();

our @EXPORT = qw(
  init_idgen_node
  start_idgen_node
  start_idgen_primary
  psql_verbose
  start_call
  settled_state
  set_sync_names
  injection_points_absent
  wait_at_point
  printed_ids
  await_printed_id
  check_promoted_repeats_none
  restart_without_receiver
  plan_packaged_15
  pgbench_script
  hold_barrier
  hold_advisory_barrier
  wait_at_barrier
  release_barrier
  start_pgbench
  finish_pgbench
  check_pgbench
  run_pgbench_at_barrier
  gen_function_sql
  mark_run_window
  count_outside_run_window
  count_rows_sessions_backends
  count_rows_distinct_ids
  count_sessions_not_numbered
  count_duplicate_ids
  count_ids_not_increasing
  check_sessions_concurrent
  session_ranges_overlap
  wait_for_extension_wait
  await_unreserved_second
  fsync_flag
  seconds_between
  crash_restart
  kill_backend
  kill_postmaster_and_wait
  faketime_lib
  set_clock_offset
  with_faketime
  server_clock_lag
  start_faketime_primary
  state_file_second
  start_with_fault_fsync
  set_fsync_fault
  clear_fsync_fault
);

#
# Nodes
#

# init_idgen_node($name, @conf): a new, initialised node, not started, with
# shared_preload_libraries = 'idgen' and the lines @conf in postgresql.conf.
sub init_idgen_node
{
	my ($name, @conf) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);
	$node->init;
	$node->append_conf('postgresql.conf',
		join("\n", "shared_preload_libraries = 'idgen'", @conf));
	return $node;
}

# start_idgen_node($name, @conf): as init_idgen_node, then started, with the
# extension created in database postgres.
sub start_idgen_node
{
	my ($name, @conf) = @_;
	my $node = init_idgen_node($name, @conf);
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION idgen');
	return $node;
}

# start_idgen_primary($name, @conf): as start_idgen_node, for a node that can
# have streaming standbys (allows_streaming).
sub start_idgen_primary
{
	my ($name, @conf) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);
	$node->init(allows_streaming => 1);
	$node->append_conf('postgresql.conf',
		join("\n", "shared_preload_libraries = 'idgen'", @conf));
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION idgen');
	return $node;
}

# psql_verbose($node, $sql, %params): runs $sql in a new psql with verbose
# errors (so the SQLSTATE and the HINT are printed); returns psql's exit
# status and stderr.  %params go to $node->psql (e.g. connstr).
sub psql_verbose
{
	my ($node, $sql, %params) = @_;
	my ($ret, $out, $err) =
	  $node->psql('postgres', "\\set VERBOSITY verbose\n$sql", %params);
	return ($ret, $err);
}

# start_call($node, $sql, points => [...]): $sql sent in a background psql
# session of its own, not waited for; returns the session (its
# query('SELECT 1') then collects the output) and its backend's pid.  With
# points, the session's backend first attaches those injection points
# (extension injection_points, created by the test) with the action
# 'wait', local to it (injection_points_set_local): it stops at each of
# them, its wait event named after the point, until
# injection_points_wakeup(point).  Returns once the backend has the call
# (its text, marked by a comment, in pg_stat_activity): psql echoes the
# line before it sends the call, and a state read before then would be the
# session's idle one.
my $calls = 0;

sub start_call
{
	my ($node, $sql, %opt) = @_;
	my $session = $node->background_psql('postgres', on_error_stop => 0);
	my $pid = $session->query_safe('SELECT pg_backend_pid()');
	if (@{ $opt{points} // [] })
	{
		$session->query_safe('SELECT injection_points_set_local()');
		$session->query_safe("SELECT injection_points_attach('$_', 'wait')")
		  foreach @{ $opt{points} };
	}
	my $mark = '/* idgen call ' . ++$calls . ' */';
	my $out = $session->query_until(qr/call-start/, "\\echo call-start\n$mark $sql\n");
	# query_until clears what it read: what psql printed after the mark in
	# the same read (a call that returns at once) stays for printed_ids
	$session->{stdout} = ($out =~ s/\A.*?call-start\n?//sr) . $session->{stdout};
	$node->poll_query_until('postgres',
		"SELECT starts_with(query, '$mark') FROM pg_stat_activity WHERE pid = $pid")
	  or die "the call never reached backend $pid";
	return ($session, $pid);
}

# settled_state($node, $pid): "state/wait_event" of backend $pid once it
# waits for synchronous standbys ("active/SyncRep") or is done ("idle/..."),
# or after 10 s: a test reads what the code under test did and goes on
# either way.
sub settled_state
{
	my ($node, $pid) = @_;
	my $state = '';
	foreach (1 .. 100)
	{
		$state = $node->safe_psql('postgres',
			"SELECT state || '/' || coalesce(wait_event, '') FROM pg_stat_activity WHERE pid = $pid"
		);
		last if $state eq 'active/SyncRep' || $state =~ /^idle/;
		Time::HiRes::sleep(0.1);
	}
	return $state;
}

# set_sync_names($node, $names, $states): synchronous_standby_names set to
# $names (ALTER SYSTEM) and reloaded; returns whether pg_stat_replication
# then shows $states, "application_name=sync_state" of each standby in
# order of name, comma-separated (polled until it does).
sub set_sync_names
{
	my ($node, $names, $states) = @_;
	$node->safe_psql('postgres', qq{
		ALTER SYSTEM SET synchronous_standby_names = '$names';
		SELECT pg_reload_conf();});
	return $node->poll_query_until('postgres',
		"SELECT string_agg(application_name || '=' || sync_state, ',' ORDER BY application_name) FROM pg_stat_replication",
		$states);
}

#
# Injection points (src/base36id_gen.c names them)
#

# injection_points_absent(): why the server on PATH cannot run injection
# points (not configured with --enable-injection-points, or core's
# injection_points module not installed), or undef when it can.
sub injection_points_absent
{
	my ($configure) = run_command([ 'pg_config', '--configure' ]);
	my ($sharedir) = run_command([ 'pg_config', '--sharedir' ]);
	my ($version) = run_command([ 'pg_config', '--version' ]);
	chomp($configure, $sharedir, $version);
	return "$version is not configured with --enable-injection-points"
	  unless $configure =~ /'--enable-injection-points'/;
	return "$version lacks the injection_points module (src/test/modules/injection_points)"
	  unless -f "$sharedir/extension/injection_points.control";
	return undef;
}

# wait_at_point($node, $pid, $point): polls until backend $pid waits at the
# injection point $point; returns whether it came to that.
sub wait_at_point
{
	my ($node, $pid, $point) = @_;
	return $node->poll_query_until('postgres',
		"SELECT wait_event = '$point' FROM pg_stat_activity WHERE pid = $pid");
}

# await_printed_id($session): whether psql, in a start_call session, shows
# an id before the session's timeout; what it printed stays for printed_ids.
# A backend shows as idle in pg_stat_activity before it sends its result
# (postgres.c reports STATE_IDLE, then flushes at ReadyForQuery), so a test
# that kills the server once a call is idle first waits for the id here.
sub await_printed_id
{
	my ($session) = @_;
	return pump_until($session->{run}, $session->{timeout},
		\$session->{stdout}, qr/^[0-9A-Z]{9}$/m);
}

# printed_ids($session): the base36ids a start_call session printed, once
# its server is gone (the session is ended first, so all it printed is read).
sub printed_ids
{
	my ($session) = @_;
	# psql ends at \q (its server is gone): everything it printed is then
	# read, not only what one pump found (a call that had returned its id
	# before the crash was once read as none)
	eval { $session->quit; };
	return $session->{stdout} =~ /^([0-9A-Z]{9})$/mg;
}

# check_promoted_repeats_none($standby, $clock, $second, \@returned,
# unknown => 1, label => $label): $standby, running under libfaketime
# (with_faketime) with the offset file $clock, gets its clock 3 to 4 s
# before the Unix time $second, is promoted and made to generate at once,
# then 20 ids in each second from $second to the last second of the ids
# @returned (the ids the old primary returned): the first generation after
# a promotion starts after the clock's second, so its ids reach a second
# only if it does not know that the second was reserved (a standby started
# with its clock past $second starts there too).  Checks that it generates
# and that none of its ids is among @returned; with unknown (the standby
# never had $second's record), also that some of its ids are of $second,
# so that a repeat could show.  Test names start with $label ('' or e.g.
# 'wait: ').
sub check_promoted_repeats_none
{
	my ($standby, $clock, $second, $returned, %opt) = @_;
	my $label = $opt{label} // '';
	set_clock_offset($clock,
		sprintf('%+d', int($second - Time::HiRes::time()) - 3));
	$standby->promote;
	my $last = $second;
	if (@{$returned})
	{
		$last = $standby->safe_psql('postgres',
			"SELECT greatest($second, max(extract(epoch FROM base36id_timestamp(id)))) FROM unnest('{"
			  . join(',', @{$returned}) . "}'::base36id[]) AS id");
	}
	my $sql = 'SELECT base36id_generate();';
	$sql .= "SELECT pg_sleep_until(to_timestamp($_));"
	  . 'SELECT base36id_generate() FROM generate_series(1, 20);'
	  foreach (int($second) .. int($last));
	my @promoted = grep { /^[0-9A-Z]{9}$/ } split /\n/,
	  $standby->safe_psql('postgres', $sql);
	is(scalar @promoted, 1 + 20 * (int($last) - int($second) + 1),
		"${label}the promoted standby generates ids from before the second on");
	if ($opt{unknown})
	{
		is( $standby->safe_psql(
				'postgres',
				"SELECT count(*) > 0 FROM unnest('{" . join(',', @promoted)
				  . "}'::base36id[]) AS id WHERE base36id_timestamp(id) = to_timestamp($second)"
			),
			't',
			"${label}among them ids of the second the old primary reserved");
	}
	my %returned = map { $_ => 1 } @{$returned};
	is(scalar(grep { $returned{$_} } @promoted),
		0, "${label}none repeats an id the old primary returned");
	return;
}

# restart_without_receiver($standby, $receiver, $clock, $second): kills the
# WAL receiver $receiver of $standby (held with SIGSTOP before, so that it
# never reads what its walsender sent); the standby, which the tests'
# configuration does not restart after a crash, stops, and is started again
# under libfaketime ($clock) with its clock a minute before the Unix time
# $second (it starts after its clock's second), a standby with no primary to
# stream from.  Returns whether it stopped.
sub restart_without_receiver
{
	my ($standby, $receiver, $clock, $second) = @_;
	my $postmaster = $standby->{_pid};
	kill 'KILL', $receiver;
	foreach (1 .. 1800)
	{
		last unless kill 0, $postmaster;
		Time::HiRes::sleep(0.1);
	}
	return 0 if kill 0, $postmaster;
	$standby->_update_pid(-1);
	set_clock_offset($clock,
		sprintf('%+d', int($second - Time::HiRes::time()) - 60));
	with_faketime($clock, sub { $standby->start });
	return 1;
}

# plan_packaged_15($what, $extension, $package): a test of an extension
# Debian packages for PostgreSQL 15 only is skipped on other servers; on 15
# the test command installs it (tools/lib.sh), and the test fails (and ends)
# without it.
sub plan_packaged_15
{
	my ($what, $extension, $package) = @_;
	my ($version) = run_command([ 'pg_config', '--version' ]);
	plan skip_all => "$what is packaged for PostgreSQL 15 only, this is $version"
	  unless $version =~ /^PostgreSQL 15\./;
	my ($sharedir) = run_command([ 'pg_config', '--sharedir' ]);
	chomp $sharedir;
	return if -f "$sharedir/extension/$extension.control";
	fail("$what is installed (Debian package $package)");
	done_testing();
	exit;
}

#
# pgbench clients at a barrier
#
# A barrier makes the clients' backends really work at the same time: a
# session of its own holds a lock, every client's script blocks on it before
# doing anything, and the lock is released once pg_stat_activity shows all
# the clients waiting.  pgbench connects every client before any runs its
# script.
#

# pgbench_script($node, $name, $sql): writes $sql to the file $name in the
# node's base directory; returns the file's path.
sub pgbench_script
{
	my ($node, $name, $sql) = @_;
	my $file = $node->basedir . "/$name";
	append_to_file($file, $sql);
	return $file;
}

# hold_barrier($node, lock => $sql, unlock => $sql, waiting => $predicate):
# a background psql session runs the lock statement(s) and holds the lock
# until release_barrier() runs the unlock statement(s).  $predicate, over
# pg_stat_activity, tells a backend that waits at the barrier.
sub hold_barrier
{
	my ($node, %barrier) = @_;
	$barrier{session} = $node->background_psql('postgres');
	$barrier{session}->query_safe($barrier{lock});
	return \%barrier;
}

# hold_advisory_barrier($node, $key): a barrier on the advisory lock $key,
# held exclusively.  The clients pass it with
#   PERFORM pg_advisory_lock_shared($key);
#   PERFORM pg_advisory_unlock_shared($key);
sub hold_advisory_barrier
{
	my ($node, $key) = @_;
	return hold_barrier(
		$node,
		lock => "SELECT pg_advisory_lock($key)",
		unlock => "SELECT pg_advisory_unlock($key)",
		waiting => "wait_event_type = 'Lock' AND wait_event = 'advisory'");
}

# wait_at_barrier($node, $barrier, $clients, $query_prefix, $test_name):
# checks that exactly $clients backends, whose query starts with
# $query_prefix, come to wait at the barrier (polling until they do).
sub wait_at_barrier
{
	my ($node, $barrier, $clients, $query_prefix, $test_name) = @_;
	return ok(
		$node->poll_query_until(
			'postgres', qq{
			SELECT count(*) = $clients FROM pg_stat_activity
			WHERE $barrier->{waiting}
			  AND query LIKE '$query_prefix%'}),
		$test_name);
}

# release_barrier($barrier): releases the lock and ends the session.
sub release_barrier
{
	my ($barrier) = @_;
	$barrier->{session}->query_safe($barrier->{unlock});
	$barrier->{session}->quit;
	return;
}

# start_pgbench($node, $clients, $script_file): starts pgbench in the
# background with $clients clients, one thread each, each running
# $script_file once in a backend of its own; returns a handle for
# finish_pgbench() and check_pgbench().
sub start_pgbench
{
	my ($node, $clients, $script_file) = @_;
	my $run = { clients => $clients, out => '', err => '' };
	$run->{harness} = IPC::Run::start(
		[
			'pgbench', '--no-vacuum',
			'-h', $node->host, '-p', $node->port,
			'-c', $clients, '-j', $clients, '-t', 1,
			'-f', $script_file, 'postgres'
		],
		'>', \$run->{out}, '2>', \$run->{err},
		IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
	return $run;
}

# finish_pgbench($run): waits for pgbench to end; returns whether it exited
# with status 0.  (check_pgbench() calls it if the test has not.)
sub finish_pgbench
{
	my ($run) = @_;
	$run->{ok} = $run->{harness}->finish unless exists $run->{ok};
	return $run->{ok};
}

# check_pgbench($run, $label, no_errors => 1): checks that pgbench exited
# with status 0 and every client completed its transaction, and with
# no_errors, that its stderr has no ERROR, FATAL or abort.  Test names start
# with $label ('' or e.g. 'gen_t: ').
sub check_pgbench
{
	my ($run, $label, %opt) = @_;
	my $clients = $run->{clients};
	ok(finish_pgbench($run), "${label}pgbench exit status is 0")
	  or diag("pgbench stdout:\n$run->{out}\npgbench stderr:\n$run->{err}");
	like(
		$run->{out},
		qr{number of transactions actually processed: $clients/$clients},
		"${label}every client completed its transaction");
	unlike($run->{err}, qr{ERROR|FATAL|abort}i, "${label}pgbench reports no error")
	  if $opt{no_errors};
	return;
}

# run_pgbench_at_barrier($node, %args): the whole round, with an advisory
# lock barrier: holds the barrier, starts pgbench, checks that all clients
# wait at the barrier, releases it and checks pgbench's result (all with
# test names starting with $args{label}, '' by default).
#   clients       number of pgbench clients
#   script_file   the script every client runs once
#   key           the advisory lock key of the barrier
#   query_prefix  how the clients' query starts (e.g. 'SELECT gen(')
#   label         prefix of the test names
#   no_errors     also check that pgbench reports no error
sub run_pgbench_at_barrier
{
	my ($node, %args) = @_;
	my $clients = $args{clients};
	my $label = $args{label} // '';

	my $barrier = hold_advisory_barrier($node, $args{key});
	my $run = start_pgbench($node, $clients, $args{script_file});
	wait_at_barrier($node, $barrier, $clients, $args{query_prefix},
		"${label}all $clients sessions wait at the barrier");
	release_barrier($barrier);
	check_pgbench($run, $label, no_errors => $args{no_errors});
	return;
}

# gen_function_sql(%f): the SQL that creates a plpgsql function
# $f{name}(p_sess int, p_n int) for pgbench clients.  It passes the advisory
# lock barrier $f{barrier}, then generates p_n ids of type $f{type} one at a
# time with the expression $f{generate}, and inserts each, with the
# clock_timestamp() read right after it (a plpgsql loop evaluates the two in
# this order for sure), into the table $f{table} (sess int, seq int, pid int,
# id $f{type}, clk timestamptz) as (p_sess, its number, the backend's pid,
# id, clock).  With before => 1 the table has a last column clk0 too: the
# clock_timestamp() read right before the id, so that the id's time is
# bounded by two readings of the same clock, with no slack for a backend
# descheduled in between.
sub gen_function_sql
{
	my (%f) = @_;
	my ($before, $clk0) = $f{before} ? ('v_clk0 := clock_timestamp();', ', v_clk0') : ('', '');
	return qq{
	CREATE FUNCTION $f{name}(p_sess int, p_n int) RETURNS void
	LANGUAGE plpgsql AS \$\$
	DECLARE
		v_id $f{type};
		v_clk timestamptz;
		v_clk0 timestamptz;
	BEGIN
		PERFORM pg_advisory_lock_shared($f{barrier});	-- the barrier
		PERFORM pg_advisory_unlock_shared($f{barrier});
		FOR i IN 1 .. p_n LOOP
			$before
			v_id := $f{generate};
			v_clk := clock_timestamp();
			INSERT INTO $f{table} VALUES (p_sess, i, pg_backend_pid(), v_id, v_clk$clk0);
		END LOOP;
	END \$\$;
};
}

#
# The wall-clock window of a run
#
# The test creates the table
#   run_window (what text PRIMARY KEY, ts timestamptz NOT NULL)
# and marks the run's 'start' before and its 'end' after it.
#

# mark_run_window($node, $what): records the server's clock_timestamp() as
# $what ('start' or 'end') in run_window.
sub mark_run_window
{
	my ($node, $what) = @_;
	$node->safe_psql('postgres',
		"INSERT INTO run_window VALUES ('$what', clock_timestamp())");
	return;
}

# count_outside_run_window($node, $from, $time): how many rows' timestamp
# expression $time lies outside the run window.  The generators truncate the
# clock to the millisecond, clock_timestamp() has microseconds: the window
# starts at the start truncated to the millisecond.
sub count_outside_run_window
{
	my ($node, $from, $time) = @_;
	return $node->safe_psql(
		'postgres', qq{
		SELECT count(*) FROM $from
		WHERE $time < (SELECT date_trunc('milliseconds', ts)
		               FROM run_window WHERE what = 'start')
		   OR $time > (SELECT ts FROM run_window WHERE what = 'end')});
}

#
# Queries about a table of generated ids
#
# $from is a table, or a table with a WHERE clause ("r WHERE sess < 3"); the
# table has the columns id, and where a function says so, sess (the session
# or client), seq (the generation order within the session) and pid (the
# backend).
#

# count_rows_sessions_backends($node, $from): "rows/sessions/backends".
sub count_rows_sessions_backends
{
	my ($node, $from) = @_;
	return $node->safe_psql('postgres',
		"SELECT count(*) || '/' || count(DISTINCT sess) || '/' || count(DISTINCT pid)
		 FROM $from");
}

# count_rows_distinct_ids($node, $from): "rows/distinct ids".
sub count_rows_distinct_ids
{
	my ($node, $from) = @_;
	return $node->safe_psql('postgres',
		"SELECT count(*) || '/' || count(DISTINCT id) FROM $from");
}

# count_sessions_not_numbered($node, $from, $n): how many sessions do not
# have exactly $n rows, numbered (seq) 1 .. $n.
sub count_sessions_not_numbered
{
	my ($node, $from, $n) = @_;
	return $node->safe_psql(
		'postgres', qq{
		SELECT count(*) FROM (
			SELECT sess FROM $from GROUP BY sess
			HAVING count(*) <> $n
			    OR count(DISTINCT seq) <> $n
			    OR min(seq) <> 1 OR max(seq) <> $n) s});
}

# count_duplicate_ids($node, $from): how many rows repeat an id of another.
sub count_duplicate_ids
{
	my ($node, $from) = @_;
	return $node->safe_psql('postgres',
		"SELECT count(*) - count(DISTINCT id) FROM $from");
}

# count_ids_not_increasing($node, $from, partition_by => $column): how many
# ids, in seq order, are not greater than the id before them (within each
# $column, e.g. sess, if given; across all rows otherwise).
sub count_ids_not_increasing
{
	my ($node, $from, %opt) = @_;
	my $partition =
	  defined $opt{partition_by} ? "PARTITION BY $opt{partition_by} " : '';
	return $node->safe_psql(
		'postgres', qq{
		SELECT count(*) FROM (
			SELECT id, lag(id) OVER (${partition}ORDER BY seq) AS prev
			FROM $from) s
		WHERE prev IS NOT NULL AND id <= prev});
}

# check_sessions_concurrent($node, $from, $time, $sessions, $label): checks
# that the $sessions sessions really ran at the same time: their per-session
# [first, last] intervals of the timestamp expression $time all share a
# common stretch (the latest start comes before the earliest end), and notes
# how long it was.  Test names start with $label ('' or e.g. 'distid: ').
sub check_sessions_concurrent
{
	my ($node, $from, $time, $sessions, $label) = @_;
	my ($overlaps, $common) = split /\|/,
	  $node->safe_psql(
		'postgres', qq{
		WITH s AS (SELECT sess, min($time) AS lo, max($time) AS hi
		           FROM $from GROUP BY sess)
		SELECT max(lo) < min(hi), min(hi) - max(lo) FROM s});
	is($overlaps, 't', "${label}the sessions generated concurrently")
	  or diag("common interval of all sessions: $common");
	note("${label}time all $sessions sessions were generating at once: $common");
	return;
}

# session_ranges_overlap($node, $from, $ord): whether the per-session
# [min, max] ranges of $ord (id, or an expression that min() and max() order
# as the ids) all overlap: no session's ids all lie before or after
# another's.  't' or 'f'.
sub session_ranges_overlap
{
	my ($node, $from, $ord) = @_;
	return $node->safe_psql(
		'postgres', qq{
		WITH s AS (SELECT sess, min($ord) AS lo, max($ord) AS hi FROM $from GROUP BY sess)
		SELECT max(lo) < min(hi) FROM s});
}

#
# Polls
#

# wait_for_extension_wait($node, $pid): polls until backend $pid runs a
# query and sleeps in one of base36id's waits (for the clock, or another
# session's reservation): an extension's wait event, or on 15 and 16 the
# core event base36id reports for the wait for the next second
# (doc/monitoring.md); returns whether it came to that.
sub wait_for_extension_wait
{
	my ($node, $pid) = @_;
	return $node->poll_query_until(
		'postgres', qq{
		SELECT (wait_event_type = 'Extension'
		        OR (wait_event_type = 'Timeout' AND wait_event = 'PgSleep'))
		       AND state = 'active'
		FROM pg_stat_activity WHERE pid = $pid});
}

# await_unreserved_second($node): returns once the server's clock is past
# every second base36id has reserved, begun or starts used up
# (idgen_stat_base36id), so that the next base36id call takes a new second
# and reserves it (a WAL record, a state file write).  The server sleeps
# until then by its own clock (pg_sleep_until: a libfaketime clock too);
# however late it wakes, the second is new, where aligning to a boundary
# with a sleep assumed the next steps came before the one after.
sub await_unreserved_second
{
	my ($node) = @_;
	$node->safe_psql(
		'postgres', q{
		SELECT pg_sleep_until(greatest(reserved_second, floor_second, counter_second) + interval '1 second')
		FROM idgen_stat_base36id});
	return;
}

# fsync_flag($ctl, $name, $on): creates ($on) or removes the flag file
# "$ctl.$name" of the fault_fsync.c shim ("fail" or "stall")
sub fsync_flag
{
	my ($ctl, $name, $on) = @_;
	if ($on)
	{
		open my $fh, '>', "$ctl.$name" or die "$ctl.$name: $!";
		close $fh;
	}
	else
	{
		unlink "$ctl.$name" or die "$ctl.$name: $!";
	}
	return;
}

# seconds_between($node, $from, $to): the seconds from timestamp $from to
# timestamp $to (the server's reading of both), or 999 (which fails any
# "promptly") if $to is undef, i.e. was never read.
sub seconds_between
{
	my ($node, $from, $to) = @_;
	return 999 unless defined $to;
	return $node->safe_psql('postgres',
		"SELECT extract(epoch FROM '$to'::timestamptz - '$from'::timestamptz)");
}

# crash_restart($node): a crash restart (the node needs
# restart_after_crash = on): a backend is killed with SIGKILL, and the
# postmaster kills the others and sets up shared memory again.  Checks that
# the backend to kill runs, that the signal is sent and that the server
# accepts connections again.
sub crash_restart
{
	my ($node) = @_;
	my ($crash_out, $crash_err) = ('', '');
	my $victim = IPC::Run::start(
		[
			'psql', '-XAtq', '-d', $node->connstr('postgres'),
			'-c', 'SELECT pg_sleep(100)'
		],
		'>', \$crash_out, '2>', \$crash_err,
		IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
	ok( $node->poll_query_until(
			'postgres', q{
			SELECT count(*) = 1 FROM pg_stat_activity
			WHERE query = 'SELECT pg_sleep(100)'}),
		'a backend to kill is running');
	my $victim_pid = $node->safe_psql('postgres',
		q{SELECT pid FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(100)'});
	kill_backend($node, $victim_pid, 'SIGKILL to that backend');
	$victim->finish;
	return;
}

# kill_backend($node, $pid, $test_name): sends SIGKILL to backend $pid
# (checked with $test_name) and waits for the crash restart that follows
# (the node needs restart_after_crash = on); checks that the server accepts
# connections again.
sub kill_backend
{
	my ($node, $pid, $test_name) = @_;
	my $log_offset = -s $node->logfile;
	ok(kill('KILL', $pid), $test_name);
	$node->wait_for_log(qr/all server processes terminated; reinitializing/,
		$log_offset);
	# poll_query_until gives psql its query on stdin: a psql the server
	# refuses at once (still in crash recovery) exits before reading it,
	# and IPC::Run dies of the broken pipe (seen on 17).  pg_isready sends
	# no query: it is asked until the server accepts connections.
	my $ready = 0;
	foreach (1 .. 10 * $PostgreSQL::Test::Utils::timeout_default)
	{
		$ready = system('pg_isready', '-q', '-d', $node->connstr('postgres')) == 0;
		last if $ready;
		Time::HiRes::sleep(0.1);
	}
	ok($ready && $node->poll_query_until('postgres', 'SELECT 1', '1'),
		'the server accepts connections after the crash restart');
	return;
}

# kill_postmaster_and_wait($node, @pids): sends SIGKILL to $node's
# postmaster, then polls (100 times, 0.1 s apart) until backends @pids have
# exited (gone, or zombies nobody has reaped yet); returns whether they did.
# The node is left stopped.
sub kill_postmaster_and_wait
{
	my ($node, @pids) = @_;
	my ($postmaster) = split /\n/, slurp_file($node->data_dir . '/postmaster.pid');
	kill('KILL', $postmaster) or die "could not kill the postmaster $postmaster: $!";
	my @left = @pids;
	foreach (1 .. 100)
	{
		@left = grep {
			-e "/proc/$_"
			  && slurp_file("/proc/$_/status") !~ /^State:\s+Z/m
		} @left;
		last unless @left;
		Time::HiRes::sleep(0.1);
	}
	kill('KILL', @left) if @left;
	# the server's other processes exit on their own; the node is down
	sleep(1);
	unlink($node->data_dir . '/postmaster.pid');
	$node->stop('immediate', fail_ok => 1);
	return !@left;
}

#
# A server clock set apart with libfaketime
#
# The server runs under libfaketime (LD_PRELOAD), which offsets the real-time
# clock by what a file says ("+30", "+0"), re-read on every clock reading
# (FAKETIME_NO_CACHE).  The monotonic clock is left alone.  Only the server is
# started with it: the test's own psql clients see the true time.
# libfaketime does not fake the clock while a process is inside select(),
# which it wraps (PostgreSQL 15's postmaster runs its signal handlers there).
#

# faketime_lib(): the path of libfaketime.so.1.  tools/lib.sh installs it
# (Debian package libfaketime); a missing library is a failure, not a reason
# to skip a test silently.
sub faketime_lib
{
	my ($lib) = grep { -e $_ } (
		'/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1',
		glob('/usr/lib/*/faketime/libfaketime.so.1'),
		'/usr/local/lib/faketime/libfaketime.so.1');
	die 'libfaketime.so.1 not found: install the libfaketime package'
	  unless defined $lib;
	return $lib;
}

# set_clock_offset($file, $spec): sets the offset the servers started with
# with_faketime($file, ...) read; written whole, then renamed into place, so
# a server never reads a half-written file.
sub set_clock_offset
{
	my ($file, $spec) = @_;
	my $tmp = "$file.tmp";
	open my $fh, '>', $tmp or die "could not write $tmp: $!";
	print $fh "$spec\n";
	close $fh or die "could not write $tmp: $!";
	rename $tmp, $file or die "could not rename $tmp: $!";
	return;
}

# with_faketime($file, $code): runs $code (a start or restart of a server)
# with libfaketime preloaded, the clock offset read from $file.
sub with_faketime
{
	my ($file, $code) = @_;
	local $ENV{LD_PRELOAD} = faketime_lib();
	# absolute: the server reads it from its data directory
	local $ENV{FAKETIME_TIMESTAMP_FILE} = File::Spec->rel2abs($file);
	local $ENV{FAKETIME_NO_CACHE} = '1';
	local $ENV{FAKETIME_DONT_FAKE_MONOTONIC} = '1';
	$code->();
	return;
}

# server_clock_lag($node): how many seconds the server's clock is behind the
# test's (true) clock; negative when it is ahead.  Read in one session (no
# connection start-up in the measure), the shortest of five round trips:
# off by at most half of it, however loaded the machine.
sub server_clock_lag
{
	my ($node) = @_;
	my $session = $node->background_psql('postgres');
	my ($best, $lag);
	for (1 .. 5)
	{
		my $t0 = Time::HiRes::time();
		my $server = $session->query_safe('SELECT extract(epoch FROM clock_timestamp())');
		my $t1 = Time::HiRes::time();
		($best, $lag) = ($t1 - $t0, ($t0 + $t1) / 2 - $server)
		  if !defined $best || $t1 - $t0 < $best;
	}
	$session->quit;
	return $lag;
}

# start_faketime_primary($name, $clock, init => {...}, conf => [...]): a
# node that can have streaming standbys (PostgreSQL::Test::Cluster's init
# with allows_streaming and the options init), with idgen preloaded and the
# lines conf in postgresql.conf, started with libfaketime at offset $clock
# (e.g. "+20"; the file is <basedir>/faketime.rc), with the extension
# created.  Returns the node and the offset file.
sub start_faketime_primary
{
	my ($name, $clock, %opt) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);
	$node->init(allows_streaming => 1, %{ $opt{init} // {} });
	$node->append_conf('postgresql.conf',
		join("\n", "shared_preload_libraries = 'idgen'", @{ $opt{conf} // [] }));
	my $offset_file = $node->basedir . '/faketime.rc';
	set_clock_offset($offset_file, $clock);
	with_faketime($offset_file, sub { $node->start });
	$node->safe_psql('postgres', 'CREATE EXTENSION idgen');
	return ($node, $offset_file);
}

#
# base36id's state file, $PGDATA/idgen_base36id.state
#
# One record (src/base36id_gen.c), in the server's byte order: uint32 magic
# "ID37" (0x49443337), uint32 CRC-32C of magic and second, int64 the highest
# second since 2024 ids may have been issued in.
#

# state_file_second($node): the second the state file holds, or undef if
# there is no valid-looking file (the checksum is not checked here).
sub state_file_second
{
	my ($node) = @_;
	open my $fh, '<:raw', $node->data_dir . '/idgen_base36id.state'
	  or return undef;
	my $n = read($fh, my $buf, 64);
	close $fh;
	return undef unless defined $n && $n == 16;
	my ($magic, $crc, $second) = unpack('L L q', $buf);
	return $magic == 0x49443337 ? $second : undef;
}

#
# A slow or failing disk under the state file: test/t/fault_fsync.c, preloaded
#

# start_with_fault_fsync($node): starts $node (which needs fsync = on: the
# test framework turns it off, and pg_fsync() then does nothing) with the
# fsync shim preloaded, built into the node's base directory; returns the
# path prefix of its flag files for set_fsync_fault().
sub start_with_fault_fsync
{
	my ($node) = @_;
	# absolute: the server runs in its data directory
	my $ctl = File::Spec->rel2abs($node->basedir . '/fsync');
	my $shim = File::Spec->rel2abs($node->basedir . '/fault_fsync.so');
	my $src = File::Spec->catfile((File::Spec->splitpath(__FILE__))[1], 'fault_fsync.c');
	system('cc', '-shared', '-fPIC', '-o', $shim, $src, '-ldl') == 0
	  or die "could not build $shim";
	local $ENV{LD_PRELOAD} = $shim;
	local $ENV{IDGEN_FSYNC_CTL} = $ctl;
	$node->start;
	return $ctl;
}

# set_fsync_fault($ctl, $what, $content): from now on fsync() of the state
# file fails ('fail'), blocks ('stall'), takes $content milliseconds
# ('slow') or is counted ('count': a line "1" each in the file "$ctl.count"),
# until clear_fsync_fault($ctl, $what).
sub set_fsync_fault
{
	my ($ctl, $what, $content) = @_;
	open my $fh, '>', "$ctl.$what" or die "$ctl.$what: $!";
	print $fh ($content // ''), "\n";
	close $fh or die "$ctl.$what: $!";
	return;
}

sub clear_fsync_fault
{
	my ($ctl, $what) = @_;
	unlink "$ctl.$what" or die "$ctl.$what: $!";
	return;
}

1;
