import { loopRoutes } from './routes';
import { fuzzSuite } from './suite';

fuzzSuite('/api/loops', loopRoutes);
