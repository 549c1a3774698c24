#!/usr/bin/env node
// A solc stand-in for forge: forge cannot download native solc here, so it runs
// this file (foundry.toml `solc`), which answers the two calls forge makes
// with the npm `solc` (solcjs) compiler. forge reads every source itself and
// passes contents in the standard-JSON input, so no import callback is needed.
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const solc = require('solc')
const args = process.argv.slice(2)

if (args.includes('--version')) {
  process.stdout.write(
    `solc, the solidity compiler commandline interface\nVersion: ${solc.version()}\n`,
  )
} else if (args.includes('--standard-json')) {
  const chunks = []
  for await (const chunk of process.stdin) chunks.push(chunk)
  process.stdout.write(solc.compile(Buffer.concat(chunks).toString('utf8')))
} else {
  process.stderr.write(
    `scripts/solc.mjs answers only --version and --standard-json (got: ${args.join(' ')})\n`,
  )
  process.exit(2)
}
