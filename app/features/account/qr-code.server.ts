import { renderSVG } from 'uqr'

/** A QR code of the otpauth:// address as an SVG data URI (img-src allows data:, docs/decisions/007). */
export function qrCodeDataUri(text: string): string {
  return `data:image/svg+xml;base64,${Buffer.from(renderSVG(text, { border: 2 })).toString('base64')}`
}
