/*
 * Distid: a distid as a pgjdbc type.  getObject gives one for a distid
 * column (after IdgenDataTypes.register), setObject sends it as distid;
 * toBigInteger() is its number (0 to 10^28 - 1).
 */
package org.idgen.jdbc;

import java.math.BigInteger;
import java.sql.SQLException;

public final class Distid extends IdgenObject {
	private static final long serialVersionUID = 1L;
	static final BigInteger LIMIT = BigInteger.TEN.pow(28);

	/** An empty value; pgjdbc fills it with setValue. */
	public Distid() {
		super("distid");
	}

	public Distid(String text) throws SQLException {
		super("distid", text);
	}

	/** A distid of a number from 0 to 10^28 - 1; others are refused with SQLSTATE 22003. */
	public Distid(BigInteger number) throws SQLException {
		super("distid");
		if (number.signum() < 0 || number.compareTo(LIMIT) >= 0)
			throw new SQLException("value " + number + " is out of range for type distid", "22003");
		value = number.toString();
	}

	@Override
	boolean valid(String text) {
		return !text.isEmpty() && text.length() <= 28 && fixed(text, "0123456789", text.length());
	}

	/** The number; null for SQL NULL. */
	public BigInteger toBigInteger() {
		return value == null ? null : new BigInteger(value);
	}
}
