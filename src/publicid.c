/*
 * publicid.c — public identities: ids encrypted with AES (OpenSSL's
 * libcrypto, as PostgreSQL itself links it), one block in ECB mode, shown as
 * uuids in .NET Guid byte order, compatible with Architect.Identities'
 * AesPublicIdentityConverter.
 *
 * The key comes from an argument or from the key file named by the setting
 * idgen.public_id_key_file (one base64 key per line, the first active).  Key
 * bytes exist only in this backend's memory: never in a setting, a catalog
 * or a message.  The file is read on first use in a session and again after
 * every configuration reload (PostgreSQL stamps each reload in
 * PgReloadTime), so rotating keys is "edit the file, reload", even though
 * the setting's value stays the same.  Every key is expanded once, when it
 * is read; the last key passed as an argument is kept expanded too.
 */
#include "idgen.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "catalog/pg_authid_d.h"
#include "core/distid.h"
#include "core/keyfile.h"
#include "core/publicid.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"
#include "utils/uuid.h"

/* a key file holds a few keys: anything larger is a mistake */
#define KEY_FILE_MAX_BYTES 65536

#define FINGERPRINT_HEX 8

typedef struct aes_key
{
	int			len;			/* 16, 24 or 32 */
	uint8		bytes[KEYFILE_MAX_KEY];
} aes_key;

/* a key, expanded for both directions; enc == NULL: none */
typedef struct aes_ctx
{
	aes_key		key;
	EVP_CIPHER_CTX *enc;
	EVP_CIPHER_CTX *dec;
} aes_ctx;

typedef enum aes_status
{
	AES_OK,
	AES_NO_MEMORY,
	AES_FAILED
} aes_status;

typedef struct ring_key
{
	int			line;			/* in the file, 1-based */
	char		fingerprint[FINGERPRINT_HEX + 1];
	aes_ctx		ctx;
} ring_key;

/* the keys of the key file, as this backend read them */
typedef struct keyring
{
	char	   *file;			/* the setting's value then */
	TimestampTz loaded_at;		/* PgReloadTime then */
	int			n;				/* at least 1; keys[0] is active */
	ring_key	keys[FLEXIBLE_ARRAY_MEMBER];
} keyring;

/* the setting: a file name, never a key */
static char *public_id_key_file = NULL;

/* in TopMemoryContext; NULL until first used */
static keyring *ring = NULL;

/* the last key given as an argument */
static aes_ctx arg_cache;

void
publicid_init(void)
{
	DefineCustomStringVariable("idgen.public_id_key_file",
							   "File holding the AES keys of the public id functions called without a key.",
							   "One base64 key of 16, 24 or 32 bytes per line, the first one active; "
							   "absolute or relative to the data directory; readable by the server's user only.",
							   &public_id_key_file,
							   "",
							   PGC_SIGHUP,
							   0,
							   NULL, NULL, NULL);
}

static bool
key_length_ok(int len)
{
	return len == 16 || len == 24 || len == 32;
}

static const EVP_CIPHER *
cipher_for(int len)
{
	return len == 16 ? EVP_aes_128_ecb() : len == 24 ? EVP_aes_192_ecb() : EVP_aes_256_ecb();
}

/*
 * Expands k into *out, all or nothing: both contexts are made and keyed in
 * locals and *out is written only when all of it worked.  An error (out of
 * memory between the two EVP_CIPHER_CTX_new() calls included) frees what
 * was made, so no caller can keep a half-made context to trip over later.
 */
