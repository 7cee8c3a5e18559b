/*
 * ownerddl.c — one statement on a tenant's table, run as its owner in a
 * security-restricted operation.
 *
 * The partition helpers change a table that another role may own: they
 * create, detach and drop its partitions.  The server runs the owner's code
 * while they do (a default partition's CHECK constraint folded while a new
 * partition is checked against it, index expressions and predicates cloned
 * onto a new partition), so that code must run as the owner and must not be
 * able to get back to the caller's identity.  SET ROLE is no fence: the
 * owner's code could SET ROLE back to the session user.  This is what core
 * does for maintenance on another role's table (REFRESH MATERIALIZED VIEW,
 * CREATE INDEX, VACUUM, ANALYZE): the owner as the current user, a
 * security-restricted operation (no SET ROLE, no SET SESSION AUTHORIZATION,
 * no temporary objects, no WITH HOLD cursors, no deferred triggers fired),
 * and a new GUC nest level with a safe search_path.  An error unwinds all of
 * it through the (sub)transaction's abort.  As after core's own restricted
 * operations, some state the statement makes outlives it: SET CONSTRAINTS
 * (the caller's transaction then defers its constraint checks), session
 * advisory locks taken or released, and cursors without HOLD (open until the
 * transaction ends, run by whoever fetches them).
 *
 * It grants nothing: the caller must already have the privileges of the
 * role it runs as, as core's ownership checks ask of it, and be allowed to
 * become it, as SET ROLE asks: since PostgreSQL 16 a membership can carry the
 * role's privileges without the right to act as the role (GRANT ... WITH SET
 * FALSE), and running a statement as the role is acting as it (its CREATEROLE,
 * CREATEDB, ... and the ownership of what the statement creates).
 */
#include "postgres.h"

#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"

PG_FUNCTION_INFO_V1(idgen_ddl_as_owner);

Datum
idgen_ddl_as_owner(PG_FUNCTION_ARGS)
{
	Oid			owner = PG_GETARG_OID(0);
	char	   *statement = text_to_cstring(PG_GETARG_TEXT_PP(1));
	char	   *owner_name;
	Oid			save_userid;
	int			save_sec_context;
	int			save_nestlevel;
	int			rc;

	/* a role that exists (an error otherwise), even for a superuser */
	owner_name = GetUserNameFromId(owner, false);
	if (!has_privs_of_role(GetUserId(), owner)
#if PG_VERSION_NUM >= 160000
		|| !member_can_set_role(GetUserId(), owner)
#endif
		)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to run a statement as role \"%s\"",
						owner_name),
				 errdetail("Only roles that have the privileges of role \"%s\" and may SET ROLE to it may.",
						   owner_name)));

	GetUserIdAndSecContext(&save_userid, &save_sec_context);
	SetUserIdAndSecContext(owner,
						   save_sec_context | SECURITY_RESTRICTED_OPERATION);
	save_nestlevel = NewGUCNestLevel();
#if PG_VERSION_NUM >= 170000
	RestrictSearchPath();
#else
	(void) set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET,
							 PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
#endif

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	rc = SPI_execute(statement, false, 0);
	if (rc < 0)					/* transaction control, COPY to the client */
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("statement cannot be run as role \"%s\": %s",
						owner_name, SPI_result_code_string(rc))));
	SPI_finish();

	AtEOXact_GUC(false, save_nestlevel);
	SetUserIdAndSecContext(save_userid, save_sec_context);

	pfree(statement);
	PG_RETURN_VOID();
}
