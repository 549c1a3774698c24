#!/usr/bin/env node
// A solc stand-in for forge: forge cannot download native solc here, so it runs
// this file (foundry.toml `solc`), which answers the two calls forge makes
// with an npm solcjs compiler. forge reads every source itself and passes
// contents in the standard-JSON input, so no import callback is needed.
//
// This file serves today's compiler (npm `solc`); the third-party contracts
// the emulator deploys pin older ones, installed under aliases (e.g.
// `solc-0.8.17`) and served by sibling files that call `serve` with the
// alias (see foundry.toml's profiles).
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

/**
 * Answers forge's `--version` and `--standard-json` calls with the solcjs
 * compiler of the npm package `name`.
 */
export async function serve(name, args = process.argv.slice(2)) {
  const solc = createRequire(import.meta.url)(name)
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
      `${process.argv[1]} answers only --version and --standard-json (got: ${args.join(' ')})\n`,
    )
    process.exit(2)
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await serve('solc')
