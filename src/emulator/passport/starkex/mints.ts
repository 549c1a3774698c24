/**
 * Collections, projects and mints of the legacy exchange API:
 *
 * - `POST /v1/collections`, signed by a project owner (`IMX-Signature`: its
 *   EIP-191 signature over the `IMX-Timestamp` text, unix seconds within
 *   {@link timestampSkewSeconds} of now, as the published x-client signs
 *   it) → 201 `Collection`. The collection's minter is the owner of its
 *   `owner_public_key` (the contract owner's uncompressed public key). A
 *   project is made by the first collection naming its `project_id`, owned
 *   by that collection's signer; a later collection of the project must be
 *   signed by the same owner (else 403);
 * - `GET /v1/collections` (page, order, `whitelist`, `blacklist`,
 *   `keyword`) and `GET /v1/collections/{address}`;
 * - `GET /v1/projects/{id}`, signed by the project's owner as above;
 * - `POST /v2/mints` `[MintRequest]`: each request's `auth_signature` is
 *   the collection minter's EIP-191 signature over the Keccak-256 hash (as
 *   `0x` hex text) of the request's JSON with an empty `auth_signature`,
 *   rebuilt as the published x-client builds it; every user must be a
 *   registered account and every token new. All tokens are checked before
 *   any is credited: one ERC721 in the user's vault each, one mint record
 *   (a transaction id) each → `{ results: [{ contract_address, token_id,
 *   tx_id }] }`;
 * - `GET /v1/mints/{id}` (a list of one, as the legacy API answers it) and
 *   `GET /v1/mints` with the transfers' filters (`metadata` and
 *   `token_name` are not supported: 400).
 *
 * @packageDocumentation
 */
import type { Hono, Context as HonoContext } from 'hono'
import { type Address, keccak256, recoverMessageAddress, toBytes } from 'viem'
import { publicKeyToAddress } from 'viem/accounts'
import type { components } from '../../../api/wire/imx/schema.generated.js'
import {
  addressOf,
  type Deps,
  decimalOf,
  directionOf,
  fail,
  isRecord,
  pageAnswer,
  pageOf,
  type Read,
  readJson,
  type StarkExEnv,
  sortedBy,
  timeOf,
  tokenFiltersOf,
} from './http.js'
import { type AssetInfo, LedgerFullError } from './ledger.js'
import {
  addBounded,
  type CollectionRecord,
  iso,
  type MintRecord,
  marketOf,
  maxCollections,
  maxFees,
  maxMints,
  maxProjects,
  type ProjectRecord,
} from './market.js'
import { ethSignatureOf } from './registration.js'
import { assetId, assetIdText } from './stark.js'

type Schemas = components['schemas']

/** How far `IMX-Timestamp` may be from the exchange's clock. */
export const timestampSkewSeconds = 300
/** The most requests of one `POST /v2/mints`. */
export const maxMintRequests = 50
/** The most tokens one `POST /v2/mints` mints. */
export const maxMintTokens = 1000
/** The longest text field (names, URLs, blueprints) kept. */
export const maxText = 15_000

/**
 * The signer of the legacy API's signed headers (`IMX-Signature` over the
 * `IMX-Timestamp` text), or why they do not check out.
 */
export async function headerSigner(
  deps: Deps,
  c: HonoContext,
): Promise<Read<Address>> {
  const timestamp = c.req.header('IMX-Timestamp')
  const signature = ethSignatureOf(c.req.header('IMX-Signature'))
  if (timestamp === undefined || !signature)
    return {
      ok: false,
      message:
        'IMX-Signature (an EIP-191 signature r ‖ s ‖ v of IMX-Timestamp) and IMX-Timestamp (unix seconds) are required.',
    }
  if (
    !/^[0-9]{1,12}$/.test(timestamp) ||
    Math.abs(Number(timestamp) - deps.now() / 1000) > timestampSkewSeconds
  )
    return {
      ok: false,
      message: `IMX-Timestamp must be the unix time in seconds, within ${timestampSkewSeconds} s of now.`,
    }
  try {
    return {
      ok: true,
      value: await recoverMessageAddress({ message: timestamp, signature }),
    }
  } catch {
    return { ok: false, message: 'IMX-Signature does not sign IMX-Timestamp.' }
  }
}

