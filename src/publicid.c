/*
 * publicid.c — public identities: ids encrypted with AES (OpenSSL's
 * libcrypto, as PostgreSQL itself links it), one block in ECB mode, shown as
 * uuids in .NET Guid byte order, compatible with Architect.Identities'
 * AesPublicIdentityConverter.
 *
 * The expanded key is cached per backend, so a call costs one block
 * operation, not a key schedule.  The key comes from an argument or from the
 * setting idgen.public_id_key, which only superusers can set or read.
 */
#include "idgen.h"

#include <openssl/evp.h>

#include "common/base64.h"
#include "miscadmin.h"
#include "core/distid.h"
#include "core/publicid.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/uuid.h"

typedef struct aes_key
{
	int			len;			/* 16, 24 or 32 */
	uint8		bytes[32];
} aes_key;

/* the setting: its text, and the key its check hook decoded */
static char *idgen_public_id_key_text = NULL;
static const aes_key *setting_key = NULL;

/* the expanded key of the last key used in this backend */
static struct
{
	aes_key		key;			/* len 0: nothing cached */
	EVP_CIPHER_CTX *enc;
	EVP_CIPHER_CTX *dec;
}			cache;

static bool
key_length_ok(int len)
{
	return len == 16 || len == 24 || len == 32;
}

static bool
idgen_public_id_key_check(char **newval, void **extra, GucSource source)
{
	const char *s = *newval;
	aes_key    *k;
	int			n;

	if (s == NULL || s[0] == '\0')
		return true;			/* unset */

	/* custom messages: PostgreSQL's default one would print the value */
	/* GUC "extra" is released with free() */
#if PG_VERSION_NUM >= 160000
	k = guc_malloc(LOG, sizeof(aes_key));
#else
	k = malloc(sizeof(aes_key));
#endif
	if (k == NULL)
		return false;
	memset(k, 0, sizeof(aes_key));
	if (pg_b64_dec_len(strlen(s)) > (int) sizeof(k->bytes) + 3 ||
		(n = pg_b64_decode(s, strlen(s), (char *) k->bytes, sizeof(k->bytes))) < 0)
	{
		free(k);
		GUC_check_errmsg("idgen.public_id_key must be a base64-encoded AES key");
		GUC_check_errdetail("The value is not valid base64 of 16, 24 or 32 bytes.");
		return false;
	}
	if (!key_length_ok(n))
	{
		free(k);
		GUC_check_errmsg("idgen.public_id_key must be a base64-encoded AES key");
		GUC_check_errdetail("It decodes to %d bytes; an AES key has 16, 24 or 32.", n);
		return false;
	}
	k->len = n;
	*extra = k;
	return true;
}

static void
idgen_public_id_key_assign(const char *newval, void *extra)
{
	setting_key = extra;
}

/* the value is for superusers' eyes only, even for pg_read_all_settings */
static const char *
idgen_public_id_key_show(void)
{
	if (idgen_public_id_key_text == NULL || idgen_public_id_key_text[0] == '\0')
		return "";
	return superuser() ? idgen_public_id_key_text : "********";
}

void
publicid_init(void)
{
	/* a secret: superusers set it, nobody else reads it */
	DefineCustomStringVariable("idgen.public_id_key",
							   "Base64-encoded AES key (16, 24 or 32 bytes) for public ids.",
							   "Used by public_id() and public_id_to_*() when no key is passed.",
							   &idgen_public_id_key_text,
							   "",
							   PGC_SUSET,
							   GUC_SUPERUSER_ONLY | GUC_NO_SHOW_ALL,
							   idgen_public_id_key_check,
							   idgen_public_id_key_assign,
							   idgen_public_id_key_show);
}

static const EVP_CIPHER *
cipher_for(int len)
{
	return len == 16 ? EVP_aes_128_ecb() : len == 24 ? EVP_aes_192_ecb() : EVP_aes_256_ecb();
}

pg_attribute_noreturn()
static void
openssl_failed(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_INTERNAL_ERROR),
			 errmsg("AES operation failed in OpenSSL")));
	pg_unreachable();
}

