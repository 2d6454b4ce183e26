/** Hands a file the script holds to the browser as a download. */
export function saveFile(contents: Blob, fileName: string): void {
  const link = document.createElement('a')
  link.href = URL.createObjectURL(contents)
  link.download = fileName
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000)
}
