--
-- idgen_check_worker_ids(): what it needs and refuses, without Citus or
-- dblink (the Citus suite, test/citus, checks nodes with both)
--
CREATE EXTENSION idgen;

-- no arguments: the nodes of a Citus cluster, and this is none
SELECT regress.err('SELECT * FROM idgen_check_worker_ids()');
SELECT regress.err('SELECT * FROM idgen_check_worker_ids(NULL)');
-- a list of connection strings: one-dimensional, not empty, no nulls, no repeats
SELECT regress.err($$SELECT * FROM idgen_check_worker_ids('{}')$$);
SELECT regress.err($$SELECT * FROM idgen_check_worker_ids('{{"port=1"},{"port=2"}}')$$);
SELECT regress.err($$SELECT * FROM idgen_check_worker_ids(ARRAY['port=1', NULL])$$);
SELECT regress.err($$SELECT * FROM idgen_check_worker_ids(ARRAY['port=1', 'port=2', 'port=1'])$$);
-- a good list, but dblink is not installed in this database
SELECT regress.err($$SELECT * FROM idgen_check_worker_ids(ARRAY['port=1', 'port=2'])$$);

DROP EXTENSION idgen;
