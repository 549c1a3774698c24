/**
 * The instant iframe: a cross-origin `/send` page that speaks the iframe
 * wallet's wire protocol (src/magic/wire/messages.ts) just enough for both
 * clients to work, and answers at once, so what is measured through it is
 * the clients' own cost.
 *
 * On load it posts `MAGIC_OVERLAY_READY-<encoded params>` (the ready
 * handshake both clients wait for); each `MAGIC_HANDLE_REQUEST-<params>`
 * (one request or a batch) is answered with one
 * `MAGIC_HANDLE_RESPONSE-<params>` per request: `eth_chainId` with a
 * constant, anything else with a JSON-RPC error (the bench sends nothing
 * else). The params suffix is the raw `params` query value, as the clients
 * compare it.
 *
 * Logged in (the API key {@link sessionApiKey}): the first answer also
 * hands out a refresh token and a device share, as the provider's does
 * after a login, and every later request must carry a DPoP proof, that
 * refresh token and that device share, or it is refused. So the logged-in
 * rows measure clients that really keep and send a session.
 */
import { decodeParams } from '../../src/magic/wire/messages.js'

const chainId = '0x7a69'

/** The API key that asks this iframe for a logged-in session. */
export const sessionApiKey = 'pk_live_BENCH_SESSION'

type Request = { id: number; method: string }

type Envelope = {
  msgType?: unknown
  payload?: unknown
  jwt?: unknown
  rt?: unknown
  deviceShare?: unknown
}

function random(bytes: number): string {
  return btoa(
    String.fromCharCode(...crypto.getRandomValues(new Uint8Array(bytes))),
  )
}

// The runner imports this module too, for the key; only a frame runs it.
if (typeof window !== 'undefined' && window.parent !== window) {
  const params = new URLSearchParams(location.search).get('params') ?? ''
  const requestType = `MAGIC_HANDLE_REQUEST-${params}`
  const responseType = `MAGIC_HANDLE_RESPONSE-${params}`
  const session =
    decodeParams(params).API_KEY === sessionApiKey
      ? { rt: random(32), deviceShare: random(48), handedOut: false }
      : undefined
  let parentOrigin = '*'

  /** Whether a logged-in request carries the session it was given. */
  function carriesSession(data: Envelope): boolean {
    if (!session?.handedOut) return true
    return (
      typeof data.jwt === 'string' &&
      data.jwt.split('.').length === 3 &&
      data.rt === session.rt &&
      data.deviceShare === session.deviceShare
    )
  }

  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return
    const data = event.data as Envelope
    if (data?.msgType !== requestType) return
    parentOrigin = event.origin
    const accepted = carriesSession(data)
    const payload = data.payload as Request | Request[]
    for (const request of Array.isArray(payload) ? payload : [payload]) {
      const handOut = session && !session.handedOut
      if (session) session.handedOut = true
      window.parent.postMessage(
        {
          msgType: responseType,
          response:
            request.method === 'eth_chainId' && accepted
              ? { jsonrpc: '2.0', id: request.id, result: chainId }
              : {
                  jsonrpc: '2.0',
                  id: request.id,
                  error: accepted
                    ? { code: -32601, message: 'Not in the bench.' }
                    : { code: -32603, message: 'No session sent.' },
                },
          ...(handOut
            ? { rt: session.rt, deviceShare: session.deviceShare }
            : {}),
        },
        parentOrigin,
      )
    }
  })
  window.parent.postMessage({ msgType: `MAGIC_OVERLAY_READY-${params}` }, '*')
}
