import type { SimulatorPhone } from '@loop/shared/simulator';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { simulatorScopeFor, type SimulatorViewer } from '../simulator-access';
import { listSimulatorPhones } from './list-simulator-phones';

/** A phone the viewer may play, with the Loops they see on it; a 404 for any other phone, known or not. */
export async function getSimulatorPhone(
  db: Db,
  viewer: SimulatorViewer,
  phoneNumber: string,
): Promise<{ phone: SimulatorPhone; scope: number[] | null }> {
  const [phone] = await listSimulatorPhones(db, viewer, { phoneNumber });
  if (!phone) throw new AppError('not_found', 'No member of your Loops has this phone number.');
  return { phone, scope: await simulatorScopeFor(db, viewer, phone.userId) };
}
