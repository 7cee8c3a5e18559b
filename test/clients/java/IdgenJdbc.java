// idgen from JDBC (pgjdbc): every idgen type, bound parameters, arrays; Java's
// own UUID, BigInteger and long as parameters, with the index; results as UUID
// and BigInteger through org.idgen.jdbc.IdgenTypes (clients/java).
//
// Usage: java -cp /usr/share/java/postgresql.jar:. IdgenJdbc JDBC_URL
// against a server with idgen installed, preloaded and idgen.worker_id set.
// Prints one line per check and "jdbc: N passed, M failed"; exits 1 on any
// failure.  The regions between "README begin/end" lines are quoted verbatim
// in doc/clients.md.
import java.math.BigInteger;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.idgen.jdbc.IdgenTypes;
import org.postgresql.util.PGobject;

public class IdgenJdbc {
	static int passed, failed;

	static void check(String name, boolean ok, Object detail) {
		if (ok) {
			passed++;
			System.out.println("ok - " + name);
		} else {
			failed++;
			System.out.println("not ok - " + name + " " + detail);
		}
	}

	// type, DEFAULT generator, a doc/formats.md vector, an extractor and its text for the vector
	static final String[][] CASES = {
		{"iuid", "iuid_generate(42, 5)", "017f22e2-79b0-802a-8141-23456789abcd", "iuid_country(id)", "42"},
		{"distid", "distid_generate()", "1088824355131185736905670087", "distid_to_alphanumeric(id)",
			"3zfAkCP7ZtzfeQYp"},
		{"base36id", "base36id_generate()", "0ITS0030Z", "base36id_counter(id)", "35"},
		{"flaxid", "flaxid_generate()", "0RdKJcxqVBiAiQr0",
			"to_char(flaxid_timestamp(id) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS')",
			"2015-10-15 20:10:25.807"},
	};

	static List<String> column(ResultSet rs) throws SQLException {
		List<String> out = new ArrayList<>();
		while (rs.next())
			out.add(rs.getString(1));
		return out;
	}

	static void perType(Connection conn, String[] c) throws SQLException {
		String name = c[0], t = "clients_" + name;
		try (Statement st = conn.createStatement()) {
			st.execute("CREATE TEMP TABLE " + t + " (id " + name + " PRIMARY KEY DEFAULT " + c[1] + ", n int)");
		}
		List<String> ids = new ArrayList<>();
		try (PreparedStatement ps = conn.prepareStatement("INSERT INTO " + t + " (n) VALUES (?) RETURNING id")) {
			for (int n = 0; n < 3; n++) {
				ps.setInt(1, n);
				try (ResultSet rs = ps.executeQuery()) {
					ids.addAll(column(rs));
				}
			}
		}
		check(name + ": DEFAULT ids read with getString", ids.size() == 3, ids);
		List<String> sorted = new ArrayList<>(ids);
		sorted.sort(null);
		check(name + ": ids increase", sorted.equals(ids) && ids.stream().distinct().count() == 3, ids);

		try (PreparedStatement ps = conn.prepareStatement("SELECT n FROM " + t + " WHERE id = ?")) {
			ps.setObject(1, ids.get(1), Types.OTHER);
			try (ResultSet rs = ps.executeQuery()) {
				check(name + ": select by id, setObject(..., Types.OTHER)", column(rs).equals(List.of("1")), ids);
			}
			PGobject id = new PGobject();
			id.setType(name);
			id.setValue(ids.get(2));
			ps.setObject(1, id);
			try (ResultSet rs = ps.executeQuery()) {
				check(name + ": select by id, PGobject", column(rs).equals(List.of("2")), ids);
			}
		}
		try (Statement st = conn.createStatement();
		     ResultSet rs = st.executeQuery("SELECT array_agg(id ORDER BY id) FROM " + t)) {
			rs.next();
			List<String> got = new ArrayList<>();
			for (Object v : (Object[]) rs.getArray(1).getArray())
				got.add(((PGobject) v).getType() + " " + ((PGobject) v).getValue());
			List<String> want = new ArrayList<>();
			for (String id : ids)
				want.add(name + " " + id);
			check(name + ": " + name + "[] reads with getArray as PGobjects", got.equals(want), got);
		}
		try (PreparedStatement ps = conn.prepareStatement("SELECT count(*) FROM " + t + " WHERE id = ANY(?)")) {
			ps.setArray(1, conn.createArrayOf(name, new String[] {ids.get(0), ids.get(2)}));
			try (ResultSet rs = ps.executeQuery()) {
				check(name + ": createArrayOf(\"" + name + "\", ...) binds as " + name + "[]",
					column(rs).equals(List.of("2")), ids);
			}
		}
		// round trip of a doc/formats.md vector: Java -> server -> Java
		try (PreparedStatement ins = conn.prepareStatement("INSERT INTO " + t + " (id, n) VALUES (?, 9)");
		     Statement st = conn.createStatement()) {
			ins.setObject(1, c[2], Types.OTHER);
			ins.executeUpdate();
			try (ResultSet rs = st.executeQuery("SELECT id, " + c[3] + " FROM " + t + " WHERE n = 9")) {
				rs.next();
				check(name + ": vector round-trips", c[2].equals(rs.getString(1)) && c[4].equals(rs.getString(2)),
					rs.getString(1) + " " + rs.getString(2));
			}
		}
	}

