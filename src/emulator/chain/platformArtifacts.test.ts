import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import {
  type BuildName,
  fingerprint,
  generatedPath,
  packageOf,
  patchConsideration,
  platformBuilds,
  readBuild,
  renderPlatformModule,
  repoRoot,
  seaportCoreDir,
  sourceText,
} from '../../../scripts/platform-artifacts.js'
import * as Platform from './platformArtifacts.generated.js'
import {
  ConduitController,
  ERC1967Proxy,
  ImmutableERC721V2,
  ImmutableERC1155,
  ImmutableSeaport,
  ImmutableSignedZoneV2,
  OperatorAllowlistUpgradeable,
} from './platformArtifacts.generated.js'

const npmConsideration = readFileSync(
  join(repoRoot, 'node_modules/seaport-core/src/lib/Consideration.sol'),
  'utf8',
)

/** The ABI's function names. */
const functions = (abi: readonly { type: string; name?: string }[]) =>
  abi.filter((item) => item.type === 'function').map((item) => item.name)

const builds = Object.keys(platformBuilds) as BuildName[]
const built = builds.every((name) =>
  Object.entries(platformBuilds[name].contracts).every(([contract, spec]) =>
    existsSync(
      join(
        repoRoot,
        'contracts/out',
        `platform-${platformBuilds[name].profile}`,
        spec.source.slice(spec.source.lastIndexOf('/') + 1),
        `${contract}.json`,
      ),
    ),
  ),
)

describe('platformArtifacts.generated.ts', () => {
  // The build takes a minute or more; this recomputes the fingerprint of
  // what it read (sources, compilers, forge settings) instead, in a second.
  test('behavior: is current: the fingerprint of the sources, compilers and forge settings is the recorded one', async () => {
    const { fingerprint: current, packages } = await fingerprint(
      Platform.platformSources,
    )
    expect(packages).toEqual(Platform.platformPackages)
    expect(current, 'stale: run `npx tsx scripts/platform-artifacts.ts`').toBe(
      Platform.platformInputsFingerprint,
    )
    // It hashes every source and the compilers (megabytes of files): on a
    // machine busy with the rest of the suite that passes Vitest's 5 s.
  }, 30_000)

  test('comes from @imtbl/contracts 3.1.1 and seaport-core 1.5.0', () => {
    expect(Platform.platformPackages['@imtbl/contracts']).toBe('3.1.1')
    expect(Platform.platformPackages['seaport-core']).toBe('1.5.0')
    expect(Platform.platformPackages['seaport-types']).toBe('0.0.1')
  })

  test('every contract carries its ABI and creation bytecode', () => {
    const artifacts = {
      ImmutableSeaport,
      ConduitController,
      ImmutableSignedZoneV2,
      ImmutableERC721V2,
      ImmutableERC1155,
      OperatorAllowlistUpgradeable,
      ERC1967Proxy,
    }
    const entryPoints = {
      ImmutableSeaport: [
        'information',
        'setAllowedZone',
        'fulfillAdvancedOrder',
      ],
      ConduitController: ['getConduitCodeHashes'],
      ImmutableSignedZoneV2: ['validateOrder', 'addSigner', 'sip7Information'],
      ImmutableERC721V2: [
        'safeMint',
        'mintBatchByQuantity',
        'safeMintBatch',
        'grantMinterRole',
      ],
      ImmutableERC1155: ['safeMint', 'safeMintBatch', 'grantMinterRole'],
      OperatorAllowlistUpgradeable: ['initialize', 'isAllowlisted'],
      ERC1967Proxy: [],
    } as const
    for (const [name, wanted] of Object.entries(entryPoints)) {
      const artifact = artifacts[name as keyof typeof entryPoints]
      expect(artifact.bytecode, name).toMatch(/^0x(?:[0-9a-f]{2})+$/)
      expect(functions(artifact.abi), name).toEqual(
        expect.arrayContaining([...wanted]),
      )
    }
  })

  // contracts/out is not committed: it exists after a build.
  test.skipIf(!built)(
    'matches the last forge build exactly (skipped when contracts/out has none: run `npx tsx scripts/platform-artifacts.ts`)',
    async () => {
      const read = await Promise.all(builds.map((name) => readBuild(name)))
      const sources = {} as Record<BuildName, string[]>
      const artifacts = {} as Parameters<
        typeof renderPlatformModule
      >[0]['artifacts']
      builds.forEach((name, index) => {
        sources[name] = read[index]?.sources ?? []
        artifacts[name] = read[index]?.artifacts ?? {}
      })
      const { fingerprint: hash, inputs, packages } = await fingerprint(sources)
      expect(readFileSync(join(repoRoot, generatedPath), 'utf8')).toBe(
        renderPlatformModule({
          fingerprint: hash,
          inputs,
          packages,
          artifacts,
        }),
      )
    },
  )
})

