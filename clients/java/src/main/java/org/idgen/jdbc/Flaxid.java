/*
 * Flaxid: a flaxid as a pgjdbc type (its 16 characters of -0-9A-Z_a-z).
 * getObject gives one for a flaxid column (after IdgenDataTypes.register),
 * setObject sends it as flaxid.
 */
package org.idgen.jdbc;

import java.sql.SQLException;

public final class Flaxid extends IdgenObject {
	private static final long serialVersionUID = 1L;

	/** An empty value; pgjdbc fills it with setValue. */
	public Flaxid() {
		super("flaxid");
	}

	public Flaxid(String text) throws SQLException {
		super("flaxid", text);
	}

	@Override
	boolean valid(String text) {
		return fixed(text, "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz", 16);
	}
}
