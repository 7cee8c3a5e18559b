'use strict'
// idgen from node-postgres: every idgen type, bound parameters, arrays; a
// string and a BigInt as parameters, with the index; a Pool.
//
// Connects with libpq's environment (PGHOST, PGPORT, PGUSER, PGDATABASE) to a
// server with idgen installed, preloaded and idgen.worker_id set.  Prints one
// line per check and "node-postgres: N passed, M failed"; exits 1 on any
// failure.  The regions between "README begin/end" lines are quoted verbatim
// in doc/clients.md.

const path = require('path')
const pg = require('pg')
// the package as a user installs it: clients/node of this repository
const { registerIdgen, idgenTypes } = require(path.join(__dirname, '..', '..', '..', 'clients', 'node'))

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

async function usesIndex(client, query, params) {
  await client.query('SET enable_seqscan = off') // the test table is small
  try {
    const { rows } = await client.query(`EXPLAIN (COSTS OFF) ${query}`, params)
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n')
    return [/Index (Only )?Scan/.test(plan), plan]
  } finally {
    await client.query('RESET enable_seqscan')
  }
}

async function readmeExample() {
  // README begin: node-postgres-usage
  const pg = require('pg')
  const { registerIdgen } = require('idgen-pg-types') // clients/node

  const client = new pg.Client() // PGHOST, PGDATABASE ... or a connection string
  await client.connect()
  await registerIdgen(client)
  await client.query(`CREATE TEMP TABLE orders (
                        id iuid PRIMARY KEY DEFAULT iuid_generate(42, 5),
                        d distid UNIQUE DEFAULT distid_generate(), item text)`)
  const { rows: [{ id, d }] } = await client.query(
    'INSERT INTO orders (item) VALUES ($1) RETURNING id, d', ['tea']) // a string, a BigInt
  const { rows: [{ item }] } = await client.query(
    'SELECT item FROM orders WHERE id = $1', [id])
  const { rows: [byD] } = await client.query(
    'SELECT item FROM orders WHERE d = $1', [d])
  const { rows: [{ ids, ds }] } = await client.query(
    'SELECT array_agg(id) AS ids, array_agg(d) AS ds FROM orders') // [ '01a2...' ], [ 1234...n ]
  const { rows: found } = await client.query(
    'SELECT item FROM orders WHERE id = ANY($1) AND d = ANY($2)', [ids, ds])
  // README end: node-postgres-usage
  check('README example: RETURNING gives a string and a BigInt',
    typeof id === 'string' && typeof d === 'bigint' && d > 10n ** 26n, { id, d })
  check('README example: a string finds the row', item === 'tea', item)
  check('README example: a BigInt finds the row', same(byD, { item: 'tea' }), byD)
  check('README example: arrays parse to arrays of strings and BigInts',
    same(ids, [id]) && same(ds, [d]) && typeof ds[0] === 'bigint', { ids, ds })
  check('README example: arrays bind for = ANY', same(found, [{ item: 'tea' }]), found)

  // the same queries use the indexes
  for (const [what, query, params] of [
    ['a string', 'SELECT item FROM orders WHERE id = $1', [id]],
    ['a BigInt', 'SELECT item FROM orders WHERE d = $1', [d]],
    ['an array of strings', 'SELECT item FROM orders WHERE id = ANY($1)', [ids]],
    ['an array of BigInts', 'SELECT item FROM orders WHERE d = ANY($1)', [ds]],
  ]) {
    const [ok, plan] = await usesIndex(client, query, params)
    check(`${what}: EXPLAIN shows the index`, ok, plan)
  }
  await client.end()
}

async function pool() {
  const lookup = new pg.Client()
  await lookup.connect()
  // README begin: node-postgres-pool
  const types = await idgenTypes(lookup, pg.types) // one client of the pool's database
  const pool = new pg.Pool({ types })
  const { rows: [made] } = await pool.query('SELECT distid_generate() AS d, ARRAY[iuid_generate(42, 5)] AS i')
  // README end: node-postgres-pool
  await lookup.end()
  await pool.end()
  check('Pool({ types: idgenTypes(...) }): a BigInt and an array of strings',
    typeof made.d === 'bigint' && Array.isArray(made.i) && typeof made.i[0] === 'string', made)
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

  for (const [what, fn] of [['README example', readmeExample], ['pool', pool]]) {
    try {
      await fn()
    } catch (e) {
      check(what, false, `raised ${e.message}`)
    }
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
