import { useState } from 'react'
import { useFailures } from './errors.js'

/**
 * A long value (address, hash, signature, token) in one short line:
 * `0x1234…abcd` with a button that copies the whole value and one that
 * expands it in place, wrapped to the width it is given. The whole value is
 * always the element's `title` and `data-value`, for people and tests alike.
 */
export function LongValue(props: {
  value: string
  /** Characters kept at each end when shortened. */
  keep?: number | undefined
  testId?: string | undefined
  /** The copy button's `data-testid`. */
  copyTestId?: string | undefined
  /** Whether an "All" button expands it in place. @default true */
  expandable?: boolean | undefined
}) {
  const { value, keep = 6, testId, copyTestId, expandable = true } = props
  const [open, setOpen] = useState(false)
  const [copied, setCopied] = useState(false)
  const { report } = useFailures('wallet')
  const long = value.length > keep * 2 + 4
  const short = long
    ? `${value.slice(0, keep)}…${value.slice(-Math.max(4, keep - 2))}`
    : value
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value)
      setCopied(true)
      setTimeout(() => setCopied(false), 1_500)
    } catch (error) {
      report('Copying', error)
    }
  }
  return (
    <span className={open ? 'long-value open' : 'long-value'}>
      <code title={value} data-value={value} data-testid={testId}>
        {open ? value : short}
      </code>
      <button
        type="button"
        className="link small"
        aria-label="Copy"
        data-testid={copyTestId}
        onClick={copy}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
      {long && expandable && (
        <button
          type="button"
          className="link small"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Less' : 'All'}
        </button>
      )}
    </span>
  )
}
