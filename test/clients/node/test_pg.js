'use strict'
// idgen from node-postgres: every idgen type, bound parameters, arrays.
//
// Connects with libpq's environment (PGHOST, PGPORT, PGUSER, PGDATABASE) to a
// server with idgen installed, preloaded and idgen.worker_id set.  Prints one
// line per check and "node-postgres: N passed, M failed"; exits 1 on any
// failure.  The regions between "README begin/end" lines are quoted verbatim
// in doc/clients.md.

// README begin: node-postgres-types
const pg = require('pg')

// idgen's types arrive as strings, distid as a BigInt (28 digits do not fit
// a Number); arrays of them (iuid[] ...) need a parser, which needs the array
// types' oids: they differ between databases, so look them up per client.
async function registerIdgen(client) {
  const { rows } = await client.query(
    `SELECT typname, oid, typarray FROM pg_type
      WHERE oid IN ('iuid'::regtype, 'distid'::regtype, 'base36id'::regtype, 'flaxid'::regtype)`)
  const parseTextArray = pg.types.getTypeParser(1009) // text[]
  for (const { typname, oid, typarray } of rows) {
    const parse = typname === 'distid' ? BigInt : String
    client.setTypeParser(oid, parse)
    client.setTypeParser(typarray, (text) =>
      parseTextArray(text).map((v) => (v === null ? null : parse(v))))
  }
}
// README end: node-postgres-types

let passed = 0
let failed = 0
function check(name, ok, detail) {
  if (ok) {
    passed++
    console.log(`ok - ${name}`)
  } else {
    failed++
    console.log(`not ok - ${name} ${detail === undefined ? '' : JSON.stringify(detail, replacer)}`)
  }
}
function replacer(_key, v) {
  return typeof v === 'bigint' ? `${v}n` : v
}
function same(a, b) {
  return JSON.stringify(a, replacer) === JSON.stringify(b, replacer)
}

// type, DEFAULT generator, JS type of a value, a doc/formats.md vector, an extractor
// and what it gives for the vector
const CASES = [
  ['iuid', 'iuid_generate(42, 5)', 'string', '017f22e2-79b0-802a-8141-23456789abcd',
    'iuid_country($1)', 42],
  ['distid', 'distid_generate()', 'bigint', 1088824355131185736905670087n,
    'distid_to_alphanumeric($1)', '3zfAkCP7ZtzfeQYp'],
  ['base36id', 'base36id_generate()', 'string', '0ITS0030Z', 'base36id_counter($1)', 35],
  ['flaxid', 'flaxid_generate()', 'string', '0RdKJcxqVBiAiQr0',
    "to_char(flaxid_timestamp($1) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS')",
    '2015-10-15 20:10:25.807'],
]

async function perType(client, [name, dflt, jsType, vector, extractor, expected]) {
  const t = `clients_${name}`
  await client.query(`CREATE TEMP TABLE ${t} (id ${name} PRIMARY KEY DEFAULT ${dflt}, n int)`)
  const ids = []
  for (let n = 0; n < 3; n++) {
    const { rows } = await client.query(`INSERT INTO ${t} (n) VALUES ($1) RETURNING id`, [n])
    ids.push(rows[0].id)
  }
  check(`${name}: DEFAULT ids arrive as ${jsType}`, ids.every((i) => typeof i === jsType), ids)
  check(`${name}: ids increase`, ids[0] < ids[1] && ids[1] < ids[2], ids)
  let r = await client.query(`SELECT n FROM ${t} WHERE id = $1`, [ids[1]])
  check(`${name}: select by id as a bound parameter`, same(r.rows, [{ n: 1 }]), r.rows)
  r = await client.query(`SELECT array_agg(id ORDER BY id) AS a FROM ${t}`)
  check(`${name}: ${name}[] parses to an array`, same(r.rows[0].a, ids), r.rows[0].a)
  r = await client.query(`SELECT count(*)::int AS c FROM ${t} WHERE id = ANY($1)`, [[ids[0], ids[2]]])
  check(`${name}: an array binds as ${name}[]`, r.rows[0].c === 2, r.rows)
  r = await client.query(`SELECT id::text AS s FROM ${t} ORDER BY id`)
  check(`${name}: JS value prints as the server's text`,
    same(r.rows.map((x) => x.s), ids.map(String)), r.rows)
  // round trip of a doc/formats.md vector: JS -> server -> JS
  r = await client.query(`SELECT $1::${name}::text AS s, ${extractor} AS x, $1::${name} AS v`,
    [vector])
  check(`${name}: vector round-trips`,
    same(r.rows[0], { s: String(vector), x: expected, v: vector }), r.rows[0])
}

async function readmeExample() {
  // README begin: node-postgres-usage
  const client = new pg.Client() // PGHOST, PGDATABASE ... or a connection string
  await client.connect()
  await registerIdgen(client)
  await client.query(`CREATE TEMP TABLE orders (
                        id iuid PRIMARY KEY DEFAULT iuid_generate(42, 5), item text)`)
  const { rows: [{ id }] } = await client.query(
    'INSERT INTO orders (item) VALUES ($1) RETURNING id', ['tea']) // a string
  const { rows: [{ item }] } = await client.query(
    'SELECT item FROM orders WHERE id = $1', [id])
  const { rows: [{ ids }] } = await client.query(
    'SELECT array_agg(id) AS ids FROM orders') // [ '01a2...' ], not '{01a2...}'
  const { rows: found } = await client.query(
    'SELECT item FROM orders WHERE id = ANY($1)', [ids])
  // README end: node-postgres-usage
  await client.end()
  check('README example: insert, select by id, arrays',
    typeof id === 'string' && item === 'tea' && same(ids, [id]) && same(found, [{ item: 'tea' }]),
    { id, item, ids, found })
}

async function main() {
  // without registerIdgen an iuid[] is the unparsed array literal
  const plain = new pg.Client()
  await plain.connect()
  try {
    const r = await plain.query(`SELECT '017f22e2-79b0-802a-8141-23456789abcd'::iuid AS v,
                                        ARRAY['017f22e2-79b0-802a-8141-23456789abcd'::iuid] AS a`)
    check('unregistered: an iuid is a string', r.rows[0].v === '017f22e2-79b0-802a-8141-23456789abcd',
      r.rows[0].v)
    check('unregistered: iuid[] is a string', r.rows[0].a === '{017f22e2-79b0-802a-8141-23456789abcd}',
      r.rows[0].a)
  } finally {
    await plain.end()
  }

  try {
    await readmeExample()
  } catch (e) {
    check('README example', false, `raised ${e.message}`)
  }

  const client = new pg.Client()
  await client.connect()
  try {
    await registerIdgen(client)
    for (const [what, fn] of CASES.map((c) => [c[0], () => perType(client, c)])) {
      try {
        await fn()
      } catch (e) {
        check(what, false, `raised ${e.message}`)
      }
    }
  } finally {
    await client.end()
  }
  console.log(`node-postgres: ${passed} passed, ${failed} failed`)
  process.exitCode = failed || !passed ? 1 : 0
}

main().catch((e) => {
  console.log(`not ok - ${e.stack}`)
  console.log(`node-postgres: ${passed} passed, ${failed + 1} failed`)
  process.exitCode = 1
})
