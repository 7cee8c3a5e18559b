/*
 * Iuid: an iuid as a pgjdbc type.  getObject gives one for an iuid column
 * (after IdgenDataTypes.register), setObject sends it as iuid; toUUID() is its
 * java.util.UUID.
 */
package org.idgen.jdbc;

import java.sql.SQLException;
import java.util.UUID;

public final class Iuid extends IdgenObject {
	private static final long serialVersionUID = 1L;
	private static final String HEX = "0123456789abcdef";

	/** An empty value; pgjdbc fills it with setValue. */
	public Iuid() {
		super("iuid");
	}

	/** The iuid of a text form (any case, as the server reads it). */
	public Iuid(String text) throws SQLException {
		super("iuid", text == null ? null : text.toLowerCase(java.util.Locale.ROOT));
	}

	public Iuid(UUID uuid) {
		super("iuid");
		value = uuid.toString();
	}

	@Override
	boolean valid(String text) {
		String lower = text.toLowerCase(java.util.Locale.ROOT);
		return lower.length() == 36 && lower.charAt(8) == '-' && lower.charAt(13) == '-'
			&& lower.charAt(18) == '-' && lower.charAt(23) == '-'
			&& fixed(lower.replace("-", ""), HEX, 32);
	}

	/** The same 128 bits as a java.util.UUID; null for SQL NULL. */
	public UUID toUUID() {
		return value == null ? null : UUID.fromString(value);
	}
}
