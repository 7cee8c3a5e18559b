/*
 * The pgjdbc types of idgen's values without a server: what they accept
 * (the text forms of doc/formats.md's vectors) and what they refuse, with
 * the server's SQLSTATEs.
 */
package org.idgen.jdbc;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.fail;

import java.math.BigInteger;
import java.sql.SQLException;
import java.util.UUID;
import org.junit.Test;

public class IdgenObjectTest {
	static void refused(String state, ThrowingRunnable r) {
		try {
			r.run();
			fail("accepted");
		} catch (SQLException e) {
			assertEquals(e.getMessage(), state, e.getSQLState());
		}
	}

	interface ThrowingRunnable {
		void run() throws SQLException;
	}

	@Test
	public void vectorsAreAccepted() throws SQLException {
		assertEquals("iuid", new Iuid("017f22e2-79b0-802a-8141-23456789abcd").getType());
		assertEquals("1088824355131185736905670087", new Distid("1088824355131185736905670087").getValue());
		assertEquals("0ITS0030Z", new Base36id("0ITS0030Z").getValue());
		assertEquals("0RdKJcxqVBiAiQr0", new Flaxid("0RdKJcxqVBiAiQr0").getValue());
	}

	@Test
	public void iuidIsAUuid() throws SQLException {
		UUID u = UUID.fromString("017f22e2-79b0-802a-8141-23456789abcd");
		assertEquals(u, new Iuid(u).toUUID());
		assertEquals(new Iuid(u), new Iuid("017F22E2-79B0-802A-8141-23456789ABCD"));
		assertNull(new Iuid().toUUID());
	}

	@Test
	public void distidIsANumber() throws SQLException {
		BigInteger max = BigInteger.TEN.pow(28).subtract(BigInteger.ONE);
		assertEquals(max, new Distid(max).toBigInteger());
		assertEquals(new Distid("42"), new Distid(BigInteger.valueOf(42)));
		refused("22003", () -> new Distid(BigInteger.TEN.pow(28)));
		refused("22003", () -> new Distid(BigInteger.valueOf(-1)));
	}

	@Test
	public void badTextIsRefused() {
		refused("22P02", () -> new Iuid("017f22e2-79b0-802a-8141-23456789abcg"));
		refused("22P02", () -> new Iuid("017f22e279b0802a814123456789abcd"));
		refused("22P02", () -> new Distid("10888243551317358690567008700"));
		refused("22P02", () -> new Distid("-1"));
		refused("22P02", () -> new Base36id("0its0030z"));
		refused("22P02", () -> new Base36id("0ITS0030"));
		refused("22P02", () -> new Flaxid("0RdKJcxqVBiAiQr"));
		refused("22P02", () -> new Flaxid("0RdKJcxqVBiAiQr+"));
	}
}
