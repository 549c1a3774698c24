// Writes src/emulator/chain/platformArtifacts.generated.ts: `{ abi, bytecode }`
// of the third-party contracts the emulated platform deploys (Immutable's
// seaport and signed zone, its ERC-721 and ERC-1155 presets and operator
// allowlist), built by forge from their npm sources (foundry.toml profiles
// `seaport` and `presets`), and a fingerprint of everything the build read.
//
//   npx tsx scripts/platform-artifacts.ts           # build, then write the file
//   npx tsx scripts/platform-artifacts.ts --check   # build, fail if out of date
//
// The build takes a minute or more (the seaport goes through solc's IR
// pipeline in WebAssembly), so the unit suite does not rebuild: it
// recomputes the fingerprint from the sources, the compilers' versions and
// forge's settings, and compares it with the one in the generated file.
import { execFile } from 'node:child_process'
import {
  cpSync,
  existsSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { type Abi, type Hex, keccak256, stringToBytes } from 'viem'
import { foundryBinaryPath } from '../src/emulator/chain/anvil.js'

/** The repository root (this file lives in `<root>/scripts`). */
export const repoRoot = fileURLToPath(new URL('..', import.meta.url))

/** Where the generated module is written, relative to the root. */
export const generatedPath = 'src/emulator/chain/platformArtifacts.generated.ts'

/**
 * Where the seaport profile reads seaport-core from (foundry.toml remaps
 * `seaport-core/` there): the npm seaport-core 1.5.0 with the one change
 * Immutable's fork of it (1.5.0+im1) makes, see {@link patchConsideration}.
 * Written before each build; not committed.
 */
export const seaportCoreDir = 'contracts/cache/seaport-core-1.5.0+im1'

/** The npm package {@link seaportCoreDir} is made from. */
const seaportCorePackage = 'node_modules/seaport-core'

/** A contract of a build: its source as forge names it, and its TSDoc. */
type ContractSpec = { source: string; doc: string }

/**
 * The builds: each a foundry.toml profile, the npm solcjs package its
 * `solc` shim serves, and the contracts taken from it.
 */
export const platformBuilds = {
  seaport: {
    profile: 'seaport',
    compiler: 'solc-0.8.17',
    contracts: {
      ImmutableSeaport: {
        source:
          'node_modules/@imtbl/contracts/contracts/trading/seaport/ImmutableSeaport.sol',
        doc: "Immutable's Seaport 1.5 (EIP-712 domain `ImmutableSeaport` version `1.5`): fulfils only restricted orders whose zone the owner allowed (`setAllowedZone`). `constructor(address conduitController, address owner)`.",
      },
      ConduitController: {
        source: `${seaportCoreDir}/src/conduit/ConduitController.sol`,
        doc: "Seaport's conduit controller: the seaport's constructor reads its conduit code hashes. No constructor arguments.",
      },
    },
  },
  presets: {
    profile: 'presets',
    compiler: 'solc-0.8.27',
    contracts: {
      ImmutableSignedZoneV2: {
        source:
          'node_modules/@imtbl/contracts/contracts/trading/seaport/zones/immutable-signed-zone/v2/ImmutableSignedZoneV2.sol',
        doc: "Immutable's SIP-7 signed zone (substandards 3, 4 and 6): an order is fulfilled only with extra data an active signer signed (EIP-712 domain: the zone's name, version `2.0`). `constructor(string zoneName, string apiEndpoint, string documentationURI, address owner)`.",
      },
      ImmutableERC721V2: {
        source:
          'node_modules/@imtbl/contracts/contracts/token/erc721/preset/ImmutableERC721V2.sol',
        doc: "Immutable's ERC-721 preset: minter-role mints by id (`safeMint`, `mintBatch`, `safeMintBatch`) and by quantity (`mintByQuantity`, `mintBatchByQuantity`); approvals and transfers checked against an operator allowlist. `constructor(address owner, string name, string symbol, string baseURI, string contractURI, address operatorAllowlist, address royaltyReceiver, uint96 feeNumerator)`.",
      },
      ImmutableERC1155: {
        source:
          'node_modules/@imtbl/contracts/contracts/token/erc1155/preset/ImmutableERC1155.sol',
        doc: "Immutable's ERC-1155 preset: minter-role mints (`safeMint`, `safeMintBatch`); approvals and transfers checked against an operator allowlist. `constructor(address owner, string name, string baseURI, string contractURI, address operatorAllowlist, address royaltyReceiver, uint96 feeNumerator)`.",
      },
      OperatorAllowlistUpgradeable: {
        source:
          'node_modules/@imtbl/contracts/contracts/allowlist/OperatorAllowlistUpgradeable.sol',
        doc: "Immutable's operator allowlist, which the presets ask whether an operator, sender or receiver contract may hold or move tokens. Deployed behind {@link ERC1967Proxy}; `initialize(address roleAdmin, address upgradeAdmin, address registrarAdmin)`.",
      },
      ERC1967Proxy: {
        source:
          'node_modules/openzeppelin-contracts-4/proxy/ERC1967/ERC1967Proxy.sol',
        doc: "OpenZeppelin 4.9's ERC-1967 proxy, which the operator allowlist (UUPS) is deployed behind. `constructor(address implementation, bytes data)`.",
      },
    },
  },
} as const satisfies Record<
  string,
  {
    profile: string
    compiler: string
    contracts: Record<string, ContractSpec>
  }
>

/** Names of the builds. */
export type BuildName = keyof typeof platformBuilds

/** Names of the contracts in the generated module. */
export type PlatformContractName = {
  [build in BuildName]: keyof (typeof platformBuilds)[build]['contracts']
}[BuildName]

/** A contract's ABI and creation bytecode. */
export type Artifact = { abi: Abi; bytecode: Hex }

/**
 * The forge settings that decide the bytecode, as `forge config --json`
 * names them; the fingerprint covers them.
 */
const settingKeys = [
  'solc',
  'evm_version',
  'via_ir',
  'optimizer',
  'optimizer_runs',
  'optimizer_details',
  'remappings',
  'libraries',
  'bytecode_hash',
  'cbor_metadata',
  'revert_strings',
  'use_literal_content',
] as const

/**
 * Turns seaport-core 1.5.0's `Consideration.sol` into that of Immutable's
 * fork (1.5.0+im1, which @imtbl/contracts builds ImmutableSeaport against):
 * the eight fulfil and match entry points become `public virtual` instead
 * of `external`, so that ImmutableSeaport can check the zone and call
 * `super`. Nothing else in the tree differs from the npm package.
 *
 * @throws {Error} when the text does not hold exactly those eight entry
 *   points (another seaport-core version).
 */
export function patchConsideration(text: string): string {
  let multiline = 0
  let inline = 0
  const patched = text
    .replace(
      /\n(\s+)external\n(\s+)payable\n(\s+)override\n/g,
      (_, a: string, b: string, c: string) => {
        multiline++
        return `\n${a}public\n${b}payable\n${c}virtual\n${c}override\n`
      },
    )
    .replace(/\) external payable override returns/g, () => {
      inline++
      return ') public payable virtual override returns'
    })
  if (multiline !== 2 || inline !== 6)
    throw new Error(
      `Consideration.sol is not seaport-core 1.5.0's: found ${multiline} + ${inline} external entry points, expected 2 + 6`,
    )
  return patched
}

