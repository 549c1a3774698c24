import { describe, expect, test } from 'vitest'
import * as Core from './index.js'

describe('embedded-wallets/core', () => {
  test('exports', () => {
    expect(
      Object.fromEntries(
        Object.entries(Core).map(([name, module]) => [
          name,
          Object.keys(module).sort(),
        ]),
      ),
    ).toMatchInlineSnapshot(`
      {
        "Announce": [
          "InvalidIconError",
          "announce",
        ],
        "Emitter": [
          "create",
        ],
        "Errors": [
          "BaseError",
          "ChainDisconnectedError",
          "InternalRpcError",
          "InvalidInputRpcError",
          "InvalidParamsRpcError",
          "InvalidRequestRpcError",
          "MethodNotFoundRpcError",
          "ParseRpcError",
          "ProviderDisconnectedError",
          "ProviderRpcError",
          "RpcError",
          "TransactionRejectedRpcError",
          "UnauthorizedProviderError",
          "UnsupportedProviderMethodError",
          "UserRejectedRequestError",
          "classes",
          "fromCode",
          "toJson",
        ],
        "Http": [
          "TimeoutError",
          "fetchWithRetry",
          "retry",
        ],
        "PromiEvent": [
          "create",
          "isPromiEvent",
        ],
        "Rpc": [
          "MalformedResponseError",
          "createBatch",
          "createIdStore",
          "createRequest",
          "matchResponses",
          "parseResponse",
          "standardize",
        ],
        "Storage": [
          "UnavailableError",
          "UnsupportedValueError",
          "create",
          "indexedDb",
          "local",
          "localOrMemory",
          "memory",
          "select",
        ],
      }
    `)
  })
})
