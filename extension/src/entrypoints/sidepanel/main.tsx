import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { SidePanel } from '../../sidepanel/side-panel.tsx'
import '../../sidepanel/side-panel.css'

const root = document.getElementById('root')
if (root)
  createRoot(root).render(
    <StrictMode>
      <SidePanel />
    </StrictMode>,
  )