/** Path of Consideration.sol under a seaport-core tree. */
const considerationPath = 'src/lib/Consideration.sol'

/**
 * The text forge compiles for a source path: the file itself, or for a
 * path under {@link seaportCoreDir} the npm seaport-core file it is made
 * from (patched for Consideration.sol). Reads nothing under
 * {@link seaportCoreDir}, so it also works before the tree is written.
 */
export function sourceText(path: string, root: string = repoRoot): string {
  if (!path.startsWith(`${seaportCoreDir}/`))
    return readFileSync(join(root, path), 'utf8')
  const inPackage = path.slice(seaportCoreDir.length + 1)
  const text = readFileSync(join(root, seaportCorePackage, inPackage), 'utf8')
  return inPackage === considerationPath ? patchConsideration(text) : text
}

/** Writes {@link seaportCoreDir} from the npm seaport-core package. */
export function writeSeaportCore(root: string = repoRoot): void {
  const target = join(root, seaportCoreDir)
  rmSync(target, { recursive: true, force: true })
  cpSync(join(root, seaportCorePackage, 'src'), join(target, 'src'), {
    recursive: true,
  })
  const consideration = `${seaportCoreDir}/${considerationPath}`
  writeFileSync(join(root, consideration), sourceText(consideration, root))
}

const run = promisify(execFile)

/** A profile's resolved configuration (`forge config --json`). */
async function profileConfig(
  profile: string,
  root: string,
): Promise<Record<string, unknown>> {
  const { stdout } = await run(
    foundryBinaryPath('forge'),
    ['config', '--json'],
    {
      cwd: root,
      env: { ...process.env, FOUNDRY_PROFILE: profile },
      maxBuffer: 16 * 1024 * 1024,
    },
  )
  return JSON.parse(stdout) as Record<string, unknown>
}

