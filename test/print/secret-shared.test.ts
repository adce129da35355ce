// The print signing secret in shared mode: one installation row, created by whichever node starts first, read
// back identical by every node (so any node verifies any node's result URLs), even when nodes start together.
import t from 'tap';
import { Pg } from '../../src/shared/pg.js';
import { migrate } from '../../src/shared/migrate.js';
import { sharedPrintSecret } from '../../src/print/secret-shared.js';
import { enginesMissing, sharedPostgres } from '../helpers/engines.js';

t.test('one 32-byte secret for the whole fleet', { skip: enginesMissing() }, async (t) => {
  const url = await (await sharedPostgres()).database();
  const nodes = await Promise.all([0, 1, 2].map(() => Pg.connect(url, 5000)));
  t.teardown(() => Promise.all(nodes.map((n) => n.close())));
  await migrate(nodes[0]!);
  const secrets = await Promise.all(nodes.map((n) => sharedPrintSecret(n)));
  t.equal(secrets[0]!.length, 32);
  t.equal(secrets[1]!.toString('hex'), secrets[0]!.toString('hex'));
  t.equal(secrets[2]!.toString('hex'), secrets[0]!.toString('hex'));
  const again = await sharedPrintSecret(nodes[1]!);
  t.equal(again.toString('hex'), secrets[0]!.toString('hex'), 'a later start reads the same row');
  const rows = await nodes[0]!.query<{ n: string }>("select count(*)::text as n from installation where name = 'print-image-key-secret'");
  t.equal(rows.rows[0]!.n, '1');
});
