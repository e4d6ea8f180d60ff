import '@testing-library/jest-dom/vitest';
import { beforeEach } from 'vitest';
import { resetStores } from '../lib/stores/registry';

// Every test starts from a clean slate: the stores it loads in their first state, at the
// default page.
beforeEach(() => {
  window.location.hash = '';
  resetStores();
});
