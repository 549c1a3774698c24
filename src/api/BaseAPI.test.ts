import { afterEach, describe, expect, test, vi } from 'vitest'
import * as Http from '../core/Http.js'
import * as RpcErrors from '../core/RpcErrors.js'
import { buildRequest } from './BaseAPI.js'
import { ApiErrors, createConfig, imx, mr } from './index.js'

/**
 * The requests the generated classes build and how they read the answers,
 * with a stand-in fetch (the emulated platform's routes prove them end to
 * end).
 */

type Sent = {
  url: string
  method: string
  headers: Record<string, string>
  body: unknown
}

/** A fetch answering `answer` (JSON `{}` by default) and recording each request. */
function recorder(answer: () => Response = () => Response.json({})) {
  const sent: Sent[] = []
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    sent.push({
      url,
      method: init.method ?? 'GET',
      headers: Object.fromEntries(new Headers(init.headers)),
      body: init.body,
    })
    return answer()
  })
  return { sent, fetch }
}

const basePath = 'https://api.example'
const sdk = { 'x-sdk-version': 'ts-immutable-sdk-2.2.0' }

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe('requests', () => {
  test('default: a public read: path, query arrays as repeated keys, a Date filter as its ISO timestamp, no credential', async () => {
    const { sent, fetch } = recorder()
    const collections = new mr.CollectionsApi(
      new mr.Configuration({ basePath, apiKey: 'sk_1', accessToken: 't' }),
      undefined,
      fetch,
    )
    await collections.listCollections({
      chainName: 'imtbl-zkevm-testnet',
      contractAddress: ['0xaa', '0xbb'],
      verificationStatus: ['verified', 'spam'],
      fromUpdatedAt: new Date('2024-01-02T03:04:05.678Z'),
      pageSize: 50,
    })
    expect(sent).toEqual([
      {
        url: 'https://api.example/v1/chains/imtbl-zkevm-testnet/collections?contract_address=0xaa&contract_address=0xbb&verification_status=verified&verification_status=spam&from_updated_at=2024-01-02T03%3A04%3A05.678Z&page_size=50',
        method: 'GET',
        headers: sdk,
        body: undefined,
      },
    ])
  })

  test('behavior: path values are URI-encoded; undefined and null query values are left out; false is sent', async () => {
    const { sent, fetch } = recorder()
    const api = new mr.MetadataSearchApi(
      new mr.Configuration({ basePath }),
      undefined,
      fetch,
    )
    await api.searchStacks({
      chainName: 'a/b c',
      contractAddress: ['0x1'],
      accountAddress: undefined,
      onlyIncludeOwnerListings: false,
      keyword: null as unknown as string,
      traits: JSON.stringify({ rarity: { values: ['rare'], condition: 'eq' } }),
    })
    expect(sent[0]!.url).toBe(
      'https://api.example/v1/chains/a%2Fb%20c/search/stacks?contract_address=0x1&only_include_owner_listings=false&traits=%7B%22rarity%22%3A%7B%22values%22%3A%5B%22rare%22%5D%2C%22condition%22%3A%22eq%22%7D%7D',
    )
  })

  test('behavior: an API key operation sends the configured key in x-immutable-api-key, and its JSON body', async () => {
    const { sent, fetch } = recorder()
    const nfts = new mr.NftsApi(
      new mr.Configuration({ basePath, apiKey: 'sk_secret' }),
      undefined,
      fetch,
    )
    const request = {
      assets: [
        {
          reference_id: 'r-1',
          owner_address: '0x0000000000000000000000000000000000000001',
          metadata: { name: 'Sword', attributes: [] },
        },
      ],
    }
    await nfts.createMintRequest({
      chainName: 'imtbl-zkevm-testnet',
      contractAddress: '0x00000000000000000000000000000000000000c0',
      createMintRequestRequest: request as never,
    })
    expect(sent).toEqual([
      {
        url: 'https://api.example/v1/chains/imtbl-zkevm-testnet/collections/0x00000000000000000000000000000000000000c0/nfts/mint-requests',
        method: 'POST',
        headers: {
          ...sdk,
          'content-type': 'application/json',
          'x-immutable-api-key': 'sk_secret',
        },
        body: JSON.stringify(request),
      },
    ])
  })

  test('behavior: the API key may be a function of the header name, or come with createConfig’s headers', async () => {
    const { sent, fetch } = recorder()
    const apiKey = vi.fn(async (name: string) => `key-for-${name}`)
    await new mr.MetadataApi(
      new mr.Configuration({ basePath, apiKey }),
      undefined,
      fetch,
    ).refreshMetadataByID({
      chainName: 'c',
      contractAddress: '0x1',
      refreshMetadataByIDRequest: { metadata: [] },
    })
    expect(apiKey).toHaveBeenCalledWith('x-immutable-api-key')
    expect(sent[0]!.headers['x-immutable-api-key']).toBe(
      'key-for-x-immutable-api-key',
    )
    const config = createConfig({
      basePath,
      headers: { 'x-immutable-api-key': 'sk_from_headers' },
    })
    await new mr.CraftingApi(config, undefined, fetch).signCraftingPayload({
      chainName: 'c',
      signCraftingRequest: { multi_caller: {}, calls: [] } as never,
    })
    expect(sent[1]!.headers).toEqual({
      ...sdk,
      'content-type': 'application/json',
      'x-immutable-api-key': 'sk_from_headers',
    })
  })

  test('behavior: a bearer operation sends the access token (a value, a promise or a function); a public one does not', async () => {
    const { sent, fetch } = recorder()
    const guardian = (accessToken: mr.ConfigurationParameters['accessToken']) =>
      new mr.GuardianApi(
        new mr.Configuration({ basePath, accessToken }),
        undefined,
        fetch,
      )
    await guardian('t1').getTransactionByID({
      transactionID: '0xabc',
      chainType: 'evm',
      chainID: 'eip155:13473',
    })
    await guardian(Promise.resolve('t2')).getMessageByID({ messageID: 'm' })
    await guardian(async () => 't3').evaluateMessage({
      messageEvaluationRequest: { chainID: '1', payload: '{}' } as never,
    })
    await new mr.ChainsApi(
      new mr.Configuration({ basePath, accessToken: 't4', apiKey: 'k' }),
      undefined,
      fetch,
    ).listChains()
    expect(
      sent.map(({ url, method, headers }) => ({ url, method, headers })),
    ).toEqual([
      {
        url: 'https://api.example/guardian/v1/transactions/0xabc?chainType=evm&chainID=eip155%3A13473',
        method: 'GET',
        headers: { ...sdk, authorization: 'Bearer t1' },
      },
      {
        url: 'https://api.example/guardian/v1/messages/m',
        method: 'GET',
        headers: { ...sdk, authorization: 'Bearer t2' },
      },
      {
        url: 'https://api.example/guardian/v1/messages/evaluate',
        method: 'POST',
        headers: {
          ...sdk,
          authorization: 'Bearer t3',
          'content-type': 'application/json',
        },
      },
      {
        url: 'https://api.example/v1/chains',
        method: 'GET',
        headers: sdk,
      },
    ])
  })

  test('behavior: the exchange API’s signed wallet headers x-imx-eth-address and x-imx-eth-signature', async () => {
    const { sent, fetch } = recorder()
    const transfers = new imx.TransfersApi(
      new imx.Configuration({ basePath }),
      undefined,
      fetch,
    )
    const body = { sender_stark_key: '0x1', requests: [] }
    await transfers.createTransfer({
      createTransferRequestV2: body as never,
      xImxEthAddress: '0x00000000000000000000000000000000000000a1',
      xImxEthSignature: '0xsig',
    })
    expect(sent).toEqual([
      {
        url: 'https://api.example/v2/transfers',
        method: 'POST',
        headers: {
          ...sdk,
          'content-type': 'application/json',
          'x-imx-eth-address': '0x00000000000000000000000000000000000000a1',
          'x-imx-eth-signature': '0xsig',
        },
        body: JSON.stringify(body),
      },
    ])
  })

  test('behavior: the exchange API’s project signature IMX-Signature and IMX-Timestamp on collection writes', async () => {
    const { sent, fetch } = recorder()
    const collections = new imx.CollectionsApi(
      new imx.Configuration({ basePath }),
      undefined,
      fetch,
    )
    await collections.updateCollection({
      address: '0xc0',
      iMXSignature: '0xprojectsig',
      iMXTimestamp: '1700000000',
      updateCollectionRequest: { name: 'Renamed' },
    })
    expect(sent).toEqual([
      {
        url: 'https://api.example/v1/collections/0xc0',
        method: 'PATCH',
        headers: {
          ...sdk,
          'content-type': 'application/json',
          'imx-signature': '0xprojectsig',
          'imx-timestamp': '1700000000',
        },
        body: '{"name":"Renamed"}',
      },
    ])
  })

  test('behavior: the exchange API’s timestamp filters take a Date as its ISO timestamp', async () => {
    const { sent, fetch } = recorder()
    await new imx.TransfersApi(
      new imx.Configuration({ basePath }),
      undefined,
      fetch,
    ).listTransfers({
      minTimestamp: new Date('2023-05-06T07:08:09.000Z'),
      maxTimestamp: '2023-06-01T00:00:00Z',
      pageSize: 2,
    })
    expect(sent[0]!.url).toBe(
      'https://api.example/v1/transfers?page_size=2&min_timestamp=2023-05-06T07%3A08%3A09.000Z&max_timestamp=2023-06-01T00%3A00%3A00Z',
    )
  })

  test('behavior: headers in order of precedence: the SDK version, credentials and parameters, baseOptions, the call’s options', async () => {
    const { sent, fetch } = recorder()
    const config = createConfig({
      basePath,
      headers: { 'x-immutable-api-key': 'from-config', 'x-extra': '1' },
    })
    config.apiKey = 'from-api-key'
    await new mr.NftsApi(config, undefined, fetch).listMintRequests(
      { chainName: 'c', contractAddress: '0x1' },
      { headers: { 'x-extra': '2', 'x-sdk-version': 'mine' } },
    )
    expect(sent[0]!.headers).toEqual({
      'x-sdk-version': 'mine',
      'x-immutable-api-key': 'from-config',
      'x-extra': '2',
    })
  })

  test('behavior: options.params (else baseOptions.params) adds query parameters the spec does not declare, after the operation’s, as the published axios clients do', async () => {
    const { sent, fetch } = recorder()
    const guardian = new mr.GuardianApi(
      new mr.Configuration({
        basePath,
        accessToken: 't',
        baseOptions: { params: { fromBase: 'yes' } },
      }),
      undefined,
      fetch,
    )
    await guardian.getTransactionByID(
      { transactionID: 'tx 1', chainType: 'evm', chainID: 'eip155:1' },
      { params: { includeSimulation: true, skipped: undefined } },
    )
    await guardian.getTransactionByID({
      transactionID: 'tx',
      chainType: 'evm',
    })
    expect(sent.map((request) => request.url)).toEqual([
      'https://api.example/guardian/v1/transactions/tx%201?chainType=evm&chainID=eip155%3A1&includeSimulation=true',
      'https://api.example/guardian/v1/transactions/tx?chainType=evm&fromBase=yes',
    ])
  })

  test('behavior: an absent optional body is sent as {}; a string body as it is', async () => {
    const { sent, fetch } = recorder()
    const profile = new mr.PassportProfileApi(
      new mr.Configuration({ basePath, accessToken: 't' }),
      undefined,
      fetch,
    )
    await profile.linkWalletV2()
    await profile.linkWalletV2({ linkWalletV2Request: '{"raw":1}' as never })
    expect(sent.map((request) => request.body)).toEqual(['{}', '{"raw":1}'])
  })

  test('behavior: the base path is the configuration’s, else the constructor’s, else the spec’s server', async () => {
    const { sent, fetch } = recorder()
    await new mr.ChainsApi(
      new mr.Configuration({ basePath: 'https://one.example' }),
      'https://two.example',
      fetch,
    ).listChains()
    await new mr.ChainsApi(
      new mr.Configuration(),
      'https://two.example',
      fetch,
    ).listChains()
    await new mr.ChainsApi(undefined, undefined, fetch).listChains()
    await new imx.TokensApi(undefined, undefined, fetch).listTokens()
    expect(sent.map((request) => request.url)).toEqual([
      'https://one.example/v1/chains',
      'https://two.example/v1/chains',
      'https://api.sandbox.immutable.com/v1/chains',
      'https://api.sandbox.x.immutable.com/v1/tokens',
    ])
  })
})

