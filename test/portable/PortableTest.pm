# Helpers of the SQL edition's TAP files (test/portable/*.pl).
package PortableTest;

use strict;
use warnings;

use Exporter 'import';
use IPC::Run ();

our @EXPORT = qw(psql_file);

# psql -f FILE in database DB as USER (undef: the node's superuser), with
# psql variables NAME=VALUE, stopping at the first error; PGOPTIONS as the
# caller has it.  Returns (success, stderr).
sub psql_file
{
	my ($node, $db, $user, $file, @vars) = @_;
	my ($out, $err) = ('', '');
	my $ok = IPC::Run::run(
		[ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', (map { ('-v', $_) } @vars),
			'-d', $node->connstr($db) . (defined $user ? " user=$user" : ''), '-f', $file ],
		'>', \$out, '2>', \$err);
	return ($ok, $err);
}

1;