static aes_status
aes_ctx_make(const aes_key *k, aes_ctx *out)
{
	EVP_CIPHER_CTX *enc = EVP_CIPHER_CTX_new();
	EVP_CIPHER_CTX *dec = EVP_CIPHER_CTX_new();
	aes_status	st = AES_OK;

	if (enc == NULL || dec == NULL)
		st = AES_NO_MEMORY;
	else if (EVP_EncryptInit_ex(enc, cipher_for(k->len), NULL, k->bytes, NULL) != 1 ||
			 EVP_DecryptInit_ex(dec, cipher_for(k->len), NULL, k->bytes, NULL) != 1 ||
			 EVP_CIPHER_CTX_set_padding(enc, 0) != 1 ||
			 EVP_CIPHER_CTX_set_padding(dec, 0) != 1)
		st = AES_FAILED;
	if (st != AES_OK)
	{
		EVP_CIPHER_CTX_free(enc);	/* NULL is fine */
		EVP_CIPHER_CTX_free(dec);
		return st;
	}
	out->key = *k;
	out->enc = enc;
	out->dec = dec;
	return AES_OK;
}

static void
aes_ctx_free(aes_ctx *c)
{
	EVP_CIPHER_CTX_free(c->enc);
	EVP_CIPHER_CTX_free(c->dec);
	explicit_bzero(c, sizeof(*c));
}

static void
aes_check(aes_status st)
{
	if (st == AES_NO_MEMORY)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory"),
				 errdetail("OpenSSL could not allocate a cipher context.")));
	if (st != AES_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("AES operation failed in OpenSSL")));
}

static void
aes_block(const aes_ctx *c, bool encrypt, const uint8 in[PUBID_BLOCK], uint8 out[PUBID_BLOCK])
{
	int			outlen = 0;

	if ((encrypt ? EVP_EncryptUpdate(c->enc, out, &outlen, in, PUBID_BLOCK) :
		 EVP_DecryptUpdate(c->dec, out, &outlen, in, PUBID_BLOCK)) != 1 ||
		outlen != PUBID_BLOCK)
		aes_check(AES_FAILED);
}

/*
 * The key file
 */

/*
 * The whole file, after PostgreSQL's checks for an SSL key file
 * (be-secure-common.c): a regular file, owned by the server's user with no
 * group or other permissions, or owned by root and at most group-readable.
 * The checks look at the file that was opened (fstat), so it cannot be
 * swapped in between; O_NONBLOCK keeps a FIFO from hanging the backend.
 */
static char *
key_file_read(const char *file, size_t *len)
{
	struct stat st;
	int			fd;
	char	   *buf;
	size_t		got = 0;

	fd = OpenTransientFile(file, O_RDONLY | O_NONBLOCK | PG_BINARY);
	if (fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open public id key file \"%s\": %m", file)));
	if (fstat(fd, &st) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not stat public id key file \"%s\": %m", file)));
	if (!S_ISREG(st.st_mode))
		ereport(ERROR,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("public id key file \"%s\" is not a regular file", file)));
	if (st.st_uid != geteuid() && st.st_uid != 0)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("public id key file \"%s\" must be owned by the database user or root",
						file)));
	if ((st.st_uid == geteuid() && (st.st_mode & (S_IRWXG | S_IRWXO))) ||
		(st.st_uid == 0 && (st.st_mode & (S_IWGRP | S_IXGRP | S_IRWXO))))
		ereport(ERROR,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("public id key file \"%s\" has group or world access", file),
				 errdetail("File must have permissions u=rw (0600) or less if owned by the database user, or permissions u=rw,g=r (0640) or less if owned by root.")));

	buf = palloc(KEY_FILE_MAX_BYTES + 1);
	for (;;)
	{
		ssize_t		n = read(fd, buf + got, KEY_FILE_MAX_BYTES + 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
		{
			explicit_bzero(buf, got);
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not read public id key file \"%s\": %m", file)));
		}
		if (n == 0 || (got += n) > KEY_FILE_MAX_BYTES)
			break;
	}
	CloseTransientFile(fd);
	if (got > KEY_FILE_MAX_BYTES)
	{
		explicit_bzero(buf, got);
		ereport(ERROR,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("public id key file \"%s\" is too large", file),
				 errdetail("A key file may hold at most %d bytes.", KEY_FILE_MAX_BYTES)));
	}
	*len = got;
	return buf;
}

