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
 */
const chainId = '0x7a69'

type Request = { id: number; method: string }

if (window.parent !== window) {
  const params = new URLSearchParams(location.search).get('params') ?? ''
  const requestType = `MAGIC_HANDLE_REQUEST-${params}`
  const responseType = `MAGIC_HANDLE_RESPONSE-${params}`
  let parentOrigin = '*'
  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return
    const data = event.data as { msgType?: unknown; payload?: unknown }
    if (data?.msgType !== requestType) return
    parentOrigin = event.origin
    const payload = data.payload as Request | Request[]
    for (const request of Array.isArray(payload) ? payload : [payload])
      window.parent.postMessage(
        {
          msgType: responseType,
          response:
            request.method === 'eth_chainId'
              ? { jsonrpc: '2.0', id: request.id, result: chainId }
              : {
                  jsonrpc: '2.0',
                  id: request.id,
                  error: { code: -32601, message: 'Not in the bench.' },
                },
        },
        parentOrigin,
      )
  })
  window.parent.postMessage({ msgType: `MAGIC_OVERLAY_READY-${params}` }, '*')
}
