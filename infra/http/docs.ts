import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import express, { type Router } from 'express';

const require = createRequire(import.meta.url);
const swaggerUiDir = dirname(require.resolve('swagger-ui-dist/package.json'));

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Music library service – API</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="docs"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

// validatorUrl: null keeps Swagger UI from sending the document to its online validator (offline page).
const init = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#docs', deepLinking: true, validatorUrl: null });`;

/** `/docs`: the OpenAPI document rendered by Swagger UI, served from the installed package (no CDN). */
export function docsRouter(): Router {
  const router = express.Router();
  router.get('/docs', (_req, res) => {
    res.type('html').send(page);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(init);
  });
  router.use('/docs/assets', express.static(swaggerUiDir, { index: false, maxAge: '1d' }));
  return router;
}
