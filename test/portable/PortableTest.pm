# Helpers of the SQL edition's TAP files (test/portable/*.pl).
package PortableTest;

use strict;
use warnings;

use Exporter 'import';
use IPC::Run ();

our @EXPORT = qw(psql_file iuid_ms);

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

# The Unix millisecond of an iuid's text (../shared/SPEC.md: ms | version 8
# | format 0 | country, variant 10 | entity | random) of the given country
# and entity; undef if it is not one
sub iuid_ms
{
	my ($u, $country, $entity) = @_;
	(my $h = $u) =~ tr/-//d;
	return undef unless $h =~ /^[0-9a-f]{32}$/;
	my ($b8, $b9) = (hex(substr($h, 16, 2)), hex(substr($h, 18, 2)));
	return undef
	  unless substr($h, 12, 2) eq '80' && hex(substr($h, 14, 2)) == $country
	  && $b8 >> 6 == 2 && ((($b8 & 63) << 2) | ($b9 >> 6)) == $entity;
	return hex(substr($h, 0, 12));
}

1;
