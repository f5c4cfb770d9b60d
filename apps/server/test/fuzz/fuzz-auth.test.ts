import { authRoutes } from './routes';
import { fuzzSuite } from './suite';

fuzzSuite('/api/register, /api/login, /api/logout, /api/user', authRoutes);