/*
 * Reads the keys of text into keys[] (when not NULL) and returns how many
 * there are.  Errors name the file and the line, never what it says.
 */
static int
key_file_parse(const char *file, const char *text, size_t len, ring_key *keys)
{
	keyfile_reader r;
	keyfile_status st;
	aes_key		k;
	int			n = 0;
	int			badlen;

	k.len = 0;
	keyfile_init(&r, text, len);
	while ((st = keyfile_next(&r, k.bytes, &k.len)) == KEYFILE_KEY)
	{
		if (keys != NULL)
		{
			keys[n].line = r.line;
			keys[n].ctx.key = k;
		}
		n++;
	}
	badlen = k.len;
	explicit_bzero(&k, sizeof(k));
	if (st != KEYFILE_END)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("invalid key in public id key file \"%s\" at line %d", file, r.line),
				 st == KEYFILE_BAD_LENGTH ?
				 errdetail("The key is %d bytes long; an AES key has 16, 24 or 32 bytes.", badlen) :
				 st == KEYFILE_NUL ?
				 errdetail("The line contains a zero byte: the file is not text.") :
				 errdetail("A key is written in base64, with \"=\" padding; the line holds something else.")));
	if (n == 0)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("public id key file \"%s\" contains no key", file),
				 errhint("Add a line with a base64-encoded AES key, e.g. made with \"openssl rand -base64 32\".")));
	return n;
}

/* first 8 hex digits of SHA-256 of the key: tells keys apart, reveals nothing */
static aes_status
key_fingerprint(const aes_key *k, char out[FINGERPRINT_HEX + 1])
{
	static const char hex[] = "0123456789abcdef";
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	int			i;

	if (EVP_Digest(k->bytes, k->len, md, &mdlen, EVP_sha256(), NULL) != 1 ||
		mdlen < FINGERPRINT_HEX / 2)
		return AES_FAILED;
	for (i = 0; i < FINGERPRINT_HEX / 2; i++)
	{
		out[2 * i] = hex[md[i] >> 4];
		out[2 * i + 1] = hex[md[i] & 15];
	}
	out[FINGERPRINT_HEX] = '\0';
	return AES_OK;
}

static void
keyring_free(keyring *kr)
{
	int			i;

	for (i = 0; i < kr->n; i++)
		aes_ctx_free(&kr->keys[i].ctx);
	pfree(kr->file);
	pfree(kr);
}

/* the keys of file, read and expanded, or an error; nothing half-made */
static keyring *
keyring_load(const char *file)
{
	char	   *text;
	size_t		len;
	keyring    *volatile kr = NULL;
	aes_status	st = AES_OK;
	int			i;

	text = key_file_read(file, &len);
	PG_TRY();
	{
		int			n = key_file_parse(file, text, len, NULL);

		kr = MemoryContextAllocZero(TopMemoryContext,
									offsetof(keyring, keys) + n * sizeof(ring_key));
		kr->file = MemoryContextStrdup(TopMemoryContext, file);
		kr->loaded_at = PgReloadTime;
		kr->n = n;
		key_file_parse(file, text, len, kr->keys);
	}
	PG_FINALLY();
	{
		/* the text of the keys goes, whatever happened */
		explicit_bzero(text, len);
		pfree(text);
	}
	PG_END_TRY();

	/* contexts are OpenSSL's memory: free them all if one cannot be made */
	for (i = 0; i < kr->n && st == AES_OK; i++)
	{
		aes_key		k = kr->keys[i].ctx.key;

		st = aes_ctx_make(&k, &kr->keys[i].ctx);
		if (st == AES_OK)
			st = key_fingerprint(&k, kr->keys[i].fingerprint);
		explicit_bzero(&k, sizeof(k));
	}
	if (st != AES_OK)
	{
		keyring_free(kr);
		aes_check(st);
	}
	return kr;
}

