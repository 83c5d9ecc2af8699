import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// The API (Fastify) listens on :8000 and serves the built SPA itself; in development Vite serves
// the SPA and forwards /api there, so the browser still sees one origin.
const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:8000';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    reportCompressedSize: true,
  },
});
