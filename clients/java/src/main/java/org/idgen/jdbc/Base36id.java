/*
 * Base36id: a base36id as a pgjdbc type (its 9 characters of 0-9A-Z).
 * getObject gives one for a base36id column (after IdgenDataTypes.register),
 * setObject sends it as base36id.
 */
package org.idgen.jdbc;

import java.sql.SQLException;

public final class Base36id extends IdgenObject {
	private static final long serialVersionUID = 1L;

	/** An empty value; pgjdbc fills it with setValue. */
	public Base36id() {
		super("base36id");
	}

	public Base36id(String text) throws SQLException {
		super("base36id", text);
	}

	@Override
	boolean valid(String text) {
		return fixed(text, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", 9);
	}
}
