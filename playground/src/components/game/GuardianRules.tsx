import { useEffect, useState } from 'react'
import { parseEther } from 'viem'
import {
  getGuardianRules,
  putGuardianRules,
  type GuardianRules as Rules,
} from '../../passport/devControls.js'
import { messageOf } from '../../ui/format.js'

/** "Above 0.01 ETH", in wei. */
const threshold = parseEther('0.01').toString()

type Toggle = 'value' | 'typedData' | 'unavailable'

/**
 * The emulated guardian's rules, as toggles: with one on, the next send or
 * signature it covers opens the real confirmation page in the wallet's
 * popup (or its "unavailable" page), where the player approves or rejects.
 */
export function GuardianRules(props: { apiUrl: string }) {
  const { apiUrl } = props
  const [rules, setRules] = useState<Rules>()
  const [problem, setProblem] = useState<string>()
  const [saving, setSaving] = useState(false)

  useEffect(() => {
    let active = true
    getGuardianRules(apiUrl).then(
      (read) => active && setRules(read),
      (error: unknown) => active && setProblem(messageOf(error)),
    )
    return () => {
      active = false
    }
  }, [apiUrl])

  const on: Record<Toggle, boolean> = {
    value: rules?.confirmAboveValue != null,
    typedData: rules?.confirmTypedData === true,
    unavailable: rules?.unavailable === true,
  }

  const toggle = async (which: Toggle, checked: boolean) => {
    if (!rules) return
    const next: Rules = {
      ...rules,
      ...(which === 'value'
        ? { confirmAboveValue: checked ? threshold : null }
        : which === 'typedData'
          ? { confirmTypedData: checked }
          : { unavailable: checked }),
    }
    setSaving(true)
    setProblem(undefined)
    try {
      // A PUT replaces every rule: the others are sent back as read.
      setRules(await putGuardianRules(apiUrl, next))
    } catch (error) {
      setProblem(messageOf(error))
    } finally {
      setSaving(false)
    }
  }

  const box = (which: Toggle, label: string) => (
    <label className="check">
      <input
        type="checkbox"
        checked={on[which]}
        disabled={!rules || saving}
        data-testid={`game-rule-${which}`}
        onChange={(event) => void toggle(which, event.target.checked)}
      />
      {label}
    </label>
  )

  return (
    <div className="stack" data-testid="game-rules" data-saving={saving}>
      {box('value', 'Confirm transactions above 0.01 ETH')}
      {box('typedData', 'Confirm typed data')}
      {box('unavailable', 'Guardian unavailable')}
      {problem && (
        <p className="error" data-testid="game-rules-error">
          {problem}
        </p>
      )}
    </div>
  )
}
