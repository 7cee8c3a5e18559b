-- The database sqlsmith runs its random queries against: every idgen type
-- (iuid, distid, base36id, flaxid; distid128 is a uuid made by idgen's
-- functions) in tables with rows and NULLs, under btree, hash and BRIN
-- indexes, and a table partitioned by id range by idgen_create_partitions.
-- sqlsmith builds its queries from the tables, columns, operators and
-- functions it finds in the catalogs, so what is here is what it reaches.
CREATE EXTENSION idgen;

CREATE TABLE ids (
	n int PRIMARY KEY,
	i iuid,
	d distid,
	b base36id,
	f flaxid,
	d128 uuid,		-- distid128
	pub uuid,		-- public id (key file) of d
	alnum text		-- distid_to_alphanumeric(d)
);
INSERT INTO ids
SELECT g,
	iuid_generate(g % 5 + 1, g % 3 + 1),
	distid_generate(),
	base36id_generate(),
	flaxid_generate(),
	distid128_generate(),
	NULL, NULL
FROM generate_series(1, 200) g;
-- ids of other times too, so the ranges and BRIN summaries are not all "now"
INSERT INTO ids
SELECT 1000 + g,
	iuid_from_timestamp(t),
	distid_from_timestamp(t),
	base36id_from_timestamp(t),
	flaxid_from_timestamp(t),
	distid128_from_timestamp(t),
	NULL, NULL
FROM generate_series(1, 100) g,
	LATERAL (SELECT timestamptz '2024-01-01 00:00:00+00' + g * interval '7 days' AS t) s;
UPDATE ids SET pub = public_id(d), alnum = distid_to_alphanumeric(d);
-- NULLs in every column
INSERT INTO ids (n) VALUES (0);

CREATE INDEX ids_i_btree ON ids USING btree (i);
CREATE INDEX ids_d_btree ON ids USING btree (d);
CREATE INDEX ids_b_btree ON ids USING btree (b);
CREATE INDEX ids_f_btree ON ids USING btree (f);
CREATE INDEX ids_i_hash ON ids USING hash (i);
CREATE INDEX ids_d_hash ON ids USING hash (d);
CREATE INDEX ids_b_hash ON ids USING hash (b);
CREATE INDEX ids_f_hash ON ids USING hash (f);
CREATE INDEX ids_brin ON ids USING brin (i, d, b, f) WITH (pages_per_range = 1);

-- one table per type with its id as the key, as applications have them
CREATE TABLE iuid_t (id iuid PRIMARY KEY DEFAULT iuid_generate(10, 1), v text);
CREATE TABLE distid_t (id distid PRIMARY KEY DEFAULT distid_generate(), v int);
CREATE TABLE base36id_t (id base36id PRIMARY KEY DEFAULT base36id_generate(), v numeric);
CREATE TABLE flaxid_t (id flaxid PRIMARY KEY DEFAULT flaxid_generate(), v timestamptz);
INSERT INTO iuid_t (v) SELECT 'v' || g FROM generate_series(1, 100) g;
INSERT INTO distid_t (v) SELECT g FROM generate_series(1, 100) g;
INSERT INTO base36id_t (v) SELECT g / 7.0 FROM generate_series(1, 100) g;
INSERT INTO flaxid_t (v) SELECT now() - g * interval '1 hour' FROM generate_series(1, 100) g;

-- partitioned by id range, monthly partitions from idgen_create_partitions
CREATE TABLE events (id iuid NOT NULL DEFAULT iuid_generate(10, 1), what text)
PARTITION BY RANGE (id);
SELECT count(*) FROM idgen_create_partitions('events',
	date_trunc('month', now(), 'UTC') - interval '2 months',
	date_trunc('month', now(), 'UTC') + interval '2 months', '1 month');
INSERT INTO events (id, what)
SELECT iuid_generate(10, 1, now() - g * interval '10 hours'), 'e' || g
FROM generate_series(1, 100) g;
CREATE INDEX events_id_brin ON events USING brin (id);

-- every extractor and conversion on real ids: sqlsmith's own calls mostly
-- get NULLs or constants, and it picks each of PostgreSQL's thousands of
-- functions as often as one of idgen's; a query on this view runs them all
-- on every row it reads
CREATE VIEW id_fields AS
SELECT n,
	iuid_timestamp(i) AS i_time, iuid_country(i) AS i_country,
	iuid_entity(i) AS i_entity, iuid_format_version(i) AS i_version,
	i::uuid AS i_uuid, public_id(i) AS i_public,
	distid_timestamp(d) AS d_time, distid_numeric(d) AS d_numeric,
	distid_to_hex(d) AS d_hex, distid_from_hex(distid_to_hex(d)) AS d_from_hex,
	distid_from_alphanumeric(alnum) AS d_from_alnum,
	public_id_to_distid(pub) AS d_from_public,
	base36id_timestamp(b) AS b_time, base36id_worker(b) AS b_worker,
	base36id_counter(b) AS b_counter, b::bigint AS b_bigint,
	bigint_to_alphanumeric(b::bigint) AS b_alnum,
	flaxid_timestamp(f) AS f_time,
	distid128_timestamp(d128) AS d128_time, uuid_to_alphanumeric(d128) AS d128_alnum,
	uuid_from_alphanumeric(uuid_to_alphanumeric(d128)) AS d128_back,
	public_id(d128) AS d128_public, public_id_to_uuid(public_id(d128)) AS d128_back_public
FROM ids;

-- and in expression indexes, which writes and index scans evaluate
CREATE INDEX ids_country ON ids (iuid_country(i));
CREATE INDEX ids_worker ON ids USING hash (base36id_worker(b));

ANALYZE;

-- sqlsmith runs as the ordinary role smith (test/sqlsmith/common.sh)
GRANT ALL ON ALL TABLES IN SCHEMA public TO smith;
-- the server's key too (a fresh install grants its functions to nobody)
GRANT EXECUTE ON FUNCTION public_id(bigint), public_id(distid), public_id(uuid), public_id(iuid),
	public_id_to_bigint(uuid), public_id_to_distid(uuid), public_id_to_uuid(uuid) TO smith;