	// the four ways to bind an idgen value, as README shows them
	static void binding(String url) throws SQLException {
		try (Connection conn = DriverManager.getConnection(url);
		     Statement st = conn.createStatement()) {
			st.execute("CREATE TEMP TABLE orders (id iuid PRIMARY KEY DEFAULT iuid_generate(42, 5), item text)");
			st.execute("INSERT INTO orders VALUES ('017f22e2-79b0-802a-8141-23456789abcd', 'tea')");

			// setString sends a varchar: there is no iuid = character varying operator
			try (PreparedStatement ps = conn.prepareStatement("SELECT item FROM orders WHERE id = ?")) {
				ps.setString(1, "017f22e2-79b0-802a-8141-23456789abcd");
				ps.executeQuery();
				check("setString on an iuid parameter fails", false, "no error");
			} catch (SQLException e) {
				check("setString on an iuid parameter fails with 42883 (undefined_function)",
					"42883".equals(e.getSQLState()) && e.getMessage().contains("iuid = character varying"),
					e.getSQLState() + " " + e.getMessage());
			}

			// README begin: jdbc-bind
			String id = "017f22e2-79b0-802a-8141-23456789abcd";
			List<String> items = new ArrayList<>();
			try (PreparedStatement ps = conn.prepareStatement("SELECT item FROM orders WHERE id = ?")) {
				// 1. setObject with Types.OTHER: sent untyped, the server infers iuid
				ps.setObject(1, id, Types.OTHER);
				try (ResultSet rs = ps.executeQuery()) { rs.next(); items.add(rs.getString(1)); }
				// 2. a PGobject names the type
				PGobject value = new PGobject();
				value.setType("iuid");
				value.setValue(id);
				ps.setObject(1, value);
				try (ResultSet rs = ps.executeQuery()) { rs.next(); items.add(rs.getString(1)); }
			}
			// 3. a cast in the SQL, then setString is fine
			try (PreparedStatement ps = conn.prepareStatement("SELECT item FROM orders WHERE id = ?::iuid")) {
				ps.setString(1, id);
				try (ResultSet rs = ps.executeQuery()) { rs.next(); items.add(rs.getString(1)); }
			}
			// arrays: createArrayOf with the type's name; getArray gives PGobjects
			try (PreparedStatement ps = conn.prepareStatement(
					"SELECT array_agg(id) FROM orders WHERE id = ANY(?)")) {
				ps.setArray(1, conn.createArrayOf("iuid", new String[] {id}));
				try (ResultSet rs = ps.executeQuery()) {
					rs.next();
					Object[] ids = (Object[]) rs.getArray(1).getArray();
					items.add(((PGobject) ids[0]).getValue());
				}
			}
			// README end: jdbc-bind
			check("Types.OTHER, PGobject, ?::iuid and arrays bind an iuid",
				items.equals(List.of("tea", "tea", "tea", id)), items);
		}
		// README begin: jdbc-stringtype
		// 4. stringtype=unspecified: every setString is sent untyped, for the
		//    server to infer (also for text columns: the whole connection changes)
		List<String> row = new ArrayList<>();
		try (Connection conn = DriverManager.getConnection(url + "&stringtype=unspecified");
		     PreparedStatement ps = conn.prepareStatement(
				"SELECT iuid_country(?), base36id_worker(?), distid_to_hex(?), flaxid_timestamp(?)")) {
			ps.setString(1, "017f22e2-79b0-802a-8141-23456789abcd");
			ps.setString(2, "0ITS0030Z");
			ps.setString(3, "1088824355131185736905670087");
			ps.setString(4, "0RdKJcxqVBiAiQr0");
			try (ResultSet rs = ps.executeQuery()) {
				rs.next();
				row.add(rs.getString(1));
				row.add(rs.getString(2));
				row.add(rs.getString(3));
				row.add(rs.getTimestamp(4).toInstant().toString());
			}
		}
		// README end: jdbc-stringtype
		check("stringtype=unspecified: setString binds every idgen type",
			row.equals(List.of("42", "3", "000384A786907DB2AD82883DC7", "2015-10-15T20:10:25.807Z")), row);
	}

