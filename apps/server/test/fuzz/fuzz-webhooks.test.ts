import { fuzzSuite } from './suite';
import { TWILIO_ENV, webhookRoutes } from './webhooks';

fuzzSuite('Twilio webhooks (unsigned, forged and signed garbage)', webhookRoutes, TWILIO_ENV);
