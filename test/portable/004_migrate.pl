# The road from the SQL edition to the C types and back (doc/portable.md,
# "Moving to the C types"): tables whose keys idgen_portable made (uuid,
# numeric(28,0), text COLLATE "C"), with foreign keys, dumped from a
# database without the C extension and restored into one with it; there
# switched to iuid, distid and flaxid with the statements the page gives,
# then back to the core types, after which the C extension is dropped.
# Every step keeps the rows, enforces the foreign keys, and leaves the
# defaults making ids both editions read.

use strict;
use warnings;

use FindBin;
use lib "$ENV{IDGEN_PORTABLE_ROOT}/test/t";
use IdgenTest;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = init_idgen_node('migrate');
$node->start;
my $q = sub { $node->safe_psql($_[0], $_[1]) };

$q->('postgres', 'CREATE DATABASE hosted; CREATE DATABASE selfhosted;');
$q->(
	'hosted', q{
	CREATE EXTENSION idgen_portable CASCADE;
	CREATE TABLE orders (id uuid PRIMARY KEY DEFAULT idgen_portable.iuid_generate(42, 5)
		CHECK (idgen_portable.iuid(id) = id), item text);
	CREATE TABLE order_lines (order_id uuid NOT NULL REFERENCES orders, n int);
	CREATE TABLE invoices (id numeric(28, 0) PRIMARY KEY DEFAULT idgen_portable.distid_generate(), total numeric);
	CREATE TABLE invoice_items (invoice_id numeric(28, 0) NOT NULL REFERENCES invoices, n int);
	CREATE TABLE links (id text COLLATE "C" PRIMARY KEY DEFAULT idgen_portable.flaxid_generate(), url text);
	CREATE TABLE clicks (link_id text COLLATE "C" NOT NULL REFERENCES links, n int);
	INSERT INTO orders (item) SELECT 'item ' || g FROM generate_series(1, 300) g;
	INSERT INTO order_lines SELECT id, n FROM orders, generate_series(1, 3) n;
	INSERT INTO invoices (total) SELECT g FROM generate_series(1, 300) g;
	INSERT INTO invoice_items SELECT id, n FROM invoices, generate_series(1, 3) n;
	INSERT INTO links (url) SELECT 'https://example.com/' || g FROM generate_series(1, 300) g;
	INSERT INTO clicks SELECT id, n FROM links, generate_series(1, 3) n;
});

# what the rows are, as text: the same after every step
my $rows = q{SELECT md5(string_agg(x, ',' ORDER BY x COLLATE "C")) FROM (
	SELECT 'o ' || id::text || item FROM orders UNION ALL SELECT 'ol ' || order_id::text || n FROM order_lines
	UNION ALL SELECT 'i ' || id::text || total FROM invoices UNION ALL SELECT 'ii ' || invoice_id::text || n FROM invoice_items
	UNION ALL SELECT 'l ' || id::text || url FROM links UNION ALL SELECT 'c ' || link_id::text || n FROM clicks) r(x)};
my $hosted_rows = $q->('hosted', $rows);

# moving: pg_dump of the database, restored where the C extension is
my $dump = $node->basedir . '/hosted.dump';
$node->command_ok([ 'pg_dump', '-Fc', '-f', $dump, '-d', $node->connstr('hosted') ], 'pg_dump of the database');
$q->('selfhosted', 'CREATE EXTENSION idgen');
$node->command_ok([ 'pg_restore', '--exit-on-error', '-d', $node->connstr('selfhosted'), $dump ],
	'restored into a database with the C extension');
is($q->('selfhosted', $rows), $hosted_rows, 'the same rows');

my $types = q{SELECT string_agg(attrelid::regclass || '.' || attname || ' ' || format_type(atttypid, atttypmod)
	|| coalesce(' ' || (SELECT collname FROM pg_collation WHERE oid = attcollation AND collname <> 'default'), ''),
	', ' ORDER BY attrelid::regclass::text COLLATE "C")
	FROM pg_attribute WHERE attrelid IN ('orders'::regclass, 'order_lines'::regclass, 'invoices'::regclass,
		'invoice_items'::regclass, 'links'::regclass, 'clicks'::regclass) AND attnum = 1};
my $fks = q{SELECT count(*) FILTER (WHERE convalidated) || '/' || count(*) FROM pg_constraint WHERE contype = 'f'};

# iuid and distid: the key first (the C types compare with uuid and
# numeric in their operator families, which carry the foreign keys
# meanwhile), then the columns referring to it; the check constraint that
# calls idgen_portable.iuid(uuid) goes (the type checks); flaxid has no
# operator with text: its foreign key is dropped and made again, and the
# text default dropped before the type changes.
my $to_c = q{
	BEGIN;
	ALTER TABLE orders DROP CONSTRAINT orders_id_check,
		ALTER COLUMN id TYPE iuid USING id::iuid, ALTER COLUMN id SET DEFAULT iuid_generate(42, 5);
	ALTER TABLE order_lines ALTER COLUMN order_id TYPE iuid USING order_id::iuid;
	ALTER TABLE invoices ALTER COLUMN id TYPE distid USING id::distid, ALTER COLUMN id SET DEFAULT distid_generate();
	ALTER TABLE invoice_items ALTER COLUMN invoice_id TYPE distid USING invoice_id::distid;
	ALTER TABLE clicks DROP CONSTRAINT clicks_link_id_fkey;
	ALTER TABLE links ALTER COLUMN id DROP DEFAULT, ALTER COLUMN id TYPE flaxid USING id::flaxid,
		ALTER COLUMN id SET DEFAULT flaxid_generate();
	ALTER TABLE clicks ALTER COLUMN link_id TYPE flaxid USING link_id::flaxid,
		ADD FOREIGN KEY (link_id) REFERENCES links;
	COMMIT;
};
$q->('selfhosted', $to_c);
is( $q->('selfhosted', $types),
	'clicks.link_id flaxid, invoice_items.invoice_id distid, invoices.id distid, links.id flaxid, order_lines.order_id iuid, orders.id iuid',
	'switched to the C types');
