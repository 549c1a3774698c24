import {
  type Address,
  createPublicClient,
  type Hex,
  http,
  parseEther,
  toHex,
} from 'viem'

/** Typed data the panel signs: a small EIP-712 message on the local chain. */
function sampleTypedData(chainId: number, address: Address) {
  return {
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'version', type: 'string' },
        { name: 'chainId', type: 'uint256' },
      ],
      Greeting: [
        { name: 'from', type: 'address' },
        { name: 'text', type: 'string' },
      ],
    },
    primaryType: 'Greeting',
    domain: { name: 'Playground', version: '1', chainId },
    message: { from: address, text: 'Hello from the playground' },
  }
}

/**
 * What a logged-in user can do in the panel: read the user, get an id token,
 * sign a message or typed data, send on the local chain, and log out. Each
 * action's result is shown and logged by `run`.
 */
export function MagicActions(props: {
  /** The parts of a `Magic` client the actions use. */
  magic: {
    user: {
      getInfo(): PromiseLike<unknown>
      getIdToken(): PromiseLike<unknown>
      logout(): PromiseLike<unknown>
    }
    rpcProvider: {
      request(args: {
        method: string
        params?: unknown[]
      }): PromiseLike<unknown>
    }
  }
  user: { address: Address; email: string }
  chainId: number
  rpcUrl: string
  run: (what: string, action: () => Promise<unknown>) => Promise<void>
  onLoggedOut: () => void
}) {
  const { magic, user, chainId, rpcUrl, run, onLoggedOut } = props
  const { address } = user
  const request = (args: { method: string; params?: unknown[] }) =>
    Promise.resolve(magic.rpcProvider.request(args))

  const sendEth = async () => {
    const hash = (await request({
      method: 'eth_sendTransaction',
      params: [
        {
          from: address,
          to: '0x000000000000000000000000000000000000dEaD',
          value: toHex(parseEther('0.01')),
        },
      ],
    })) as Hex
    const client = createPublicClient({ transport: http(rpcUrl) })
    const receipt = await client.waitForTransactionReceipt({ hash })
    return { hash, status: receipt.status, block: Number(receipt.blockNumber) }
  }

  return (
    <>
      <dl className="facts">
        <dt>Email</dt>
        <dd data-testid="magic-user-email">{user.email}</dd>
        <dt>Address</dt>
        <dd data-testid="magic-user-address">{address}</dd>
      </dl>
      <div className="row">
        <button
          type="button"
          onClick={() => run('getInfo', async () => magic.user.getInfo())}
        >
          getInfo
        </button>
        <button
          type="button"
          onClick={() => run('Id token', async () => magic.user.getIdToken())}
        >
          Id token
        </button>
        <button
          type="button"
          data-testid="magic-sign"
          onClick={() =>
            run('personal_sign', () =>
              request({
                method: 'personal_sign',
                params: [toHex('Hello from the playground'), address],
              }),
            )
          }
        >
          Sign message
        </button>
        <button
          type="button"
          onClick={() =>
            run('eth_signTypedData_v4', () =>
              request({
                method: 'eth_signTypedData_v4',
                params: [
                  address,
                  JSON.stringify(sampleTypedData(chainId, address)),
                ],
              }),
            )
          }
        >
          Sign typed data
        </button>
        <button
          type="button"
          data-testid="magic-send"
          onClick={() => run('eth_sendTransaction', sendEth)}
        >
          Send 0.01 ETH
        </button>
        <button
          type="button"
          onClick={() =>
            run('logout', async () => {
              await magic.user.logout()
              onLoggedOut()
              return true
            })
          }
        >
          Log out
        </button>
      </div>
    </>
  )
}
