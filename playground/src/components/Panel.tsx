import type { ReactNode } from 'react'

/**
 * One panel of the playground: a titled card, `data-testid="panel-<id>"`.
 * A wide panel spans the whole row.
 */
export function Panel(props: {
  id: string
  title: string
  wide?: boolean | undefined
  children: ReactNode
}) {
  const { id, title, wide = false, children } = props
  return (
    <section
      className={wide ? 'panel wide' : 'panel'}
      aria-labelledby={`panel-${id}-title`}
      data-testid={`panel-${id}`}
    >
      <h2 id={`panel-${id}-title`}>{title}</h2>
      {children}
    </section>
  )
}
