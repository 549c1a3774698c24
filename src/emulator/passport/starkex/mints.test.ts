import { type Hex, keccak256, toBytes } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { assetId, assetIdText } from './stark.js'
import { type Player, startStarkEx, type TestStarkEx } from './testkit.js'

const contract = '0xc0113c7100000000000000000000000000000abc'
const projectOwner = privateKeyToAccount(generatePrivateKey())
const contractOwner = privateKeyToAccount(generatePrivateKey())
const stranger = privateKeyToAccount(generatePrivateKey())

let kit: TestStarkEx
let player: Player

beforeAll(async () => {
  kit = await startStarkEx()
  player = await kit.registered()
})

afterAll(async () => {
  await kit?.stop()
})

/** r ‖ s ‖ v with v as 00/01, as the published x-client sends signatures. */
function published(signature: Hex): Hex {
  const v = Number.parseInt(signature.slice(130), 16) - 27
  return `${signature.slice(0, 130)}0${v}` as Hex
}

/** The signed headers of the legacy API: the signer's signature of the unix time. */
async function imxHeaders(
  signer: typeof projectOwner,
  time = Math.floor(kit.clock.now / 1000),
) {
  const timestamp = String(time)
  return {
    'IMX-Timestamp': timestamp,
    'IMX-Signature': published(
      await signer.signMessage({ message: timestamp }),
    ),
  }
}

/**
 * A mint request signed as the published x-client signs it: the Keccak
 * hash (as hex text) of the JSON of `{ contract_address, royalties?,
 * users: [{ ether_key, tokens }], auth_signature: '' }`, EIP-191.
 */
async function signedMint(
  signer: typeof projectOwner,
  users: { user: string; tokens: { id: string; blueprint: string }[] }[],
  royalties?: { recipient: string; percentage: number }[],
) {
  const unsigned = {
    contract_address: contract,
    ...(royalties ? { royalties } : {}),
    users: users.map((u) => ({ ether_key: u.user, tokens: u.tokens })),
    auth_signature: '',
  }
  const hash = keccak256(toBytes(JSON.stringify(unsigned)))
  return {
    users,
    ...(royalties ? { royalties } : {}),
    contract_address: contract,
    auth_signature: published(await signer.signMessage({ message: hash })),
  }
}

const collectionBody = {
  contract_address: contract,
  name: 'Emulated cards',
  description: 'Cards for tests',
  owner_public_key: contractOwner.publicKey,
  project_id: 7,
}

describe('collections and projects', () => {
  test('behavior: a collection signed by a project owner is registered, its project made', async () => {
    const unsigned = await kit.post('/v1/collections', collectionBody)
    expect(unsigned.status).toBe(401)
    const stale = await kit.request('POST', '/v1/collections', {
      body: collectionBody,
      headers: await imxHeaders(
        projectOwner,
        Math.floor(kit.clock.now / 1000) - 3600,
      ),
    })
    expect(stale.status).toBe(401)
    const created = await kit.request('POST', '/v1/collections', {
      body: collectionBody,
      headers: await imxHeaders(projectOwner),
    })
    expect(created.status, created.text).toBe(201)
    const time = new Date(kit.clock.now).toISOString()
    expect(created.body).toEqual({
      address: contract,
      name: 'Emulated cards',
      description: 'Cards for tests',
      icon_url: null,
      collection_image_url: null,
      metadata_api_url: null,
      project_id: 7,
      project_owner_address: projectOwner.address.toLowerCase(),
      created_at: time,
      updated_at: time,
    })
    const again = await kit.request('POST', '/v1/collections', {
      body: collectionBody,
      headers: await imxHeaders(projectOwner),
    })
    expect(again.status).toBe(409)
    const foreign = await kit.request('POST', '/v1/collections', {
      body: {
        ...collectionBody,
        contract_address: '0xc0113c7100000000000000000000000000000def',
      },
      headers: await imxHeaders(stranger),
    })
    expect(foreign.status).toBe(403)
    expect(
      (
        await kit.get(
          `/v1/collections/${contract.toUpperCase().replace('0X', '0x')}`,
        )
      ).body,
    ).toEqual(created.body)
    expect(
      (
        await kit.get(
          '/v1/collections/0x0000000000000000000000000000000000000001',
        )
      ).status,
    ).toBe(404)
    const listed = await kit.get('/v1/collections?keyword=cards')
    expect(listed.body).toEqual({
      cursor: '',
      remaining: 0,
      result: [created.body],
    })
    expect(
      (await kit.get(`/v1/collections?blacklist=${contract}`)).body.result,
    ).toEqual([])
    expect((await kit.get('/v1/collections?whitelist=nonsense')).status).toBe(
      400,
    )
  })

  test('behavior: a project answers its owner only', async () => {
    const read = await kit.request('GET', '/v1/projects/7', {
      headers: await imxHeaders(projectOwner),
    })
    expect(read.status, read.text).toBe(200)
    expect(read.body).toMatchObject({
      id: 7,
      chain_type: 'starkex',
      collection_remaining: 9_999,
    })
    const foreign = await kit.request('GET', '/v1/projects/7', {
      headers: await imxHeaders(stranger),
    })
    expect(foreign.status).toBe(403)
    expect((await kit.get('/v1/projects/7')).status).toBe(401)
    const missing = await kit.request('GET', '/v1/projects/8', {
      headers: await imxHeaders(projectOwner),
    })
    expect(missing.status).toBe(404)
  })
})

