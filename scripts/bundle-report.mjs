// Which packages fill the chunks a start loads: node scripts/bundle-report.mjs <metafile> <chunk>...
import { readFileSync } from 'node:fs';

const [meta, ...chunks] = process.argv.slice(2);
const m = JSON.parse(readFileSync(meta, 'utf8'));
for (const c of chunks) {
  const o = m.outputs[c];
  if (!o) {
    console.log('no', c);
    continue;
  }
  const by = {};
  for (const [inp, v] of Object.entries(o.inputs)) {
    const p = inp.includes('node_modules/') ? inp.split('node_modules/').pop() : inp;
    const parts = p.split('/');
    const k = parts.slice(0, 2).join('/');
    by[k] = (by[k] || 0) + v.bytesInOutput;
  }
  console.log(
    c,
    o.bytes,
    Object.entries(by)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 10)
      .map(([k, v]) => `${k} ${v}`)
      .join(', '),
  );
}
