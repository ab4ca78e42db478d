import type { Page } from '@playwright/test'

// The automation builder's step list, as the builder specs read and change it.

export const stepList = (page: Page) => page.getByRole('list', { name: 'Steps' })
export const step = (page: Page, n: number) => stepList(page).getByRole('listitem', { name: new RegExp(`^Step ${n}: `) })
export const stepTitles = (page: Page) => stepList(page).getByRole('heading', { level: 3 })

/** Chooses a step type by its label and adds it with 'Add step'. */
export async function addStep(page: Page, type: string) {
  await page.getByLabel('Step type').selectOption({ label: type })
  await page.getByRole('button', { name: 'Add step' }).click()
}