/*
 * The keys of the key file: the ones already read, unless the configuration
 * was reloaded or the setting changed since.
 */
static const keyring *
keyring_get(void)
{
	const char *file = public_id_key_file != NULL ? public_id_key_file : "";

	if (ring != NULL && ring->loaded_at == PgReloadTime && strcmp(ring->file, file) == 0)
		return ring;
	if (ring != NULL)
	{
		keyring_free(ring);
		ring = NULL;
	}
	if (file[0] == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("idgen.public_id_key_file is not set"),
				 errhint("Set it, in postgresql.conf or with ALTER SYSTEM, to a file holding a base64-encoded AES key of 16, 24 or 32 bytes, then reload the configuration; or pass the key as an argument.")));
	ring = keyring_load(file);
	return ring;
}

/*
 * Keys passed as arguments
 */

/* the key of argument n, expanded; the last one is cached */
static const aes_ctx *
argument_key(FunctionCallInfo fcinfo, int n)
{
	bytea	   *raw = PG_GETARG_BYTEA_PP(n);
	int			len = VARSIZE_ANY_EXHDR(raw);
	aes_key		k;
	aes_ctx		fresh;
	aes_status	st;

	if (!key_length_ok(len))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("public id key must be 16, 24 or 32 bytes long, not %d", len)));
	if (arg_cache.enc != NULL && arg_cache.key.len == len &&
		CRYPTO_memcmp(arg_cache.key.bytes, VARDATA_ANY(raw), len) == 0)
		return &arg_cache;

	k.len = len;
	memcpy(k.bytes, VARDATA_ANY(raw), len);
	st = aes_ctx_make(&k, &fresh);
	explicit_bzero(&k, sizeof(k));
	aes_check(st);
	aes_ctx_free(&arg_cache);
	arg_cache = fresh;
	explicit_bzero(&fresh, sizeof(fresh));
	return &arg_cache;
}

/*
 * The SQL functions: with a key argument, that key; without, the file's
 */

static Datum
encode(FunctionCallInfo fcinfo, const uint8 plain[PUBID_BLOCK])
{
	const aes_ctx *c = PG_NARGS() > 1 ? argument_key(fcinfo, 1) : &keyring_get()->keys[0].ctx;
	uint8		cipher[PUBID_BLOCK];
	pg_uuid_t  *result = palloc(sizeof(pg_uuid_t));

	aes_block(c, true, plain, cipher);
	pubid_guid_order(cipher, result->data);
	PG_RETURN_UUID_P(result);
}

/* accepts a decrypted block, storing what it holds into *result */
typedef bool (*plain_accept) (const uint8 plain[PUBID_BLOCK], void *result);

/*
 * Decrypts the public id of argument 0 with the key argument, or with the
 * file's keys in order until accept() takes the block: a public id made
 * under an older key still decodes while that key stays in the file.
 */
static bool
decode(FunctionCallInfo fcinfo, plain_accept accept, void *result)
{
	const keyring *kr;
	uint8		cipher[PUBID_BLOCK];
	uint8		plain[PUBID_BLOCK];
	int			i;

	pubid_guid_order(PG_GETARG_UUID_P(0)->data, cipher);
	if (PG_NARGS() > 1)
	{
		aes_block(argument_key(fcinfo, 1), false, cipher, plain);
		return accept(plain, result);
	}
	kr = keyring_get();
	for (i = 0; i < kr->n; i++)
	{
		aes_block(&kr->keys[i].ctx, false, cipher, plain);
		if (accept(plain, result))
			return true;
	}
	return false;
}

static bool
accept_bigint(const uint8 plain[PUBID_BLOCK], void *result)
{
	return pubid_unplain_bigint(plain, (int64_t *) result);
}

static bool
accept_distid(const uint8 plain[PUBID_BLOCK], void *result)
{
	return pubid_unplain_distid(plain, (idg_u128 *) result);
}