/** The forge settings of a profile that the fingerprint covers. */
export async function profileSettings(
  profile: string,
  root: string = repoRoot,
): Promise<Record<string, unknown>> {
  const config = await profileConfig(profile, root)
  return Object.fromEntries(
    settingKeys.map((key) => [key, config[key] ?? null]),
  )
}

/** The version of an installed npm package. */
function packageVersion(name: string, root: string): string {
  const manifest = join(root, 'node_modules', name, 'package.json')
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string })
    .version
}

/**
 * The npm package a source path comes from (`seaport-core` for the tree
 * made from it), or `undefined` for a file of this repository.
 */
export function packageOf(path: string): string | undefined {
  if (path.startsWith(`${seaportCoreDir}/`)) return 'seaport-core'
  const match = /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)
  return match?.[1]
}

/** What the fingerprint covers, for one build. */
export type BuildInputs = {
  /** The npm solcjs package and its version. */
  compiler: { package: string; version: string }
  /** The profile's forge settings ({@link profileSettings}). */
  settings: Record<string, unknown>
  /** The contracts taken from the build and their sources. */
  contracts: Record<string, string>
  /** Every source the contracts were compiled from, with its keccak256. */
  sources: [path: string, keccak256: Hex][]
}

/**
 * The fingerprint of a build's inputs: keccak256 of the forge version and,
 * per build, the compiler, forge's settings, the contracts and the
 * keccak256 of every source. Any change to what the build reads changes
 * it (a new import shows as a changed source that imports it).
 *
 * @param sources - Per build, the source paths the contracts were built from.
 */
export async function fingerprint(
  sources: Record<BuildName, readonly string[]>,
  root: string = repoRoot,
): Promise<{
  fingerprint: Hex
  inputs: Record<BuildName, BuildInputs>
  packages: Record<string, string>
}> {
  const names = Object.keys(platformBuilds) as BuildName[]
  const settings = await Promise.all(
    names.map((name) => profileSettings(platformBuilds[name].profile, root)),
  )
  const inputs = {} as Record<BuildName, BuildInputs>
  names.forEach((name, index) => {
    const build = platformBuilds[name]
    inputs[name] = {
      compiler: {
        package: build.compiler,
        version: packageVersion(build.compiler, root),
      },
      settings: settings[index] ?? {},
      contracts: Object.fromEntries(
        Object.entries(build.contracts).map(([contract, spec]) => [
          contract,
          (spec as ContractSpec).source,
        ]),
      ),
      sources: [...sources[name]]
        .sort()
        .map((path) => [
          path,
          keccak256(stringToBytes(sourceText(path, root))),
        ]),
    }
  })
  const forge = packageVersion('@foundry-rs/forge', root)
  const packages: Record<string, string> = {}
  for (const name of Object.values(sources)
    .flat()
    .map(packageOf)
    .filter((name) => name !== undefined)
    .sort())
    packages[name] = packageVersion(name, root)
  return {
    fingerprint: keccak256(
      stringToBytes(JSON.stringify({ forge, packages, inputs })),
    ),
    inputs,
    packages,
  }
}

/** A forge artifact, as far as this script reads it. */
type ForgeArtifact = {
  abi: Abi
  bytecode: { object: Hex }
  metadata: {
    compiler: { version: string }
    settings: { compilationTarget: Record<string, string> }
    sources: Record<string, { keccak256: Hex }>
  }
}

/** Runs `forge build` for a profile (the seaport-core tree must exist). */
export async function forgeBuild(
  profile: string,
  root: string = repoRoot,
): Promise<void> {
  await run(foundryBinaryPath('forge'), ['build'], {
    cwd: root,
    env: { ...process.env, FOUNDRY_PROFILE: profile },
    maxBuffer: 64 * 1024 * 1024,
  })
}

/**
 * Reads a build's artifacts, checking each is the contract asked for and
 * was compiled from the sources on disk.
 *
 * @throws {Error} when an artifact is missing, names another target, or was
 *   built from a source whose text has changed since.
 */
