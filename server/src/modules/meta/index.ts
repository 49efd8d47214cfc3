import { defineModule } from '../../kernel/module.ts';
import { metaHandlers } from './meta.routes.ts';

/** The API root, the served OpenAPI document and the feature-support probe. */
export const metaModule = defineModule({
  name: 'meta',
  handlers: () => metaHandlers(),
});
