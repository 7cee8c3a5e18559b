// idgen from Knex 3 (npm) with node-postgres.
//
// Tables whose primary keys are iuid and distid columns filled by the
// database's DEFAULT; ids read back through RETURNING; lookups with a string
// and a BigInt; a foreign key and a join; a bulk insert; a table
// range-partitioned by its iuid key.  Connects through the PG* environment
// variables.  Prints "knex: N passed, M failed" and exits 1 on a failure.
'use strict'
const knexFactory = require('knex')

const { check, run } = require('../checks')

// README begin: knex-connection
const { registerIdgen } = require('idgen-pg-types') // clients/node

// distid as a BigInt (28 digits do not fit a Number), arrays as arrays: the
// parsers go by oid, which differs between databases, so each new connection
// of the pool looks them up
const knex = knexFactory({
  client: 'pg',
  connection: {}, // PGHOST, PGDATABASE ...
  pool: {
    min: 0,
    max: 2,
    afterCreate: (conn, done) => registerIdgen(conn).then(() => done(null, conn), done)
  }
})
// README end: knex-connection

async function main () {
  // README begin: knex-schema
  await knex.schema.createTable('orders', (t) => {
    t.specificType('id', 'iuid').primary().defaultTo(knex.raw('iuid_generate(42, 1)'))
    t.text('item').notNullable()
  })
  await knex.schema.createTable('lines', (t) => {
    t.specificType('id', 'distid').primary().defaultTo(knex.raw('distid_generate()'))
    t.specificType('order_id', 'iuid').notNullable().references('orders.id')
    t.integer('qty').notNullable()
  })
  // the schema builder has no PARTITION BY: SQL
  await knex.raw(`CREATE TABLE events (id iuid PRIMARY KEY DEFAULT iuid_generate(42, 2), payload text)
                  PARTITION BY RANGE (id)`)
  await knex.raw(`SELECT idgen_create_partitions('events', date_trunc('month', now(), 'UTC'),
                         date_trunc('month', now(), 'UTC') + interval '3 months', '1 month')`)
  // README end: knex-schema
  const { rows: [{ parts }] } = await knex.raw(
    "SELECT count(*)::int AS parts FROM pg_inherits WHERE inhparent = 'events'::regclass")
  check('idgen_create_partitions made 3 partitions of events', parts === 3, parts)

  // README begin: knex-use
  const [{ id: orderId }] = await knex('orders').insert({ item: 'tea' }).returning('id') // a string
  const lineIds = (await knex('lines').insert([{ order_id: orderId, qty: 2 }, { order_id: orderId, qty: 3 }])
    .returning('id')).map((r) => r.id)                                                  // BigInts
  const order = await knex('orders').where({ id: orderId }).first()
  const line = await knex('lines').where({ id: lineIds[0] }).first()
  const joined = await knex('orders').join('lines', 'lines.order_id', 'orders.id')
    .where('orders.id', orderId).orderBy('qty')
    .select('item', 'qty', knex.raw('iuid_country(orders.id) AS country'))
  const bulk = await knex.batchInsert('lines',
    Array.from({ length: 100 }, (_, q) => ({ order_id: orderId, qty: q })), 50).returning('id')
  const { ids } = await knex('lines').where({ order_id: orderId })
    .select(knex.raw('array_agg(id ORDER BY id) AS ids')).first()                      // [BigInt]
  // README end: knex-use
  check('RETURNING gives the iuid as a string', typeof orderId === 'string' && /^[0-9a-f]{8}-/.test(orderId), orderId)
  check('lookup by string finds the order', order && order.item === 'tea', JSON.stringify(order))
  check('distid keys arrive as BigInt', typeof lineIds[0] === 'bigint' && lineIds[0] > 10n ** 20n, lineIds[0])
  check('lookup by BigInt finds the line', line && line.qty === 2 && line.id === lineIds[0], line && line.qty)
  check('join orders-lines with iuid_country',
    JSON.stringify(joined) === JSON.stringify([{ item: 'tea', qty: 2, country: 42 }, { item: 'tea', qty: 3, country: 42 }]),
    JSON.stringify(joined))
  const bulkIds = bulk.map((r) => r.id)
  check('batchInsert returns 100 distinct BigInt ids',
    new Set(bulkIds.map(String)).size === 100 && bulkIds.every((i) => typeof i === 'bigint'), bulkIds.length)
  check('a distid[] arrives as BigInts', ids.length === 102 && typeof ids[0] === 'bigint', typeof ids[0])
  const many = await knex('orders').whereIn('id', [orderId, '017f22e2-79b0-802a-8141-23456789abcd'])
  check('whereIn with strings', many.length === 1 && many[0].id === orderId, many.length)
  const { rows: [{ found }] } = await knex.raw('SELECT array_agg(id) AS found FROM orders WHERE id = ANY(?)', [[orderId]])
  check('an iuid[] arrives as an array of strings', Array.isArray(found) && found[0] === orderId, found)

  // README begin: knex-partitioned
  const [event] = await knex('events').insert({ payload: 'signed up' })
    .returning(['id', knex.raw('tableoid::regclass::text AS partition')]) // events_YYYYMM01
  // README end: knex-partitioned
  check("the event is in this month's partition", event.partition.startsWith('events_2'), event.partition)
  const plan = (await knex.raw('EXPLAIN SELECT * FROM events WHERE id = ?', [event.id])).rows
    .map((r) => r['QUERY PLAN']).join('\n')
  check("a lookup by string prunes to one partition's index",
    new Set(plan.match(/events_\d{8}/g)).size === 1 && plan.includes('Index Cond'), plan)
}

run('knex', main, () => knex.destroy())
