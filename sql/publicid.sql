--
-- public identities (AesPublicIdentityConverter of Architect.Identities)
--
CREATE EXTENSION idgen;

-- the doc/formats.md key (AES-256) and two more, for AES-128 and AES-192
CREATE TEMP TABLE k AS SELECT
	decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64') AS k256,
	decode('000102030405060708090a0b0c0d0e0f', 'hex') AS k128,
	decode('000102030405060708090a0b0c0d0e0f1011121314151617', 'hex') AS k192;

--
-- doc/formats.md vector: distid 1088824355131185736905670087 ->
-- 30322474-a954-ffa9-941c-6f038afe4ff1 (alphanumeric 48XoooHHCe1CiOHrghM7Dl)
--
SELECT public_id('1088824355131185736905670087'::distid, k256) AS public_id,
       uuid_to_alphanumeric(public_id('1088824355131185736905670087'::distid, k256)) AS alphanumeric,
       public_id_to_distid('30322474-a954-ffa9-941c-6f038afe4ff1', k256) AS back
FROM k;

-- vectors computed with `openssl enc -aes-{128,192,256}-ecb -nopad` on the
-- SPEC's plaintext layouts, then put in Guid byte order
SELECT public_id(123456789::bigint, k128) = '0067256a-8e42-b3ef-8743-f5f7e7cada56' AS aes128_bigint,
       public_id('017f22e2-79b0-802a-8141-23456789abcd'::uuid, k128) = '2c20725a-0cb8-f374-0774-015445725c40' AS aes128_uuid,
       public_id('1088824355131185736905670087'::distid, k192) = '9546ac66-98c0-7847-a5be-33c98dbd94ec' AS aes192_distid,
       public_id(9223372036854775807, k192) = '4d2d94ae-395a-4730-99fc-32ab28f4ce04' AS aes192_bigint_max,
       public_id(0::bigint, k256) = '028bd09c-8643-2462-596e-610176d64be9' AS aes256_bigint_zero
FROM k;
-- an iuid has a public id of its own type, the same as its uuid's (the
-- vector is a valid iuid: version 8, variant 10); the cast is not applied
-- to function arguments, so without the overload this call fails
SELECT public_id('017f22e2-79b0-802a-8141-23456789abcd'::iuid, k128) = '2c20725a-0cb8-f374-0774-015445725c40' AS aes128_iuid,
       public_id_to_uuid(public_id('017f22e2-79b0-802a-8141-23456789abcd'::iuid, k128), k128)::iuid AS iuid_back,
       pg_typeof(public_id(iuid_generate(1, 1), k128)) AS generated_iuid
FROM k;
SELECT public_id_to_bigint('0067256a-8e42-b3ef-8743-f5f7e7cada56', k128) AS aes128_bigint,
       public_id_to_uuid('2c20725a-0cb8-f374-0774-015445725c40', k128) AS aes128_uuid,
       public_id_to_distid('9546ac66-98c0-7847-a5be-33c98dbd94ec', k192) AS aes192_distid,
       public_id_to_bigint('4d2d94ae-395a-4730-99fc-32ab28f4ce04', k192) AS aes192_bigint_max
FROM k;

-- round trips at the boundaries, with every key length
SELECT count(*) FILTER (WHERE public_id_to_bigint(public_id(b, key), key) IS DISTINCT FROM b) AS bigint_bad,
       count(*) FILTER (WHERE public_id_to_distid(public_id(d, key), key) IS DISTINCT FROM d) AS distid_bad,
       count(*) FILTER (WHERE public_id_to_uuid(public_id(u, key), key) IS DISTINCT FROM u) AS uuid_bad,
       count(*) AS cases
FROM k, LATERAL (VALUES (k128), (k192), (k256)) keys(key),
     LATERAL (VALUES (0::bigint, '0'::distid, '00000000-0000-0000-0000-000000000000'::uuid),
                     (1, '1', 'ffffffff-ffff-ffff-ffff-ffffffffffff'),
                     (4294967296, '18446744073709551615', '017f22e2-79b0-802a-8141-23456789abcd'),
                     (9223372036854775807, '9999999999999999999999999999', '094954a8-622c-76ad-1b93-cdefcbdf0888')) v(b, d, u);