PG_FUNCTION_INFO_V1(public_id_bigint);
Datum
public_id_bigint(PG_FUNCTION_ARGS)
{
	int64		id = PG_GETARG_INT64(0);
	uint8		plain[PUBID_BLOCK];

	if (id < 0)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("bigint " INT64_FORMAT " has no public id", id),
				 errdetail("Public ids are defined for values from 0 to 9223372036854775807.")));
	pubid_plain_bigint(id, plain);
	return encode(fcinfo, plain);
}

PG_FUNCTION_INFO_V1(public_id_distid);
Datum
public_id_distid(PG_FUNCTION_ARGS)
{
	uint8		plain[PUBID_BLOCK];

	pubid_plain_distid(idg_load_be96((const uint8 *) PG_GETARG_POINTER(0)), plain);
	return encode(fcinfo, plain);
}

PG_FUNCTION_INFO_V1(public_id_uuid);
Datum
public_id_uuid(PG_FUNCTION_ARGS)
{
	return encode(fcinfo, PG_GETARG_UUID_P(0)->data);
}

PG_FUNCTION_INFO_V1(public_id_to_bigint);
Datum
public_id_to_bigint(PG_FUNCTION_ARGS)
{
	int64_t		id;

	if (!decode(fcinfo, accept_bigint, &id))
		PG_RETURN_NULL();
	PG_RETURN_INT64(id);
}

PG_FUNCTION_INFO_V1(public_id_to_distid);
Datum
public_id_to_distid(PG_FUNCTION_ARGS)
{
	idg_u128	id;
	uint8	   *result;

	if (!decode(fcinfo, accept_distid, &id))
		PG_RETURN_NULL();
	result = palloc(DISTID_LEN);
	idg_store_be96(result, id);
	PG_RETURN_POINTER(result);
}

/*
 * Every block decrypts to some uuid, so nothing tells which key made it:
 * only the active key is used.
 */
PG_FUNCTION_INFO_V1(public_id_to_uuid);
Datum
public_id_to_uuid(PG_FUNCTION_ARGS)
{
	const aes_ctx *c = PG_NARGS() > 1 ? argument_key(fcinfo, 1) : &keyring_get()->keys[0].ctx;
	uint8		cipher[PUBID_BLOCK];
	pg_uuid_t  *result = palloc(sizeof(pg_uuid_t));

	pubid_guid_order(PG_GETARG_UUID_P(0)->data, cipher);
	aes_block(c, false, cipher, result->data);
	PG_RETURN_UUID_P(result);
}

/*
 * public_id_keys(): the keys of the key file, for operators: line, whether
 * active, fingerprint.  It reads the file as it is now, apart from the keys
 * this session uses (which change at the next reload): it is the check to
 * run after editing the file, and must not wait for the reload to reach the
 * session.  Superusers and pg_read_all_settings members only (EXECUTE is
 * revoked from PUBLIC too, but a grant must not widen this).
 */
PG_FUNCTION_INFO_V1(public_id_keys);
Datum
public_id_keys(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	keyring    *volatile kr;

	if (!has_privs_of_role(GetUserId(), ROLE_PG_READ_ALL_SETTINGS))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to list public id keys"),
				 errdetail("Only superusers and roles with privileges of pg_read_all_settings may list them.")));

	InitMaterializedSRF(fcinfo, 0);
	if (public_id_key_file == NULL || public_id_key_file[0] == '\0')
		return (Datum) 0;
	kr = keyring_load(public_id_key_file);
	PG_TRY();
	{
		int			i;

		for (i = 0; i < kr->n; i++)
		{
			Datum		values[3];
			bool		nulls[3] = {false, false, false};

			values[0] = Int32GetDatum(kr->keys[i].line);
			values[1] = BoolGetDatum(i == 0);
			values[2] = CStringGetTextDatum(kr->keys[i].fingerprint);
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		}
	}
	PG_FINALLY();
	{
		keyring_free(kr);
	}
	PG_END_TRY();
	return (Datum) 0;
}
