// idgen from Sequelize 6 (npm) with node-postgres.
//
// Models whose primary keys are iuid and distid columns filled by the
// database's DEFAULT; ids read back through RETURNING; lookups with a string
// and a BigInt; an association (foreign key) and an include (join); a bulk
// insert; a table range-partitioned by its iuid key.  Connects through the
// PG* environment variables.  Prints "sequelize: N passed, M failed" and
// exits 1 on a failure.
'use strict'
const { Sequelize, DataTypes, Op } = require('sequelize')

const { check, run } = require('../checks')

const env = process.env
// README begin: sequelize-models
const { registerIdgen } = require('idgen-pg-types') // clients/node

const sequelize = new Sequelize(env.PGDATABASE, env.PGUSER, env.PGPASSWORD, {
  dialect: 'postgres', host: env.PGHOST, port: env.PGPORT, logging: false,
  hooks: { afterConnect: registerIdgen } // distid as a BigInt, on every new connection
})

// a type Sequelize does not know is given as its SQL name
const Order = sequelize.define('order', {
  id: { type: 'iuid', primaryKey: true, defaultValue: sequelize.literal('iuid_generate(42, 1)') },
  item: { type: DataTypes.TEXT, allowNull: false }
}, { timestamps: false })
const Line = sequelize.define('line', {
  id: { type: 'distid', primaryKey: true, defaultValue: sequelize.literal('distid_generate()') },
  qty: { type: DataTypes.INTEGER, allowNull: false }
}, { timestamps: false })
Order.hasMany(Line, { foreignKey: { name: 'orderId', type: 'iuid', allowNull: false } })
Line.belongsTo(Order, { foreignKey: { name: 'orderId', type: 'iuid', allowNull: false } })
const Event = sequelize.define('event', {
  id: { type: 'iuid', primaryKey: true, defaultValue: sequelize.literal('iuid_generate(42, 2)') },
  payload: DataTypes.TEXT
}, { timestamps: false })
// README end: sequelize-models

async function main () {
  // README begin: sequelize-schema
  await Order.sync()
  await Line.sync()
  // sync() has no PARTITION BY: SQL
  await sequelize.query(`CREATE TABLE events (id iuid PRIMARY KEY DEFAULT iuid_generate(42, 2), payload text)
                         PARTITION BY RANGE (id)`)
  await sequelize.query(`SELECT idgen_create_partitions('events', date_trunc('month', now(), 'UTC'),
                                date_trunc('month', now(), 'UTC') + interval '3 months', '1 month')`)
  // README end: sequelize-schema
  const [[{ parts }]] = await sequelize.query(
    "SELECT count(*)::int AS parts FROM pg_inherits WHERE inhparent = 'events'::regclass")
  check('idgen_create_partitions made 3 partitions of events', parts === 3, parts)

  // README begin: sequelize-use
  const order = await Order.create({ item: 'tea' })   // INSERT ... RETURNING: order.id a string
  await Line.create({ orderId: order.id, qty: 2 })
  const line = await Line.create({ orderId: order.id, qty: 3 }) // line.id a BigInt
  const found = await Order.findByPk(order.id)
  const same = await Line.findByPk(line.id)
  const joined = await Line.findAll({
    where: { orderId: order.id },
    include: Order,
    attributes: ['qty', [sequelize.fn('iuid_country', sequelize.col('order.id')), 'country']],
    order: [['qty', 'ASC']]
  })
  const bulk = await Line.bulkCreate(
    Array.from({ length: 100 }, (_, q) => ({ orderId: order.id, qty: q })), { returning: ['id'] })
  // README end: sequelize-use
  check('RETURNING gives the iuid as a string', typeof order.id === 'string' && /^[0-9a-f]{8}-/.test(order.id), order.id)
  check('lookup by string finds the order', found && found.item === 'tea', found)
  check('distid key arrives as BigInt', typeof line.id === 'bigint' && line.id > 10n ** 20n, typeof line.id)
  check('lookup by BigInt finds the line', same && same.qty === 3 && same.id === line.id, same && same.qty)
  const rows = joined.map((l) => [l.order.item, l.qty, l.get('country')])
  check('include (join) with iuid_country', JSON.stringify(rows) === '[["tea",2,42],["tea",3,42]]', JSON.stringify(rows))
  const ids = bulk.map((l) => l.id)
  check('bulkCreate returns 100 distinct BigInt ids',
    new Set(ids.map(String)).size === 100 && ids.every((i) => typeof i === 'bigint'), ids.slice(0, 2))
  check('the order has 102 lines', (await order.countLines()) === 102)
  const many = await Order.findAll({ where: { id: { [Op.in]: [order.id, '017f22e2-79b0-802a-8141-23456789abcd'] } } })
  check('Op.in with strings', many.length === 1 && many[0].id === order.id, many.length)

  // README begin: sequelize-partitioned
  const event = await Event.create({ payload: 'signed up' })
  const [[{ partition }]] = await sequelize.query(
    'SELECT tableoid::regclass::text AS partition FROM events WHERE id = $1',
    { bind: [event.id] })                                              // events_YYYYMM01
  // README end: sequelize-partitioned
  check("the event is in this month's partition", partition.startsWith('events_2'), partition)
  const [plan] = await sequelize.query('EXPLAIN SELECT * FROM events WHERE id = $1', { bind: [event.id] })
  const text = plan.map((r) => r['QUERY PLAN']).join('\n')
  check("a lookup by string prunes to one partition's index",
    new Set(text.match(/events_\d{8}/g)).size === 1 && text.includes('Index Cond'), text)
}

run('sequelize', main, () => sequelize.close())