/* makes k the cached key, expanding it only when it changed */
static void
use_key(const aes_key *k)
{
	if (cache.key.len == k->len && memcmp(cache.key.bytes, k->bytes, k->len) == 0)
		return;

	if (cache.enc == NULL)
	{
		cache.enc = EVP_CIPHER_CTX_new();
		cache.dec = EVP_CIPHER_CTX_new();
		if (cache.enc == NULL || cache.dec == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_OUT_OF_MEMORY),
					 errmsg("out of memory")));
	}
	cache.key.len = 0;			/* invalid until both contexts are ready */
	if (EVP_EncryptInit_ex(cache.enc, cipher_for(k->len), NULL, k->bytes, NULL) != 1 ||
		EVP_DecryptInit_ex(cache.dec, cipher_for(k->len), NULL, k->bytes, NULL) != 1 ||
		EVP_CIPHER_CTX_set_padding(cache.enc, 0) != 1 ||
		EVP_CIPHER_CTX_set_padding(cache.dec, 0) != 1)
		openssl_failed();
	explicit_bzero(&cache.key, sizeof(cache.key));
	cache.key = *k;
}

static void
aes_block(const aes_key *k, bool encrypt, const uint8 in[PUBID_BLOCK], uint8 out[PUBID_BLOCK])
{
	int			outlen = 0;

	use_key(k);
	if ((encrypt ? EVP_EncryptUpdate(cache.enc, out, &outlen, in, PUBID_BLOCK) :
		 EVP_DecryptUpdate(cache.dec, out, &outlen, in, PUBID_BLOCK)) != 1 ||
		outlen != PUBID_BLOCK)
		openssl_failed();
}

/* the key of argument n if the function has one, else the setting's */
static const aes_key *
get_key(FunctionCallInfo fcinfo, int n, aes_key *buf)
{
	bytea	   *raw;

	if (PG_NARGS() <= n)
	{
		if (setting_key == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("idgen.public_id_key is not set"),
					 errhint("A superuser sets it to a base64-encoded AES key of 16, 24 or 32 bytes, or pass the key as an argument.")));
		return setting_key;
	}
	raw = PG_GETARG_BYTEA_PP(n);
	if (!key_length_ok(VARSIZE_ANY_EXHDR(raw)))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("public id key must be 16, 24 or 32 bytes long, not %d",
						(int) VARSIZE_ANY_EXHDR(raw))));
	buf->len = VARSIZE_ANY_EXHDR(raw);
	memcpy(buf->bytes, VARDATA_ANY(raw), buf->len);
	return buf;
}

static Datum
encode(FunctionCallInfo fcinfo, const uint8 plain[PUBID_BLOCK])
{
	aes_key		buf;
	uint8		c[PUBID_BLOCK];
	pg_uuid_t  *result = palloc(sizeof(pg_uuid_t));

	aes_block(get_key(fcinfo, 1, &buf), true, plain, c);
	pubid_guid_order(c, result->data);
	PG_RETURN_UUID_P(result);
}

static void
decode(FunctionCallInfo fcinfo, uint8 plain[PUBID_BLOCK])
{
	aes_key		buf;
	uint8		c[PUBID_BLOCK];

	pubid_guid_order(PG_GETARG_UUID_P(0)->data, c);
	aes_block(get_key(fcinfo, 1, &buf), false, c, plain);
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
	uint8		plain[PUBID_BLOCK];
	int64		id;

	decode(fcinfo, plain);
	if (!pubid_unplain_bigint(plain, &id))
		PG_RETURN_NULL();
	PG_RETURN_INT64(id);
}

PG_FUNCTION_INFO_V1(public_id_to_distid);
Datum
public_id_to_distid(PG_FUNCTION_ARGS)
{
	uint8		plain[PUBID_BLOCK];
	idg_u128	id;
	uint8	   *result;

	decode(fcinfo, plain);
	if (!pubid_unplain_distid(plain, &id))
		PG_RETURN_NULL();
	result = palloc(DISTID_LEN);
	idg_store_be96(result, id);
	PG_RETURN_POINTER(result);
}

PG_FUNCTION_INFO_V1(public_id_to_uuid);
Datum
public_id_to_uuid(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *result = palloc(sizeof(pg_uuid_t));

	decode(fcinfo, result->data);
	PG_RETURN_UUID_P(result);
}
