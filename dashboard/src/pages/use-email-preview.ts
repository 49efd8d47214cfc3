import type { EditableRegion, OperationBody } from '@gatehouse/client';
import { api } from '@gatehouse/react';
import { useEffect, useRef, useState } from 'react';
import { useDebouncedCallback } from 'use-debounce';

type RenderBody = OperationBody<'renderEmail'>;
type RenderOptions = NonNullable<Parameters<typeof api.useRenderEmail>[0]>;

export type EmailPreview = { source: string; html: string; subject?: string; regions: EditableRegion[] };

/** How long typing must pause before the source is rendered again. */
const renderDelayMillis = 300;

/**
 * The live preview of an email source: `body` is rendered by render-email (with editable markers)
 * once typing pauses; an answer for an older source than the one now typed is dropped.
 */
export function useEmailPreview(request: RenderOptions['request'], source: string, body: RenderBody) {
  const [preview, setPreview] = useState<EmailPreview | null>(null);
  const [renderError, setRenderError] = useState<unknown>(null);
  const [rendering, setRendering] = useState(false);
  const render = api.useRenderEmail({ request });
  const bodyKey = JSON.stringify({ ...body, editable_markers: true });
  const latest = useRef(source);
  latest.current = source;

  const renderSoon = useDebouncedCallback((data: RenderBody, rendered: string) => {
    render.mutate(
      { data },
      {
        onSuccess: (answer) => {
          if (latest.current !== rendered) return;
          // The fields' own regions stay while their source is the one rendered (they keep what is being typed, spaces included).
          setPreview((current) => ({
            source: rendered,
            html: answer.html,
            subject: answer.subject,
            regions: current && current.source === rendered ? current.regions : (answer.editable_regions ?? []),
          }));
          setRenderError(null);
          setRendering(false);
        },
        onError: (error) => {
          if (latest.current !== rendered) return;
          setRenderError(error);
          setRendering(false);
        },
      },
    );
  }, renderDelayMillis);

  useEffect(() => {
    setRendering(true);
    renderSoon(JSON.parse(bodyKey) as RenderBody, latest.current);
  }, [bodyKey, renderSoon]);

  return { preview, setPreview, renderError, rendering };
}
