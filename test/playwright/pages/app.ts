import type { Info } from '../../../src/emulator/index.js'

/**
 * What every test page shares: the emulator's JSON line (set on each page
 * of the test's browser context by the suite, see ../fixtures.ts), a button
 * per action, and one output and one error line the tests read.
 */

declare global {
  /** The worker's emulator, set before the page's scripts run. */
  var emulatorInfo: Info | undefined
}

/** The emulator's JSON line; throws when the suite did not set it. */
export function readEmulator(): Info {
  const info = globalThis.emulatorInfo
  if (!info) throw new Error('No emulator: open this page from the suite.')
  return info
}

/** Which SDK the page runs: `?sdk=published` or ours. */
export const sdk: 'ours' | 'published' =
  new URLSearchParams(location.search).get('sdk') === 'published'
    ? 'published'
    : 'ours'

const output = element('p', 'output')
const error = element('p', 'error')

/** Shows `value` as the page's output (JSON, strings as they are). */
export function show(value: unknown): void {
  output.textContent =
    typeof value === 'string' ? value : JSON.stringify(value ?? null)
  error.textContent = ''
}

/** Shows an error's message (and its code, when it has one). */
export function fail(reason: unknown): void {
  const { message, code } = (reason ?? {}) as {
    message?: unknown
    code?: unknown
  }
  error.textContent = `${code === undefined ? '' : `${String(code)}: `}${String(message ?? reason)}`
}

/** A text field labelled `label` (data-testid `testId`). */
export function field(testId: string, label: string): HTMLInputElement {
  const wrapper = document.createElement('label')
  wrapper.textContent = `${label} `
  const input = document.createElement('input')
  input.dataset.testid = testId
  wrapper.append(input)
  document.body.prepend(wrapper)
  return input
}

/**
 * A button `label` (data-testid `testId`) that runs `action` from the
 * click, so the SDK's popups open from a user gesture, and shows its
 * result or its error.
 */
export function action(
  testId: string,
  label: string,
  run: () => unknown,
): void {
  const button = document.createElement('button')
  button.type = 'button'
  button.textContent = label
  button.dataset.testid = testId
  button.addEventListener('click', () => {
    output.textContent = ''
    error.textContent = ''
    Promise.resolve().then(run).then(show, fail)
  })
  output.before(button)
}

function element(tag: string, testId: string): HTMLElement {
  const created = document.createElement(tag)
  created.dataset.testid = testId
  document.body.append(created)
  return created
}
