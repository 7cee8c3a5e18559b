# Loaded into every TAP file tools/test.sh runs (PERL5OPT): the suite's bound
# on a file (timeout(1), IDGEN_TAP_FILE_SECONDS) stops it with SIGTERM, and a
# die here runs the END blocks, so PostgreSQL::Test::Cluster stops the
# file's nodes and Test::More says where the file was.
package IdgenBound;

use strict;
use warnings;

$SIG{TERM} = sub { die "stopped by SIGTERM: the file did not end within its bound\n" };

1;
