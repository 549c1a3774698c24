/**
 * The floor: a bare postMessage round trip to a cross-origin iframe that
 * echoes each message back (bench/pages/echoFrame.ts), with no SDK around
 * it. Requests are told apart by a numeric id, as the SDKs' are.
 */
import { install } from './harness.js'

install(({ endpoint }) => {
  const origin = new URL(endpoint).origin
  const waiting = new Map<number, (value: unknown) => void>()
  let nextId = 0
  let frame: Window | null = null
  const ready = new Promise<void>((resolve) => {
    window.addEventListener('message', (event) => {
      if (event.origin !== origin || event.source !== frame) return
      const data = event.data as { id?: number; ready?: true; result?: unknown }
      if (data.ready) resolve()
      else if (typeof data.id === 'number') {
        waiting.get(data.id)?.(data.result)
        waiting.delete(data.id)
      }
    })
  })
  const iframe = document.createElement('iframe')
  iframe.src = `${origin}/echo`
  iframe.style.display = 'none'
  document.body.appendChild(iframe)
  frame = iframe.contentWindow
  return {
    ready: () => ready,
    request() {
      const id = nextId++
      return new Promise((resolve) => {
        waiting.set(id, resolve)
        frame?.postMessage({ id, method: 'eth_chainId' }, origin)
      })
    },
  }
})
