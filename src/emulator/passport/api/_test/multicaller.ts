/**
 * Immutable's GuardedMulticaller2, compiled from the published
 * @imtbl/contracts for the tests that execute a crafting signature on chain.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import type { Abi, Hex } from 'viem'

const require = createRequire(import.meta.url)

/** solcjs 0.8.27, the newest compiler GuardedMulticaller2's pragma allows. */
const solc = require('solc-0.8.27') as {
  compile(
    input: string,
    callbacks: {
      import(path: string): { contents: string } | { error: string }
    },
  ): string
}

/**
 * Immutable's GuardedMulticaller2 from the published @imtbl/contracts
 * 3.1.1, compiled as it is: the contract the crafting signature is for.
 */
export function compileMulticaller(): { abi: Abi; bytecode: Hex } {
  // The package exports no package.json: its folder is its entry's parent's.
  const root = `${dirname(dirname(require.resolve('@imtbl/contracts')))}/`
  const openZeppelin = require
    .resolve('@openzeppelin/contracts/package.json')
    .replace(/package\.json$/, '')
  const source = 'contracts/multicall/GuardedMulticaller2.sol'
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources: {
          [source]: { content: readFileSync(`${root}${source}`, 'utf8') },
        },
        settings: {
          outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
        },
      }),
      {
        // The package maps OpenZeppelin 5 under this prefix (its remapping).
        import: (path) => {
          const file = path.startsWith('openzeppelin-contracts-5/')
            ? `${openZeppelin}${path.slice('openzeppelin-contracts-5/'.length)}`
            : `${root}${path}`
          try {
            return { contents: readFileSync(file, 'utf8') }
          } catch {
            return { error: `Not found: ${path}` }
          }
        },
      },
    ),
  ) as {
    errors?: { severity: string; formattedMessage: string }[]
    contracts: Record<
      string,
      Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>
    >
  }
  const errors = (output.errors ?? []).filter(
    (error) => error.severity === 'error',
  )
  if (errors.length > 0)
    throw new Error(errors.map((error) => error.formattedMessage).join('\n'))
  const contract = output.contracts[source]?.GuardedMulticaller2
  if (!contract) throw new Error('GuardedMulticaller2 was not compiled.')
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` }
}