export async function readBuild(
  name: BuildName,
  root: string = repoRoot,
): Promise<{ artifacts: Record<string, Artifact>; sources: string[] }> {
  const build = platformBuilds[name]
  const out = String((await profileConfig(build.profile, root)).out)
  const artifacts: Record<string, Artifact> = {}
  const sources = new Set<string>()
  for (const [contract, spec] of Object.entries(build.contracts)) {
    const { source } = spec as ContractSpec
    const file = source.slice(source.lastIndexOf('/') + 1)
    const path = join(root, out, file, `${contract}.json`)
    if (!existsSync(path))
      throw new Error(
        `${path} is missing: the ${build.profile} build did not produce ${contract}`,
      )
    const json = JSON.parse(readFileSync(path, 'utf8')) as ForgeArtifact
    const target = json.metadata.settings.compilationTarget
    if (target[source] !== contract)
      throw new Error(`${path} is not ${contract} of ${source}`)
    for (const [used, { keccak256: hash }] of Object.entries(
      json.metadata.sources,
    )) {
      if (keccak256(stringToBytes(sourceText(used, root))) !== hash)
        throw new Error(`${used} changed after the ${build.profile} build`)
      sources.add(used)
    }
    artifacts[contract] = { abi: json.abi, bytecode: json.bytecode.object }
  }
  return { artifacts, sources: [...sources].sort() }
}

/** Renders the text of the generated module. Pure. */
export function renderPlatformModule(options: {
  fingerprint: Hex
  inputs: Record<BuildName, BuildInputs>
  packages: Record<string, string>
  artifacts: Record<BuildName, Record<string, Artifact>>
}): string {
  const { fingerprint: hash, inputs, packages, artifacts } = options
  const lines = [
    '// Generated by scripts/platform-artifacts.ts. Do not edit by hand.',
    '// Regenerate: `npx tsx scripts/platform-artifacts.ts` (runs forge, a minute or more).',
    '// Check it is current: `npx tsx scripts/platform-artifacts.ts --check`.',
    '',
    '/**',
    ' * keccak256 of everything the build read: the forge version, and per build',
    ' * the compiler, forge settings, contracts and the keccak256 of every source.',
    ' * The unit suite recomputes it to tell whether this file is stale.',
    ' */',
    `export const platformInputsFingerprint = '${hash}'`,
    '',
    '/** The npm packages the sources come from, and their versions. */',
    'export const platformPackages = {',
    ...Object.entries(packages).map(
      ([name, version]) => `  '${name}': '${version}',`,
    ),
    '} as const',
    '',
    '/** Per build (foundry.toml profile), every source its contracts were compiled from. */',
    'export const platformSources = {',
  ]
  for (const [name, input] of Object.entries(inputs) as [
    BuildName,
    BuildInputs,
  ][]) {
    lines.push(`  ${name}: [`)
    for (const [path] of input.sources) lines.push(`    '${path}',`)
    lines.push('  ],')
  }
  lines.push('} as const')
  for (const [name, build] of Object.entries(platformBuilds) as [
    BuildName,
    (typeof platformBuilds)[BuildName],
  ][]) {
    const { compiler } = inputs[name]
    for (const [contract, spec] of Object.entries(build.contracts)) {
      const artifact = artifacts[name][contract]
      if (!artifact) throw new Error(`No artifact for ${contract}`)
      const abi = JSON.stringify(artifact.abi, null, 2).replaceAll('\n', '\n  ')
      lines.push(
        '',
        `/** ${(spec as ContractSpec).doc} Built from ${(spec as ContractSpec).source} by solc ${compiler.version} (forge profile \`${build.profile}\`). */`,
        `export const ${contract} = {`,
        `  abi: ${abi},`,
        `  bytecode: '${artifact.bytecode}',`,
        '} as const',
      )
    }
  }
  return `${lines.join('\n')}\n`
}

/**
 * Writes the seaport-core tree, runs both builds (in parallel: each is one
 * solcjs process) and renders the module from the fresh artifacts.
 */
export async function generatePlatformModule(
  root: string = repoRoot,
): Promise<string> {
  writeSeaportCore(root)
  const names = Object.keys(platformBuilds) as BuildName[]
  await Promise.all(
    names.map((name) => forgeBuild(platformBuilds[name].profile, root)),
  )
  const builds = await Promise.all(names.map((name) => readBuild(name, root)))
  const sources = {} as Record<BuildName, string[]>
  const artifacts = {} as Record<BuildName, Record<string, Artifact>>
  names.forEach((name, index) => {
    const build = builds[index]
    if (!build) throw new Error(`No build ${name}`)
    sources[name] = build.sources
    artifacts[name] = build.artifacts
  })
  const {
    fingerprint: hash,
    inputs,
    packages,
  } = await fingerprint(sources, root)
  return renderPlatformModule({
    fingerprint: hash,
    inputs,
    packages,
    artifacts,
  })
}

async function main(argv: readonly string[]): Promise<void> {
  const check = argv.includes('--check')
  const target = join(repoRoot, generatedPath)
  const text = await generatePlatformModule()
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
    `${generatedPath} is out of date: run \`npx tsx scripts/platform-artifacts.ts\``,
  )
  process.exitCode = 1
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  await main(process.argv.slice(2))
