// Writes src/emulator/chain/artifacts.generated.ts: `{ abi, bytecode }` of our
// test tokens (compiled by `forge build` into contracts/out) and of the
// Sequence v1 wallet contracts (from the @0xsequence/wallet-contracts npm
// package), plus the Sequence wallet proxy creation code.
//
//   npx tsx scripts/artifacts.ts           # forge build, then write the file
//   npx tsx scripts/artifacts.ts --check   # forge build, fail if out of date
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Abi, Hex } from 'viem'
import { foundryBinaryPath } from '../src/emulator/chain/anvil.js'

/** The repository root (this file lives in `<root>/scripts`). */
export const repoRoot = fileURLToPath(new URL('..', import.meta.url))

/** Where the generated module is written, relative to the root. */
export const generatedPath = 'src/emulator/chain/artifacts.generated.ts'

/** The Sequence package the wallet contracts come from. */
const sequencePackage = 'node_modules/@0xsequence/wallet-contracts'

/**
 * The Sequence v1 contracts we deploy, with their artifact paths under
 * `artifacts/contracts` and a line of TSDoc for the generated export.
 */
export const sequenceContracts = {
  Factory: {
    path: 'Factory.sol/Factory.json',
    doc: 'Deploys wallets with CREATE2: `deploy(mainModule, salt = imageHash)`.',
  },
  MainModule: {
    path: 'modules/MainModule.sol/MainModule.json',
    doc: 'Wallet implementation that checks signers against the CREATE2 salt. `constructor(address _factory)`.',
  },
  MainModuleUpgradable: {
    path: 'modules/MainModuleUpgradable.sol/MainModuleUpgradable.json',
    doc: 'Wallet implementation that keeps the image hash in storage (after a config update). No constructor arguments.',
  },
  GuestModule: {
    path: 'modules/GuestModule.sol/GuestModule.json',
    doc: 'Unauthenticated batch executor: a relayer uses it to deploy a wallet and call `execute` in one transaction.',
  },
  SequenceUtils: {
    path: 'modules/utils/SequenceUtils.sol/SequenceUtils.json',
    doc: 'Multicall and require utilities. `constructor(address _factory, address _mainModule)`.',
  },
} as const

/** Our contracts (test tokens, the sponsored-call delegate, the game wallet's co-signer), compiled by forge into `contracts/out`. */
export const ownContracts = {
  CoSigner:
    "The game wallet's ERC-1271 co-signer: `isValidSignature(hash, r ‖ s ‖ v ‖ type)` accepts its signer's key (type 1 over the hash, 2 over its eth_sign form), or the previous key until the rollover expires. `constructor(address signer)`; the deployer owns it.",
  SponsoredCallDelegate:
    'EIP-7702 delegate for sponsored calls: `execute(calls, nonce, deadline, signature)` runs calls the account itself signed (EIP-712), from the account.',
  TestERC20: 'Faucet ERC-20 (18 decimals): anyone may `mint(to, amount)`.',
  TestERC721:
    'Test ERC-721: anyone may `mint(to)`, which returns the new id (1, 2, ...).',
  TestERC1155:
    'Test ERC-1155: anyone may `mint(to, id, amount, data)`; `uri(id)` is a data URI.',
} as const

/** The Sequence v1 wallet proxy creation code (`Wallet.creationCode`). */
export const expectedWalletCreationCode =
  '0x603a600e3d39601a805130553df3363d3d373d3d3d363d30545af43d82803e903d91601857fd5bf3'

/** A contract's ABI and creation bytecode. */
export type Artifact = { abi: Abi; bytecode: Hex }

/** Names of the Sequence contracts in the generated module. */
export type SequenceName = keyof typeof sequenceContracts

/** Names of our test tokens in the generated module. */
export type OwnContractName = keyof typeof ownContracts

/**
 * Reads `creationCode = hex"..."` out of the Sequence `Wallet.sol` source.
 *
 * @throws {Error} when the source has no such constant.
 */
export function walletCreationCodeFromSource(source: string): Hex {
  const match = /creationCode\s*=\s*hex"([0-9a-fA-F]+)"/.exec(source)
  if (!match?.[1]) throw new Error('Wallet.sol has no creationCode hex literal')
  return `0x${match[1].toLowerCase()}`
}

/**
 * Reads the Sequence contracts' artifacts and the wallet creation code from
 * the installed @0xsequence/wallet-contracts package.
 *
 * @throws {Error} if `Wallet.sol` does not hold the expected creation code.
 */
