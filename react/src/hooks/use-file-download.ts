import { useState } from 'react';

/**
 * A download of an authenticated answer (an export): a plain link cannot carry the person's token, so the
 * body is fetched, turned into a Blob and saved under `fileName`. `busy` while it runs; `error` when it failed.
 */
export function useFileDownload() {
  const [state, setState] = useState<{ busy: boolean; error: unknown }>({ busy: false, error: null });
  async function download(fetchBody: () => Promise<BlobPart>, fileName: string, mediaType: string): Promise<void> {
    setState({ busy: true, error: null });
    try {
      const body = await fetchBody();
      const url = URL.createObjectURL(new Blob([body], { type: mediaType }));
      const link = document.createElement('a');
      link.href = url;
      link.download = fileName;
      link.click();
      // The browser has read the Blob long before; the URL is released late enough for a slow save dialog.
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setState({ busy: false, error: null });
    } catch (error) {
      setState({ busy: false, error });
    }
  }
  return { ...state, download };
}