/** A collection as the legacy API's `Collection` describes it. */
function collectionAnswer(
  market: ReturnType<typeof marketOf>,
  collection: CollectionRecord,
): Schemas['Collection'] {
  const project = market.projects.get(collection.projectId)
  return {
    address: collection.address,
    name: collection.name,
    description: collection.description,
    icon_url: collection.iconUrl,
    collection_image_url: collection.imageUrl,
    metadata_api_url: collection.metadataApiUrl,
    project_id: collection.projectId,
    project_owner_address: (project?.owner ?? collection.owner).toLowerCase(),
    created_at: iso(collection.createdAt),
    updated_at: iso(collection.createdAt),
  }
}

/** A mint as the legacy API's `Mint` describes it. */
function mintAnswer(mint: MintRecord): Schemas['Mint'] {
  const asset = mint.asset as AssetInfo & { type: 'ERC721' }
  return {
    transaction_id: mint.id,
    status: 'success',
    user: mint.user.toLowerCase(),
    timestamp: iso(mint.time),
    token: {
      type: 'ERC721',
      data: {
        id: assetIdText(asset.id),
        token_address: asset.tokenAddress,
        token_id: asset.tokenId.toString(),
        quantity: '1',
        quantity_with_fees: '1',
      },
    },
    fees: mint.royalties.map((royalty) => ({
      address: royalty.recipient.toLowerCase(),
      percentage: royalty.percentage,
      type: 'royalty',
    })),
  }
}

/** An optional text field of a body: `null` when absent. */
function textOf(value: unknown): string | null | false {
  if (value === undefined || value === null) return null
  return typeof value === 'string' && value.length <= maxText ? value : false
}

type Royalty = { recipient: Address; percentage: number }

/** Reads `royalties` (`[{ recipient, percentage }]`). */
function royaltiesOf(value: unknown, field: string): Read<Royalty[]> {
  if (value === undefined || value === null) return { ok: true, value: [] }
  if (!Array.isArray(value) || value.length > maxFees)
    return {
      ok: false,
      message: `${field} must be a list of at most ${maxFees} { recipient, percentage }.`,
    }
  const royalties: Royalty[] = []
  for (const [index, entry] of value.entries()) {
    const recipient = isRecord(entry) ? addressOf(entry.recipient) : undefined
    const percentage = isRecord(entry) ? entry.percentage : undefined
    if (
      !recipient ||
      typeof percentage !== 'number' ||
      !(percentage > 0 && percentage < 100)
    )
      return {
        ok: false,
        message: `${field}[${index}] must be { recipient: an Ethereum address, percentage: above 0 and below 100 }.`,
      }
    royalties.push({ recipient, percentage })
  }
  return { ok: true, value: royalties }
}

/**
 * The message a mint request's `auth_signature` signs: the Keccak-256
 * hash, as `0x` hex text, of the request's JSON with an empty
 * `auth_signature`, built field by field as the published x-client builds
 * it (`users[].user` as `ether_key`, royalties only when there are some).
 */
export function mintMessage(request: Record<string, unknown>): string {
  const royalties = (list: unknown) =>
    Array.isArray(list) && list.length > 0
      ? {
          royalties: list.map((royalty) => ({
            recipient: isRecord(royalty) ? royalty.recipient : undefined,
            percentage: isRecord(royalty) ? royalty.percentage : undefined,
          })),
        }
      : {}
  const users = Array.isArray(request.users) ? request.users : []
  const signed = {
    contract_address: request.contract_address,
    ...royalties(request.royalties),
    users: users.map((user) => ({
      ether_key: isRecord(user) ? user.user : undefined,
      tokens: (isRecord(user) && Array.isArray(user.tokens)
        ? user.tokens
        : []
      ).map((token) => ({
        id: isRecord(token) ? token.id : undefined,
        blueprint: isRecord(token) ? token.blueprint : undefined,
        ...royalties(isRecord(token) ? token.royalties : undefined),
      })),
    })),
    auth_signature: '',
  }
  return keccak256(toBytes(JSON.stringify(signed)))
}