-- many generated ids round-trip, and distinct ids give distinct public ids
SELECT count(*) FILTER (WHERE public_id_to_distid(p, k256) <> d) AS bad,
       count(DISTINCT p) = count(*) AS distinct_public_ids
FROM k, LATERAL (SELECT d, public_id(d, k256) AS p
                 FROM (SELECT distid_generate() AS d FROM generate_series(1, 5000)) g) s;

--
-- forged, foreign-key and wrong-type public ids decode to NULL
--
SELECT public_id_to_distid('30322474-a954-ffa9-941c-6f038afe4ff1', k128) IS NULL AS wrong_key_distid,
       public_id_to_bigint(public_id(42::bigint, k128), k192) IS NULL AS wrong_key_bigint,
       public_id_to_bigint('30322474-a954-ffa9-941c-6f038afe4ff1', k256) IS NULL AS distid_as_bigint,
       public_id_to_bigint(public_id('017f22e2-79b0-802a-8141-23456789abcd'::uuid, k256), k256) IS NULL AS uuid_as_bigint,
       public_id_to_distid(public_id('017f22e2-79b0-802a-8141-23456789abcd'::uuid, k256), k256) IS NULL AS uuid_as_distid,
       public_id_to_bigint('00000000-0000-0000-0000-000000000000', k256) IS NULL AS forged_bigint,
       public_id_to_distid(gen_random_uuid(), k256) IS NULL AS random_distid
FROM k;
-- what cannot be told apart: a bigint's plaintext is also a (small) distid's
SELECT public_id_to_distid(public_id(42::bigint, k256), k256) AS bigint_as_distid FROM k;
-- 10,000 random uuids: none passes as a bigint or a distid public id
SELECT count(public_id_to_bigint(u, k256)) AS bigints, count(public_id_to_distid(u, k256)) AS distids
FROM k, (SELECT gen_random_uuid() AS u FROM generate_series(1, 10000)) g;

--
-- bad keys and arguments: 22023 / 22003, the key never printed
--
SELECT regress.err($$SELECT public_id(1::bigint, '\x00112233445566778899aabbccddee'::bytea)$$);
SELECT regress.err($$SELECT public_id_to_uuid(gen_random_uuid(), ''::bytea)$$);
SELECT regress.err($$SELECT public_id(-1::bigint, decode('000102030405060708090a0b0c0d0e0f', 'hex'))$$);
SELECT public_id(NULL::bigint, k128) IS NULL AS null_id, public_id(1::bigint, NULL) IS NULL AS null_key FROM k;