describe('RequiredError', () => {
  test('error: a missing path parameter, with the published text and field; nothing is sent', async () => {
    const { fetch } = recorder()
    const guardian = new mr.GuardianApi(
      new mr.Configuration({ basePath }),
      undefined,
      fetch,
    )
    const error = await guardian
      .getTransactionByID({ chainType: 'evm' } as never)
      .catch((error: unknown) => error)
    expect(error).toBeInstanceOf(ApiErrors.RequiredError)
    expect(error).toBeInstanceOf(RpcErrors.InvalidParamsError)
    expect(error).toMatchObject({
      name: 'RequiredError',
      field: 'transactionID',
      code: -32602,
      message:
        'Required parameter transactionID was null or undefined when calling getTransactionByID.',
    })
    expect(fetch).not.toHaveBeenCalled()
  })

  test('error: a missing body, and null counts as missing', async () => {
    const nfts = new mr.NftsApi(new mr.Configuration({ basePath }))
    await expect(
      nfts.createMintRequest({
        chainName: 'c',
        contractAddress: '0x1',
      } as never),
    ).rejects.toThrow(
      'Required parameter createMintRequestRequest was null or undefined when calling createMintRequest.',
    )
    await expect(
      nfts.getNFT({
        chainName: 'c',
        contractAddress: null,
        tokenId: '1',
      } as never),
    ).rejects.toMatchObject({ field: 'contractAddress' })
  })

  test('error: a missing header parameter of the exchange API names its field', async () => {
    const users = new imx.UsersApi(new imx.Configuration({ basePath }))
    await expect(
      users.registerPassportUserV2({
        registerPassportUserRequest: {} as never,
      } as never),
    ).rejects.toThrow(
      'Required parameter authorization was null or undefined when calling registerPassportUserV2.',
    )
  })

  test('error: no request-parameters object at all is a RequiredError too', async () => {
    const activities = new mr.ActivitiesApi(new mr.Configuration({ basePath }))
    await expect(
      activities.getActivity(undefined as never),
    ).rejects.toMatchObject({ name: 'RequiredError', field: 'chainName' })
  })

  test('behavior: buildRequest refuses before reading any credential', async () => {
    const apiKey = vi.fn(() => 'k')
    await expect(
      buildRequest(
        {
          id: 'op',
          method: 'GET',
          path: '/x/{a}',
          parameters: [{ name: 'a', in: 'path', key: 'a', required: true }],
          credentials: ['apiKey'],
        },
        {},
        new mr.Configuration({ apiKey }),
        basePath,
      ),
    ).rejects.toThrow(
      'Required parameter a was null or undefined when calling op.',
    )
    expect(apiKey).not.toHaveBeenCalled()
  })
})