/** One token a mint request credits, checked. */
type MintToken = {
  readonly user: Address
  readonly starkKey: string
  readonly tokenAddress: Address
  readonly tokenId: bigint
  readonly blueprint: string
  readonly royalties: readonly Royalty[]
}

/** Mounts the collection, project and mint routes. */
export function mintRoutes(app: Hono<StarkExEnv>, deps: Deps) {
  const market = marketOf(deps)

  app.post('/v1/collections', async (c) => {
    const signer = await headerSigner(deps, c)
    if (!signer.ok) return fail(c, 'unauthorised', signer.message)
    const body = await readJson(c)
    if (!isRecord(body))
      return fail(
        c,
        'validation',
        'Expected a JSON body { contract_address, name, owner_public_key, project_id, … }.',
      )
    const address = addressOf(body.contract_address)
    if (!address)
      return fail(
        c,
        'validation',
        'contract_address must be an Ethereum address.',
      )
    if (
      typeof body.name !== 'string' ||
      body.name.length === 0 ||
      body.name.length > 200
    )
      return fail(
        c,
        'validation',
        'name must be a text of 1 to 200 characters.',
      )
    let owner: Address
    try {
      if (
        typeof body.owner_public_key !== 'string' ||
        !/^0x04[0-9a-fA-F]{128}$/.test(body.owner_public_key)
      )
        throw new Error('not a key')
      owner = publicKeyToAddress(body.owner_public_key as `0x${string}`)
    } catch {
      return fail(
        c,
        'validation',
        'owner_public_key must be an uncompressed secp256k1 public key (0x04 and 128 hex digits).',
      )
    }
    const projectId = body.project_id
    if (
      typeof projectId !== 'number' ||
      !Number.isSafeInteger(projectId) ||
      projectId < 1
    )
      return fail(
        c,
        'validation',
        'project_id must be a positive whole number.',
      )
    const description = textOf(body.description)
    const iconUrl = textOf(body.icon_url)
    const imageUrl = textOf(body.collection_image_url)
    const metadataApiUrl = textOf(body.metadata_api_url)
    if (
      description === false ||
      iconUrl === false ||
      imageUrl === false ||
      metadataApiUrl === false
    )
      return fail(
        c,
        'validation',
        `description, icon_url, collection_image_url and metadata_api_url must be texts of at most ${maxText} characters.`,
      )
    const key = address.toLowerCase()
    if (market.collections.has(key))
      return fail(c, 'conflict', `The collection ${key} is registered already.`)
    const project = market.projects.get(projectId)
    if (project && project.owner !== signer.value)
      return fail(
        c,
        'authentication',
        `Project ${projectId} is not owned by ${signer.value}.`,
      )
    if (market.collections.size >= maxCollections)
      return fail(
        c,
        'conflict',
        `The exchange holds ${maxCollections} collections, its most.`,
      )
    if (!project && market.projects.size >= maxProjects)
      return fail(
        c,
        'conflict',
        `The exchange holds ${maxProjects} projects, its most.`,
      )
    const time = deps.now()
    if (!project)
      market.projects.set(projectId, {
        id: projectId,
        owner: signer.value,
        createdAt: time,
      } satisfies ProjectRecord)
    const collection: CollectionRecord = {
      address: key,
      name: body.name,
      description,
      iconUrl,
      imageUrl,
      metadataApiUrl,
      projectId,
      owner,
      createdAt: time,
    }
    market.collections.set(key, collection)
    return c.json(
      collectionAnswer(market, collection) satisfies Schemas['Collection'],
      201,
    )
  })

  app.get('/v1/collections/:address', (c) => {
    const address = addressOf(c.req.param('address'))
    const collection = address
      ? market.collections.get(address.toLowerCase())
      : undefined
    if (!collection)
      return fail(c, 'notFound', `No collection ${c.req.param('address')}.`)
    return c.json(collectionAnswer(market, collection))
  })

  app.get('/v1/collections', (c) => {
    const page = pageOf(c)
    if (!page.ok) return fail(c, 'validation', page.message)
    const direction = directionOf(c)
    if (!direction.ok) return fail(c, 'validation', direction.message)
    const lists: Record<string, Set<string> | undefined> = {}
    for (const name of ['whitelist', 'blacklist']) {
      const text = c.req.query(name)
      if (text === undefined || text === '') continue
      const addresses = text.split(',').map(addressOf)
      if (addresses.some((address) => !address))
        return fail(
          c,
          'validation',
          `${name} must be comma-separated Ethereum addresses.`,
        )
      lists[name] = new Set(addresses.map((a) => a!.toLowerCase()))
    }
    const keyword = (c.req.query('keyword') ?? '').toLowerCase()
    const orderBy = c.req.query('order_by') ?? 'created_at'
    const keys: Record<string, (r: CollectionRecord) => string | number> = {
      name: (r) => r.name,
      address: (r) => r.address,
      project_id: (r) => r.projectId,
      created_at: (r) => r.createdAt,
      updated_at: (r) => r.createdAt,
    }
    const found = sortedBy(
      [...market.collections.values()].filter(
        (r) =>
          (!lists.whitelist || lists.whitelist.has(r.address)) &&
          !lists.blacklist?.has(r.address) &&
          (keyword === '' ||
            r.name.toLowerCase().includes(keyword) ||
            (r.description ?? '').toLowerCase().includes(keyword)),
      ),
      keys,
      orderBy,
      direction.value,
      (r) => r.createdAt,
    )
    if (!found.ok) return fail(c, 'validation', found.message)
    return c.json(
      pageAnswer(
        found.value.map((r) => collectionAnswer(market, r)),
        page.value,
      ) satisfies Schemas['ListCollectionsResponse'],
    )
  })

  app.get('/v1/projects/:id', async (c) => {
    const signer = await headerSigner(deps, c)
    if (!signer.ok) return fail(c, 'unauthorised', signer.message)
    const text = c.req.param('id')
    const project = /^[1-9][0-9]{0,14}$/.test(text)
      ? market.projects.get(Number(text))
      : undefined
    if (!project) return fail(c, 'notFound', `No project ${text}.`)
    if (project.owner !== signer.value)
      return fail(
        c,
        'authentication',
        `Project ${project.id} is not owned by ${signer.value}.`,
      )
    const collections = [...market.collections.values()].filter(
      (r) => r.projectId === project.id,
    ).length
    const mints = [...market.mints.values()].filter(
      (m) =>
        market.collections.get(
          (m.asset as AssetInfo & { tokenAddress: string }).tokenAddress,
        )?.projectId === project.id,
    ).length
    // The emulator sets no monthly quota beyond its own caps.
    const periodEnd = iso(project.createdAt + 30 * 24 * 3_600_000)
    return c.json({
      id: project.id,
      name: `Project ${project.id}`,
      company_name: '',
      contact_email: '',
      chain_type: 'starkex',
      collection_monthly_limit: maxCollections,
      collection_remaining: maxCollections - collections,
      collection_limit_expires_at: periodEnd,
      mint_monthly_limit: maxMints,
      mint_remaining: Math.max(0, maxMints - mints),
      mint_limit_expires_at: periodEnd,
    } satisfies Schemas['Project'])
  })

  app.post('/v2/mints', async (c) => {
    const body = await readJson(c)
    if (
      !Array.isArray(body) ||
      body.length < 1 ||
      body.length > maxMintRequests
    )
      return fail(
        c,
        'validation',
        `Expected a JSON list of 1 to ${maxMintRequests} mint requests { contract_address, users, auth_signature }.`,
      )
    const tokens: MintToken[] = []
    const seen = new Set<string>()
    for (const [index, request] of body.entries()) {
      const at = `[${index}]`
      if (!isRecord(request))
        return fail(c, 'validation', `${at} must be a mint request.`)
      const address = addressOf(request.contract_address)
      if (!address)
        return fail(
          c,
          'validation',
          `${at}.contract_address must be an Ethereum address.`,
        )
      const collection = market.collections.get(address.toLowerCase())
      if (!collection)
        return fail(
          c,
          'validation',
          `The collection ${address.toLowerCase()} is not registered: POST /v1/collections first.`,
        )
      const signature = ethSignatureOf(request.auth_signature)
      if (!signature)
        return fail(
          c,
          'validation',
          `${at}.auth_signature must be a 65-byte signature r ‖ s ‖ v in hex.`,
        )
      if (!Array.isArray(request.users) || request.users.length === 0)
        return fail(
          c,
          'validation',
          `${at}.users must list the users to mint to.`,
        )
      let signer: Address | undefined
      try {
        signer = await recoverMessageAddress({
          message: mintMessage(request),
          signature,
        })
      } catch {
        signer = undefined
      }
      if (signer !== collection.owner)
        return fail(
          c,
          'authentication',
          `${at}.auth_signature is not the signature of the collection's owner ${collection.owner} over the request.`,
        )
      const shared = royaltiesOf(request.royalties, `${at}.royalties`)
      if (!shared.ok) return fail(c, 'validation', shared.message)
      for (const [u, entry] of request.users.entries()) {
        const field = `${at}.users[${u}]`
        const user = isRecord(entry) ? addressOf(entry.user) : undefined
        const account = user ? deps.ledger.accountOf(user) : undefined
        if (!account || !isRecord(entry))
          return fail(
            c,
            'validation',
            `${field}.user must be an Ethereum address registered with StarkEx.`,
          )
        if (!Array.isArray(entry.tokens) || entry.tokens.length === 0)
          return fail(c, 'validation', `${field}.tokens must list tokens.`)
        for (const [t, token] of entry.tokens.entries()) {
          const tokenField = `${field}.tokens[${t}]`
          const tokenId = isRecord(token) ? decimalOf(token.id) : undefined
          if (!isRecord(token) || tokenId === undefined)
            return fail(
              c,
              'validation',
              `${tokenField}.id must be a decimal string below 2^256.`,
            )
          const blueprint = token.blueprint ?? ''
          if (typeof blueprint !== 'string' || blueprint.length > maxText)
            return fail(
              c,
              'validation',
              `${tokenField}.blueprint must be a text of at most ${maxText} characters.`,
            )
          const own = royaltiesOf(token.royalties, `${tokenField}.royalties`)
          if (!own.ok) return fail(c, 'validation', own.message)
          const id = assetId({ type: 'ERC721', tokenAddress: address, tokenId })
          const held = deps.ledger.asset(id)
            ? deps.ledger.holders(id).length > 0
            : false
          if (held || seen.has(id.toString()))
            return fail(
              c,
              'conflict',
              `${address.toLowerCase()} #${tokenId} is minted already.`,
            )
          seen.add(id.toString())
          tokens.push({
            user: account.ethAddress,
            starkKey: account.starkKey,
            tokenAddress: address,
            tokenId,
            blueprint,
            royalties: own.value.length > 0 ? own.value : shared.value,
          })
          if (tokens.length > maxMintTokens)
            return fail(
              c,
              'validation',
              `One request mints at most ${maxMintTokens} tokens.`,
            )
        }
      }
    }
    const results: Schemas['MintResultDetails'][] = []
    for (const token of tokens) {
      let asset: AssetInfo
      try {
        asset = deps.ledger.learnAsset(
          {
            type: 'ERC721',
            tokenAddress: token.tokenAddress,
            tokenId: token.tokenId,
          },
          0,
        )
        deps.ledger.credit(
          deps.ledger.openVault(token.starkKey, asset.id).id,
          1n,
        )
      } catch (error) {
        if (error instanceof LedgerFullError)
          return fail(c, 'conflict', error.shortMessage)
        throw error
      }
      const mint: MintRecord = {
        id: deps.nextTransactionId(),
        user: token.user,
        asset,
        blueprint: token.blueprint,
        royalties: token.royalties,
        time: deps.now(),
      }
      addBounded(market.mints, mint.id, mint, maxMints)
      results.push({
        contract_address: token.tokenAddress.toLowerCase(),
        token_id: token.tokenId.toString(),
        tx_id: mint.id,
      })
    }
    return c.json({ results } satisfies Schemas['MintTokensResponse'])
  })

  app.get('/v1/mints/:id', (c) => {
    const text = c.req.param('id')
    const mint = /^[1-9][0-9]{0,14}$/.test(text)
      ? market.mints.get(Number(text))
      : undefined
    if (!mint) return fail(c, 'notFound', `No mint ${text}.`)
    return c.json([mintAnswer(mint)] satisfies Schemas['Mint'][])
  })

  app.get('/v1/mints', (c) => {
    const page = pageOf(c)
    if (!page.ok) return fail(c, 'validation', page.message)
    const filter = mintFilterOf(c)
    if (!filter.ok) return fail(c, 'validation', filter.message)
    const direction = directionOf(c)
    if (!direction.ok) return fail(c, 'validation', direction.message)
    const orderBy = c.req.query('order_by') ?? 'transaction_id'
    const keys: Record<string, (m: MintRecord) => bigint | number> = {
      transaction_id: (m) => m.id,
      token_id: (m) => (m.asset.type === 'ERC721' ? m.asset.tokenId : 0n),
      created_at: (m) => m.time,
      updated_at: (m) => m.time,
    }
    const found = sortedBy(
      [...market.mints.values()].filter(filter.value),
      keys,
      orderBy,
      direction.value,
      (r) => r.id,
    )
    if (!found.ok) return fail(c, 'validation', found.message)
    return c.json(
      pageAnswer(
        found.value.map(mintAnswer),
        page.value,
      ) satisfies Schemas['ListMintsResponse'],
    )
  })
}

