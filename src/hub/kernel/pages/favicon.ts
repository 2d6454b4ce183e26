/**
 * The family's icon, drawn here by hand (a flame on the accent blue of hub.css): one small SVG
 * every page of the hub and the task manager links from its head, served by both (assets.ts).
 */
export const FAVICON_PATH = '/favicon.svg'

export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
  '<rect width="32" height="32" rx="7" fill="#1d4ed8"/>' +
  '<path d="M16 4c1.5 5 8 7.5 8 15a8 8 0 0 1-16 0c0-4.5 3-6.5 3.5-10 2 1.5 3 3.5 3 6 2.5-2.5 3-6.5 1.5-11z" fill="#fbbf24"/>' +
  '<path d="M16 17c.5 2 3 3 3 6a3 3 0 0 1-6 0c0-2 1.5-3 3-6z" fill="#fff7ed"/>' +
  '</svg>\n'
