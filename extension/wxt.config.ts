import { defineConfig } from 'wxt'

// The Aether browser extension: Chrome/Chromium, Manifest V3 (docs/decisions/030-browser-extension-toolchain.md).
// `npm run build:extension` builds extension/.output/chrome-mv3 (load it unpacked) and zips it.
export default defineConfig({
  srcDir: 'src',
  outDir: '.output',
  // Every module imports what it uses: the code reads the same outside WXT (tests, the server's tsc).
  imports: false,
  manifestVersion: 3,
  manifest: {
    name: 'Aether',
    version: '0.1.0',
    description: 'Record what you do in the browser as an Aether automation.',
    // storage: settings, connection, recording; sidePanel: the panel; tabs and webNavigation: the
    // recorded tab, its frames and how its pages open; scripting: recorders for tabs opened before
    // the extension was installed. All sites: the recorder and the runner work in any page, a
    // self-hosted Aether server may be at any address, and a run's screenshot step
    // (tabs.captureVisibleTab) needs '<all_urls>' itself (http and https patterns do not do).
    permissions: ['storage', 'sidePanel', 'tabs', 'webNavigation', 'scripting'],
    host_permissions: ['<all_urls>'],
    action: { default_title: 'Open Aether' },
  },
  zip: { artifactTemplate: 'aether-extension-{{version}}-{{browser}}.zip' },
  // The server that builds it (PUBLIC_URL, as `npm start` has it) is the one its Settings start with.
  vite: () => ({ define: { __AETHER_SERVER_URL__: JSON.stringify(process.env.PUBLIC_URL ?? '') } }),
})
