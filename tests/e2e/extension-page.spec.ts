import { expect, gotoHydrated, signInAsMember, test } from './fixtures.ts'

// Without a store listing (EXTENSION_URL unset), "Get the browser extension" leads to our own page,
// which offers the extension this build made, to load unpacked, with the steps.
test('the dashboard leads to the extension page, which serves the built extension and says how to install it', async ({
  page,
  request,
  baseURL,
}) => {
  await signInAsMember(page)
  const link = page.getByRole('link', { name: 'Get the browser extension' })
  await expect(link).toHaveAttribute('href', '/extension')
  await gotoHydrated(page, '/extension')
  await expect(page.getByRole('heading', { name: 'The Aether browser extension', level: 1 })).toBeVisible()
  await expect(page.getByText('Load unpacked')).toBeVisible()
  await expect(page.getByText(baseURL ?? '', { exact: true }).first()).toBeVisible()
  const download = page.getByRole('link', { name: /Download the extension \(\.zip, \d+ KB\)/ })
  await expect(download).toHaveAttribute('href', '/downloads/aether-extension.zip')

  const zip = await request.get('/downloads/aether-extension.zip')
  expect(zip.status()).toBe(200)
  expect(zip.headers()['content-type']).toBe('application/zip')
  const body = await zip.body()
  // A zip archive that holds the extension's manifest.
  expect(body.subarray(0, 2).toString()).toBe('PK')
  expect(body.includes(Buffer.from('manifest.json'))).toBe(true)
})

test('the extension page shows how to install the local runner from this site, which serves its package', async ({
  page,
  request,
  baseURL,
}) => {
  await signInAsMember(page)
  await gotoHydrated(page, '/extension')
  await expect(page.getByText(`npm install --global ${baseURL}/downloads/aether-runner.tgz`)).toBeVisible()
  // Its own sign-ins: a profile on the member's machine.
  await expect(page.getByText('aether-runner sign-in https://your-site --profile ~/.aether/work')).toBeVisible()
  const tarball = await request.get('/downloads/aether-runner.tgz')
  expect(tarball.status()).toBe(200)
  const body = await tarball.body()
  // A gzip archive: npm installs it as the package aether-runner.
  expect([...body.subarray(0, 2)]).toEqual([0x1f, 0x8b])
})

test('the API docs lead to the TypeScript SDK this site serves, built from its own routes', async ({ page, request }) => {
  await page.goto('/api/docs')
  const link = page.getByRole('link', { name: 'aether-sdk.tgz' })
  await expect(link).toHaveAttribute('href', '/downloads/aether-sdk.tgz')
  const tarball = await request.get('/downloads/aether-sdk.tgz')
  expect(tarball.status()).toBe(200)
  const body = await tarball.body()
  // A gzip archive: npm installs it as the package @aether/sdk.
  expect([...body.subarray(0, 2)]).toEqual([0x1f, 0x8b])
})
