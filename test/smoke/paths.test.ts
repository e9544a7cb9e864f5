import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_DIR } from '../../models/paths';

test('the data snapshot is found from compiled code', () => {
  expect(existsSync(join(DATA_DIR, 'listings', 'uybor_apartments_2025.csv'))).toBe(true);
});
