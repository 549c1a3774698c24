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
        ],
        "Http": [
          "HttpError",
          "NetworkError",
          "TimeoutError",
          "defaults",
          "fetcher",
          "json",
          "request",
          "retry",
        ],
        "PromiEvent": [
          "create",
          "isPromiEvent",
        ],
        "Rpc": [
          "createRequest",
          "standardize",
        ],
        "RpcErrors": [
          "AtomicReadyWalletRejectedUpgradeError",
          "AtomicityNotSupportedError",
          "BundleTooLargeError",
          "ChainDisconnectedError",
          "DisconnectedError",
          "DuplicateIdError",
          "InternalError",
          "InvalidInputError",
          "InvalidParamsError",
          "InvalidRequestError",
          "JsonRpcVersionUnsupportedError",
          "LimitExceededError",
          "MethodNotFoundError",
          "MethodNotSupportedError",
          "ParseError",
          "ProviderRpcError",
          "ResourceNotFoundError",
          "ResourceUnavailableError",
          "RpcError",
          "TransactionRejectedError",
          "UnauthorizedError",
          "UnknownBundleIdError",
          "UnrecognizedChainError",
          "UnsupportedChainIdError",
          "UnsupportedMethodError",
          "UnsupportedNonOptionalCapabilityError",
          "UserRejectedRequestError",
          "from",
          "fromCode",
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
        "Transport": [
          "MalformedResponseError",
          "RpcResponseError",
          "http",
        ],
      }
    `)
  })
})
