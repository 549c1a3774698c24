/**
 * Small DOM helpers for the iframe's screens. Text goes in with
 * `textContent` only, never as HTML.
 */

/** What {@link h} sets on an element. */
export type Props = {
  class?: string | undefined
  testid?: string | undefined
  text?: string | undefined
  attrs?: Record<string, string> | undefined
}

/** Creates an element with props and children (nodes or plain text). */
export function h<tag extends keyof HTMLElementTagNameMap>(
  tag: tag,
  props: Props = {},
  children: readonly (Node | string | undefined)[] = [],
): HTMLElementTagNameMap[tag] {
  const element = document.createElement(tag)
  if (props.class) element.className = props.class
  if (props.testid) element.dataset.testid = props.testid
  if (props.text !== undefined) element.textContent = props.text
  for (const [name, value] of Object.entries(props.attrs ?? {}))
    element.setAttribute(name, value)
  for (const child of children)
    if (child !== undefined)
      element.append(typeof child === 'string' ? text(child) : child)
  return element
}

function text(value: string): Text {
  return document.createTextNode(value)
}

/** A button that calls `onClick`. */
export function button(
  label: string,
  testid: string,
  onClick: () => void,
  variant: 'primary' | 'secondary' = 'secondary',
): HTMLButtonElement {
  const element = h('button', {
    class: `button ${variant}`,
    testid,
    text: label,
    attrs: { type: 'button' },
  })
  element.addEventListener('click', onClick)
  return element
}

/** The screen's frame: a titled card, with a close button when given. */
export function card(
  title: string,
  children: readonly (Node | undefined)[],
  onClose?: () => void,
): HTMLElement {
  return h('section', { class: 'card', attrs: { role: 'dialog' } }, [
    h('header', { class: 'card-header' }, [
      h('h1', { testid: 'screen-title', text: title }),
      onClose ? button('×', 'close', onClose) : undefined,
    ]),
    ...children,
  ])
}

/** A paragraph of text. */
export function paragraph(value: string, testid?: string): HTMLElement {
  return h('p', { testid, text: value })
}

/** An error line, when there is one. */
export function errorLine(
  message: string | undefined,
  testid = 'screen-error',
): HTMLElement | undefined {
  if (!message) return undefined
  return h('p', {
    class: 'error',
    testid,
    text: message,
    attrs: { role: 'alert' },
  })
}

/** Options of {@link inputForm}. */
export type InputForm = {
  label: string
  /** `data-testid` of the input; the submit button gets `<prefix>-submit`. */
  testid: string
  submitLabel: string
  onSubmit: (value: string) => void
  type?: 'text' | 'email' | 'tel' | undefined
  /** A one-time code: numeric keyboard and autofill hint. */
  code?: boolean | undefined
  placeholder?: string | undefined
}

/**
 * A labelled input with a submit button (Enter submits too). Empty values
 * are not submitted.
 */
export function inputForm(options: InputForm): HTMLFormElement {
  const { label, testid, submitLabel, onSubmit, type = 'text' } = options
  const prefix = testid.replace(/-input$/, '')
  const input = h('input', {
    testid,
    attrs: {
      type,
      name: prefix,
      autocomplete: options.code ? 'one-time-code' : 'off',
      ...(options.code ? { inputmode: 'numeric' } : {}),
      ...(options.placeholder ? { placeholder: options.placeholder } : {}),
    },
  })
  const form = h('form', { class: 'form' }, [
    h('label', { text: label }, [input]),
    h('button', {
      class: 'button primary',
      testid: `${prefix}-submit`,
      text: submitLabel,
      attrs: { type: 'submit' },
    }),
  ])
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const value = input.value.trim()
    if (value) onSubmit(value)
  })
  queueMicrotask(() => input.focus())
  return form
}

/** A row of buttons. */
export function actions(buttons: readonly (Node | undefined)[]): HTMLElement {
  return h('div', { class: 'actions' }, buttons)
}

/** A labelled value shown as monospace text (addresses, keys, codes). */
export function value(label: string, content: string, testid: string) {
  return h('div', { class: 'value' }, [
    h('span', { class: 'label', text: label }),
    h('code', { testid, text: content }),
  ])
}

/** Reads a string field of untrusted screen data. */
export function str(data: unknown, key: string): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined
  const field = (data as Record<string, unknown>)[key]
  return typeof field === 'string' ? field : undefined
}

/** Formats an integer amount (decimal string) with `decimals` places. */
export function formatUnits(amount: string, decimals: number): string {
  let units: bigint
  try {
    units = BigInt(amount)
  } catch {
    return amount
  }
  const negative = units < 0n
  const digits = (negative ? -units : units)
    .toString()
    .padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '')
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`
}

/** A numbered list of plain-text items. */
export function list(items: readonly unknown[], testid: string): HTMLElement {
  return h(
    'ol',
    { class: 'codes', testid },
    items.map((item) => h('li', { text: String(item) })),
  )
}

/** A "waiting" indicator. */
export function waiting(): HTMLElement {
  return h('div', { class: 'spinner', attrs: { 'aria-hidden': 'true' } })
}
