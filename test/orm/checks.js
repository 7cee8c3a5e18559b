// What the Node ORM programs share: their checks and their output (one line
// per check, then "NAME: N passed, M failed"; exit status 1 on a failure).
'use strict'
const counts = { passed: 0, failed: 0 }

function check (what, ok, detail) {
  counts[ok ? 'passed' : 'failed']++
  console.log(`${ok ? 'ok' : 'not ok'} - ${what}${ok ? '' : ': ' + detail}`)
}

// run main; an exception is one failure; then cleanup and the summary line
function run (name, main, cleanup) {
  main().catch((e) => {
    // an ORM's error may wrap the server's (e.original) and carry its SQL
    const why = (e.original && e.original.message) || e.message
    check('the program ran', false, `${why}${e.sql ? ' in ' + e.sql : ''}\n${e.stack}`)
  }).finally(async () => {
    if (cleanup) await cleanup()
    console.log(`${name}: ${counts.passed} passed, ${counts.failed} failed`)
    process.exitCode = counts.failed || !counts.passed ? 1 : 0
  })
}

module.exports = { check, run }
