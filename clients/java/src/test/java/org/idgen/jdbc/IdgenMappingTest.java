/*
 * Which Java type each idgen type maps to (doc/clients.md#which-java-type),
 * against a server (-Didgen.jdbc.url=..., as IdgenServerTest): BigDecimal
 * parameters for distid, getObject(column, UUID.class) on an iuid column and
 * the uuid cast that serves it, server-side prepared statements (more
 * executions than prepareThreshold) and binary transfer.  Vectors from
 * doc/formats.md.
 */
package org.idgen.jdbc;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.After;
import org.junit.Assume;
import org.junit.Before;
import org.junit.Test;
import org.postgresql.PGStatement;

public class IdgenMappingTest {
	static final String IUID = "017f22e2-79b0-802a-8141-23456789abcd";
	static final String DISTID = "1088824355131185736905670087";
	static final String DISTID_HEX = "000384A786907DB2AD82883DC7";

	String url;
	Connection conn;

	@Before
	public void connect() throws SQLException {
		url = System.getProperty("idgen.jdbc.url", "");
		Assume.assumeFalse("no server: -Didgen.jdbc.url=jdbc:postgresql://...", url.isEmpty());
		conn = DriverManager.getConnection(url);
	}

	@After
	public void close() throws SQLException {
		if (conn != null)
			conn.close();
	}

	static String plan(PreparedStatement ps) throws SQLException {
		StringBuilder out = new StringBuilder();
		try (ResultSet rs = ps.executeQuery()) {
			while (rs.next())
				out.append(rs.getString(1)).append('\n');
		}
		return out.toString();
	}

	// a distid column takes BigDecimal parameters: stored through the
	// numeric -> distid assignment cast (which refuses fractions, negatives
	// and numbers of 29 digits with 22003), compared through distid's
	// comparisons with numeric (by the index), read back by getBigDecimal
	// (getObject(col, BigDecimal.class) only from a numeric: d::numeric)
	@Test
	public void bigDecimalForDistid() throws SQLException {
		try (Statement st = conn.createStatement()) {
			st.execute("CREATE TEMP TABLE big_d (d distid PRIMARY KEY, n int)");
			st.execute("INSERT INTO big_d SELECT distid_generate(), g FROM generate_series(1, 500) g");
		}
		try (PreparedStatement ps = conn.prepareStatement("INSERT INTO big_d VALUES (?, 0)")) {
			ps.setBigDecimal(1, new BigDecimal(DISTID));
			assertEquals(1, ps.executeUpdate());
			for (String bad : new String[] {"1.5", "-1", "10000000000000000000000000000"}) {
				ps.setBigDecimal(1, new BigDecimal(bad));
				try {
					ps.executeUpdate();
					fail(bad + " stored as a distid");
				} catch (SQLException e) {
					assertEquals(bad, "22003", e.getSQLState());
				}
			}
		}
		try (Statement st = conn.createStatement()) {
			st.execute("ANALYZE big_d");
		}
		try (PreparedStatement ps = conn.prepareStatement(
				"SELECT n, d, distid_to_hex(d), pg_typeof(?)::text, d::numeric FROM big_d WHERE d = ?")) {
			// the same number with a scale of 2 is the same distid
			for (String v : new String[] {DISTID, DISTID + ".00"}) {
				ps.setBigDecimal(1, new BigDecimal(v));
				ps.setBigDecimal(2, new BigDecimal(v));
				try (ResultSet rs = ps.executeQuery()) {
					assertTrue(v, rs.next());
					assertEquals(v, 0, rs.getInt(1));
					assertEquals(v, new BigDecimal(DISTID), rs.getBigDecimal(2));
					// getObject(col, BigDecimal.class) wants a numeric column
					try {
						Object got = rs.getObject(2, BigDecimal.class);
						fail("a distid column read by getObject as a BigDecimal: " + got);
					} catch (SQLException e) {
						assertNotNull(e.getMessage());
					}
					assertEquals(v, new BigDecimal(DISTID), rs.getObject(5, BigDecimal.class));
					assertEquals(v, DISTID_HEX, rs.getString(3));
					assertEquals(v, "numeric", rs.getString(4));
					assertFalse(v, rs.next());
				}
			}
		}
		try (Statement st = conn.createStatement()) {
			st.execute("SET enable_seqscan = off");
		}
		try (PreparedStatement ps = conn.prepareStatement("EXPLAIN (COSTS OFF) SELECT n FROM big_d WHERE d = ?")) {
			ps.setBigDecimal(1, new BigDecimal(DISTID));
			String p = plan(ps);
			assertTrue(p, p.contains("Index") && p.contains("numeric"));
		}
	}

