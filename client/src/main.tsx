// Client entry: the experimenter dashboard under /dashboard (loaded on demand), the participant app everywhere else.
import { StrictMode, Suspense, lazy } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import './styles.css';

const isDashboard = /^\/dashboard(\/|$)/.test(location.pathname);

// import.meta.glob finds the dashboard module only if it exists, so the participant build works without it; the
// dashboard stays a separate chunk that participants never download.
const dashboardModules = import.meta.glob<{ default: React.ComponentType }>('./dashboard/Dashboard.tsx');
const loadDashboard = dashboardModules['./dashboard/Dashboard.tsx'];
const Dashboard = lazy(loadDashboard ?? (async () => ({ default: () => <p className="page-body">dashboard not built</p> })));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    {isDashboard ? (
      <Suspense fallback={<p className="page-body">Loading the dashboard…</p>}>
        <Dashboard />
      </Suspense>
    ) : (
      <App />
    )}
  </StrictMode>,
);