/** Reads the mint list's filters into a predicate. */
function mintFilterOf(c: HonoContext): Read<(mint: MintRecord) => boolean> {
  const q = (name: string) => {
    const value = c.req.query(name)
    return value === '' ? undefined : value
  }
  for (const name of ['metadata', 'token_name'])
    if (q(name) !== undefined)
      return {
        ok: false,
        message: `The ${name} filter is not supported by this exchange.`,
      }
  const tests: ((mint: MintRecord) => boolean)[] = []
  const user = q('user')
  if (user !== undefined) {
    const address = addressOf(user)
    if (!address)
      return { ok: false, message: 'user must be an Ethereum address.' }
    tests.push((m) => m.user === address)
  }
  const status = q('status')
  if (status !== undefined) tests.push(() => status === 'success')
  const tokens = tokenFiltersOf(q)
  if (!tokens.ok) return tokens
  for (const test of tokens.value) tests.push((m) => test(m.asset))
  for (const [name, compare] of [
    ['min_quantity', (x: bigint, y: bigint) => x >= y],
    ['max_quantity', (x: bigint, y: bigint) => x <= y],
  ] as const) {
    const text = q(name)
    if (text === undefined) continue
    const value = decimalOf(text)
    if (value === undefined)
      return { ok: false, message: `${name} must be a decimal string.` }
    tests.push(() => compare(1n, value))
  }
  for (const [name, compare] of [
    ['min_timestamp', (time: number, bound: number) => time >= bound],
    ['max_timestamp', (time: number, bound: number) => time <= bound],
  ] as const) {
    const bound = timeOf(c, name)
    if (!bound.ok) return bound
    const value = bound.value
    if (value !== undefined) tests.push((m) => compare(m.time, value))
  }
  return { ok: true, value: (mint) => tests.every((test) => test(mint)) }
}
