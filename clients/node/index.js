'use strict'
// Type parsers for idgen's types with node-postgres (pg).
//
//   await registerIdgen(client)                          // per client
//   new pg.Pool({ types: await idgenTypes(client, pg.types) })   // per pool
//
// distid arrives as a BigInt (28 digits do not fit a Number), iuid, base36id
// and flaxid as strings; arrays of them as arrays.  Types have no fixed oids:
// they are looked up in the database at connect time.  node-postgres sends
// parameters as untyped text, so a string or a BigInt compares with an idgen
// column as it is.

const TYPES = {
  iuid: String,
  distid: BigInt,
  base36id: String,
  flaxid: String,
}

const LOOKUP = `SELECT typname, oid, typarray FROM pg_type
                 WHERE oid = ANY(ARRAY[to_regtype('iuid'), to_regtype('distid'),
                                       to_regtype('base36id'), to_regtype('flaxid')]::oid[])`

// a one- or more-dimensional array literal of idgen values: their text never
// needs quotes (no commas, braces, quotes, spaces or backslashes)
function parseArray(text, parse) {
  let pos = 0
  // an array may carry its bounds: [0:1]={...}
  if (text[0] === '[') pos = text.indexOf('=') + 1
  function list() {
    const out = []
    pos++ // '{'
    if (text[pos] === '}') {
      pos++
      return out
    }
    for (;;) {
      if (text[pos] === '{') {
        out.push(list())
      } else {
        let end = pos
        while (text[end] !== ',' && text[end] !== '}') end++
        const item = text.slice(pos, end)
        out.push(item === 'NULL' ? null : parse(item))
        pos = end
      }
      if (text[pos++] === '}') return out
    }
  }
  return list()
}

async function lookup(queryable) {
  const { rows } = await queryable.query(LOOKUP)
  const found = new Map(rows.map((r) => [r.typname, r]))
  for (const name of Object.keys(TYPES)) {
    if (!found.has(name)) {
      throw new Error(`type ${name} not found: CREATE EXTENSION idgen in this database`)
    }
  }
  const parsers = new Map()
  for (const [name, parse] of Object.entries(TYPES)) {
    const { oid, typarray } = found.get(name)
    parsers.set(Number(oid), parse)
    parsers.set(Number(typarray), (text) => parseArray(text, parse))
  }
  return parsers
}

// set the parsers on one client (its database's oids)
async function registerIdgen(client) {
  for (const [oid, parse] of await lookup(client)) client.setTypeParser(oid, parse)
}

// a `types` object for new pg.Pool({ types }) or new pg.Client({ types }):
// idgen's parsers, and base's (pg.types) for every other type
async function idgenTypes(queryable, base) {
  const parsers = await lookup(queryable)
  return {
    getTypeParser(oid, format) {
      if ((format === undefined || format === 'text') && parsers.has(oid)) return parsers.get(oid)
      return base.getTypeParser(oid, format)
    },
  }
}

module.exports = { registerIdgen, idgenTypes, parseArray }
