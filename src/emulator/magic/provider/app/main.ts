/**
 * The emulated provider's iframe app (`/send?params=…`). It tells the host
 * page it is ready, then forwards each JSON-RPC request to the backend as a
 * flow and relays the flow's events, overlay changes and final response to
 * the host; it renders the flow's screens itself.
 *
 * @packageDocumentation
 */
import type * as Rpc from '../../../../core/Rpc.js'
import * as Messages from '../../../../magic/wire/messages.js'
import { methods } from '../../../../magic/wire/methods.js'
import type { FlowLine } from '../protocol.js'
import { runFlow, sendIntermediary } from './backend.js'
import { card, paragraph } from './dom.js'
import { type Host, openHost } from './host.js'
import { hostOrigin, readParams } from './params.js'
import { createScreens, type Screens } from './screens.js'

/**
 * Starts the app in `window`: decodes the params, opens the channel to the
 * parent and posts `MAGIC_OVERLAY_READY`. With unreadable params it shows
 * an error and talks to no one.
 */
export function start(window: Window): void {
  const root = window.document.getElementById('root') ?? window.document.body
  const screens = createScreens(root)
  const encodedParams = readParams(window.location.search)
  const origin = hostOrigin(encodedParams)
  if (encodedParams === undefined || origin === undefined) {
    root.replaceChildren(
      card('Cannot start', [
        paragraph(
          'The iframe parameters are missing or unreadable, or name no page origin.',
          'params-error',
        ),
      ]),
    )
    return
  }
  const flows = new Map<Rpc.Request['id'], string>()
  const host: Host = openHost({
    window,
    origin,
    encodedParams,
    onMessage({ type, data }) {
      if (type === Messages.outgoing.ping)
        return host.post(Messages.incoming.pong)
      if (type !== Messages.outgoing.request) return
      const payload = data.payload
      for (const request of Array.isArray(payload) ? payload : [payload]) {
        if (!isRequest(request)) continue
        if (request.method === methods.intermediaryEvent)
          void answerFlow(host, flows, request)
        else
          void startFlow({ host, screens, flows, encodedParams, request, data })
      }
    },
  })
  host.post(Messages.incoming.overlayReady)
}

/** Forwards a request to the backend and relays its flow to the host. */
async function startFlow(options: {
  host: Host
  screens: Screens
  flows: Map<Rpc.Request['id'], string>
  encodedParams: string
  request: Rpc.Request
  data: Record<string, unknown>
}): Promise<void> {
  const { host, screens, flows, encodedParams, request, data } = options
  let flowId = ''
  let overlayShown = false
  const ctx = {
    answer(eventType: string, args?: unknown) {
      screens.working(flowId)
      void sendIntermediary(flowId, { eventType, args }).then((taken) => {
        if (!taken) screens.end(flowId)
      })
    },
  }
  const onLine = (line: FlowLine) => {
    switch (line.kind) {
      case 'event':
        return host.post(Messages.incoming.event, {
          response: {
            id: request.id,
            result: { event: line.event, params: line.params ?? [] },
          },
        })
      case 'overlay':
        overlayShown = line.show
        return host.post(
          line.show
            ? Messages.incoming.showOverlay
            : Messages.incoming.hideOverlay,
        )
      case 'screen':
        return screens.show(flowId, line.screen, line.data, ctx)
      case 'response': {
        flows.delete(request.id)
        screens.end(flowId)
        if (overlayShown) {
          overlayShown = false
          host.post(Messages.incoming.hideOverlay)
        }
        const { response, rt, deviceShare } = line
        return host.post(Messages.incoming.response, {
          response: { ...response, id: response.id ?? request.id },
          ...(typeof rt === 'string' ? { rt } : {}),
          ...(typeof deviceShare === 'string' ? { deviceShare } : {}),
        })
      }
    }
  }
  await runFlow(
    {
      params: encodedParams,
      request,
      ...pickString(data, 'jwt'),
      ...pickString(data, 'rt'),
      ...pickString(data, 'deviceShare'),
    },
    {
      onStart(id) {
        flowId = id
        flows.set(request.id, id)
      },
      onLine,
    },
  )
}

/**
 * Sends a host's `magic_intermediary_event` to the flow of its `payloadId`.
 * Answers `true` when the flow took it, `false` when there is no such flow
 * (never an error: the client does not wait for this answer).
 */
async function answerFlow(
  host: Host,
  flows: Map<Rpc.Request['id'], string>,
  request: Rpc.Request,
): Promise<void> {
  const [event] = Array.isArray(request.params) ? request.params : []
  const { payloadId, eventType, args } = (event ??
    {}) as Partial<Messages.IntermediaryEvent>
  const flowId = payloadId === undefined ? undefined : flowOf(flows, payloadId)
  const taken =
    flowId !== undefined && typeof eventType === 'string'
      ? await sendIntermediary(flowId, { eventType, args })
      : false
  host.post(Messages.incoming.response, {
    response: { jsonrpc: '2.0', id: request.id, result: taken },
  })
}

/** The flow of request `id` (the client may send it as number or string). */
function flowOf(
  flows: Map<Rpc.Request['id'], string>,
  id: number | string,
): string | undefined {
  return flows.get(id as number) ?? flows.get(Number(id))
}

function isRequest(value: unknown): value is Rpc.Request {
  if (typeof value !== 'object' || value === null) return false
  const { id, method } = value as Partial<Rpc.Request>
  return (
    typeof method === 'string' &&
    (typeof id === 'number' || typeof id === 'string')
  )
}

function pickString<key extends string>(
  data: Record<string, unknown>,
  key: key,
): { [k in key]?: string } {
  const field = data[key]
  return typeof field === 'string' && field
    ? ({ [key]: field } as { [k in key]: string })
    : {}
}

if (typeof window !== 'undefined' && typeof document !== 'undefined')
  start(window)
