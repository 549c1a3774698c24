import {
  type Abi,
  type Address,
  createWalletClient,
  encodeAbiParameters,
  getAddress,
  type Hex,
  http,
  parseAbi,
  parseEther,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { anvilAccounts } from '../../chain/accounts.js'
import { platformApiKey } from '../../constants.js'
import { type Backends, startBackends } from '../testkit.js'
import { compileMulticaller } from './_test/multicaller.js'
import {
  craftingRequestOf,
  craftingSigner,
  type MulticallCall,
} from './crafting.js'

let b: Backends
let multicaller: Address
let abi: Abi
const sender = privateKeyToAccount(generatePrivateKey())

const tokens = parseAbi([
  'function balanceOf(address owner) view returns (uint256)',
  'function balanceOf(address owner, uint256 id) view returns (uint256)',
])

beforeAll(async () => {
  b = await startBackends()
  const compiled = compileMulticaller()
  abi = compiled.abi
  await b.fund(sender.address, parseEther('10'))
  const wallet = createWalletClient({
    account: sender,
    transport: http(b.nodeUrl),
  })
  const hash = await wallet.deployContract({
    chain: null,
    abi,
    bytecode: compiled.bytecode,
    args: [sender.address, 'Multicaller', '1'],
  })
  const receipt = await b.publicClient.waitForTransactionReceipt({ hash })
  multicaller = getAddress(receipt.contractAddress as Address)
  const granted = await wallet.writeContract({
    chain: null,
    address: multicaller,
    abi,
    functionName: 'grantMulticallSignerRole',
    args: [craftingSigner.address],
  })
  await b.publicClient.waitForTransactionReceipt({ hash: granted })
}, 120_000)
afterAll(() => b?.stop())

const bob = getAddress('0x000000000000000000000000000000000000b0b0')

async function signCrafting(
  body: unknown,
  options: { key?: string | null; chain?: string } = {},
) {
  const key = options.key === undefined ? platformApiKey : options.key
  const response = await fetch(
    `${b.api.url}/v1/chains/${options.chain ?? b.chainName}/crafting/sign`,
    {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(key === null ? {} : { 'x-immutable-api-key': key }),
      },
      body: JSON.stringify(body),
    },
  )
  return { status: response.status, body: await response.json() }
}

/** A crafting request minting on the emulator's test tokens. */
function request(expiresAt = new Date(Date.now() + 3_600_000)) {
  return {
    multi_caller: { address: multicaller, name: 'Multicaller', version: '1' },
    reference_id: crypto.randomUUID().replaceAll('-', ''),
    calls: [
      {
        target_address: b.contracts.erc20,
        function_signature: 'mint(address,uint256)',
        function_args: [bob, '7'],
      },
      {
        target_address: b.contracts.testErc1155,
        function_signature: 'mint(address,uint256,uint256,bytes)',
        function_args: [bob, '3', '2', '0x'],
      },
    ],
    expires_at: expiresAt.toISOString(),
  }
}

/** Runs the signed multicall on chain, as a game's backend would. */
async function execute(
  body: ReturnType<typeof request>,
  signature: Hex,
  signer: Address = craftingSigner.address,
) {
  const checked = craftingRequestOf(body, new Date())
  if (typeof checked === 'string') throw new Error(checked)
  const calls = checked.calls.map((call: MulticallCall) => ({
    target: call.target,
    functionSignature: call.functionSignature,
    data: call.data,
  }))
  const args = [signer, checked.reference, calls, checked.deadline, signature]
  // A dry run first: a refusal reverts with the contract's own error.
  await b.publicClient.simulateContract({
    account: sender,
    address: multicaller,
    abi,
    functionName: 'execute',
    args,
  })
  const hash = await createWalletClient({
    account: sender,
    transport: http(b.nodeUrl),
  }).writeContract({
    chain: null,
    address: multicaller,
    abi,
    functionName: 'execute',
    args,
  })
  return b.publicClient.waitForTransactionReceipt({ hash })
}