export function readSequenceArtifacts(root: string = repoRoot): {
  version: string
  artifacts: Record<SequenceName, Artifact>
  walletCreationCode: Hex
} {
  const base = join(root, sequencePackage)
  const version = readJson<{ version: string }>(
    join(base, 'package.json'),
  ).version
  const artifacts = {} as Record<SequenceName, Artifact>
  for (const [name, { path }] of entries(sequenceContracts)) {
    const json = readJson<Artifact>(join(base, 'artifacts/contracts', path))
    artifacts[name] = { abi: json.abi, bytecode: json.bytecode }
  }
  const walletCreationCode = walletCreationCodeFromSource(
    readFileSync(join(base, 'contracts/Wallet.sol'), 'utf8'),
  )
  if (walletCreationCode !== expectedWalletCreationCode)
    throw new Error(
      `Wallet.sol creationCode is ${walletCreationCode}, expected ${expectedWalletCreationCode}`,
    )
  return { version, artifacts, walletCreationCode }
}

/** Path of a token's forge artifact, relative to the root. */
export function ownArtifactPath(name: OwnContractName): string {
  return `contracts/out/${name}.sol/${name}.json`
}

/**
 * Reads our tokens' artifacts from `contracts/out` (run `forge build` first).
 */
export function readTokenArtifacts(
  root: string = repoRoot,
): Record<OwnContractName, Artifact> {
  const artifacts = {} as Record<OwnContractName, Artifact>
  for (const [name] of entries(ownContracts)) {
    const json = readJson<{ abi: Abi; bytecode: { object: Hex } }>(
      join(root, ownArtifactPath(name)),
    )
    artifacts[name] = { abi: json.abi, bytecode: json.bytecode.object }
  }
  return artifacts
}

/** Renders the text of `artifacts.generated.ts`. Pure. */
export function renderArtifactsModule(options: {
  sequenceVersion: string
  sequence: Record<SequenceName, Artifact>
  tokens: Record<OwnContractName, Artifact>
  walletCreationCode: Hex
}): string {
  const { sequenceVersion, sequence, tokens, walletCreationCode } = options
  const from = `@0xsequence/wallet-contracts@${sequenceVersion}`
  const lines = [
    '// Generated by scripts/artifacts.ts. Do not edit by hand.',
    '// Regenerate: `npx tsx scripts/artifacts.ts` (runs `forge build` first).',
    '// Check it is current: `npx tsx scripts/artifacts.ts --check`.',
    `// Sources: contracts/src (forge) and ${from}.`,
    '',
    `/** Version of @0xsequence/wallet-contracts the Sequence artifacts come from. */`,
    `export const sequenceWalletContractsVersion = '${sequenceVersion}'`,
    '',
    `/** Sequence v1 wallet proxy creation code (\`Wallet.creationCode\`, ${from}); init code = this ‖ uint256(mainModule). */`,
    `export const walletCreationCode = '${walletCreationCode}'`,
  ]
  const render = (name: string, doc: string, artifact: Artifact) => {
    const abi = JSON.stringify(artifact.abi, null, 2).replaceAll('\n', '\n  ')
    lines.push(
      '',
      `/** ${doc} */`,
      `export const ${name} = {`,
      `  abi: ${abi},`,
      `  bytecode: '${artifact.bytecode}',`,
      '} as const',
    )
  }
  for (const [name, { doc }] of entries(sequenceContracts))
    render(name, `Sequence v1 \`${name}\` (${from}). ${doc}`, sequence[name])
  for (const [name, doc] of entries(ownContracts))
    render(name, `${doc} Built from contracts/src/${name}.sol.`, tokens[name])
  return `${lines.join('\n')}\n`
}

/** Runs `forge build` in the root with the npm forge binary. */
export function forgeBuild(root: string = repoRoot): void {
  execFileSync(foundryBinaryPath('forge'), ['build'], {
    cwd: root,
    stdio: 'inherit',
  })
}

/** Builds the contracts and renders the module from the fresh artifacts. */
export function generateArtifactsModule(root: string = repoRoot): string {
  forgeBuild(root)
  const { version, artifacts, walletCreationCode } = readSequenceArtifacts(root)
  return renderArtifactsModule({
    sequenceVersion: version,
    sequence: artifacts,
    tokens: readTokenArtifacts(root),
    walletCreationCode,
  })
}

function readJson<value>(path: string): value {
  return JSON.parse(readFileSync(path, 'utf8')) as value
}

function entries<key extends string, value>(
  record: Record<key, value>,
): [key, value][] {
  return Object.entries(record) as [key, value][]
}

function main(argv: readonly string[]): void {
  const check = argv.includes('--check')
  const target = join(repoRoot, generatedPath)
  const text = generateArtifactsModule()
  if (!check) {
    writeFileSync(target, text)
    console.log(`wrote ${generatedPath}`)
    return
  }
  let current = ''
  try {
    current = readFileSync(target, 'utf8')
  } catch {}
  if (current === text) {
    console.log(`${generatedPath} is up to date`)
    return
  }
  console.error(
    `${generatedPath} is out of date: run \`npx tsx scripts/artifacts.ts\``,
  )
  process.exitCode = 1
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  main(process.argv.slice(2))
