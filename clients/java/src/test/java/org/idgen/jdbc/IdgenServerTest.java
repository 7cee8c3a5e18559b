/*
 * The pgjdbc types of idgen's values against a server: the JDBC URL of one
 * with idgen installed, preloaded and idgen.worker_id set in the system
 * property idgen.jdbc.url (the pom passes -Didgen.jdbc.url=...); without
 * it these tests are skipped.  Vectors from doc/formats.md, each with what
 * the server's own functions say of it.
 */
package org.idgen.jdbc;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.After;
import org.junit.Assume;
import org.junit.Before;
import org.junit.Test;
import org.postgresql.util.PGobject;

public class IdgenServerTest {
	// type, generator, a doc/formats.md vector, an extractor and its text for the vector
	static final String[][] CASES = {
		{"iuid", "iuid_generate(42, 5)", "017f22e2-79b0-802a-8141-23456789abcd", "iuid_country(?)", "42"},
		{"distid", "distid_generate()", "1088824355131185736905670087", "distid_to_alphanumeric(?)",
			"3zfAkCP7ZtzfeQYp"},
		{"base36id", "base36id_generate()", "0ITS0030Z", "base36id_counter(?)", "35"},
		{"flaxid", "flaxid_generate()", "0RdKJcxqVBiAiQr0",
			"to_char(flaxid_timestamp(?) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS')",
			"2015-10-15 20:10:25.807"},
	};

	Connection conn;

	@Before
	public void connect() throws SQLException {
		String url = System.getProperty("idgen.jdbc.url", "");
		Assume.assumeFalse("no server: -Didgen.jdbc.url=jdbc:postgresql://...", url.isEmpty());
		conn = DriverManager.getConnection(url);
		IdgenDataTypes.register(conn);
	}

	@After
	public void close() throws SQLException {
		if (conn != null)
			conn.close();
	}

	static IdgenObject make(String type, String text) throws SQLException {
		switch (type) {
		case "iuid":
			return new Iuid(text);
		case "distid":
			return new Distid(text);
		case "base36id":
			return new Base36id(text);
		default:
			return new Flaxid(text);
		}
	}

	static Class<?> classOf(String type) throws SQLException {
		return make(type, null).getClass();
	}

	@Test
	public void getObjectGivesTheType() throws SQLException {
		for (String[] c : CASES) {
			try (PreparedStatement ps = conn.prepareStatement("SELECT ?::" + c[0] + ", NULL::" + c[0])) {
				ps.setString(1, c[2]);
				try (ResultSet rs = ps.executeQuery()) {
					rs.next();
					Object got = rs.getObject(1);
					assertEquals(c[0], classOf(c[0]), got.getClass());
					assertEquals(c[0], make(c[0], c[2]), got);
					assertEquals(c[0], c[2], got.toString());
					assertEquals(c[0], make(c[0], c[2]), rs.getObject(1, classOf(c[0])));
					assertNull(c[0], rs.getObject(2));
				}
			}
		}
	}

	@Test
	public void setObjectSendsTheType() throws SQLException {
		for (String[] c : CASES) {
			try (PreparedStatement ps = conn.prepareStatement(
					"SELECT pg_typeof(?)::text, " + c[3])) {
				ps.setObject(1, make(c[0], c[2]));
				ps.setObject(2, make(c[0], c[2]));
				try (ResultSet rs = ps.executeQuery()) {
					rs.next();
					assertEquals(c[0], c[0], rs.getString(1));
					assertEquals(c[0], c[4], rs.getString(2));
				}
			}
		}
	}

	@Test
	public void javaValues() throws SQLException {
		try (Statement st = conn.createStatement();
		     ResultSet rs = st.executeQuery("SELECT '017f22e2-79b0-802a-8141-23456789abcd'::iuid,"
				+ " '1088824355131185736905670087'::distid")) {
			rs.next();
			assertEquals(UUID.fromString("017f22e2-79b0-802a-8141-23456789abcd"), ((Iuid) rs.getObject(1)).toUUID());
			assertEquals(new BigInteger("1088824355131185736905670087"), ((Distid) rs.getObject(2)).toBigInteger());
		}
		try (PreparedStatement ps = conn.prepareStatement("SELECT iuid_country(?), distid_to_hex(?)")) {
			ps.setObject(1, new Iuid(UUID.fromString("017f22e2-79b0-802a-8141-23456789abcd")));
			ps.setObject(2, new Distid(new BigInteger("1088824355131185736905670087")));
			try (ResultSet rs = ps.executeQuery()) {
				rs.next();
				assertEquals("42", rs.getString(1));
				assertEquals("000384A786907DB2AD82883DC7", rs.getString(2));
			}
		}
	}

