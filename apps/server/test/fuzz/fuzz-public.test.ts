import { publicRoutes } from './routes';
import { fuzzSuite } from './suite';

fuzzSuite('invites, media, newsletter pages, simulator, config', publicRoutes);
