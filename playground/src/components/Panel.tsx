import type { ReactNode } from 'react'

/**
 * One panel of the playground: a titled card, `data-testid="panel-<id>"`,
 * with, when given, one sentence saying what it shows. A wide panel spans
 * the whole row of its section's grid.
 */
export function Panel(props: {
  id: string
  title: string
  /** One sentence: what the panel shows. */
  description?: ReactNode | undefined
  wide?: boolean | undefined
  children: ReactNode
}) {
  const { id, title, description, wide = false, children } = props
  return (
    <section
      className={wide ? 'panel wide' : 'panel'}
      aria-labelledby={`panel-${id}-title`}
      data-testid={`panel-${id}`}
    >
      <h3 id={`panel-${id}-title`}>{title}</h3>
      {description && (
        <p className="panel-sentence" data-testid="panel-sentence">
          {description}
        </p>
      )}
      {children}
    </section>
  )
}

/**
 * One section of the page: a heading, the one sentence saying what it
 * shows, and its panels in a grid. Its `id` is the anchor the top bar's
 * navigation jumps to.
 */
export function Section(props: {
  id: string
  title: string
  /** One sentence: what the section shows. */
  description: ReactNode
  children: ReactNode
}) {
  const { id, title, description, children } = props
  return (
    <section
      id={id}
      className="section"
      aria-labelledby={`${id}-title`}
      data-testid={`section-${id}`}
    >
      <header className="section-head">
        <h2 id={`${id}-title`}>{title}</h2>
        <p className="section-sentence" data-testid="section-sentence">
          {description}
        </p>
      </header>
      {children}
    </section>
  )
}

/** The sections of the page, in order, as the top bar lists them. */
export const sections = [
  { id: 'wallet', title: 'Wallet' },
  { id: 'marketplace', title: 'Marketplace' },
  { id: 'starkex', title: 'StarkEx' },
  { id: 'game-wallet', title: 'Game wallet' },
  { id: 'iframe-wallet', title: 'Iframe wallet' },
] as const