	static String plan(Connection conn, String query, Object... params) throws SQLException {
		try (Statement st = conn.createStatement()) {
			st.execute("SET enable_seqscan = off"); // the test table is small
		}
		StringBuilder out = new StringBuilder();
		try (PreparedStatement ps = conn.prepareStatement("EXPLAIN (COSTS OFF) " + query)) {
			for (int i = 0; i < params.length; i++)
				ps.setObject(i + 1, params[i]);
			try (ResultSet rs = ps.executeQuery()) {
				while (rs.next())
					out.append(rs.getString(1)).append('\n');
			}
		}
		try (Statement st = conn.createStatement()) {
			st.execute("RESET enable_seqscan");
		}
		return out.toString();
	}

	static boolean usesIndex(String plan) {
		return plan.contains("Index Scan") || plan.contains("Index Only Scan");
	}

	// Java's own types as parameters and results
	static void nativeValues(String url) throws SQLException {
		try (Connection conn = DriverManager.getConnection(url);
		     Statement st = conn.createStatement()) {
			st.execute("CREATE TEMP TABLE orders (id iuid PRIMARY KEY DEFAULT iuid_generate(42, 5),"
				+ " d distid UNIQUE DEFAULT distid_generate(), item text)");
			st.execute("INSERT INTO orders (item) SELECT 'item ' || g FROM generate_series(1, 200) g");
			st.execute("INSERT INTO orders VALUES ('017f22e2-79b0-802a-8141-23456789abcd', 42::numeric, 'the answer')");
			st.execute("ANALYZE orders");

			// README begin: jdbc-native
			UUID id = null;
			BigInteger d = null;
			try (PreparedStatement ps = conn.prepareStatement(
					"INSERT INTO orders (item) VALUES (?) RETURNING id, d")) {
				ps.setString(1, "tea");
				try (ResultSet rs = ps.executeQuery()) {
					rs.next();
					id = IdgenTypes.getIuid(rs, 1);      // java.util.UUID
					d = IdgenTypes.getDistid(rs, 2);     // java.math.BigInteger
				}
			}
			List<String> items = new ArrayList<>();
			try (PreparedStatement ps = conn.prepareStatement("SELECT item FROM orders WHERE id = ?")) {
				ps.setObject(1, id);                         // sent as uuid
				try (ResultSet rs = ps.executeQuery()) { rs.next(); items.add(rs.getString(1)); }
			}
			try (PreparedStatement ps = conn.prepareStatement("SELECT item FROM orders WHERE d = ?")) {
				ps.setObject(1, d);                          // sent as numeric
				try (ResultSet rs = ps.executeQuery()) { rs.next(); items.add(rs.getString(1)); }
			}
			UUID[] ids;
			BigInteger[] ds;
			try (PreparedStatement ps = conn.prepareStatement(
					"SELECT array_agg(id), array_agg(d) FROM orders WHERE id = ANY(?)")) {
				ps.setArray(1, conn.createArrayOf("uuid", new UUID[] {id}));
				try (ResultSet rs = ps.executeQuery()) {
					rs.next();
					ids = IdgenTypes.getIuidArray(rs, 1);    // UUID[]
					ds = IdgenTypes.getDistidArray(rs, 2);   // BigInteger[]
				}
			}
			// README end: jdbc-native
			check("RETURNING read as UUID and BigInteger",
				id != null && d != null && d.compareTo(BigInteger.TEN.pow(26)) > 0, id + " " + d);
			check("setObject(UUID) and setObject(BigInteger) find the row",
				items.equals(List.of("tea", "tea")), items);
			check("createArrayOf(\"uuid\", UUID[]) binds for = ANY; arrays read as UUID[] and BigInteger[]",
				ids != null && ids.length == 1 && id.equals(ids[0]) && ds != null && ds.length == 1
					&& d.equals(ds[0]), java.util.Arrays.toString(ids) + " " + java.util.Arrays.toString(ds));

			try (PreparedStatement ps = conn.prepareStatement("SELECT item FROM orders WHERE d = ?")) {
				ps.setLong(1, 42);                           // sent as bigint
				try (ResultSet rs = ps.executeQuery()) {
					check("setLong finds the row", rs.next() && "the answer".equals(rs.getString(1)), "");
				}
			}
			String p = plan(conn, "SELECT item FROM orders WHERE id = ?", id);
			check("setObject(UUID): EXPLAIN shows the index", usesIndex(p), p);
			p = plan(conn, "SELECT item FROM orders WHERE d = ?", d);
			check("setObject(BigInteger): EXPLAIN shows the index", usesIndex(p), p);
			p = plan(conn, "SELECT item FROM orders WHERE d = ?", 42L);
			check("setObject(Long): EXPLAIN shows the index", usesIndex(p), p);
			p = plan(conn, "SELECT item FROM orders WHERE id = ANY(?)", conn.createArrayOf("uuid", new UUID[] {id}));
			check("createArrayOf(\"uuid\", ...): EXPLAIN shows the index", usesIndex(p), p);

			// pgjdbc reads iuid as a PGobject: getObject(..., UUID.class) refuses it
			try (ResultSet rs = st.executeQuery("SELECT id FROM orders WHERE item = 'tea'")) {
				rs.next();
				try {
					Object got = rs.getObject(1, UUID.class);
					check("getObject(iuid, UUID.class) fails with this pgjdbc (doc/clients.md says so)", false, got);
				} catch (SQLException | RuntimeException e) {
					check("getObject(iuid, UUID.class) fails with this pgjdbc (doc/clients.md says so)", true, e);
				}
			}
			try (ResultSet rs = st.executeQuery("SELECT NULL::iuid, NULL::distid, ARRAY[NULL::iuid]")) {
				rs.next();
				UUID[] nulls = IdgenTypes.getIuidArray(rs, 3);
				check("IdgenTypes: NULL stays null", IdgenTypes.getIuid(rs, 1) == null
					&& IdgenTypes.getDistid(rs, 2) == null && nulls.length == 1 && nulls[0] == null, "");
			}
		}
		try (Connection conn = DriverManager.getConnection(url + "&stringtype=unspecified");
		     Statement st = conn.createStatement()) {
			st.execute("CREATE TEMP TABLE orders (id iuid PRIMARY KEY, item text)");
			st.execute("INSERT INTO orders VALUES ('017f22e2-79b0-802a-8141-23456789abcd', 'tea')");
			try (PreparedStatement ps = conn.prepareStatement("SELECT item FROM orders WHERE id = ?")) {
				ps.setString(1, "017f22e2-79b0-802a-8141-23456789abcd");
				try (ResultSet rs = ps.executeQuery()) {
					check("stringtype=unspecified: setString compares with an iuid column",
						rs.next() && "tea".equals(rs.getString(1)), "");
				}
			}
		}
	}

	public static void main(String[] args) throws Exception {
		String url = args[0];
		try {
			binding(url);
		} catch (SQLException | RuntimeException e) {
			check("binding", false, e);
		}
		try {
			nativeValues(url);
		} catch (SQLException | RuntimeException e) {
			check("native values", false, e);
		}
		try (Connection conn = DriverManager.getConnection(url)) {
			for (String[] c : CASES) {
				try {
					perType(conn, c);
				} catch (SQLException | RuntimeException e) {
					check(c[0], false, e);
				}
			}
		}
		System.out.println("jdbc: " + passed + " passed, " + failed + " failed");
		System.exit(failed > 0 || passed == 0 ? 1 : 0);
	}
}