	// getObject(column, UUID.class): pgjdbc maps the uuid type's OID to
	// UUID and nothing else, so an iuid column fails, with or without
	// IdgenDataTypes.register; a uuid column (an iuid cast in the query, or
	// an iuid kept in a uuid column) gives the UUID
	@Test
	public void uuidClassNeedsAUuidColumn() throws SQLException {
		for (boolean registered : new boolean[] {false, true}) {
			if (registered)
				IdgenDataTypes.register(conn);
			try (PreparedStatement ps = conn.prepareStatement("SELECT ?::iuid, ?::iuid::uuid")) {
				ps.setString(1, IUID);
				ps.setString(2, IUID);
				try (ResultSet rs = ps.executeQuery()) {
					rs.next();
					try {
						Object got = rs.getObject(1, UUID.class);
						fail("an iuid column read as a UUID: " + got);
					} catch (SQLException | ClassCastException e) {
						assertNotNull(e.getMessage());
					}
					assertEquals(UUID.fromString(IUID), rs.getObject(2, UUID.class));
				}
			}
		}
		try (Statement st = conn.createStatement()) {
			st.execute("CREATE TEMP TABLE u_orders (id uuid PRIMARY KEY DEFAULT iuid_generate(42, 5), item text)");
		}
		UUID id;
		try (PreparedStatement ps = conn.prepareStatement("INSERT INTO u_orders (item) VALUES ('tea') RETURNING id")) {
			try (ResultSet rs = ps.executeQuery()) {
				rs.next();
				id = rs.getObject(1, UUID.class);
			}
		}
		try (PreparedStatement ps = conn.prepareStatement(
				"SELECT item, iuid_country(id::iuid), iuid_entity(id::iuid) FROM u_orders WHERE id = ?")) {
			ps.setObject(1, id);
			try (ResultSet rs = ps.executeQuery()) {
				assertTrue(rs.next());
				assertEquals("tea", rs.getString(1));
				assertEquals(42, rs.getInt(2));
				assertEquals(5, rs.getInt(3));
			}
		}
	}

	// server-side prepared statements: past prepareThreshold (5) pgjdbc
	// names the statement on the server; the results stay the same, with
	// custom plans and with the generic plan
	@Test
	public void serverPreparedStatements() throws SQLException {
		IdgenDataTypes.register(conn);
		try (Statement st = conn.createStatement()) {
			st.execute("CREATE TEMP TABLE sp (id iuid PRIMARY KEY, d distid UNIQUE, n int)");
			st.execute("INSERT INTO sp VALUES ('" + IUID + "', " + DISTID + ", 7)");
			st.execute("INSERT INTO sp SELECT iuid_generate(1, 1), distid_generate(), g FROM generate_series(1, 300) g");
			st.execute("ANALYZE sp");
		}
		for (String mode : new String[] {"auto", "force_generic_plan"}) {
			try (Statement st = conn.createStatement()) {
				st.execute("SET plan_cache_mode = " + mode);
			}
			try (PreparedStatement ps = conn.prepareStatement(
					"SELECT n, iuid_country(id), distid_to_hex(d) FROM sp WHERE id = ? OR d = ? OR id = ?")) {
				PGStatement pg = ps.unwrap(PGStatement.class);
				assertEquals(5, pg.getPrepareThreshold());
				for (int i = 0; i < 12; i++) {
					// an Iuid, a BigDecimal and a UUID, in turn
					ps.setObject(1, new Iuid(IUID));
					ps.setBigDecimal(2, new BigDecimal(DISTID));
					ps.setObject(3, UUID.fromString(IUID));
					try (ResultSet rs = ps.executeQuery()) {
						assertTrue(mode + " " + i, rs.next());
						assertEquals(mode + " " + i, 7, rs.getInt(1));
						assertEquals(mode + " " + i, 42, rs.getInt(2));
						assertEquals(mode + " " + i, DISTID_HEX, rs.getString(3));
						assertFalse(mode + " " + i, rs.next());
					}
				}
				assertTrue(mode, pg.isUseServerPrepare());
			}
			try (Statement st = conn.createStatement();
			     ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_prepared_statements"
					+ " WHERE statement LIKE '%iuid_country(id)%' AND NOT from_sql")) {
				rs.next();
				assertTrue(mode, rs.getInt(1) >= 1);
			}
		}
	}

	// binary transfer: with prepareThreshold=-1 pgjdbc asks for the binary
	// form of the types it knows from the first execution on; idgen's
	// columns still come as text (pgjdbc does not know their OIDs), uuid and
	// numeric columns binary, and every value is the one sent
	@Test
	public void binaryTransfer() throws SQLException {
		try (Connection bin = DriverManager.getConnection(url + "&prepareThreshold=-1")) {
			IdgenDataTypes.register(bin);
			try (PreparedStatement ps = bin.prepareStatement(
					"SELECT ?::iuid, ?::iuid::uuid, ?::distid, ?::distid::numeric, ?::base36id::bigint,"
					+ " iuid_country(?::iuid), distid_to_hex(?::distid)")) {
				assertTrue(ps.unwrap(PGStatement.class).isUseServerPrepare());
				for (int i = 0; i < 3; i++) {
					ps.setObject(1, new Iuid(IUID));
					ps.setObject(2, UUID.fromString(IUID));
					ps.setObject(3, new Distid(new BigInteger(DISTID)));
					ps.setBigDecimal(4, new BigDecimal(DISTID));
					ps.setString(5, "0ITS0030Z");
					ps.setObject(6, UUID.fromString(IUID));
					ps.setBigDecimal(7, new BigDecimal(DISTID));
					try (ResultSet rs = ps.executeQuery()) {
						rs.next();
						assertEquals(new Iuid(IUID), rs.getObject(1));
						assertEquals(UUID.fromString(IUID), rs.getObject(2));
						assertEquals(new Distid(DISTID), rs.getObject(3));
						assertEquals(new BigDecimal(DISTID), rs.getBigDecimal(4));
						assertEquals(1475374698323L, rs.getLong(5));
						assertEquals(42, rs.getInt(6));
						assertEquals(DISTID_HEX, rs.getString(7));
					}
				}
			}
		}
	}
}