describe('POST /v1/chains/{chain_name}/crafting/sign', () => {
  test("default: the emulator's crafting signer signs the multicall, and GuardedMulticaller2 (@imtbl/contracts) executes it", async () => {
    const body = request()
    const response = await signCrafting(body)
    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      signer_address: craftingSigner.address,
      signature: expect.stringMatching(/^0x[0-9a-f]{128}(1b|1c)$/),
    })
    const before = {
      erc20: await b.publicClient.readContract({
        address: b.contracts.erc20,
        abi: tokens,
        functionName: 'balanceOf',
        args: [bob],
      }),
      erc1155: await b.publicClient.readContract({
        address: b.contracts.testErc1155,
        abi: tokens,
        functionName: 'balanceOf',
        args: [bob, 3n],
      }),
    }
    const receipt = await execute(
      body,
      (response.body as { signature: Hex }).signature,
    )
    expect(receipt.status).toBe('success')
    expect(
      await b.publicClient.readContract({
        address: b.contracts.erc20,
        abi: tokens,
        functionName: 'balanceOf',
        args: [bob],
      }),
    ).toBe(before.erc20 + 7n)
    expect(
      await b.publicClient.readContract({
        address: b.contracts.testErc1155,
        abi: tokens,
        functionName: 'balanceOf',
        args: [bob, 3n],
      }),
    ).toBe(before.erc1155 + 2n)
  })

  test('behavior: the signature covers every part: another amount, reference, deadline or signer is refused on chain', async () => {
    const body = request()
    const { signature } = (await signCrafting(body)).body as {
      signature: Hex
    }
    const changed = [
      {
        ...body,
        calls: [{ ...body.calls[0], function_args: [bob, '8'] }, body.calls[1]],
      },
      // Another last digit: a random id ending in 0 would stay the same
      // if every id's last digit were set to 0.
      {
        ...body,
        reference_id: `${body.reference_id.slice(0, -1)}${body.reference_id.endsWith('0') ? '1' : '0'}`,
      },
      { ...body, expires_at: new Date(Date.now() + 7_200_000).toISOString() },
    ] as ReturnType<typeof request>[]
    for (const tampered of changed)
      await expect(execute(tampered, signature)).rejects.toThrow(
        /UnauthorizedSignature/,
      )
    // Anvil's account 1 holds no signer role.
    await expect(
      execute(body, signature, anvilAccounts[1]?.address),
    ).rejects.toThrow(/UnauthorizedSigner/)
  })

  test('error: a malformed request is 400 VALIDATION_ERROR, saying what is wrong', async () => {
    const good = request()
    const [first] = good.calls
    const call = (changes: Record<string, unknown>) => ({
      ...good,
      calls: [{ ...first, ...changes }],
    })
    for (const [body, message] of [
      ['x', 'Expected { multi_caller, reference_id, calls, expires_at }.'],
      [
        { ...good, multi_caller: { address: multicaller, name: '' } },
        'multi_caller must be { address, name, version } (an address and strings of 1 to 1024 characters).',
      ],
      [
        { ...good, reference_id: '0x00' },
        'reference_id must be a nonzero hex string of at most 32 bytes.',
      ],
      [
        { ...good, reference_id: 'a'.repeat(65) },
        'reference_id must be a nonzero hex string of at most 32 bytes.',
      ],
      [{ ...good, calls: [] }, 'calls must hold 1 to 100 calls.'],
      [
        { ...good, calls: Array(101).fill(first) },
        'calls must hold 1 to 100 calls.',
      ],
      [
        call({ target_address: 'x' }),
        'calls[0]: target_address must be an address.',
      ],
      [
        call({ function_signature: 'mint(address' }),
        'calls[0]: function_signature must be a function signature, e.g. mint(address,uint256).',
      ],
      [
        call({ function_signature: 'mint(adress,uint256)' }),
        'calls[0]: function_signature mint(adress,uint256) does not parse.',
      ],
      [
        call({ function_args: [bob] }),
        'calls[0]: function_args must be 2 strings, one per parameter of mint(address,uint256).',
      ],
      [
        call({ function_args: [bob, 7] }),
        'calls[0]: function_args must be 2 strings, one per parameter of mint(address,uint256).',
      ],
      [
        call({ function_args: [bob, '-1'] }),
        'calls[0]: function_args do not fit the parameters of mint(address,uint256).',
      ],
      [
        call({ function_args: ['bob', '1'] }),
        'calls[0]: function_args[0] is not a address.',
      ],
      [
        { ...good, expires_at: 'tomorrow' },
        'expires_at must be an RFC 3339 date-time, e.g. 2030-01-01T00:00:00Z.',
      ],
      [
        { ...good, expires_at: new Date(Date.now() - 1_000).toISOString() },
        'expires_at must be in the future.',
      ],
    ] as const) {
      const response = await signCrafting(body)
      expect(response).toEqual({
        status: 400,
        body: { code: 'VALIDATION_ERROR', message, details: null },
      })
    }
  })

  test('error: without the API key, or with another, it is 401; an unknown chain is 404', async () => {
    for (const [key, message] of [
      [
        null,
        "The x-immutable-api-key header is required: the platform's secret API key.",
      ],
      [
        'sk_nope',
        "The x-immutable-api-key header is not this platform's API key.",
      ],
    ] as const)
      expect(await signCrafting(request(), { key })).toEqual({
        status: 401,
        body: { code: 'UNAUTHORISED_REQUEST', message, details: null },
      })
    expect(
      await signCrafting(request(), { chain: 'imtbl-zkevm-testnet' }),
    ).toEqual({
      status: 404,
      body: {
        code: 'RESOURCE_NOT_FOUND',
        message: 'There is no chain named imtbl-zkevm-testnet.',
        details: null,
      },
    })
  })
})