--
-- keys from the file named by idgen.public_id_key_file
--
-- writes a file into the data directory (the server's working directory),
-- one line per element, owned by the server's user, mode 0600 (COPY TO a
-- file would make it world-readable)
CREATE FUNCTION regress.write_key_file(name text, lines text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM regress.program(lines, 'umask 077 && cat > ' || name);
END $$;
-- what a key is expected to show: SHA-256 of its bytes, computed here
CREATE FUNCTION regress.fingerprint(key_base64 text) RETURNS text
LANGUAGE sql AS $$ SELECT left(encode(sha256(decode(key_base64, 'base64')), 'hex'), 8) $$;

-- unset: the keyless forms say what to do, and there are no keys to list
SHOW idgen.public_id_key_file;
SELECT regress.err($$SELECT public_id(1::bigint)$$);
SELECT regress.err($$SELECT public_id_to_distid('30322474-a954-ffa9-941c-6f038afe4ff1')$$);
SELECT regress.err($$SELECT public_id('017f22e2-79b0-802a-8141-23456789abcd'::iuid)$$);
SELECT count(*) AS keys FROM public_id_keys();

-- the file is the server's configuration: no SET, no ALTER ROLE/DATABASE SET
SELECT regress.err($$SET idgen.public_id_key_file = 'idgen_regress.keys'$$);
SELECT regress.err($$ALTER ROLE CURRENT_USER SET idgen.public_id_key_file = 'idgen_regress.keys'$$);
SELECT regress.err(format('ALTER DATABASE %I SET idgen.public_id_key_file = %L',
						  current_database(), 'idgen_regress.keys'));
-- 1.0's idgen.public_id_key is gone: nothing accepts it
SELECT regress.err($$SET idgen.public_id_key = 'AAECAwQFBgcICQoLDA0ODw=='$$);
SELECT regress.err($$ALTER ROLE CURRENT_USER SET idgen.public_id_key = 'AAECAwQFBgcICQoLDA0ODw=='$$);
SELECT regress.err(format('ALTER DATABASE %I SET idgen.public_id_key = %L',
						  current_database(), 'AAECAwQFBgcICQoLDA0ODw=='));
SELECT regress.err($$SHOW idgen.public_id_key$$);
SELECT count(*) AS in_catalog FROM pg_db_role_setting, unnest(setconfig) c WHERE c LIKE 'idgen.%';

-- the SPEC key, with comments and blank lines around it
SELECT regress.write_key_file('idgen_regress.keys', ARRAY[
	'# idgen regression test',
	'',
	'   k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=   # the SPEC key',
	'']);
ALTER SYSTEM SET idgen.public_id_key_file = 'idgen_regress.keys';
SELECT pg_reload_conf();
-- a new session starts with the reloaded configuration
\c
SHOW idgen.public_id_key_file;
-- doc/formats.md vector through the file
SELECT public_id('1088824355131185736905670087'::distid) AS public_id,
       public_id_to_distid('30322474-a954-ffa9-941c-6f038afe4ff1') AS back,
       public_id_to_bigint('30322474-a954-ffa9-941c-6f038afe4ff1') IS NULL AS not_a_bigint;
SELECT public_id(123456789::bigint) = public_id(123456789::bigint, decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64')) AS same_as_argument,
       public_id_to_uuid(public_id('017f22e2-79b0-802a-8141-23456789abcd'::uuid)) AS uuid_back;
SELECT public_id('017f22e2-79b0-802a-8141-23456789abcd'::iuid) = public_id('017f22e2-79b0-802a-8141-23456789abcd'::uuid) AS iuid_as_uuid,
       public_id(iuid_generate(1, 1)) IS NOT NULL AS iuid_generated;
SELECT line, active, fingerprint, fingerprint = regress.fingerprint('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=') AS fingerprint_ok
FROM public_id_keys();

-- rotation: a new active key first, the old one kept below it
SELECT regress.write_key_file('idgen_regress.keys', ARRAY[
	'AAECAwQFBgcICQoLDA0ODw==',
	'# retired, kept so that old public ids still decode',
	'k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=']);
-- this session read the file already: it keeps its keys until a reload;
-- public_id_keys() shows the file as it is now (the check after an edit)
SELECT public_id('1088824355131185736905670087'::distid) AS still_old_key;
SELECT line, active FROM public_id_keys();
SELECT public_id('1088824355131185736905670087'::distid) AS still_old_key;
\c
SELECT line, active,
       fingerprint = regress.fingerprint(CASE line WHEN 1 THEN 'AAECAwQFBgcICQoLDA0ODw==' ELSE 'k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=' END) AS fingerprint_ok
FROM public_id_keys();
-- old public ids decode; new ones use the active key
SELECT public_id_to_distid('30322474-a954-ffa9-941c-6f038afe4ff1') AS made_with_old_key,
       public_id('1088824355131185736905670087'::distid) = public_id('1088824355131185736905670087'::distid, '\x000102030405060708090a0b0c0d0e0f') AS new_uses_active,
       public_id_to_bigint(public_id(42::bigint)) AS new_round_trip,
       public_id_to_bigint(public_id(42::bigint, decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64'))) AS old_bigint,
       public_id_to_bigint(public_id(42::bigint, '\x0f0e0d0c0b0a09080706050403020100')) IS NULL AS unknown_key;
-- uuids cannot be validated: only the active key decodes them
SELECT public_id_to_uuid(public_id('017f22e2-79b0-802a-8141-23456789abcd'::uuid, '\x000102030405060708090a0b0c0d0e0f')) AS active_key,
       public_id_to_uuid(public_id('017f22e2-79b0-802a-8141-23456789abcd'::uuid, decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64')))
         <> '017f22e2-79b0-802a-8141-23456789abcd' AS old_key_not_tried;

-- who may list keys and who may use them
CREATE ROLE regress_idgen_app;
CREATE ROLE regress_idgen_monitor IN ROLE pg_read_all_settings;
SELECT has_function_privilege('regress_idgen_app', 'public_id_keys()', 'EXECUTE') AS app_can_execute,
       has_function_privilege('regress_idgen_monitor', 'public_id_keys()', 'EXECUTE') AS monitor_can_execute;
-- the server's key is for the roles granted its functions (doc/security.md)
SET ROLE regress_idgen_app;
SELECT regress.err($$SELECT public_id_to_distid('30322474-a954-ffa9-941c-6f038afe4ff1')$$) AS app_by_default;
RESET ROLE;
GRANT EXECUTE ON FUNCTION public_id_to_distid(uuid) TO regress_idgen_app;
SET ROLE regress_idgen_app;
SELECT public_id_to_distid('30322474-a954-ffa9-941c-6f038afe4ff1') AS app_once_granted;
SHOW idgen.public_id_key_file;
SELECT regress.err($$SELECT * FROM public_id_keys()$$);
RESET ROLE;
-- a grant does not get past the function's own check
GRANT EXECUTE ON FUNCTION public_id_keys() TO regress_idgen_app;
SET ROLE regress_idgen_app;
SELECT regress.err($$SELECT * FROM public_id_keys()$$);
RESET ROLE;
REVOKE EXECUTE ON FUNCTION public_id_keys() FROM regress_idgen_app;
REVOKE EXECUTE ON FUNCTION public_id_to_distid(uuid) FROM regress_idgen_app;
SET ROLE regress_idgen_monitor;
SELECT line, active FROM public_id_keys();
RESET ROLE;
DROP ROLE regress_idgen_app;
DROP ROLE regress_idgen_monitor;

-- bad files: the error names the file and the line, never what it holds
SELECT regress.write_key_file('idgen_regress.keys', ARRAY[
	'AAECAwQFBgcICQoLDA0ODw==', '', 'k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc', '']);
\c
SELECT regress.err($$SELECT public_id(1::bigint)$$);
SELECT regress.err($$SELECT * FROM public_id_keys()$$);
SELECT regress.write_key_file('idgen_regress.keys', ARRAY[
	'# AES keys are 16, 24 or 32 bytes', 'AAECAwQFBgcICQoLDA0O']);
\c
SELECT regress.err($$SELECT public_id_to_bigint('30322474-a954-ffa9-941c-6f038afe4ff1')$$);
SELECT regress.write_key_file('idgen_regress.keys', ARRAY['# nothing yet', '']);
\c
SELECT regress.err($$SELECT public_id_to_uuid('30322474-a954-ffa9-941c-6f038afe4ff1')$$);
-- readable by others: refused, as PostgreSQL refuses such an SSL key file
SELECT regress.write_key_file('idgen_regress.keys', ARRAY['AAECAwQFBgcICQoLDA0ODw==']);
SELECT regress.program('{}', 'chmod 0640 idgen_regress.keys');
\c
SELECT regress.err($$SELECT public_id(1::bigint)$$);
SELECT regress.program('{}', 'chmod 0604 idgen_regress.keys');
\c
SELECT regress.err($$SELECT * FROM public_id_keys()$$);
SELECT regress.program('{}', 'chmod 0400 idgen_regress.keys');
\c
-- vector: openssl enc -aes-128-ecb -nopad
SELECT public_id(1::bigint) = 'd3802c5f-d352-fce8-b4ae-a438188d77c8' AS owner_only_is_fine;
ALTER SYSTEM SET idgen.public_id_key_file = 'idgen_regress_missing.keys';
SELECT pg_reload_conf();
\c
SELECT regress.err($$SELECT public_id(1::bigint)$$);
-- the key argument form does not need the file
SELECT public_id(1::bigint, '\x000102030405060708090a0b0c0d0e0f') = 'd3802c5f-d352-fce8-b4ae-a438188d77c8' AS argument_still_works;

ALTER SYSTEM RESET idgen.public_id_key_file;
SELECT pg_reload_conf();
\c
SHOW idgen.public_id_key_file;
SELECT regress.program('{}', 'rm -f idgen_regress.keys');
DROP FUNCTION regress.write_key_file(text, text[]);
DROP FUNCTION regress.fingerprint(text);

DROP EXTENSION idgen;