describe('createConfig', () => {
  test('default: the base path, and x-sdk-version before the given headers', () => {
    const config = createConfig({ basePath, headers: { 'x-a': '1' } })
    expect(config).toBeInstanceOf(mr.Configuration)
    expect(config.basePath).toBe(basePath)
    expect(config.baseOptions).toEqual({
      headers: { 'x-sdk-version': 'ts-immutable-sdk-2.2.0', 'x-a': '1' },
    })
  })

  test('error: an empty or blank base path', () => {
    for (const empty of ['', '   ', undefined as unknown as string]) {
      let error: unknown
      try {
        createConfig({ basePath: empty })
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(ApiErrors.BasePathError)
      expect(error).toBeInstanceOf(RpcErrors.InvalidParamsError)
      expect(error).toMatchObject({
        message: 'basePath can not be empty',
        code: -32602,
      })
    }
  })
})

describe('answers', () => {
  test('default: data, status, statusText and headers', async () => {
    const { fetch } = recorder(
      () =>
        new Response('{"result":[{"chain":"x"}]}', {
          status: 200,
          statusText: 'OK',
          headers: { 'Content-Type': 'application/json', 'X-Trace': 'a' },
        }),
    )
    const response = await new mr.ChainsApi(
      new mr.Configuration({ basePath }),
      undefined,
      fetch,
    ).listChains()
    expect(response).toEqual({
      data: { result: [{ chain: 'x' }] },
      status: 200,
      statusText: 'OK',
      headers: { 'content-type': 'application/json', 'x-trace': 'a' },
    })
  })

  test('behavior: a body that is not JSON is its text; an empty one is ""', async () => {
    let answer = () => new Response('plain', { status: 200 })
    const { fetch } = recorder(() => answer())
    const chains = new mr.ChainsApi(
      new mr.Configuration({ basePath }),
      undefined,
      fetch,
    )
    expect((await chains.listChains()).data).toBe('plain')
    answer = () => new Response(null, { status: 204 })
    expect(await chains.listChains()).toMatchObject({ data: '', status: 204 })
  })

  const catalogue = [
    [400, 'VALIDATION_ERROR', ApiErrors.ValidationError],
    [401, 'UNAUTHORISED_REQUEST', ApiErrors.UnauthorisedRequestError],
    [403, 'AUTHENTICATION_ERROR', ApiErrors.AuthenticationError],
    [404, 'RESOURCE_NOT_FOUND', ApiErrors.ResourceNotFoundError],
    [409, 'CONFLICT_ERROR', ApiErrors.ConflictError],
    [429, 'TOO_MANY_REQUESTS_ERROR', ApiErrors.TooManyRequestsError],
    [500, 'INTERNAL_SERVER_ERROR', ApiErrors.InternalServerError],
    [501, 'NOT_IMPLEMENTED_ERROR', ApiErrors.NotImplementedError],
  ] as const

  test.each(catalogue)(
    'error: %i %s is its class, with the server’s message and details',
    async (status, code, type) => {
      vi.spyOn(Math, 'random').mockReturnValue(0)
      const body = {
        code,
        message: `it went wrong (${code})`,
        link: 'https://docs.example',
        trace_id: 'trace-1',
        details: { field: 'page_size' },
      }
      const { fetch } = recorder(() => Response.json(body, { status }))
      const error = await new mr.ChainsApi(
        new mr.Configuration({ basePath }),
        undefined,
        fetch,
      )
        .listChains()
        .catch((error: unknown) => error)
      expect(error).toBeInstanceOf(type)
      expect(error).toBeInstanceOf(ApiErrors.ApiError)
      expect(type.code).toBe(code)
      expect(type.status).toBe(status)
      expect(error).toMatchObject({
        code,
        status,
        message: `it went wrong (${code})`,
        details: '{"field":"page_size"}',
        body,
        response: { status, data: body },
      })
      expect(ApiErrors.apiErrorStatus[code]).toBe(status)
    },
  )

  test('error: a code outside the catalogue keeps its code on a plain ApiError', async () => {
    const { fetch } = recorder(() =>
      Response.json(
        { code: 'SERVICE_UNAVAILABLE', message: 'down', details: null },
        { status: 503 },
      ),
    )
    const error = (await new mr.ChainsApi(
      new mr.Configuration({ basePath }),
      undefined,
      fetch,
    )
      .listChains()
      .catch((error: unknown) => error)) as ApiErrors.ApiError
    expect(error.constructor).toBe(ApiErrors.ApiError)
    expect(error).toMatchObject({
      name: 'ApiErrors.ApiError',
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
      message: 'down',
      details: '',
    })
  })

  test('error: a route’s own code on a catalogue status is kept: the class of the status, the code of the body', async () => {
    const { fetch } = recorder(() =>
      Response.json(
        { code: 'ALREADY_LINKED', message: 'Wallet already linked' },
        { status: 409 },
      ),
    )
    const error = await new mr.PassportProfileApi(
      new mr.Configuration({ basePath, accessToken: 't' }),
      undefined,
      fetch,
    )
      .linkWalletV2()
      .catch((error: unknown) => error)
    expect(error).toBeInstanceOf(ApiErrors.ConflictError)
    expect(error).toMatchObject({
      code: 'ALREADY_LINKED',
      status: 409,
      message: 'Wallet already linked',
    })
  })

  test('error: an answer without an error body is classed by its status, with the axios text', async () => {
    let status = 404
    const { fetch } = recorder(
      () => new Response('<html>no</html>', { status }),
    )
    const chains = new mr.ChainsApi(
      new mr.Configuration({ basePath }),
      undefined,
      fetch,
    )
    await expect(chains.listChains()).rejects.toMatchObject({
      name: 'ApiErrors.ResourceNotFoundError',
      code: 'RESOURCE_NOT_FOUND',
      message: 'Request failed with status code 404',
      response: { data: '<html>no</html>' },
    })
    status = 502
    await expect(chains.listChains()).rejects.toMatchObject({
      name: 'ApiErrors.ApiError',
      code: 'HTTP_ERROR',
      status: 502,
    })
  })

  test('behavior: a 429 is retried by the fetch helper; twelve 429s in a row are a TooManyRequestsError', async () => {
    vi.useFakeTimers({ now: 0 })
    vi.spyOn(Math, 'random').mockReturnValue(0.999)
    let answers = 0
    const { sent, fetch } = recorder(() =>
      ++answers <= 2
        ? Response.json(
            { code: 'TOO_MANY_REQUESTS_ERROR', message: 'slow down' },
            { status: 429 },
          )
        : Response.json({ result: [] }),
    )
    const chains = new mr.ChainsApi(
      new mr.Configuration({ basePath }),
      undefined,
      fetch,
    )
    const first = chains.listChains()
    await vi.advanceTimersByTimeAsync(10_000)
    expect((await first).data).toEqual({ result: [] })
    expect(sent).toHaveLength(3)

    answers = -100
    const second = chains.listChains().catch((error: unknown) => error)
    await vi.advanceTimersByTimeAsync(300_000)
    const error = await second
    expect(error).toBeInstanceOf(ApiErrors.TooManyRequestsError)
    expect(error).toMatchObject({ message: 'slow down', status: 429 })
  })

  test('error: options.timeout bounds the call with the fetch helper’s TimeoutError', async () => {
    vi.useFakeTimers({ now: 0 })
    const fetch = vi.fn(() => new Promise<Response>(() => {}))
    const promise = new mr.ChainsApi(
      new mr.Configuration({ basePath }),
      undefined,
      fetch,
    ).listChains({}, { timeout: 5000 })
    const assertion = expect(promise).rejects.toBeInstanceOf(Http.TimeoutError)
    await vi.advanceTimersByTimeAsync(5000)
    await assertion
  })

  test('behavior: options.signal aborts the call', async () => {
    const controller = new AbortController()
    const fetch = vi.fn(
      (_: string, init: RequestInit) =>
        new Promise<Response>((_, reject) =>
          init.signal?.addEventListener('abort', () =>
            reject(init.signal?.reason),
          ),
        ),
    )
    const promise = new mr.ChainsApi(
      new mr.Configuration({ basePath }),
      undefined,
      fetch,
    ).listChains({}, { signal: controller.signal })
    controller.abort(new Error('left the page'))
    await expect(promise).rejects.toThrow('left the page')
  })
})
