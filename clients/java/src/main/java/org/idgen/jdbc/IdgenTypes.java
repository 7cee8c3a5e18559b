/*
 * IdgenTypes: idgen's values from JDBC as Java's own types (java.util.UUID for
 * iuid, java.math.BigInteger for distid), arrays included.  java.sql only: it
 * works with pgjdbc and needs nothing else on the class path.
 *
 * pgjdbc reads a type it does not know (iuid, distid) as a PGobject, so
 * getObject(column, UUID.class) fails for an iuid column; these read the
 * text form.  To bind, use Java's types as they are: setObject(i, uuid) sends a
 * uuid and setObject(i, bigInteger) a numeric (setLong a bigint), and idgen
 * compares them with its columns (the index is used).
 */
package org.idgen.jdbc;

import java.math.BigInteger;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;

public final class IdgenTypes {
	private IdgenTypes() {
	}

	/** An iuid (or uuid) column as a UUID; null for SQL NULL. */
	public static UUID getIuid(ResultSet rs, int column) throws SQLException {
		String text = rs.getString(column);
		return text == null ? null : UUID.fromString(text);
	}

	public static UUID getIuid(ResultSet rs, String column) throws SQLException {
		return getIuid(rs, rs.findColumn(column));
	}

	/** A distid column as a BigInteger; null for SQL NULL. */
	public static BigInteger getDistid(ResultSet rs, int column) throws SQLException {
		String text = rs.getString(column);
		return text == null ? null : new BigInteger(text);
	}

	public static BigInteger getDistid(ResultSet rs, String column) throws SQLException {
		return getDistid(rs, rs.findColumn(column));
	}

	/** An iuid[] column as a UUID[] (null elements stay null); null for SQL NULL. */
	public static UUID[] getIuidArray(ResultSet rs, int column) throws SQLException {
		Object[] items = elements(rs.getArray(column));
		if (items == null)
			return null;
		UUID[] out = new UUID[items.length];
		for (int i = 0; i < items.length; i++)
			out[i] = items[i] == null ? null : UUID.fromString(items[i].toString());
		return out;
	}

	/** A distid[] column as a BigInteger[] (null elements stay null); null for SQL NULL. */
	public static BigInteger[] getDistidArray(ResultSet rs, int column) throws SQLException {
		Object[] items = elements(rs.getArray(column));
		if (items == null)
			return null;
		BigInteger[] out = new BigInteger[items.length];
		for (int i = 0; i < items.length; i++)
			out[i] = items[i] == null ? null : new BigInteger(items[i].toString());
		return out;
	}

	// pgjdbc gives the elements of an array of an unknown type as PGobjects,
	// whose toString() is the value's text
	private static Object[] elements(Array array) throws SQLException {
		if (array == null)
			return null;
		try {
			return (Object[]) array.getArray();
		} finally {
			array.free();
		}
	}
}
