import type * as Rpc from '../../core/Rpc.js'
import type * as Messages from '../wire/messages.js'

/**
 * What the client's modules need from the iframe transport. The transport
 * owns the iframe, the ready handshake, origin/source checks, the DPoP proof,
 * the refresh token and the device share; modules only send JSON-RPC.
 */
export type Transport = {
  /**
   * Posts one request (after the iframe is ready, reloading it if it went
   * missing) and resolves with its raw response envelope's `response` once
   * the iframe answers it. Rejects only for transport failures (e.g.
   * `MODAL_NOT_READY`); RPC errors come back inside the response.
   */
  post(request: Rpc.Request): Promise<Partial<Rpc.Response>>
  /** Posts a batch; resolves once every id of it has been answered. */
  postBatch(
    requests: readonly Rpc.Request[],
  ): Promise<readonly Partial<Rpc.Response>[]>
  /**
   * Listens to the flow events (`MAGIC_HANDLE_EVENT`) of request `id`:
   * `listener(event, params)`. Returns an unsubscribe.
   */
  onEvent(
    id: number | string,
    listener: (event: string, params: readonly unknown[]) => void,
  ): () => void
  /** Listens to every message of one incoming type (e.g. 3PW requests). */
  on(
    type: Messages.IncomingType,
    listener: (data: Record<string, unknown>) => void,
  ): () => void
  /** Posts a raw message (`msgType` gets the params suffix). */
  send(type: Messages.OutgoingType, data: Record<string, unknown>): void
  /** Creates the iframe now (unless already) and waits for it to be ready. */
  preload(): Promise<void>
  /** Removes listeners, timers and the iframe. */
  destroy(): void
}
