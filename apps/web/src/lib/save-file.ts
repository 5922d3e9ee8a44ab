/** How long the file's object URL lives: the browser has long started writing the download by then. */
const OBJECT_URL_LIFETIME_MS = 60_000;

/** Hands a file to the browser's downloads, under its name, through a temporary object URL. */
export function saveFile(file: Blob, fileName: string): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), OBJECT_URL_LIFETIME_MS);
}
