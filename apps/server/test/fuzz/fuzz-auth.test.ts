import { authRoutes } from './routes';
import { fuzzSuite } from './suite';

fuzzSuite('/api/register (and its code), /api/password-reset, /api/login, /api/logout, /api/user', authRoutes);