is($q->('selfhosted', $rows), $hosted_rows, 'the same rows');
is($q->('selfhosted', $fks), '3/3', 'three foreign keys, valid');

# the C generators fill new rows; the foreign keys hold
$q->(
	'selfhosted', q{
	INSERT INTO orders (item) VALUES ('made by C');
	INSERT INTO order_lines SELECT id, 1 FROM orders WHERE item = 'made by C';
	INSERT INTO invoices (total) VALUES (-1);
	INSERT INTO invoice_items SELECT id, 1 FROM invoices WHERE total = -1;
	INSERT INTO links (url) VALUES ('made by C');
	INSERT INTO clicks SELECT id, 1 FROM links WHERE url = 'made by C';
});
is( $q->(
		'selfhosted', q{
		SELECT (SELECT id > ALL (SELECT id FROM orders WHERE item <> 'made by C') AND iuid_country(id) = 42
				FROM orders WHERE item = 'made by C')
			AND (SELECT id > ALL (SELECT id FROM links WHERE url <> 'made by C') FROM links WHERE url = 'made by C')
			AND (SELECT distid_timestamp(id) <= now() FROM invoices WHERE total = -1)}),
	't', 'new keys come from the C generators, after the old ones');
for my $bad ([ 'order_lines', q{'017f22e2-79b0-802a-8141-23456789abcd'} ], [ 'invoice_items', '42::numeric' ],
	[ 'clicks', q{'0RdKJcxqVBiAiQr0'} ])
{
	my ($ret, $out, $err) = $node->psql('selfhosted', "INSERT INTO $bad->[0] VALUES ($bad->[1], 0)");
	like($err, qr/violates foreign key constraint/, "$bad->[0]: a key with no row is refused");
}

# and back: the referring columns first
my $back = q{
	BEGIN;
	ALTER TABLE order_lines ALTER COLUMN order_id TYPE uuid USING order_id::uuid;
	ALTER TABLE orders ALTER COLUMN id TYPE uuid USING id::uuid,
		ALTER COLUMN id SET DEFAULT idgen_portable.iuid_generate(42, 5),
		ADD CHECK (idgen_portable.iuid(id) = id);
	ALTER TABLE invoice_items ALTER COLUMN invoice_id TYPE numeric(28, 0) USING invoice_id::numeric;
	ALTER TABLE invoices ALTER COLUMN id TYPE numeric(28, 0) USING id::numeric,
		ALTER COLUMN id SET DEFAULT idgen_portable.distid_generate();
	ALTER TABLE clicks DROP CONSTRAINT clicks_link_id_fkey,
		ALTER COLUMN link_id TYPE text COLLATE "C" USING link_id::text;
	ALTER TABLE links ALTER COLUMN id DROP DEFAULT, ALTER COLUMN id TYPE text COLLATE "C" USING id::text,
		ALTER COLUMN id SET DEFAULT idgen_portable.flaxid_generate();
	ALTER TABLE clicks ADD FOREIGN KEY (link_id) REFERENCES links;
	COMMIT;
};
my $c_rows = $q->('selfhosted', $rows);
$q->('selfhosted', $back);
is( $q->('selfhosted', $types),
	'clicks.link_id text C, invoice_items.invoice_id numeric(28,0), invoices.id numeric(28,0), links.id text C, order_lines.order_id uuid, orders.id uuid',
	'back to uuid, numeric(28,0) and text COLLATE "C"');
is($q->('selfhosted', $rows), $c_rows, 'the same rows, those the C generators made included');
is($q->('selfhosted', $fks), '3/3', 'three foreign keys, valid');
my ($ret, $out, $err) = $node->psql('selfhosted', 'DROP EXTENSION idgen');
is($ret, 0, 'nothing depends on the C extension any more: it drops') or diag($err);
$q->(
	'selfhosted', q{
	INSERT INTO orders (item) VALUES ('made by SQL');
	INSERT INTO order_lines SELECT id, 1 FROM orders WHERE item = 'made by SQL';
	INSERT INTO links (url) VALUES ('made by SQL');
	INSERT INTO clicks SELECT id, 1 FROM links WHERE url = 'made by SQL';
	INSERT INTO invoices (total) VALUES (-2);
});
is( $q->(
		'selfhosted', q{
		SELECT count(*) FILTER (WHERE idgen_portable.iuid_country(id) = 42 AND idgen_portable.iuid_timestamp(id) <= now())
			|| ' ' || (SELECT count(*) FROM links WHERE idgen_portable.flaxid_timestamp(id) <= now())
			|| ' ' || (SELECT count(*) FROM invoices WHERE idgen_portable.distid_timestamp(id) <= now())
		FROM orders}),
	'302 302 302', 'the SQL edition reads every key, those of both editions, and makes the new ones');

$node->stop;
done_testing();