describe('the seaport-core tree ImmutableSeaport is built against', () => {
  test("behavior: Consideration.sol's eight entry points become public virtual, as in Immutable's fork", () => {
    const patched = patchConsideration(npmConsideration)
    expect(npmConsideration.match(/\bexternal\b/g)?.length).toBeGreaterThan(8)
    const entryPoints = [
      'fulfillBasicOrder',
      'fulfillBasicOrder_efficient_6GL6yc',
      'fulfillOrder',
      'fulfillAdvancedOrder',
      'fulfillAvailableOrders',
      'fulfillAvailableAdvancedOrders',
      'matchOrders',
      'matchAdvancedOrders',
    ]
    for (const name of entryPoints) {
      // The declaration from its name to its body's opening brace.
      const declaration = new RegExp(`function ${name}\\([^{]*\\{`)
      expect(declaration.exec(npmConsideration)?.[0], name).toMatch(
        /\bexternal\b/,
      )
      const after = declaration.exec(patched)?.[0] ?? ''
      expect(after, name).toMatch(/\bpublic\b/)
      expect(after, name).toMatch(/\bvirtual\b/)
      expect(after, name).not.toMatch(/\bexternal\b/)
    }
    // Nothing else changes: undoing the two edits gives the npm text back.
    expect(
      patched
        .replaceAll(
          /\n(\s+)public\n(\s+)payable\n\s+virtual\n(\s+)override\n/g,
          '\n$1external\n$2payable\n$3override\n',
        )
        .replaceAll(
          ') public payable virtual override returns',
          ') external payable override returns',
        ),
    ).toBe(npmConsideration)
  })

  test('error: another version of Consideration.sol is refused', () => {
    expect(() => patchConsideration('contract Consideration {}')).toThrow(
      "Consideration.sol is not seaport-core 1.5.0's: found 0 + 0 external entry points, expected 2 + 6",
    )
    expect(() =>
      patchConsideration(patchConsideration(npmConsideration)),
    ).toThrow('found 0 + 0')
  })

  test('behavior: a source under the tree reads from the npm package, patched for Consideration.sol only', () => {
    expect(sourceText(`${seaportCoreDir}/src/lib/Consideration.sol`)).toBe(
      patchConsideration(npmConsideration),
    )
    expect(sourceText(`${seaportCoreDir}/src/lib/Executor.sol`)).toBe(
      readFileSync(
        join(repoRoot, 'node_modules/seaport-core/src/lib/Executor.sol'),
        'utf8',
      ),
    )
    expect(packageOf(`${seaportCoreDir}/src/lib/Executor.sol`)).toBe(
      'seaport-core',
    )
    expect(
      packageOf('node_modules/@imtbl/contracts/contracts/allowlist/x.sol'),
    ).toBe('@imtbl/contracts')
    expect(packageOf('node_modules/seaport-types/src/lib/x.sol')).toBe(
      'seaport-types',
    )
    expect(packageOf('contracts/platform/seaport/Seaport.sol')).toBeUndefined()
  })
})
