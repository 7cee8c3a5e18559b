--
-- public identities (AesPublicIdentityConverter of Architect.Identities)
--
CREATE EXTENSION idgen;

-- the SPEC.md key (AES-256) and two more, for AES-128 and AES-192
CREATE TEMP TABLE k AS SELECT
	decode('k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=', 'base64') AS k256,
	decode('000102030405060708090a0b0c0d0e0f', 'hex') AS k128,
	decode('000102030405060708090a0b0c0d0e0f1011121314151617', 'hex') AS k192;

--
-- SPEC.md vector: distid 1088824355131185736905670087 ->
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
-- the setting idgen.public_id_key
--
SELECT regress.err($$SELECT public_id(1::bigint)$$);
SELECT regress.err($$SET idgen.public_id_key = 'not base64!'$$);
SELECT regress.err($$SET idgen.public_id_key = 'AAECAwQFBgcICQoLDA0O'$$);
SET idgen.public_id_key = 'k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=';
SELECT public_id('1088824355131185736905670087'::distid) AS public_id,
       public_id_to_distid('30322474-a954-ffa9-941c-6f038afe4ff1') AS back,
       public_id_to_bigint('30322474-a954-ffa9-941c-6f038afe4ff1') IS NULL AS not_a_bigint;
SELECT public_id(123456789::bigint) = public_id(123456789::bigint, k256) AS same_as_argument,
       public_id_to_uuid(public_id('017f22e2-79b0-802a-8141-23456789abcd'::uuid)) AS uuid_back
FROM k;
-- a superuser sees it; it is not listed in pg_settings
SHOW idgen.public_id_key;
SELECT count(*) AS listed FROM pg_settings WHERE name = 'idgen.public_id_key';
SELECT context FROM pg_settings WHERE name = 'idgen.worker_id';

-- other roles: can use the key, cannot read or change it
CREATE ROLE regress_idgen_app;
CREATE ROLE regress_idgen_monitor IN ROLE pg_read_all_settings;
SET ROLE regress_idgen_app;
SELECT public_id_to_distid('30322474-a954-ffa9-941c-6f038afe4ff1') AS app_can_decode;
-- (SQLSTATE only: the message is worded differently from PostgreSQL 16 on)
SELECT split_part(regress.err($$SHOW idgen.public_id_key$$), ':', 1) AS show_denied;
SELECT split_part(regress.err($$SELECT current_setting('idgen.public_id_key')$$), ':', 1)
       AS current_setting_denied;
SELECT count(*) AS listed FROM pg_settings WHERE name = 'idgen.public_id_key';
SELECT regress.err($$SET idgen.public_id_key = 'AAECAwQFBgcICQoLDA0ODw=='$$);
RESET ROLE;
SET ROLE regress_idgen_monitor;
SHOW idgen.public_id_key;
SELECT current_setting('idgen.public_id_key') AS masked;
RESET ROLE;
DROP ROLE regress_idgen_app;
DROP ROLE regress_idgen_monitor;
RESET idgen.public_id_key;
SELECT regress.err($$SELECT public_id_to_bigint(gen_random_uuid())$$);

DROP EXTENSION idgen;
