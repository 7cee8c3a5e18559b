-- idgen demo: ids generated in the database and taken apart again.
CREATE EXTENSION idgen;
SET TimeZone = 'UTC';

-- An order table whose key is made by the database: country 42, entity 5.
CREATE TABLE orders (
    id      iuid PRIMARY KEY DEFAULT iuid_generate(42, 5),
    item    text NOT NULL
);
INSERT INTO orders (item) VALUES ('tea'), ('coffee'), ('cake'), ('bread');

-- Each id carries its creation time, country and entity; ids sort by time.
SELECT id, iuid_timestamp(id) AS created, iuid_country(id) AS country,
       iuid_entity(id) AS entity, iuid_format_version(id) AS format, item
FROM orders ORDER BY id;

-- An id from another region's shard tells where it belongs.
SELECT iuid_country('017f22e2-79b0-802a-8141-23456789abcd') AS country,
       iuid_timestamp('017f22e2-79b0-802a-8141-23456789abcd') AS created;

-- A table partitioned by month on its id: the bounds are the least ids of each month.
CREATE TABLE events (id iuid NOT NULL, payload text) PARTITION BY RANGE (id);
CREATE TABLE events_2026_10 PARTITION OF events
    FOR VALUES FROM (iuid_from_timestamp('2026-10-01 00:00+00')) TO (iuid_from_timestamp('2026-11-01 00:00+00'));
CREATE TABLE events_2026_11 PARTITION OF events
    FOR VALUES FROM (iuid_from_timestamp('2026-11-01 00:00+00')) TO (iuid_from_timestamp('2026-12-01 00:00+00'));
CREATE TABLE events_2026_12 PARTITION OF events
    FOR VALUES FROM (iuid_from_timestamp('2026-12-01 00:00+00')) TO (iuid_from_timestamp('2027-01-01 00:00+00'));

-- Backfill: ids for given times land in their month's partition.
INSERT INTO events
SELECT iuid_generate(7, 1, t), 'event at ' || t
FROM generate_series('2026-10-15'::timestamptz, '2026-12-15', '1 day') AS t;

SELECT tableoid::regclass AS partition, count(*), min(iuid_timestamp(id)), max(iuid_timestamp(id))
FROM events GROUP BY 1 ORDER BY 1;

-- A query for November touches only November's partition.
EXPLAIN (COSTS OFF)
SELECT * FROM events
WHERE id >= iuid_from_timestamp('2026-11-01 00:00+00')
  AND id <  iuid_from_timestamp('2026-12-01 00:00+00');

-- distid: the DistributedId of Architect.Identities, a 28-digit decimal stamped 1 s in the past.
CREATE TABLE invoices (id distid PRIMARY KEY DEFAULT distid_generate(), total numeric);
INSERT INTO invoices (total) VALUES (99.90), (12.00);
SELECT id, distid_timestamp(id) AS created, distid_to_alphanumeric(id) AS alphanumeric,
       distid_to_hex(id) AS hex, total
FROM invoices ORDER BY id;

-- The .NET library's example id reads back with the same time and forms.
SELECT distid_timestamp('1088824355131185736905670087') AS created,
       distid_from_alphanumeric('3zfAkCP7ZtzfeQYp') AS from_alphanumeric;

-- DistributedId128 is a uuid, with a 22-character alphanumeric form.
SELECT id, distid128_timestamp(id) AS created, uuid_to_alphanumeric(id) AS alphanumeric
FROM (SELECT distid128_generate() AS id) s;

-- flaxid: 16 characters whose plain text order is the id's order.
SELECT id, flaxid_timestamp(id) AS created
FROM (SELECT flaxid_generate() AS id FROM generate_series(1, 3)) g ORDER BY id::text COLLATE "C";
SELECT flaxid_timestamp('0RdKJcxqVBiAiQr0') AS spec_vector_time;

-- base36id: 9 characters a person can read out; this server is worker 1 (idgen.worker_id).
CREATE TABLE payments (id base36id PRIMARY KEY DEFAULT base36id_generate(), amount numeric);
INSERT INTO payments (amount) VALUES (10.00), (25.50), (7.25);
SELECT id, base36id_timestamp(id) AS created, base36id_worker(id) AS worker,
       base36id_counter(id) AS counter, amount
FROM payments ORDER BY id;

-- At most 1296 ids per second per worker: 3000 ids need at least three seconds.
SELECT count(*) AS ids, count(DISTINCT base36id_timestamp(id)) AS seconds_used,
       max(per_second) AS most_in_one_second
FROM (SELECT id, count(*) OVER (PARTITION BY base36id_timestamp(id)) AS per_second
      FROM (SELECT base36id_generate() AS id FROM generate_series(1, 3000)) g) s;
