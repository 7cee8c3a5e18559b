/*
 * IdgenDataTypes: this package's pgjdbc types for idgen's types.
 *
 * register(connection) names them on a connection: from then on getObject
 * gives an Iuid, Distid, Base36id or Flaxid for a column of such a type (and
 * arrays of them from getArray), and setObject of one sends it as its idgen
 * type.  Without it pgjdbc reads these types as plain PGobjects
 * (IdgenTypes then reads iuid and distid as Java's own types).
 */
package org.idgen.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.postgresql.PGConnection;

public final class IdgenDataTypes {
	private IdgenDataTypes() {
	}

	/**
	 * Names Iuid, Distid, Base36id and Flaxid as pgjdbc's types for idgen's
	 * types on this connection (by name, as the server resolves them in the
	 * connection's search_path).  Fails with SQLSTATE 42704 if the database
	 * has no idgen.
	 */
	public static void register(Connection conn) throws SQLException {
		try (Statement st = conn.createStatement();
		     ResultSet rs = st.executeQuery("SELECT pg_catalog.to_regtype('iuid') IS NOT NULL"
				+ " AND pg_catalog.to_regtype('distid') IS NOT NULL"
				+ " AND pg_catalog.to_regtype('base36id') IS NOT NULL"
				+ " AND pg_catalog.to_regtype('flaxid') IS NOT NULL")) {
			rs.next();
			if (!rs.getBoolean(1))
				throw new SQLException("idgen's types not found: CREATE EXTENSION idgen in this database", "42704");
		}
		PGConnection pg = conn.unwrap(PGConnection.class);
		pg.addDataType("iuid", Iuid.class);
		pg.addDataType("distid", Distid.class);
		pg.addDataType("base36id", Base36id.class);
		pg.addDataType("flaxid", Flaxid.class);
	}
}
