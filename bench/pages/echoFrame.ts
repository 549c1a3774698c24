/**
 * The echo iframe (the floor): says it is ready, then answers every message
 * of its parent at once with a constant result.
 */
if (window.parent !== window) {
  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return
    const { id } = event.data as { id: number }
    window.parent.postMessage({ id, result: '0x7a69' }, event.origin)
  })
  window.parent.postMessage({ ready: true }, '*')
}