describe('mints', () => {
  const nft = (id: string) =>
    assetId({ type: 'ERC721', tokenAddress: contract, tokenId: BigInt(id) })
  const held = (id: string) =>
    kit.deps.ledger.vaultOf(player.starkKey, nft(id))?.balance ?? 0n

  test('behavior: the collection owner mints to registered users, each token once', async () => {
    const body = [
      await signedMint(
        contractOwner,
        [
          {
            user: player.ethAddress,
            tokens: [
              { id: '10', blueprint: 'card:10' },
              { id: '11', blueprint: 'card:11' },
            ],
          },
        ],
        [{ recipient: projectOwner.address, percentage: 2 }],
      ),
    ]
    const minted = await kit.post('/v2/mints', body)
    expect(minted.status, minted.text).toBe(200)
    const [first, second] = minted.body.results
    expect(minted.body.results).toEqual([
      { contract_address: contract, token_id: '10', tx_id: first.tx_id },
      { contract_address: contract, token_id: '11', tx_id: first.tx_id + 1 },
    ])
    expect(held('10')).toBe(1n)
    expect(held('11')).toBe(1n)
    const read = await kit.get(`/v1/mints/${second.tx_id}`)
    expect(read.body).toEqual([
      {
        transaction_id: second.tx_id,
        status: 'success',
        user: player.ethAddress.toLowerCase(),
        timestamp: new Date(kit.clock.now).toISOString(),
        token: {
          type: 'ERC721',
          data: {
            id: assetIdText(nft('11')),
            token_address: contract,
            token_id: '11',
            quantity: '1',
            quantity_with_fees: '1',
          },
        },
        fees: [
          {
            address: projectOwner.address.toLowerCase(),
            percentage: 2,
            type: 'royalty',
          },
        ],
      },
    ])
    const again = await kit.post('/v2/mints', body)
    expect(again.status).toBe(409)
    const ids = async (query: string) =>
      (await kit.get(`/v1/mints?${query}`)).body.result.map(
        (m: { transaction_id: number }) => m.transaction_id,
      )
    expect(await ids(`user=${player.ethAddress}&direction=asc`)).toEqual([
      first.tx_id,
      second.tx_id,
    ])
    expect(await ids('token_id=11')).toEqual([second.tx_id])
    expect(await ids(`token_address=${contract}&order_by=token_id`)).toEqual([
      second.tx_id,
      first.tx_id,
    ])
    expect(await ids('token_type=ETH')).toEqual([])
    expect((await kit.get('/v1/mints?metadata=x')).status).toBe(400)
    expect((await kit.get('/v1/mints/424242')).status).toBe(404)
  })

  test('error: a mint not signed by the collection owner, tampered, to an unregistered user or of an unknown collection mints nothing', async () => {
    const users = [
      { user: player.ethAddress, tokens: [{ id: '20', blueprint: 'card:20' }] },
    ]
    const forged = await kit.post('/v2/mints', [
      await signedMint(projectOwner, users),
    ])
    expect(forged.status).toBe(403)
    expect(forged.body.code).toBe('AUTHENTICATION_ERROR')
    const signed = await signedMint(contractOwner, users)
    const tampered = await kit.post('/v2/mints', [
      {
        ...signed,
        users: [
          {
            user: player.ethAddress,
            tokens: [{ id: '21', blueprint: 'card:20' }],
          },
        ],
      },
    ])
    expect(tampered.status).toBe(403)
    const outsider = privateKeyToAccount(generatePrivateKey()).address
    const unregistered = await kit.post('/v2/mints', [
      await signedMint(contractOwner, [
        ...users,
        { user: outsider, tokens: [{ id: '22', blueprint: '' }] },
      ]),
    ])
    expect(unregistered.status).toBe(400)
    const unknown = await kit.post('/v2/mints', [
      {
        ...signed,
        contract_address: '0x0000000000000000000000000000000000000bad',
      },
    ])
    expect(unknown.status).toBe(400)
    for (const id of ['20', '21', '22']) expect(held(id)).toBe(0n)
    expect(kit.deps.ledger.asset(nft('20'))).toBeUndefined()
  })
})
