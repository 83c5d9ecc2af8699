import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { createAppServices } from './app/services';
import { registerServiceWorker } from './lib/offlineDay';
import './styles.css';

const services = createAppServices();
registerServiceWorker();
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <App services={services} />
  </StrictMode>,
);
