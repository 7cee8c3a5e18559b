// idgen from Drizzle ORM (npm) with node-postgres.
//
// Tables whose primary keys are iuid and distid columns (Drizzle's custom
// types) filled by the database's DEFAULT; ids read back through RETURNING;
// lookups with a string and a BigInt; a foreign key and a join; a bulk
// insert; a table range-partitioned by its iuid key.  Connects through the
// PG* environment variables.  Prints "drizzle: N passed, M failed" and exits
// 1 on a failure.
'use strict'
const pg = require('pg')
const { drizzle } = require('drizzle-orm/node-postgres')
const { customType, integer, pgTable, text } = require('drizzle-orm/pg-core')
const { asc, eq, inArray, sql } = require('drizzle-orm')
const { check, run } = require('../checks')

// README begin: drizzle-schema
// idgen's types as Drizzle custom types: iuid a string, distid a BigInt (the
// driver returns a string); both are sent as untyped text, read by the server
// as the column's type
const iuid = customType({ dataType: () => 'iuid' })
const distid = customType({
  dataType: () => 'distid',
  fromDriver: (v) => BigInt(v),
  toDriver: (v) => String(v)
})

const orders = pgTable('orders', {
  id: iuid('id').primaryKey().default(sql`iuid_generate(42, 1)`),
  item: text('item').notNull()
})
const lines = pgTable('lines', {
  id: distid('id').primaryKey().default(sql`distid_generate()`),
  orderId: iuid('order_id').notNull().references(() => orders.id),
  qty: integer('qty').notNull()
})
const events = pgTable('events', { // partitioned by its key: made in SQL below
  id: iuid('id').primaryKey().default(sql`iuid_generate(42, 2)`),
  payload: text('payload')
})
// README end: drizzle-schema

const client = new pg.Client() // PGHOST, PGDATABASE ...

async function main () {
  // README begin: drizzle-connect
  await client.connect()
  const db = drizzle(client)
  // the tables (drizzle-kit would generate this SQL from the schema)
  await db.execute(sql`CREATE TABLE orders (id iuid PRIMARY KEY DEFAULT iuid_generate(42, 1),
                                            item text NOT NULL)`)
  await db.execute(sql`CREATE TABLE lines (id distid PRIMARY KEY DEFAULT distid_generate(),
                                           order_id iuid NOT NULL REFERENCES orders, qty int NOT NULL)`)
  await db.execute(sql`CREATE TABLE events (id iuid PRIMARY KEY DEFAULT iuid_generate(42, 2), payload text)
                       PARTITION BY RANGE (id)`)
  await db.execute(sql`SELECT idgen_create_partitions('events', date_trunc('month', now(), 'UTC'),
                              date_trunc('month', now(), 'UTC') + interval '3 months', '1 month')`)
  // README end: drizzle-connect
  const { rows: [{ parts }] } = await db.execute(
    sql`SELECT count(*)::int AS parts FROM pg_inherits WHERE inhparent = 'events'::regclass`)
  check('idgen_create_partitions made 3 partitions of events', parts === 3, parts)

  // README begin: drizzle-use
  const [{ id: orderId }] = await db.insert(orders).values({ item: 'tea' })
    .returning({ id: orders.id })                                           // a string
  const made = await db.insert(lines).values([{ orderId, qty: 2 }, { orderId, qty: 3 }])
    .returning({ id: lines.id })                                            // BigInts
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId))
  const [line] = await db.select().from(lines).where(eq(lines.id, made[0].id))
  const joined = await db.select({ item: orders.item, qty: lines.qty,
                                   country: sql`iuid_country(${orders.id})`.mapWith(Number) })
    .from(lines).innerJoin(orders, eq(lines.orderId, orders.id))
    .where(eq(orders.id, orderId)).orderBy(asc(lines.qty))
  const bulk = await db.insert(lines)
    .values(Array.from({ length: 100 }, (_, q) => ({ orderId, qty: q })))
    .returning({ id: lines.id })
  // README end: drizzle-use
  check('RETURNING gives the iuid as a string', typeof orderId === 'string' && /^[0-9a-f]{8}-/.test(orderId), orderId)
  check('distid keys arrive as BigInt', typeof made[0].id === 'bigint' && made[0].id > 10n ** 20n, typeof made[0].id)
  check('lookup by string finds the order', order && order.item === 'tea', JSON.stringify(order))
  check('lookup by BigInt finds the line', line && line.qty === 2 && line.id === made[0].id, line && line.qty)
  check('join orders-lines with iuid_country',
    JSON.stringify(joined) === '[{"item":"tea","qty":2,"country":42},{"item":"tea","qty":3,"country":42}]',
    JSON.stringify(joined))
  const ids = bulk.map((r) => r.id)
  check('a bulk insert returns 100 distinct BigInt ids',
    new Set(ids.map(String)).size === 100 && ids.every((i) => typeof i === 'bigint'), ids.length)
  check('bulk ids increase', ids.every((v, i) => i === 0 || ids[i - 1] < v), ids.slice(0, 2))
  const many = await db.select().from(orders)
    .where(inArray(orders.id, [orderId, '017f22e2-79b0-802a-8141-23456789abcd']))
  check('inArray with strings', many.length === 1 && many[0].id === orderId, many.length)

  // README begin: drizzle-partitioned
  const [event] = await db.insert(events).values({ payload: 'signed up' })
    .returning({ id: events.id, partition: sql`tableoid::regclass::text` }) // events_YYYYMM01
  // README end: drizzle-partitioned
  check("the event is in this month's partition", /^events_\d{6}01$/.test(event.partition), event.partition)
  const { rows: plan } = await db.execute(sql`EXPLAIN SELECT * FROM events WHERE id = ${event.id}`)
  const text = plan.map((r) => r['QUERY PLAN']).join('\n')
  check("a lookup by string prunes to one partition's index",
    new Set(text.match(/events_\d{8}/g)).size === 1 && text.includes('Index Cond'), text)
}

run('drizzle', main, () => client.end())
