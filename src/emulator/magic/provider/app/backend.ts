/**
 * The iframe app's calls to its backend (same origin): run a request as a
 * flow (`POST /v1/flow`, streamed NDJSON answer) and send answers to a
 * running flow (`POST /v1/flow/:flowId/intermediary`).
 */
import type * as Rpc from '../../../../core/Rpc.js'
import type { FlowLine, FlowRequest, IntermediaryRequest } from '../protocol.js'

/** JSON-RPC internal error: what the host gets when the backend fails. */
export const internalError = -32603

/** What to do with each line of a flow's answer. */
export type FlowHandlers = {
  /** The flow's id, as soon as the answer's headers arrive. */
  onStart(flowId: string): void
  /** Every line, in order (the last one is the `response`). */
  onLine(line: FlowLine): void
}

/**
 * Runs one request as a flow and feeds its lines to `handlers`. Never
 * throws: a network failure, a non-OK status, an unreadable line or a
 * stream that ends without a `response` becomes a final `response` line
 * with a JSON-RPC error (-32603), so the host never waits forever.
 *
 * @param body - The request with the host's session material.
 * @param handlers - Receives the flow id and the lines.
 */
export async function runFlow(
  body: FlowRequest,
  handlers: FlowHandlers,
): Promise<void> {
  const fail = (message: string) =>
    handlers.onLine({
      kind: 'response',
      response: errorResponse(body.request.id, message),
    })
  let answer: Response
  try {
    answer = await fetch('/v1/flow', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      // Requests arrive by postMessage, which carries bigints (e.g. a gasless
      // transaction's `value: 1n`); JSON cannot, so they go as 0x hex.
      body: JSON.stringify(body, (_key, value) =>
        typeof value === 'bigint' ? `0x${value.toString(16)}` : value,
      ),
    })
  } catch (error) {
    return fail(`The emulated provider is unreachable (${describe(error)}).`)
  }
  if (!answer.ok || !answer.body) {
    const detail = await answer.text().catch(() => '')
    return fail(
      `The emulated provider answered HTTP ${answer.status}${
        detail ? `: ${detail.slice(0, 200)}` : ''
      }.`,
    )
  }
  const flowId = answer.headers.get('x-flow-id')
  if (flowId) handlers.onStart(flowId)
  try {
    for await (const text of readLines(answer.body)) {
      const line = JSON.parse(text) as FlowLine
      handlers.onLine(line)
      if (line.kind === 'response') return
    }
  } catch (error) {
    return fail(
      `The emulated provider's answer broke off (${describe(error)}).`,
    )
  }
  fail("The emulated provider's flow ended without a response.")
}

/**
 * Sends an answer to a running flow.
 *
 * @returns Whether the flow took it.
 */
export async function sendIntermediary(
  flowId: string,
  body: IntermediaryRequest,
): Promise<boolean> {
  try {
    const answer = await fetch(
      `/v1/flow/${encodeURIComponent(flowId)}/intermediary`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      },
    )
    return answer.ok
  } catch {
    return false
  }
}

/** A JSON-RPC error response for request `id`. */
export function errorResponse(
  id: Rpc.Response['id'],
  message: string,
  code = internalError,
): Rpc.Response {
  return { jsonrpc: '2.0', id, error: { code, message } }
}

/** Splits a byte stream into its non-empty UTF-8 lines. */
export async function* readLines(
  stream: ReadableStream<Uint8Array>,
): AsyncGenerator<string> {
  const reader = stream.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      buffer += decoder.decode(value, { stream: true })
      let newline = buffer.indexOf('\n')
      while (newline !== -1) {
        const line = buffer.slice(0, newline).trim()
        buffer = buffer.slice(newline + 1)
        if (line) yield line
        newline = buffer.indexOf('\n')
      }
    }
    const rest = (buffer + decoder.decode()).trim()
    if (rest) yield rest
  } finally {
    reader.releaseLock()
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