describe('craftingSigner', () => {
  test("default: a key of its own, none of Anvil's accounts, at a fixed address", () => {
    expect(craftingSigner.address).toBe(
      '0x110b736dfbCcfdF77757145A7d6083440Bf498FF',
    )
    expect(anvilAccounts.map((account) => account.address)).not.toContain(
      craftingSigner.address,
    )
  })
})

describe('craftingRequestOf', () => {
  test('behavior: arguments are ABI-encoded by the signature: arrays as JSON arrays, booleans, bytes, strings; the reference is a left-padded word', () => {
    const checked = craftingRequestOf(
      {
        multi_caller: { address: bob, name: 'M', version: '2' },
        reference_id: '0xabc',
        calls: [
          {
            target_address: bob,
            function_signature: 'craft(uint256[2],bool,bytes4,string,int8)',
            function_args: ['["1","2"]', 'true', '0x01020304', 'sword', '-3'],
          },
        ],
        expires_at: '2030-01-01T00:00:01.900Z',
      },
      new Date('2029-01-01T00:00:00Z'),
    )
    expect(checked).toEqual({
      multicaller: { address: bob, name: 'M', version: '2' },
      reference: `0x${'0'.repeat(61)}abc`,
      calls: [
        {
          target: bob,
          functionSignature: 'craft(uint256[2],bool,bytes4,string,int8)',
          data: encodeAbiParameters(
            parseAbi(['function craft(uint256[2],bool,bytes4,string,int8)'])[0]
              .inputs,
            [[1n, 2n], true, '0x01020304', 'sword', -3],
          ),
        },
      ],
      deadline: 1893456001n,
    })
  })

  test('error: tuples and array items of the wrong kind are refused', () => {
    const now = new Date('2029-01-01T00:00:00Z')
    const body = (signature: string, args: string[]) => ({
      multi_caller: { address: bob, name: 'M', version: '2' },
      reference_id: '1',
      calls: [
        {
          target_address: bob,
          function_signature: signature,
          function_args: args,
        },
      ],
      expires_at: '2030-01-01T00:00:00Z',
    })
    expect(craftingRequestOf(body('f((uint256,bool))', ['[]']), now)).toBe(
      'calls[0]: function_args[0] is not a tuple.',
    )
    expect(craftingRequestOf(body('f(uint256[])', ['["x"]']), now)).toBe(
      'calls[0]: function_args[0] is not a uint256[].',
    )
    expect(craftingRequestOf(body('f(uint256[2])', ['["1"]']), now)).toBe(
      'calls[0]: function_args[0] is not a uint256[2].',
    )
    expect(craftingRequestOf(body('f(bool)', ['yes']), now)).toBe(
      'calls[0]: function_args[0] is not a bool.',
    )
  })
})
