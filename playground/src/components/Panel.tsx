import type { ReactNode } from 'react'

/** One panel of the playground: a titled card. */
export type PanelDefinition = {
  /** A stable id, also used in `data-testid="panel-<id>"`. */
  readonly id: string
  readonly title: string
  /** Whether the panel spans the whole row. @default false */
  readonly wide?: boolean | undefined
  readonly render: () => ReactNode
}

/** Renders a panel's card. */
export function Panel(props: { panel: PanelDefinition }) {
  const { panel } = props
  return (
    <section
      className={panel.wide ? 'panel wide' : 'panel'}
      aria-labelledby={`panel-${panel.id}-title`}
      data-testid={`panel-${panel.id}`}
    >
      <h2 id={`panel-${panel.id}-title`}>{panel.title}</h2>
      {panel.render()}
    </section>
  )
}
