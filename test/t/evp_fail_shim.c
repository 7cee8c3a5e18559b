/*
 * LD_PRELOAD shim for 013_public_id_oom.pl: OpenSSL's EVP_CIPHER_CTX_new()
 * returns NULL, as when it is out of memory, on the calls that idgen.so
 * makes whose numbers (counted per process, from 1) are listed in the
 * environment variable IDGEN_EVP_FAIL_AT, e.g. "2,7".  Calls from anywhere
 * else (OpenSSL itself, PostgreSQL) are passed through uncounted.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct evp_cipher_ctx_st EVP_CIPHER_CTX;
extern EVP_CIPHER_CTX *EVP_CIPHER_CTX_new(void);

static int
listed(long n, const char *list)
{
	char		num[24];
	size_t		len;

	if (list == NULL)
		return 0;
	snprintf(num, sizeof(num), "%ld", n);
	len = strlen(num);
	for (const char *p = list; (p = strstr(p, num)) != NULL; p += len)
		if ((p == list || p[-1] == ',') && (p[len] == ',' || p[len] == '\0'))
			return 1;
	return 0;
}

EVP_CIPHER_CTX *
EVP_CIPHER_CTX_new(void)
{
	static EVP_CIPHER_CTX *(*real) (void);
	static long calls;
	Dl_info		caller;

	if (real == NULL)
		real = (EVP_CIPHER_CTX *(*) (void)) dlsym(RTLD_NEXT, "EVP_CIPHER_CTX_new");
	if (dladdr(__builtin_return_address(0), &caller) != 0 && caller.dli_fname != NULL &&
		strstr(caller.dli_fname, "idgen.so") != NULL &&
		listed(++calls, getenv("IDGEN_EVP_FAIL_AT")))
		return NULL;
	return real();
}
