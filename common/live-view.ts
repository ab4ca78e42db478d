/**
 * One picture of a cloud run's live view (docs/decisions/058), as GET /api/runs/{id}/live sends it:
 * `image` is a base64 JPEG of the run's browser, or null while the live view is paused (a vault
 * value is being typed or is on the page); width and height are the page's size in CSS pixels.
 */
export interface LiveFrame {
  seq: number
  image: string | null
  width: number
  height: number
}
