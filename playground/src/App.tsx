import { ChainPanel } from './components/ChainPanel.js'
import { EmulatorPanel } from './components/EmulatorPanel.js'
import { MagicPanel } from './components/MagicPanel.js'
import { Panel, type PanelDefinition } from './components/Panel.js'
import { PassportPanel } from './components/PassportPanel.js'
import { ProvidersPanel } from './components/ProvidersPanel.js'
import type { Info } from './emulator.js'

/** The playground page: a list of panels. Wallet panels join this list. */
export function App(props: { info: Info }) {
  const panels: readonly PanelDefinition[] = [
    { id: 'chain', title: 'Local chain', render: () => <ChainPanel /> },
    {
      id: 'providers',
      title: 'Wallets announced (EIP-6963)',
      render: () => <ProvidersPanel />,
    },
    {
      id: 'magic',
      title: 'Iframe wallet (magic-sdk protocol)',
      wide: true,
      render: () => <MagicPanel info={props.info} />,
    },
    {
      id: 'passport',
      title: 'Game wallet sign-in (@imtbl/passport protocol)',
      wide: true,
      render: () => <PassportPanel info={props.info} />,
    },
    {
      id: 'emulator',
      title: 'Emulator',
      wide: true,
      render: () => <EmulatorPanel info={props.info} />,
    },
  ]
  return (
    <main className="page">
      <h1>embedded-wallets playground</h1>
      <div className="panels">
        {panels.map((panel) => (
          <Panel key={panel.id} panel={panel} />
        ))}
      </div>
    </main>
  )
}