	@Test
	public void generatedIdsFindTheirRowsByIndex() throws SQLException {
		for (String[] c : CASES) {
			String t = "java_" + c[0];
			try (Statement st = conn.createStatement()) {
				st.execute("CREATE TEMP TABLE " + t + " (id " + c[0] + " PRIMARY KEY DEFAULT " + c[1] + ", n int)");
				st.execute("INSERT INTO " + t + " (n) SELECT g FROM generate_series(1, 200) g");
				st.execute("ANALYZE " + t);
			}
			List<Object> ids = new ArrayList<>();
			try (PreparedStatement ps = conn.prepareStatement("INSERT INTO " + t + " (n) VALUES (?) RETURNING id")) {
				for (int n = 1000; n < 1003; n++) {
					ps.setInt(1, n);
					try (ResultSet rs = ps.executeQuery()) {
						rs.next();
						ids.add(rs.getObject(1));
					}
				}
			}
			for (Object id : ids)
				assertEquals(c[0], classOf(c[0]), id.getClass());
			try (PreparedStatement ps = conn.prepareStatement("SELECT n FROM " + t + " WHERE id = ?")) {
				ps.setObject(1, ids.get(1));
				try (ResultSet rs = ps.executeQuery()) {
					assertTrue(c[0], rs.next());
					assertEquals(c[0], 1001, rs.getInt(1));
				}
			}
			try (Statement st = conn.createStatement()) {
				st.execute("SET enable_seqscan = off");
			}
			StringBuilder plan = new StringBuilder();
			try (PreparedStatement ps = conn.prepareStatement("EXPLAIN (COSTS OFF) SELECT n FROM " + t + " WHERE id = ?")) {
				ps.setObject(1, ids.get(1));
				try (ResultSet rs = ps.executeQuery()) {
					while (rs.next())
						plan.append(rs.getString(1)).append('\n');
				}
			}
			try (Statement st = conn.createStatement()) {
				st.execute("RESET enable_seqscan");
			}
			assertTrue(c[0] + ": " + plan, plan.toString().contains("Index"));
		}
	}

	@Test
	public void arrays() throws SQLException {
		for (String[] c : CASES) {
			try (PreparedStatement ps = conn.prepareStatement(
					"SELECT ARRAY[?::" + c[0] + ", NULL], pg_typeof(?)::text, ?::text")) {
				ps.setString(1, c[2]);
				IdgenObject[] values = {make(c[0], c[2]), make(c[0], c[2])};
				ps.setArray(2, conn.createArrayOf(c[0], values));
				ps.setArray(3, conn.createArrayOf(c[0], values));
				try (ResultSet rs = ps.executeQuery()) {
					rs.next();
					Object[] got = (Object[]) rs.getArray(1).getArray();
					assertEquals(c[0], 2, got.length);
					assertEquals(c[0], classOf(c[0]), got[0].getClass());
					assertEquals(c[0], make(c[0], c[2]), got[0]);
					assertNull(c[0], got[1]);
					assertEquals(c[0], c[0] + "[]", rs.getString(2));
					assertEquals(c[0], "{" + c[2] + "," + c[2] + "}", rs.getString(3));
				}
			}
		}
	}

	// what doc/clients.md shows
	@Test
	public void readme() throws SQLException {
		// README begin: jdbc-types
		IdgenDataTypes.register(conn);                   // once per connection
		try (Statement st = conn.createStatement()) {
			st.execute("CREATE TEMP TABLE orders (id base36id PRIMARY KEY DEFAULT base36id_generate(),"
				+ " ref iuid DEFAULT iuid_generate(42, 5), item text)");
		}
		Base36id id;
		Iuid ref;
		try (PreparedStatement ps = conn.prepareStatement(
				"INSERT INTO orders (item) VALUES (?) RETURNING id, ref")) {
			ps.setString(1, "tea");
			try (ResultSet rs = ps.executeQuery()) {
				rs.next();
				id = (Base36id) rs.getObject(1);             // org.idgen.jdbc.Base36id
				ref = rs.getObject(2, Iuid.class);           // org.idgen.jdbc.Iuid
			}
		}
		UUID uuid = ref.toUUID();                        // java.util.UUID
		String item;
		try (PreparedStatement ps = conn.prepareStatement("SELECT item FROM orders WHERE id = ?")) {
			ps.setObject(1, id);                             // sent as base36id
			try (ResultSet rs = ps.executeQuery()) { rs.next(); item = rs.getString(1); }
		}
		Object[] refs;
		try (PreparedStatement ps = conn.prepareStatement(
				"SELECT array_agg(ref) FROM orders WHERE ref = ANY(?)")) {
			ps.setArray(1, conn.createArrayOf("iuid", new Iuid[] {ref}));
			try (ResultSet rs = ps.executeQuery()) {
				rs.next();
				refs = (Object[]) rs.getArray(1).getArray(); // Iuid elements
			}
		}
		// README end: jdbc-types
		assertEquals("tea", item);
		assertEquals(9, id.getValue().length());
		assertEquals(42, (uuid.getMostSignificantBits() & 0xff));
		assertEquals(1, refs.length);
		assertEquals(ref, refs[0]);
	}

	@Test
	public void withoutRegisterAColumnIsAPlainPGobject() throws SQLException {
		try (Connection plain = DriverManager.getConnection(System.getProperty("idgen.jdbc.url"));
		     Statement st = plain.createStatement();
		     ResultSet rs = st.executeQuery("SELECT '0ITS0030Z'::base36id")) {
			rs.next();
			Object got = rs.getObject(1);
			assertEquals(PGobject.class, got.getClass());
			assertFalse(got instanceof Base36id);
		}
	}

	@Test
	public void registerWithoutIdgenFails() throws SQLException {
		try (Statement st = conn.createStatement()) {
			st.execute("SET search_path = pg_catalog");
		}
		try {
			IdgenDataTypes.register(conn);
			fail("registered without idgen's types");
		} catch (SQLException e) {
			assertEquals("42704", e.getSQLState());
		}
	}
}
