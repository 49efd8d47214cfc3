import { defineModule } from '../../../kernel/module.ts';
import { readMetaSettings } from './deployment-info.ts';
import { metaHandlers } from './meta.routes.ts';

/** The API root, the served OpenAPI document, the feature-support and version probes, the deployment's URLs. */
export const metaModule = defineModule({
  name: 'meta',
  settings: readMetaSettings,
  services: (_needs, { publicUrl, settings }) => ({ deployment: { publicUrl, settings } }),
  handlers: ({ deployment }) => metaHandlers(deployment),
});
