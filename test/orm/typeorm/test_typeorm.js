// idgen from TypeORM 0.3 (npm) with node-postgres.
//
// TypeORM accepts only the column types it knows ('iuid' is refused with
// DataTypeNotSupportedError, checked below), so the keys are core-type
// columns that idgen's generators fill: uuid DEFAULT iuid_generate(...) and
// numeric(28,0) DEFAULT distid_generate(); iuid_country(id::iuid) and friends
// read them.  Ids read back through RETURNING; lookups with a string and a
// BigInt; a relation (foreign key) and a join; a bulk insert; a table
// range-partitioned by its key.  Connects through the PG* environment
// variables.  Prints "typeorm: N passed, M failed" and exits 1 on a failure.
'use strict'
const { DataSource, EntitySchema, In } = require('typeorm')

const { check, run } = require('../checks')

const env = process.env
const connection = {
  type: 'postgres', host: env.PGHOST, port: Number(env.PGPORT), username: env.PGUSER,
  password: env.PGPASSWORD, database: env.PGDATABASE
}

// README begin: typeorm-entities
// a distid in a numeric(28,0) column: a BigInt in JavaScript (a Number would lose digits)
const distid = { from: (v) => (v == null ? v : BigInt(v)), to: (v) => (v == null ? v : String(v)) }

const Order = new EntitySchema({
  name: 'Order',
  tableName: 'orders',
  columns: {
    id: { type: 'uuid', primary: true, default: () => 'iuid_generate(42, 1)' },
    item: { type: 'text' }
  },
  relations: { lines: { type: 'one-to-many', target: 'Line', inverseSide: 'order' } }
})
const Line = new EntitySchema({
  name: 'Line',
  tableName: 'lines',
  columns: {
    id: { type: 'numeric', precision: 28, scale: 0, primary: true,
          default: () => 'distid_generate()', transformer: distid },
    qty: { type: 'int' }
  },
  relations: {
    order: { type: 'many-to-one', target: 'Order', joinColumn: { name: 'order_id' }, nullable: false }
  }
})
const Event = new EntitySchema({ // the partitioned table is made in SQL
  name: 'Event',
  tableName: 'events',
  synchronize: false,
  columns: {
    id: { type: 'uuid', primary: true, default: () => 'iuid_generate(42, 2)' },
    payload: { type: 'text' }
  }
})
// README end: typeorm-entities

async function refusesIuid () {
  const Bad = new EntitySchema({ name: 'Bad', columns: { id: { type: 'iuid', primary: true } } })
  const ds = new DataSource({ ...connection, entities: [Bad] })
  try {
    await ds.initialize()
    await ds.destroy()
    return 'initialized'
  } catch (e) {
    if (ds.isInitialized) await ds.destroy()
    return e.name
  }
}

async function main () {
  check("TypeORM refuses a column of type 'iuid'",
    (await refusesIuid()) === 'DataTypeNotSupportedError', 'no error')

  // README begin: typeorm-schema
  const db = new DataSource({ ...connection, entities: [Order, Line, Event], synchronize: true })
  await db.initialize()
  // a uuid key holding iuids: iuid bounds as uuids, made in the DO block (idgen_create_partitions
  // takes a uuid key for DistributedId128s, whose bounds differ)
  await db.query('CREATE TABLE events (id uuid PRIMARY KEY DEFAULT iuid_generate(42, 2), payload text)' +
                 ' PARTITION BY RANGE (id)')
  await db.query(`DO $$
    DECLARE
      month0 timestamp := date_trunc('month', now() AT TIME ZONE 'UTC');
      lo timestamp;
    BEGIN
      FOR k IN 0..2 LOOP -- this month and the next two; a scheduled job keeps them ahead
        lo := month0 + make_interval(months => k);
        EXECUTE format('CREATE TABLE %I PARTITION OF events FOR VALUES FROM (%L) TO (%L)',
                       'events_' || to_char(lo, 'YYYYMMDD'),
                       iuid_from_timestamp(lo AT TIME ZONE 'UTC')::uuid,
                       iuid_from_timestamp((lo + interval '1 month') AT TIME ZONE 'UTC')::uuid);
      END LOOP;
    END $$`)
  // README end: typeorm-schema

  // README begin: typeorm-use
  const orders = db.getRepository('Order')
  const lines = db.getRepository('Line')
  const order = await orders.save({ item: 'tea' })        // INSERT ... RETURNING "id": a string
  await lines.save([{ order, qty: 2 }, { order, qty: 3 }])
  const found = await orders.findOneBy({ id: order.id })
  const first = await lines.findOne({ where: { order: { id: order.id } }, order: { qty: 'ASC' } })
  const same = await lines.findOneBy({ id: first.id })    // first.id: a BigInt
  const joined = await lines.createQueryBuilder('l').innerJoin('l.order', 'o')
    .select(['o.item AS item', 'l.qty AS qty', 'iuid_country(o.id::iuid) AS country'])
    .where('o.id = :id', { id: order.id }).orderBy('l.qty').getRawMany()
  const bulk = await lines.createQueryBuilder().insert()
    .values(Array.from({ length: 100 }, (_, q) => ({ order: { id: order.id }, qty: q })))
    .returning('id').execute()
  // README end: typeorm-use
  check('RETURNING gives the id as a string', typeof order.id === 'string' && /^[0-9a-f]{8}-/.test(order.id), order.id)
  const [{ entity }] = await db.query('SELECT iuid_entity($1::uuid::iuid) AS entity', [order.id])
  check('iuid_entity(id::iuid) reads the uuid key', entity === 1, entity)
  check('lookup by string finds the order', found && found.item === 'tea', found)
  check('a numeric(28,0) key arrives as a BigInt', typeof first.id === 'bigint' && first.id > 10n ** 20n, first.id)
  check('lookup by BigInt finds the line', same && same.qty === 2, same && same.qty)
  check('join with iuid_country(o.id::iuid)',
    JSON.stringify(joined) === '[{"item":"tea","qty":2,"country":42},{"item":"tea","qty":3,"country":42}]',
    JSON.stringify(joined))
  const ids = bulk.raw.map((r) => r.id)
  check('a bulk insert returns 100 distinct ids', new Set(ids).size === 100, ids.length)
  const many = await orders.findBy({ id: In([order.id, '017f22e2-79b0-802a-8141-23456789abcd']) })
  check('In([...]) with strings', many.length === 1, many.length)
  const [{ ts }] = await db.query(
    'SELECT distid_timestamp($1::distid) > now() - interval \'1 hour\' AS ts', [String(first.id)])
  check('distid_timestamp(id::distid) reads the numeric key', ts === true, ts)

  // README begin: typeorm-partitioned
  const event = await db.getRepository('Event').save({ payload: 'signed up' })
  const [{ partition }] = await db.query(
    'SELECT tableoid::regclass::text AS partition FROM events WHERE id = $1', [event.id]) // events_YYYYMM01
  // README end: typeorm-partitioned
  check("the event is in this month's partition", /^events_\d{6}01$/.test(partition), partition)
  const [{ parts }] = await db.query(
    "SELECT count(*)::int AS parts FROM pg_inherits WHERE inhparent = 'events'::regclass")
  check('3 partitions of events', parts === 3, parts)
  await db.destroy()
}

run('typeorm', main)
