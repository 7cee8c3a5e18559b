/*
 * IdgenObject: what the four pgjdbc types of idgen's values share.  A value
 * is a PGobject of its idgen type (pgjdbc sends it as that type, and reads a
 * column of that type into it once IdgenDataTypes.register has named the class),
 * holding the value's text form, checked as the server checks it.
 */
package org.idgen.jdbc;

import java.sql.SQLException;
import org.postgresql.util.PGobject;

public abstract class IdgenObject extends PGobject {
	private static final long serialVersionUID = 1L;

	IdgenObject(String typeName) {
		type = typeName;
	}

	IdgenObject(String typeName, String text) throws SQLException {
		this(typeName);
		setValue(text);
	}

	/** The text form, or null for SQL NULL; anything else is refused with SQLSTATE 22P02. */
	@Override
	public void setValue(String text) throws SQLException {
		if (text != null && !valid(text))
			throw new SQLException("invalid input syntax for type " + type + ": \"" + text + "\"", "22P02");
		value = text;
	}

	abstract boolean valid(String text);

	/** Every character of text is one of digits, and there are length of them. */
	static boolean fixed(String text, String digits, int length) {
		if (text.length() != length)
			return false;
		for (int i = 0; i < length; i++)
			if (digits.indexOf(text.charAt(i)) < 0)
				return false;
		return true;
	}
}
