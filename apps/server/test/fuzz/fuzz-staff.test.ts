import { adminRoutes, newsletterRoutes } from './routes';
import { fuzzSuite } from './suite';

fuzzSuite('/api/admin and newsletters', () => [...adminRoutes(), ...newsletterRoutes()]);
